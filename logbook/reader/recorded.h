// Runs recorded in a logbook's prose: the figures written under an entry's
// "Result" field ("`none, topk=2`: 192.868 TF/s, 619304 tokens/s",
// "`topk=2`: none `144.654`, expert_mlp `138.346` (`-4.36%`)"), turned into
// StoredRun values with source "recorded" so they can be charted next to
// measured or modeled runs, compared, and used as criteria evidence.
//
// How a figure gets its config:
//  - the entry's commands give the fixed flags (`--tokens 32768`) and the
//    varied ones: shell loops (`for tk in 2 8; ... --topk "$tk"`), --topk-list,
//    and flags whose value differs between the entry's commands;
//  - bullet labels and their parents give `key=value` words (`shared=0`,
//    `mlp_dim=1408`), bare values of a varied flag (`none`, `ep`), and
//    `topk8`-style words;
//  - a word right before a number that is a value of a varied flag names a
//    category (`argsort 99.569 vs tuple_sort 98.438`); other identifiers
//    there become key "variant" (`ref`, `staged`, `fused_ep`); a label that
//    is none of these becomes key "case" (`2048/2048`).
// Numbers in parentheses are not figures unless derived (a speedup "1.8x"
// or a signed percentage "+7.2%", kept with the figure before them and
// marked derived). The unit after a number picks the metric (TF/s ->
// tflops, tokens/s or tok/s -> tokens_per_s, ms/s/us -> time_s in seconds,
// GB/s -> gb_per_s, "% MFU" -> mfu); a bare number is TF/s for the harness
// moelog models and no figure for others.
//
// A harness moelog has no adapter for is read generically: its own flags
// (after the script's name, in its spelling, dashes as underscores),
// environment assignments before it, comma lists as one run per value,
// Config list bullets, plus the keys `harness` and `accelerator`. A bullet whose figures cannot be told
// apart (two TF/s values and nothing naming them) is skipped. A table in the
// Result gives one figure set per row (config-key columns and label columns,
// TF/s and tokens/s columns).
#ifndef MOELOG_LOGBOOK_READER_RECORDED_H_
#define MOELOG_LOGBOOK_READER_RECORDED_H_

#include <map>
#include <string>
#include <vector>

#include "logbook/doc/document.h"
#include "logbook/store/stored_run.h"

