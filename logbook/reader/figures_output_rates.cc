// Reader stage figures, program output: a measurement printed with its
// spread, then, after an arrow, the rate it makes (`Mean: 4.803 ± 0.013 ms
// → 550.8 TFLOPS`): one row, the measurement in its unit, the spread its
// std, the rate beside it. An arrow between two figures of one metric
// (`1.9 ms -> 1.5 ms`) is a change, not this. The arrows and spread marks
// are data: data/reader/output.json rate_arrows, spread_marks. Also a
// printed line whose lead figure has an aside of other metrics in
// parentheses, or which settings name (AsideLine, figures_output_read.h).
#include "logbook/reader/figures_output_read.h"
#include "logbook/reader/figures_output_words.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook::reader::output_read {
namespace {

// A number and its unit at toks[k] (glued or the next word): the figure;
// how many words it takes (0: none there, or a derived unit).
size_t FigureAt(const std::vector<std::string>& toks, size_t k, Fig* fig) {
  std::string num, glued;
  bool approx = false;
  if (k >= toks.size() || !NumberToken(toks[k], &num, &glued, &approx)) return 0;
  const std::string unit = UnitAfter(toks, k, glued, "");
  UnitInfo info{};
  if (unit.empty() || !OutputUnit(unit, "", &info) || info.derived) return 0;
  *fig = Fig{info.metric, info, unit, num, approx};
  return glued.empty() ? 2 : 1;
}

// "4.803 ± 0.013 ms" (the spread's unit the measurement's) or "4.803 ms":
// the measurement, and its spread when written; false for anything else.
bool Measurement(const std::vector<std::string>& toks, Fig* value, Fig* spread, bool* has_spread) {
  *has_spread = toks.size() >= 3 && OutputVocabulary().spread_marks.count(toks[1]) > 0;
  if (!*has_spread) return FigureAt(toks, 0, value) == toks.size();
  std::string num, glued;
  bool approx = false;
  if (!NumberToken(toks[0], &num, &glued, &approx) || !glued.empty() || FigureAt(toks, 2, spread) + 2 != toks.size()) return false;
  *value = *spread;
  std::get<3>(*value) = num, std::get<4>(*value) = approx;
  std::get<0>(*spread) = "std_" + std::get<0>(*spread);
  return true;
}

}  // namespace

bool ArrowRateLine(OutputRead& r, const std::string& t, int line) {
  for (const auto& arrow : OutputVocabulary().rate_arrows) {
    const size_t at = t.find(" " + arrow + " ");
    if (at == std::string::npos) continue;
    std::string left = t.substr(0, at), name;
    if (const size_t colon = left.find(": "); colon != std::string::npos)
      name = parse_detail::Trim(left.substr(0, colon)), left = left.substr(colon + 2);
    Fig value, spread, rate;
    bool has_spread = false;
    const auto right = SpaceWords(t.substr(at + arrow.size() + 2));
    if (!Measurement(SpaceWords(left), &value, &spread, &has_spread) || FigureAt(right, 0, &rate) != right.size() ||
        std::get<0>(rate) == std::get<0>(value))
      return false;  // one metric on both sides: a change
    Config cfg = LineConfig(r);
    if (!name.empty() && !StatisticWord(Lower(name)) && name.size() <= 40) cfg["benchmark"] = name;
    std::vector<Fig> figs = {value, rate};
    if (has_spread) figs.push_back(spread);
    KeepFigure(r, line, t, cfg, figs);
    return true;
  }
  return false;
}

void AsideFigures(const std::vector<std::string>& toks, std::vector<Fig>* figs) {
  std::string aside;
  size_t k = 1;
  while (k < toks.size() && toks[k].front() != '(') ++k;
  for (; k < toks.size() && (aside.empty() || aside.back() != ')'); ++k) aside += (aside.empty() ? "" : " ") + toks[k];
  if (aside.size() < 3 || aside.front() != '(' || aside.back() != ')') return;
  std::stringstream items(aside.substr(1, aside.size() - 2));
  for (std::string item; std::getline(items, item, ',');) {
    const auto words = SpaceWords(item);
    std::string num, glued;
    bool approx = false;
    if (words.empty() || !NumberToken(words[0], &num, &glued, &approx)) continue;
    const std::string unit = glued.empty() ? (words.size() > 1 ? words[1] : "") : glued;
    UnitInfo info{};
    if (unit.empty() || !OutputUnit(unit, "", &info)) continue;
    if (std::any_of(figs->begin(), figs->end(), [&](const Fig& f) { return std::get<0>(f) == info.metric; })) continue;
    figs->push_back(Fig{info.metric, info, unit, num, approx});
  }
}

bool AsideLine(OutputRead& r, const std::string& t, int line) {
  const size_t colon = t.find(':');
  if (colon == std::string::npos || colon == 0 || colon > 40) return false;
  const std::string name = parse_detail::Trim(t.substr(0, colon));
  const auto toks = SpaceWords(t.substr(colon + 1));
  if (name.empty() || !std::any_of(name.begin(), name.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); }) ||
      toks.size() < 2)
    return false;
  Fig lead;
  const size_t used = FigureAt(toks, 0, &lead);
  if (used == 0) return false;
  std::vector<Fig> figs{lead};
  if (used < toks.size() && toks[used].front() == '(')
    AsideFigures({toks.begin() + static_cast<std::ptrdiff_t>(used) - 1, toks.end()}, &figs);
  // "2048 + INT8=0: 120.4 tok/s  <-- winner": a line named by settings, one
  // figure and at most a remark after an arrow or a mark: that run's figure.
  // (A name of pairs alone, "M=4096 N=4096 K=4096", is read as its keys elsewhere.)
  const auto name_words = SpaceWords(name);
  const bool settings_name = name.find('=') != std::string::npos && name_words.size() > 1 &&
                             std::any_of(name_words.begin(), name_words.end(),
                                         [](const std::string& w) { return w.find('=') == std::string::npos; });
  const bool remark = used >= toks.size() || toks[used].rfind("<-", 0) == 0 || toks[used] == "#" || toks[used] == "\xE2\x86\x90";
  if (figs.size() < 2 && !(settings_name && remark)) return false;
  Config cfg = LineConfig(r);
  if (const size_t eq = name.find('='); eq != std::string::npos && eq > 0 && eq + 1 < name.size() && name.find(' ') == std::string::npos)
    cfg[SnakeKey(name.substr(0, eq))] = name.substr(eq + 1);
  else
    cfg[settings_name ? "case" : "metric"] = name;
  KeepFigure(r, line, t, cfg, figs);
  return true;
}

}  // namespace moelog::logbook::reader::output_read
