#include "logbook/reader/internal.h"

namespace moelog::logbook {
using namespace reader;

namespace reader {

// Keys a figure's config may hold that say nothing a row could confirm or
// deny: derived ones (devices and mesh follow the parallel mode), repetition
// and output settings.
bool NeutralKey(const std::string& k) {
  return !FollowedKey(k).empty() || IsIgnoredForPairing(k) || k == "target" || k == "source";
}

bool Fits(const StoredRun& figure, const std::map<std::string, std::string>& row) {
  for (const auto& [k, v] : figure.config) {
    if (k == "case" || k == "variant") return false;
    if (NeutralKey(k)) continue;
    auto it = row.find(k);
    if (it != row.end() && !ValuesEqual(it->second, v)) return false;
  }
  return true;
}

}  // namespace reader

bool FigureFits(const StoredRun& figure, const std::map<std::string, std::string>& row) { return Fits(figure, row); }

std::vector<FigurePlacement> PlaceFigures(const std::vector<RecordedFigure>& figures,
                                          const std::vector<std::map<std::string, std::string>>& rows,
                                          const std::vector<int>& group) {
  std::vector<FigurePlacement> out(figures.size());
  std::map<std::pair<int, std::string>, std::vector<size_t>> claims;  // (row or group, metric) -> figures
  for (size_t i = 0; i < figures.size(); ++i) {
    std::set<int> fit;
    for (size_t r = 0; r < rows.size(); ++r)
      if (Fits(figures[i].run, rows[r])) fit.insert(group.empty() ? static_cast<int>(r) : group[r]);
    if (fit.size() != 1) {
      out[i].why = fit.empty() ? "matches no row" : "matches several rows";
      continue;
    }
    out[i].row = *fit.begin();
    for (const auto& [metric, v] : figures[i].run.metrics)
      if (!figures[i].run.derived.count(metric)) claims[{out[i].row, metric}].push_back(i);
  }
  for (const auto& [key, ids] : claims) {
    if (ids.size() < 2) continue;
    for (size_t i : ids) {
      out[i].row = -1;
      out[i].why = "another figure claims its row";
    }
  }
  return out;
}

}  // namespace moelog::logbook