namespace moelog::logbook {

// IDs are "<entry id>#<n>" (n from 1, in document order); entry_id is set;
// target and host are empty (the prose does not say).
std::vector<StoredRun> RecordedRuns(const Entry& entry);
std::vector<StoredRun> RecordedRuns(const Logbook& logbook);

// The config keys a predicate, --where, --series or --same may name for this
// logbook: moelog's run keys and every key its recorded figures use.
RunKeys RecordedKeys(const Logbook& logbook);

// One figure set read from a Result bullet: the run it describes (config
// and the metrics stated: tflops and/or tokens_per_s), the bullet's line and
// its text (the label and figures as written, for listing).
struct RecordedFigure {
  StoredRun run;
  int line = 0;
  std::string text;
  bool prose = false;  // read from a paragraph or a bullet that is no field (not a Result, not a table)
  bool table = false;  // a row (or cell) of a table the logbook writes
  // Named as a reference or comparison run ("Reference path: 2.538 ms"): it
  // restates an earlier entry when it equals one of its figures, else it is
  // this entry's own measurement of that run.
  bool refers = false;
  // Printed lines below `line` whose figures joined this row (hyperfine's
  // "Range (min … max)" under its "Time (mean ± σ)"): read, never "not read".
  std::vector<int> joined_lines = {};
  // The printed lines its figures were read from, when they are more than
  // `text` (a tool's printout): how each number was written ("18,234,561",
  // "103602.71"), so tables show its digits grouped as the author's were.
  std::string written = {};
};
std::vector<RecordedFigure> RecordedFigures(const Entry& entry);
// Result text with figures the reader cannot tell apart ("`1.19 ms` and
// `1.21 ms`" with nothing naming each): listed with the reason, never read.
struct UnreadFigures {
  int line = 0;
  std::string text, why;
  // A figure no stage read ("not read: ..."): told by --show-recorded, never
  // written into the logbook's region.
  bool shown_only = false;
};
// The same, each run's `file` set to `file` (the logbook's path); what could
// not be read goes to `unread` (optional).
// `mfu_logbook`: the logbook measures MFU (MfuLogbook), so a percentage
// nothing else names is MFU ("ring 13.2 / 13.1 / 12.8 % at EP2/4/8").
// `tflops_example`: a TF/s figure the logbook's Scope or Baseline writes
// (TflopsExample; 0: none): a figure without a unit that only the logbook
// names is TF/s only within a factor 100 of it ("`0.018678`" beside a
// baseline of 239.150 TF/s is listed, "no unit").
std::vector<RecordedFigure> RecordedFigures(const Entry& entry, const std::string& file,
                                            std::vector<UnreadFigures>* unread, bool mfu_logbook = false,
                                            bool tflops_logbook = false, double tflops_example = 0);
// Every entry's RecordedFigures, in the logbook's order (the logbook's
// MFU/TF/s settings applied). A figure of prose (RecordedFigure::prose) that
// restates, at its written digits, a figure an earlier entry recorded ("its single-node 96 ms" after an entry
// recorded 96.2 ms) is listed in that
// entry's `unread` ("restates a figure of <ID>"), not recorded again; so is
// a table's row or cell whose every figure (three significant digits at
// least) an earlier entry recorded (a summary table over earlier entries).
// A figure keyed "variant" whose value an earlier figure (or another of the
// entry's own) holds under exactly one key takes that key ("bf16" under a
// column of a value-columns table, after entries that ran --modes bf16,...).
// `unread` (optional) gets one list per entry.
std::vector<std::vector<RecordedFigure>> LogbookFigures(const Logbook& logbook,
                                                        std::vector<std::vector<UnreadFigures>>* unread);
// Whether the logbook's title or a Scope metric bullet names MFU.
bool MfuLogbook(const Logbook& logbook);
// Whether a Scope or Baseline bullet names TF/s (`tflops_logbook`: a figure
// written without a unit is TF/s; otherwise it is listed, "no unit").
bool TflopsLogbook(const Logbook& logbook);
double TflopsExample(const Logbook& logbook);

// The reader's stage that decided a figure's fate, given the fate as
// --show-recorded prints it ("row ...", "listed, not tabled: <why>"):
// "figures" (no number and unit read), "classify" (derived, estimate, range,
// restated ...), "key" (nothing names which run it is), "table" (its row, or
// why no row of the table of runs takes it).
std::string FateStage(const std::string& fate);

// Where recorded figures go in a table of runs (each row a config map as
// the table shows it). A figure fits a row when every key it names that the
// row also has agrees (derived keys such as devices, and repetition or output
// settings, aside) and it names no word the row cannot confirm ("case",
// "variant"). A figure goes on a row only when it fits that row alone and no
// other figure claims the same row and metric; otherwise it is unplaced.
//
// `group` (optional, one entry per row) joins rows shown as one (identical
// modeled rows merged): a figure that fits several rows of one group fits
// that group, and `row` is then the group's number.
struct FigurePlacement {
  int row = -1;             // index of its row (or group), or -1
  std::string why;          // unplaced: "matches no row" | "matches several rows" | "another figure claims its row"
};
bool FigureFits(const StoredRun& figure, const std::map<std::string, std::string>& row);
std::vector<FigurePlacement> PlaceFigures(const std::vector<RecordedFigure>& figures,
                                          const std::vector<std::map<std::string, std::string>>& rows,
                                          const std::vector<int>& group = {});

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_READER_RECORDED_H_
