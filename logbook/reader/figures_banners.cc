// Reader stage figures: a printout in sections under banners
// (redis-benchmark's `====== SET ======`).
#include "logbook/reader/figures_banners.h"

#include <nlohmann/json.hpp>

#include "logbook/numbers.h"
#include "logbook/doc/parse_logbook.h"
#include "logbook/reader/data_words.h"
#include "logbook/reader/figures_output_words.h"

namespace moelog::logbook::reader {
namespace {

struct BannerWords {
  char mark = 0;
  size_t min_marks = 0, max_words = 0;
};

const BannerWords& Banner() {
  static const BannerWords w = [] {
    BannerWords out;
    const nlohmann::json& j = ReaderDataJson("data/reader/bench_printouts.json");
    if (!j.is_object() || !j.contains("section_banners") || !j["section_banners"].is_object()) return out;
    const auto& b = j["section_banners"];
    const std::string mark = b.value("mark", "");
    out.mark = mark.size() == 1 ? mark[0] : 0;
    out.min_marks = b.value("min_marks", 0u), out.max_words = b.value("max_words", 0u);
    return out;
  }();
  return w;
}

// `73800.74 requests per second` (or after `label:`): the number and the
// unit it is a rate in (`requests/s`); false for any other line.
bool RateLine(const std::string& text, std::string* num, std::string* unit) {
  static const std::set<std::string> per = DataWords("data/reader/bench_printouts.json", "labeled_rate_words");
  const size_t colon = text.find(": ");
  const std::vector<std::string> words = Words(colon == std::string::npos ? text : text.substr(colon + 2));
  if (words.size() < 3 || !ParseNumber(words[0])) return false;
  std::string phrase;
  for (size_t k = 2; k < words.size(); ++k) phrase.append(k > 2 ? " " : "").append(Lower(words[k]));
  UnitInfo info{};
  if (!per.count(phrase) || !OutputUnit(words[1] + "/s", "", &info)) return false;
  *num = words[0], *unit = words[1] + "/s";
  return true;
}

}  // namespace

bool SectionBanner(std::string_view line, std::string* name) {
  const BannerWords& w = Banner();
  const std::string t = parse_detail::Trim(line);
  if (w.mark == 0 || t.size() < 2 * w.min_marks + 1) return false;
  size_t lead = 0, trail = 0;
  while (lead < t.size() && t[lead] == w.mark) ++lead;
  while (trail < t.size() - lead && t[t.size() - 1 - trail] == w.mark) ++trail;
  if (lead < w.min_marks || trail < w.min_marks) return false;
  const std::string inner = parse_detail::Trim(t.substr(lead, t.size() - lead - trail));
  const size_t words = Words(inner).size();
  if (words == 0 || words > w.max_words) return false;
  *name = inner;
  return true;
}

size_t BannerSection(const std::vector<PrintedLine>& lines, size_t i, const Config& context, const EntryCtx& x,
                     std::vector<RecordedFigure>* out, std::set<int>* read) {
  std::string name;
  if (!SectionBanner(lines[i].text, &name)) return 0;
  size_t j = i + 1, rate = 0;
  std::string num, unit, other;
  for (; j < lines.size() && !SectionBanner(lines[j].text, &other); ++j)
    if (rate == 0 && RateLine(lines[j].text, &num, &unit)) rate = j;
  if (rate == 0) return 0;
  Config cfg = context;
  cfg["op"] = name;
  UnitInfo info{};
  OutputUnit(unit, "", &info);
  RecordedFigure f{NewRecorded(x, cfg, lines[rate].line), lines[rate].line, lines[rate].text};
  const double v = ParseNumber(num).value_or(0);
  f.run.metrics[info.metric] = v * info.factor, f.run.units[info.metric] = unit, f.run.decimals[info.metric] = WrittenDecimals(num);
  if (out->size() <= kMaxFiguresPerEntry) out->push_back(std::move(f));
  for (size_t k = i; k < j; ++k) read->insert(lines[k].line);
  return j - i;
}

}  // namespace moelog::logbook::reader
