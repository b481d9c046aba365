#include "logbook/update/entry_chart.h"

#include <algorithm>
#include <cctype>

#include "logbook/criteria/recorded.h"

namespace moelog::logbook {

std::vector<ChartPoint> EntryChartPoints(const Entry& entry, const std::vector<StoredRun>& runs) {
  std::vector<StoredRun> mine;
  for (const auto& r : runs)
    if (r.entry_id == entry.id || (!entry.explicit_id.empty() && r.entry_id == entry.explicit_id)) mine.push_back(r);
  bool has_recorded = std::any_of(mine.begin(), mine.end(), [](const StoredRun& r) { return r.source == "recorded"; });
  if (!has_recorded) {
    auto rec = RecordedRuns(entry);
    mine.insert(mine.end(), rec.begin(), rec.end());
  }
  return PointsFromRuns(mine);
}

std::string EntryHeadline(const Entry& entry) {
  std::string out = entry.label;
  for (const auto& p : entry.paragraphs) out.append("\n").append(p.text);
  for (const auto& f : entry.fields) {
    std::string name = f.name;
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    if (name.find("command") == std::string::npos)  // a command's flags are settings, not what it found
      out.append("\n").append(f.name).append(": ").append(f.value);
  }
  return out;
}

Result<EntryChart> ChartForEntry(const std::string& logbook_path, const Entry& entry,
                                 const std::vector<StoredRun>& runs, const ChartOptions& options, const ChartDraw& how) {
  ChartOptions o = options;
  if (o.title.empty()) o.title = entry.label;
  if (o.id.empty()) o.id = entry.id;
  if (o.headline.empty()) o.headline = EntryHeadline(entry);
  std::string suffix;
  if (!options.x_key.empty()) suffix += NormalizeKey(options.x_key);
  for (const auto& y : options.y_metrics) {
    if (!suffix.empty()) suffix += '-';
    suffix += NormalizeKey(y);
  }
  for (const auto& k : options.series_keys) suffix += (suffix.empty() ? "by-" : "-by-") + NormalizeKey(k);
  return DrawEntryChart(logbook_path, entry.id, EntryChartPoints(entry, runs), o, suffix, how);
}

std::string PrimaryMetric(const Logbook& logbook) {
  const Section* scope = logbook.FindSection(SectionKind::kScope);
  if (!scope) return "";
  for (const auto& b : scope->bullets)
    if (auto m = PrimaryMetricOf(b.text); !m.empty()) return m;
  return "";
}

}  // namespace moelog::logbook
