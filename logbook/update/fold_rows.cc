#include "logbook/update/fold_rows.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <set>

#include "engine/target.h"
#include "engine/v5p/coverage.h"

namespace moelog::logbook {
namespace {

// What a row's fold depends on besides its config: the figures that fit it
// and the model paths it is on.
struct Fits {
  std::vector<bool> fit;
  std::vector<std::string> paths;
  bool dead = false;
};

// The figures a table shows of a row: equal for rows the model cannot tell
// apart (other metrics, such as a routing's group sizes, may differ).
bool SameShownFigures(const TableRow& a, const TableRow& b) {
  for (const char* k : {"time_s", "tflops", "tflops_per_device", "tokens_per_s"}) {
    auto ia = a.metrics.find(k), ib = b.metrics.find(k);
    if ((ia == a.metrics.end()) != (ib == b.metrics.end())) return false;
    if (ia != a.metrics.end() && !(ia->second == ib->second)) return false;
  }
  return true;
}

bool SameModel(const TableRow& a, const Fits& fa, const TableRow& b, const Fits& fb) {
  return engine::IsModeledTarget(a.target) && a.target == b.target && a.status == "ok" && b.status == "ok" &&
         a.cal_key == b.cal_key && fa.paths == fb.paths && SameShownFigures(a, b);
}

// The one key two configs differ in, or "" when they differ in none or more.
std::string OneKeyApart(const std::map<std::string, std::string>& a, const std::map<std::string, std::string>& b) {
  std::string apart;
  auto ia = a.begin(), ib = b.begin();
  while (ia != a.end() || ib != b.end()) {
    std::string k;
    if (ib == b.end() || (ia != a.end() && ia->first < ib->first)) k = (ia++)->first;
    else if (ia == a.end() || ib->first < ia->first) k = (ib++)->first;
    else if ((ia++)->second == (ib++)->second) continue;
    else k = std::prev(ia)->first;
    if (!apart.empty()) return "";
    apart = k;
  }
  return apart;
}

// True when some figure fits `row` and every one that does states `key`
// with the row's value.
bool FiguresStateIt(const std::vector<RecordedFigure>& figures, const Fits& f, const TableRow& row,
                    const std::string& key) {
  bool any = false;
  const auto rv = row.config.find(key);
  for (size_t g = 0; g < figures.size(); ++g) {
    if (!f.fit[g]) continue;
    auto it = figures[g].run.config.find(key);
    if (it == figures[g].run.config.end() || rv == row.config.end() || it->second != rv->second) return false;
    any = true;
  }
  return any;
}

bool AnyFit(const Fits& f) { return std::find(f.fit.begin(), f.fit.end(), true) != f.fit.end(); }

// Folds row j into row i when they may fold (the rules in fold_rows.h);
// false when they may not.
bool Fold(std::vector<TableRow>& rows, std::vector<Fits>& fits, size_t i, size_t j,
          const std::vector<RecordedFigure>& figures, bool select, std::vector<std::string>* notes) {
  if (!SameModel(rows[i], fits[i], rows[j], fits[j])) return false;
  const std::string key = OneKeyApart(rows[i].config, rows[j].config);
  if (key.empty()) return false;
  if (!select && fits[i].fit == fits[j].fit) {
    if (j < i) return false;  // the earlier row keeps its place
    // Nothing the Result says tells them apart: one row naming both values.
    rows[i].config[key] += ", " + rows[j].config[key];
  } else if (select && AnyFit(fits[i]) && !AnyFit(fits[j]) && FiguresStateIt(figures, fits[i], rows[i], key)) {
    notes->push_back("- " + key + "=" + rows[j].config[key] + " not shown: the Result records " + rows[i].config[key] +
                     " (the model's figures are the same)");
  } else {
    return false;
  }
  fits[j].dead = true;
  return true;
}

}  // namespace

std::vector<std::string> FoldIndistinctRows(std::vector<TableRow>* rows, const std::vector<RecordedFigure>& figures) {
  std::vector<std::string> notes;
  std::vector<TableRow>& r = *rows;
  std::vector<Fits> fits(r.size());
  for (size_t i = 0; i < r.size(); ++i) {
    for (const auto& f : figures) fits[i].fit.push_back(FigureFits(f.run, r[i].config));
    fits[i].paths = engine::v5p::UncalibratedPaths(r[i].config);
  }
  // What the Result selects first, then what nothing tells apart. Each
  // fold ends a row, so the passes are bounded by the rows.
  for (bool select : {true, false})
    for (bool folded = true; folded;) {
      folded = false;
      for (size_t i = 0; i < r.size(); ++i)
        for (size_t j = 0; j < r.size() && !fits[i].dead; ++j)
          if (j != i && !fits[j].dead && Fold(r, fits, i, j, figures, select, &notes)) folded = true;
    }
  std::vector<TableRow> kept;
  for (size_t i = 0; i < r.size(); ++i)
    if (!fits[i].dead) kept.push_back(std::move(r[i]));
  r = std::move(kept);
  // A folded value every row shares leaves no column to name it: a note does.
  std::set<std::string> folded;
  for (const TableRow& row : r)
    for (const auto& [k, v] : row.config)
      if (v.find(", ") != std::string::npos) folded.insert(k);
  for (const std::string& k : folded) {
    const std::string& v = r.front().config[k];
    if (std::all_of(r.begin(), r.end(), [&](const TableRow& x) { return x.config.count(k) && x.config.at(k) == v; }))
      notes.push_back("- each row stands for " + k + " " + v +
                      ": the model gives them the same figures, and the Result does not tell them apart");
  }
  // One note per value left out, however many rows it left out.
  std::vector<std::string> unique;
  for (auto& n : notes)
    if (std::find(unique.begin(), unique.end(), n) == unique.end()) unique.push_back(std::move(n));
  return unique;
}

}  // namespace moelog::logbook
