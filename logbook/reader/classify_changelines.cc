// Reader stage classify: printed lines of what a change saves or gains.
#include "logbook/reader/classify_changelines.h"

#include <cctype>
#include <string>

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

}  // namespace moelog::logbook::reader
