// The shell's `time` printed under a command (the figures stage): bash's and
// zsh's `real 0m1.234s` / `user` / `sys`, `time -p`'s bare seconds, fish's
// `Executed in 184.93 secs` with its `usr time` and `sys time` lines (their
// first column is the command's; fish's own and the external columns are no
// figures). One run a printout, on its wall line: the wall time as the run's
// time, the user and system times beside it. The leads are data
// (bench_printouts.json "shell_time").
#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "logbook/reader/internal.h"
#include "logbook/reader/data_words.h"
#include "logbook/reader/vocabulary.h"
#include "logbook/text.h"

namespace moelog::logbook::reader {

namespace {

// Each lead (lower case, longest first) and the metric it gives ("" for a wall lead).
const std::vector<std::pair<std::string, std::string>>& TimeLeads() {
  static const std::vector<std::pair<std::string, std::string>> leads = [] {
    std::vector<std::pair<std::string, std::string>> out;
    const nlohmann::json& j = ReaderDataJson("data/reader/bench_printouts.json");
    if (!j.is_object() || !j.contains("shell_time") || !j["shell_time"].is_object()) return out;
    for (const auto& [metric, words] : j["shell_time"].items())
      if (words.is_array())
        for (const auto& w : words)
          if (w.is_string()) out.emplace_back(w.get<std::string>(), metric == "wall" ? "" : metric);
    std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
    return out;
  }();
  return leads;
}

// The seconds a `time` value states, its unit and digits as written:
// "1m2.500s" (parts; "1m2,500s" under a comma locale), "184.93 secs",
// "20.21 mins", "0.5s", or a bare number alone on its line (`time -p`).
struct TimeRead {
  double seconds = 0;
  std::string unit = "s";
  int decimals = 0;
};

// "1m34,617s" as "1m34.617s": `time` under a locale whose decimal mark is a
// comma. Only in the minutes-and-seconds form, where a comma can be nothing else.
std::string DecimalPoint(std::string rest) {
  size_t i = 0;
  auto digits = [&] {
    const size_t from = i;
    while (i < rest.size() && std::isdigit(static_cast<unsigned char>(rest[i]))) ++i;
    return i > from;
  };
  if (!digits() || i >= rest.size() || rest[i] != 'm') return rest;
  ++i;
  if (!digits() || i >= rest.size() || rest[i] != ',') return rest;
  const size_t comma = i++;
  if (digits() && i < rest.size() && rest[i] == 's') rest[comma] = '.';
  return rest;
}

bool TimeValue(const std::string& written, TimeRead* t) {
  const std::string rest = DecimalPoint(written);
  size_t j = 0;
  const std::string num = DigitsAt(rest, &j);
  const auto v = num.empty() ? std::nullopt : ParseNumber(num);
  if (!v) return false;
  if (PartsDuration d; DurationInParts(rest, 0, &d) && d.first_unit >= 60)
    return t->seconds = d.seconds, t->decimals = d.decimals, true;
  t->decimals = WrittenDecimals(num);
  if (j == rest.size()) return t->seconds = *v, true;
  while (j < rest.size() && rest[j] == ' ') ++j;
  UnitInfo info{};
  if (!UnitOf(UnitToken(rest, j), &info) || (info.metric != "time_s" && info.metric != "wall_time_s")) return false;
  t->seconds = *v * info.factor, t->unit = UnitToken(rest, j);
  return true;
}

// A printed `time` line: its metric ("" for the wall time) and seconds.
bool TimeLine(const std::string& raw, std::string* metric, TimeRead* t) {
  std::string line = parse_detail::Trim(raw);
  std::replace(line.begin(), line.end(), '\t', ' ');
  const std::string lower = Lower(line);
  for (const auto& [lead, m] : TimeLeads()) {
    if (lower.rfind(lead, 0) != 0 || lower.size() <= lead.size() || lower[lead.size()] != ' ') continue;
    *metric = m;
    return TimeValue(parse_detail::Trim(line.substr(lead.size())), t);
  }
  return false;
}

void Keep(const TimeRead& t, const std::string& metric, StoredRun* run) {
  run->metrics[metric] = t.seconds;
  run->units.emplace(metric, t.unit);
  run->decimals[metric] = t.decimals;
}

}  // namespace

void ShellTimeLines(const std::string& text, int first_line, const Config& context, const EntryCtx& x,
                    std::vector<RecordedFigure>* out, std::set<int>* read) {
  std::stringstream ss(text);
  size_t open = out->size() + 1;  // the printout whose wall line came last (none yet)
  int n = 0, since = 0;
  for (std::string line; std::getline(ss, line) && out->size() <= kMaxFiguresPerEntry; ++n, ++since) {
    std::string metric;
    TimeRead t;
    if (!TimeLine(line, &metric, &t)) continue;
    const int at = first_line + 1 + n;
    if (metric.empty()) {
      StoredRun run = NewRecorded(x, context, at);
      Keep(t, "time_s", &run);
      out->push_back({std::move(run), at, parse_detail::Trim(line)});
      open = out->size() - 1, since = 0;
    } else if (open < out->size() && since <= 3 && !(*out)[open].run.metrics.count(metric)) {
      Keep(t, metric, &(*out)[open].run);
    } else {
      continue;
    }
    read->insert(at);
  }
}

}  // namespace moelog::logbook::reader
