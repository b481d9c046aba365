// The working set of one `update`/`run`: the document as read, its units
// (logbook entries or recipe steps), each unit's planned commands, what the
// run store already holds for them and what ran now. The steps in steps.h
// build it in order; session.cc drives them.
#ifndef MOELOG_LOGBOOK_UPDATE_WORK_H_
#define MOELOG_LOGBOOK_UPDATE_WORK_H_

#include <memory>
#include <string>
#include <vector>

#include "engine/status.h"
#include "logbook/criteria/recorded.h"
#include "logbook/update/recorded_failures.h"
#include "logbook/doc/document.h"
#include "logbook/doc/regions.h"
#include "logbook/file_util.h"
#include "logbook/plan/shell_plan.h"
#include "logbook/render/calibration.h"
#include "logbook/run/runner.h"
#include "logbook/store/run_store.h"
#include "logbook/update/session.h"

namespace moelog::logbook {

// A logbook entry or a recipe step, reduced to what the pipeline needs:
// its ID, its commands and where its region goes.
struct Unit {
  std::string id, label;
  int line = 0;
  std::vector<CommandText> commands;
  int insert_after = 0;
  std::string indent;
  bool blank_before = false;
  std::vector<RecordedFigure> recorded;  // figures its Result states (logbook entries)
  std::vector<UnreadFigures> unread;     // Result text whose figures could not be told apart
  std::string pins;                      // its configuration pins, "k=v, ..." (logbook entries)
  int entry = -1;                        // index in the logbook's entries (logbook units)
  std::string when;                      // "YYYY-MM-DD HH:MM" of a dated entry, else ""
  std::string day;                       // its date, else ""
  // What the entry says of its runs beyond the commands: "" or the field
  // text that says it (Result "pending", a Config naming CPU).
  std::string pending;                   // "Result: pending": nothing recorded yet
  std::string ran_on_cpu;                // "Config: CPU smoke only, tiny shape."
  std::vector<RecordedFailure> failures; // runs its Result says failed, timed out or were killed
};

// The document as read: its bytes, the LF text the pipeline works on, the
// parse, its units and its owned regions.
struct LoadedDocument {
  std::string path;
  DocumentKind kind = DocumentKind::kLogbook;
  std::string raw;   // the bytes on disk
  std::string text;  // raw with LF line ends
  LineEnding ending = LineEnding::kLf;
  Logbook logbook;   // kind == kLogbook
  Recipe recipe;     // kind == kRecipe
  std::vector<Unit> units;
  RegionScan scan;
};

// One planned command of a unit and what the cache already holds for it.
struct PlannedCommand {
  const CommandText* command = nullptr;
  Plan plan;
  bool runnable = false;
  std::vector<std::string> keys;                 // per invocation
  std::vector<std::vector<RunRecord>> cached;    // per invocation (empty = miss)
  // Per invocation: the newest foreign batch newer than the cached one (not
  // served; a v5p model batch is checked against the model).
  std::vector<std::vector<RunRecord>> foreign;
  std::vector<size_t> missing;                   // invocation indices to run
  Result<PlanOutcome> outcome = Status::NotFound("not run");
  std::vector<RunRecord> fresh;                  // records of this run
};

struct UnitRowsMemo;  // steps.h UnitRows' answer (render_step.cc)

struct UnitWork {
  const Unit* unit = nullptr;
  const ModelView* model = nullptr;  // bands and calibration of modeled figures (null: none)
  std::vector<PlannedCommand> commands;
  bool runnable = false;
  // The unit's table rows, built once while its records stay the same (its
  // table, its chart and calibration each read them).
  mutable std::shared_ptr<const UnitRowsMemo> rows_memo;
};

// The ID of the owned status region under "## Stop Criteria".
inline constexpr char kCriteriaRegionId[] = "STOP-CRITERIA";

// Invocation i's records: this session's, else the cached batch.
std::vector<const RunRecord*> RecordsOf(const PlannedCommand& pc, size_t i);

// One line, at most n bytes.
std::string Shorten(const std::string& s, size_t n);
// Text quoted inside a region: one line, nothing Markdown or an HTML comment
// would read as structure (it may quote the document).
std::string NoteText(const std::string& s);
// The edit that writes `content` into unit u's region.
RegionEdit EditOf(const Unit& u, std::string content);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_UPDATE_WORK_H_
