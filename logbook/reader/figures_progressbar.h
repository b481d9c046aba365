// Reader stage figures, a progress bar's line (tqdm's and its imitators'):
//
//   Training:  10%|████▍     | 10/100 [05:23<44:35, 29.73s/iter, loss=3.1]
//   eval: 100%|██████████| 50/50 [01:50<00:00,  2.21s/it]
//   12345it [00:12, 987.65it/s]
//
// The figure is the rate in the brackets (the time an iteration takes, or
// the iterations a second), printed at the count before them; the fields
// after it (`loss=3.1`) are figures of the same moment. The line is written
// as the output readers read a log line's fields: "step 10 | Training:
// 29.73 s/iter | loss: 3.1". A bar whose rate is not known yet ("?it/s")
// states no figure. The words (the counter's and the rate's names) are data:
// progress_bar of data/reader/bench_printouts.json.
#ifndef MOELOG_LOGBOOK_READER_FIGURES_PROGRESSBAR_H_
#define MOELOG_LOGBOOK_READER_FIGURES_PROGRESSBAR_H_

#include <string>

namespace moelog::logbook::reader {

// True when `text` (a printed line, trimmed) is a progress bar with a rate;
// `out` then holds its fields as above.
bool ProgressBarForm(const std::string& text, std::string* out);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_FIGURES_PROGRESSBAR_H_
