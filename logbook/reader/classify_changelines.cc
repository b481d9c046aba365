// Reader stage classify: printed lines of what a change saves or gains, and
// utilizations a monitor showed while a run went.
#include "logbook/reader/classify_changelines.h"

#include <cctype>
#include <set>
#include <string>

#include "logbook/reader/data_words.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {

void ChangeLinesDerived(std::vector<RecordedFigure>* figs) {
  for (auto& f : *figs) {
    if (f.table || f.prose || f.text.find('|') != std::string::npos) continue;
    const size_t colon = f.text.find(": ");
    if (colon == std::string::npos || colon == 0) continue;
    size_t digit = colon + 2;
    while (digit < f.text.size() && !std::isdigit(static_cast<unsigned char>(f.text[digit]))) ++digit;
    if (digit >= f.text.size() || !ChangeLabelBefore(f.text, digit)) continue;
    for (const auto& [metric, value] : f.run.metrics) f.run.derived.insert(metric);
  }
}

void DropMonitorReadings(std::vector<RecordedFigure>* figs, std::vector<UnreadFigures>* unread) {
  static const std::set<std::string> tools = DataWords("data/reader/vocabulary.json", "monitor_tools");
  for (size_t i = figs->size(); i-- > 0;) {
    const RecordedFigure& f = (*figs)[i];
    if (!f.prose || f.run.metrics.empty()) continue;
    bool utilization = true;
    for (const auto& [metric, value] : f.run.metrics)
      utilization = utilization && metric.size() >= 15 && metric.compare(metric.size() - 15, 15, "utilization_pct") == 0;
    bool monitor = false;
    for (std::string w : Words(Lower(f.text))) {
      while (!w.empty() && !std::isalnum(static_cast<unsigned char>(w.back()))) w.pop_back();
      while (!w.empty() && !std::isalnum(static_cast<unsigned char>(w.front()))) w.erase(w.begin());
      monitor = monitor || tools.count(w) > 0;
    }
    if (!utilization || !monitor) continue;
    if (unread) unread->push_back({f.line, f.text, "a device's state a monitor showed while the run went, not the run's figure"});
    figs->erase(figs->begin() + static_cast<std::ptrdiff_t>(i));
  }
}

void ReportKinds(const Entry& e, std::vector<RecordedFigure>* figs, std::vector<UnreadFigures>* unread) {
  DropRepeatedTables(e, figs, unread);  // a report's key figures under its summary
  ChangeLinesDerived(figs);             // a printed `Savings: 54%`
  DropMonitorReadings(figs, unread);    // "100% GPU utilization in nvidia-smi"
  TransactionRates(e, figs);
}

}  // namespace moelog::logbook::reader
