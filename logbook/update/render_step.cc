// The render step: each unit's region (table, notes, chart) and the Stop
// Criteria status region.
#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include "engine/target.h"
#include "logbook/numbers.h"
#include "logbook/render/calibration.h"
#include "logbook/reader/blocks_benchtools.h"
#include "logbook/render/chart.h"
#include "logbook/render/chart_gnuplot.h"
#include "logbook/render/render_table.h"
#include "logbook/store/stored_run_reader.h"
#include "logbook/update/fold_rows.h"
#include "logbook/update/steps.h"
#include "logbook/update/counted_runs.h"
#include "logbook/update/criteria_status.h"
#include "logbook/update/entry_chart.h"
#include "logbook/update/entry_plans.h"
#include "logbook/text.h"

namespace moelog::logbook {
namespace {

// Whether some invocation of the unit ran in this session.
bool RanNow(const UnitWork& w) {
  for (const auto& pc : w.commands)
    if (!pc.fresh.empty()) return true;
  return false;
}

// The calibration key of a row: the harness (with its mlp_profile path:
// each is its own program) and its revision, else the entry's day.
std::string RowCalibrationKey(const BenchInvocation& inv, const std::map<std::string, std::string>& config,
                              const std::string& day) {
  auto path = config.find("mlp_path");
  const std::string harness =
      path == config.end() || path->second.empty() ? inv.harness : inv.harness + " " + path->second;
  return CalibrationKey(harness, inv.revision, day);
}

// The runs a unit's chart shows: each invocation's successful records. A
// cache hit stored by another entry with the same command is this entry's
// result all the same. Modeled runs are shown as the table shows them:
// calibrated, with their band (metrics band_lo/band_hi).
std::vector<StoredRun> ChartRuns(const UnitWork& w) {
  std::vector<StoredRun> runs;
  for (const auto& pc : w.commands) {
    if (!pc.runnable) continue;
    for (size_t i = 0; i < pc.plan.invocations.size(); ++i)
      for (const RunRecord* r : RecordsOf(pc, i)) {
        if (r->status != "ok") continue;
        runs.push_back(ToStoredRun(*r));
        // A run the Result says failed is no point of the chart.
        if (engine::IsModeledTarget(r->target) &&
            std::any_of(w.unit->failures.begin(), w.unit->failures.end(),
                        [&](const RecordedFailure& f) { return FailureNames(f, runs.back().config); })) {
          runs.pop_back();
          continue;
        }
        if (w.model && engine::IsModeledTarget(r->target))
          ShowModeled(*w.model, RowCalibrationKey(pc.plan.invocations[i], runs.back().config, w.unit->day),
                      w.unit->when, &runs.back());
      }
  }
  // The figures the entry's table shows as recorded (restated ones left
  // out, keys named as in the table), so chart and table agree.
  for (const auto& f : w.unit->recorded) runs.push_back(f.run);
  for (auto& r : runs) r.entry_id = w.unit->id;
  return runs;
}

// Commands that cannot be planned (an invalid flag, a conflict) fail the
// update, each reported where it is written; the returned notes say why in
// the region.
std::string InvalidCommands(const LoadedDocument& doc, const UnitWork& w, SessionSummary* sum, std::ostream& err) {
  std::string notes;
  for (size_t ci = 0; ci < w.commands.size(); ++ci) {
    const PlannedCommand& pc = w.commands[ci];
    if (pc.plan.verdict != PlanVerdict::kInvalid) continue;
    ++(pc.plan.reason.rfind(kPinErrorReason, 0) == 0 ? sum->invalid : sum->unplannable);
    err << doc.path << ":" << pc.command->line << ": " << w.unit->id << ": " << pc.plan.Summary() << "\n";
    notes += "- not updated (command " + std::to_string(ci + 1) + "): " + NoteText(pc.plan.Summary()) + "\n";
  }
  return notes;
}

// A unit with nothing to run: reported; its old table no longer answers a
// command that stopped planning, so its region (if any) says why instead.
void SkipUnit(const LoadedDocument& doc, const UnitWork& w, const std::string& invalid,
              std::vector<RegionEdit>* edits, std::ostream& out) {
  std::string why;
  for (const auto& pc : w.commands) why += (why.empty() ? "" : "; ") + pc.plan.Summary();
  out << w.unit->id << ": " << (why.empty() ? "skipped (no commands)" : Shorten(why, 160)) << "\n";
  if (!invalid.empty() && doc.scan.Find(w.unit->id) != nullptr) edits->push_back(EditOf(*w.unit, invalid));
}

// The explanation lines of a table's figures (one per figure, in order),
// each placed on a modeled row whose band (calibrated as the table shows it)
// leaves the figure out marked "; outside (p10–p90 134.2–153.1)".
std::string MarkOutsideBand(const UnitWork& w, const UnitTable& table, const std::string& lines) {
  if (w.model == nullptr || !w.model->have_bands) return lines;
  std::string out;
  size_t pos = 0, i = 0;
  for (size_t nl; (nl = lines.find('\n', pos)) != std::string::npos; pos = nl + 1, ++i) {
    out += lines.substr(pos, nl - pos);
    const auto& figures = w.unit->recorded;
    const bool placed = i < figures.size() && i < table.places.size() && table.places[i].rfind("row ", 0) == 0;
    const auto rec = placed ? figures[i].run.metrics.find("tflops") : std::map<std::string, double>::const_iterator();
    for (const TableRow& r : table.rows) {
      if (!placed || rec == figures[i].run.metrics.end()) break;
      if (!engine::IsModeledTarget(r.target) || r.status != "ok" || !FigureFits(figures[i].run, r.config) ||
          !r.metrics.count("tflops"))
        continue;
      const Calibration c = w.model->For(r.cal_key, w.unit->when, UnvalidatedPathKey(r.config));
      const ModeledFigure m = Calibrated(r.metrics.at("tflops"), c, engine::v5p::BandFor(w.model->bands, r.config));
      if (m.has_band && (rec->second < m.lo || rec->second > m.hi))
        out += "; outside (p10–p90 " + Fixed(m.lo, 1) + "–" + Fixed(m.hi, 1) + ")";
      break;
    }
    out += "\n";
  }
  return out;
}

// A recorded figure's values on its fate line: its own figures, then the
// derived ones its row shows beside them ("0.00014 s, 9.5x speedup
// (derived)"), so every figure the row holds is named where it went.
std::string RecordedValuesText(const RecordedFigure& f) {
  const StoredRun& run = f.run;
  // A row of derived figures alone (a ledger's changes) is told once, as derived.
  const bool derived_only = std::all_of(run.metrics.begin(), run.metrics.end(), [&](const auto& m) { return run.derived.count(m.first) > 0; });
  std::string text = derived_only ? "" : RecordedValuesAsWritten(f);
  for (const auto& [metric, v] : run.metrics) {
    if (!run.derived.count(metric)) continue;
    const auto u = run.units.find(metric);
    const std::string unit = u == run.units.end() ? "" : u->second;
    const std::string name = metric == "speedup" ? " speedup" : metric.find("delta") != std::string::npos ? " change" : " " + metric;
    text += (text.empty() ? "" : ", ") + Readable(v) + (unit == "%" || unit == "x" ? unit : "") + name + " (derived)";
  }
  return text;
}

// Each figure's fate line of `lines` (one a figure, in order), followed by
// one for each printed line the figure's row joined (joined_lines) that
// writes some of its figures: "line 14: 88.38 ms (latency_p50) -> recorded
// table, row 1", the same fate, so every figure is told at its own line.
std::string WithJoinedLines(const std::string& text, const std::string& lines, const std::vector<RecordedFigure>& figures) {
  std::vector<size_t> starts{0};  // where each source line starts in `text`
  for (size_t p = text.find('\n'); p != std::string::npos; p = text.find('\n', p + 1)) starts.push_back(p + 1);
  // The values of figure `f` written on source line `n` ("" for none or no such line).
  auto values_at = [&](const RecordedFigure& f, int n) -> std::string {
    if (n < 1 || static_cast<size_t>(n) > starts.size()) return "";
    const size_t b = starts[n - 1], e = text.find('\n', b);
    return JoinedLineValues(f, text.substr(b, e == std::string::npos ? e : e - b));
  };
  std::string out;
  size_t pos = 0, i = 0;
  for (size_t nl; (nl = lines.find('\n', pos)) != std::string::npos; pos = nl + 1, ++i) {
    const std::string line = lines.substr(pos, nl - pos);
    const size_t arrow = line.find(" -> ");
    if (i >= figures.size() || arrow == std::string::npos || figures[i].joined_lines.empty()) {
      out += line + "\n";
      continue;
    }
    // The figure's own line tells the figures written on it, not those of the lines it joined.
    const std::string own = values_at(figures[i], figures[i].line);
    const size_t colon = line.find(": ");
    out += (own.empty() || colon == std::string::npos || colon > arrow ? line : line.substr(0, colon + 2) + own + line.substr(arrow)) + "\n";
    for (int j : figures[i].joined_lines)
      if (const std::string values = values_at(figures[i], j); !values.empty())
        out += "line " + std::to_string(j) + ": " + values + line.substr(arrow) + "\n";
  }
  return out;
}

// --show-recorded: where each figure of the unit's Result went (`table`:
// the runnable unit's table; none for an entry moelog runs nothing for,
// whose figures each get a row of its recorded table). Figures it could
// not read are listed with the reason.
void ShowRecorded(const LoadedDocument& doc, const UnitWork& w, const UnitTable* table, std::ostream& out) {
  std::string lines;
  if (table != nullptr) {
    if (!w.unit->recorded.empty()) lines = MarkOutsideBand(w, *table, ExplainRecorded(table->places, w.unit->recorded));
  } else {
    for (size_t i = 0; i < w.unit->recorded.size(); ++i) {
      const auto& f = w.unit->recorded[i];
      lines += "line " + std::to_string(f.line) + ": " + RecordedValuesText(f) +
               " -> recorded table, row " + std::to_string(i + 1) + "\n";
    }
  }
  lines = WithJoinedLines(doc.text, lines, w.unit->recorded);
  for (const auto& u : w.unit->unread) {
    std::string t = u.text;
    t.erase(std::remove(t.begin(), t.end(), '`'), t.end());
    lines += "line " + std::to_string(u.line) + ": \"" + Shorten(t, 90) + "\" -> listed, not tabled: " + u.why + "\n";
  }
  size_t pos = 0;
  for (size_t nl; (nl = lines.find('\n', pos)) != std::string::npos; pos = nl + 1) {
    const std::string line = lines.substr(pos, nl - pos);
    out << doc.path << ": " << w.unit->id << ": " << line << " (stage: " << FateStage(line) << ")\n";
  }
}

// The region of a runnable unit, or nullopt when --check finds it
// incomplete (then it is stale, and left as it is).
std::optional<std::string> UnitRegion(const LoadedDocument& doc, const SessionOptions& opt, bool draw,
                                      const UnitWork& w, SessionSummary* sum, std::ostream& out, std::ostream& err) {
  const std::string& id = w.unit->id;
  const UnitTable table = TableOf(w);
  const bool complete = table.complete;
  if (opt.show_recorded) ShowRecorded(doc, w, &table, out);
  std::string content = RenderUnit(w, table);
  bool chart_stale = false;
  if (doc.kind == DocumentKind::kLogbook && complete)
    content += ChartLink(doc, w, table, doc.scan.Find(id), draw, err, &sum->write_errors, &chart_stale);
  if (opt.check && chart_stale) {
    sum->stale.push_back(id);
    out << id << ": its chart is missing, incomplete, changed or drawn from other data\n";
  }
  if (!complete && opt.check) {
    sum->stale.push_back(id);
    out << id << ": stale: runs missing from the store\n";
    return std::nullopt;
  }
  if (!complete) out << id << ": incomplete: some runs failed or did not run\n";
  return content;
}

// Which harness revisions the entry's date or commit selected, e.g.
// "Harness revision (entry's date or commit): hillclimb: dense-masked EP dispatch (...)."
std::string RevisionsNote(const UnitWork& w) {
  std::vector<std::string> seen;
  for (const auto& pc : w.commands)
    for (const auto& inv : pc.plan.invocations) {
      if (inv.revision.empty()) continue;
      const std::string r = inv.harness + ": " + inv.revision;
      if (std::find(seen.begin(), seen.end(), r) == seen.end()) seen.push_back(r);
    }
  if (seen.empty()) return "";
  std::string s = "- Harness revision: ";
  for (size_t i = 0; i < seen.size(); ++i) s += (i ? "; " : "") + NoteText(seen[i]);
  return s + ".";
}

// The bookkeeping lines of a runnable command, which moelog did not run.
std::string NotRunNote(const Plan& plan, size_t ci) {
  std::string s = "- not run (command " + std::to_string(ci + 1) + ", bookkeeping that cannot reach the benchmark): ";
  for (size_t i = 0; i < plan.not_run.size(); ++i) s += (i ? "; " : "") + plan.not_run[i];
  return NoteText(s);
}

void PrintTable(const Unit& u, const std::string& content, std::ostream& out) {
  std::string title = u.label;
  while (!title.empty() && (title.back() == ':' || title.back() == ' ')) title.pop_back();
  out << "\n### " << u.id << ": " << title << "\n\n" << content;
}

// The region of a unit moelog runs nothing for whose Result records
// figures: the record as a table, and a chart when it sweeps something.
std::string RecordedRegion(const LoadedDocument& doc, bool draw, const UnitWork& w, SessionSummary* sum,
                           std::ostream& out, std::ostream& err) {
  std::string why;
  std::set<std::string> said;
  for (const auto& pc : w.commands)
    if (said.insert(pc.plan.Summary()).second) why += (why.empty() ? "" : "; ") + pc.plan.Summary();
  out << w.unit->id << ": " << w.unit->recorded.size() << " recorded figure"
      << (w.unit->recorded.size() == 1 ? "" : "s") << " tabled; moelog ran nothing"
      << (why.empty() ? "" : " (" + Shorten(why, 120) + ")") << "\n";
  std::string content = RenderRecordedTable(w.unit->recorded);
  if (std::any_of(w.unit->unread.begin(), w.unit->unread.end(), [](const UnreadFigures& u) { return !u.shown_only; })) {
    content += "\nRecorded figures not tabled:\n\n";
    for (const auto& u : w.unit->unread) {
      if (u.shown_only) continue;
      std::string t = u.text;
      t.erase(std::remove(t.begin(), t.end(), '`'), t.end());
      content += NoteLine("- \"" + NoteText(Shorten(t, 90)) + "\": " + u.why) + "\n";
    }
  }
  if (!why.empty()) {
    // One list with a note the table ended with ("- Every figure above: ...").
    const size_t last = content.size() >= 2 ? content.rfind('\n', content.size() - 2) : std::string::npos;
    const bool list = last != std::string::npos && content.compare(last + 1, 2, "- ") == 0;
    content += (list ? "" : "\n") + NoteLine("- Not run by moelog: " + NoteText(why)) + "\n";
  }
  content += "\n";
  // A chart of some of the figures nothing tells apart would show a part as
  // the whole: all are drawn, or none.
  std::set<std::map<std::string, std::string>> configs;
  bool indistinct = false;
  for (const auto& f : w.unit->recorded) indistinct = !configs.insert(f.run.config).second || indistinct;
  if (indistinct) return content + "No chart: some figures above cannot be told apart, and a chart of the others would mislead.\n\n";
  // A profiler's reports are workloads of their own: one chart of them all would mix them.
  std::set<std::string> workloads;
  for (const auto& f : w.unit->recorded)
    if (auto it = f.run.config.find(reader::kWorkloadKey); it != f.run.config.end()) workloads.insert(it->second);
  if (workloads.size() > 1) return content + "No chart: the figures above are of " + std::to_string(workloads.size()) + " reports, which one chart would mix.\n\n";
  content += ChartLink(doc, w, TableOf(w), doc.scan.Find(w.unit->id), draw, err, &sum->write_errors, nullptr);
  return content;
}

}  // namespace

// "Prediction, not run:" for a table of the model alone for commands nobody
// ran (planned), "Prediction, not evidence:" for commands the entry ran
// elsewhere (a CPU); "" for a table of evidence, which is also what a
// planned entry's table is when moelog measured it (the cpu target).
static std::string PredictionLead(const UnitWork& w, const std::vector<TableRow>& rows) {
  const auto& cmds = w.unit->commands;
  const bool modeled = std::any_of(rows.begin(), rows.end(), [](const TableRow& r) { return engine::IsModeledTarget(r.target); });
  if (!modeled) return "";
  const bool planned = !cmds.empty() && (std::all_of(cmds.begin(), cmds.end(), [](const CommandText& c) { return c.planned; }) ||
                                         !w.unit->pending.empty());
  return planned ? "Prediction, not run:" : !w.unit->ran_on_cpu.empty() ? "Prediction, not evidence:" : "";
}

std::string RenderUnit(const UnitWork& w, const UnitTable& table) {
  const std::vector<std::string>& notes = table.notes;
  const std::string lead = PredictionLead(w, table.rows);
  std::string content = RenderRunTable(table.rows, w.unit->recorded, w.model, w.unit->when, lead);
  std::string lines;
  if (std::string r = RevisionsNote(w); !r.empty()) lines += NoteLine(r) + "\n";
  if (!w.unit->pins.empty()) lines += NoteLine("- Pinned by the logbook: " + w.unit->pins + ".") + "\n";
  for (const auto& n : notes) lines += NoteLine(n) + "\n";
  if (!lines.empty()) {
    // One list with the table's own lines, before the list of figures
    // placed on no row (a list of its own, under its heading).
    const size_t unplaced = content.find("\n\nRecorded figures placed on no row:");
    const size_t at = unplaced == std::string::npos ? content.size() : unplaced + 1;
    const size_t line = at >= 2 ? content.rfind('\n', at - 2) : std::string::npos;
    const std::string last = content.substr(line == std::string::npos ? 0 : line + 1, 2);
    content.insert(at, (last == "- " ? "" : "\n") + lines);
  }
  content += "\n";  // keeps the end marker out of the table
  return content;
}

struct UnitRowsMemo {
  size_t records = 0;  // RecordsSignature when built
  std::vector<TableRow> rows;
  std::vector<std::string> notes;
  bool complete = true;
};

namespace {

// Which records the unit's rows come from: changes when a run adds records.
size_t RecordsSignature(const UnitWork& w) {
  size_t h = w.commands.size();
  auto mix = [&](size_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); };
  for (const auto& pc : w.commands) {
    mix(pc.fresh.size());
    mix(reinterpret_cast<size_t>(pc.fresh.data()));
    for (const auto& c : pc.cached) {
      mix(c.size());
      mix(reinterpret_cast<size_t>(c.data()));
    }
  }
  return h;
}

std::vector<TableRow> BuildUnitRows(const UnitWork& w, std::vector<std::string>* notes, bool* complete);

}  // namespace

const std::vector<TableRow>& UnitRows(const UnitWork& w, std::vector<std::string>* notes, bool* complete) {
  const size_t sig = RecordsSignature(w);
  if (!w.rows_memo || w.rows_memo->records != sig) {
    auto m = std::make_shared<UnitRowsMemo>();
    m->records = sig;
    m->rows = BuildUnitRows(w, &m->notes, &m->complete);
    w.rows_memo = std::move(m);
  }
  notes->insert(notes->end(), w.rows_memo->notes.begin(), w.rows_memo->notes.end());
  *complete = w.rows_memo->complete;
  return w.rows_memo->rows;
}

namespace {

// A modeled row the Result says failed (timed out, was killed) is shown so,
// with the author's reason, never as the model's success.
void MarkRecordedFailures(const UnitWork& w, std::vector<TableRow>* rows, std::vector<std::string>* notes) {
  for (const RecordedFailure& f : w.unit->failures) {
    bool named = false;
    for (TableRow& r : *rows) {
      if (!engine::IsModeledTarget(r.target) || !FailureNames(f, r.config)) continue;
      r.status = f.outcome == "timed out" ? "timeout" : f.outcome;
      r.metrics.clear();
      named = true;
    }
    if (!named) continue;
    std::string label;
    for (const auto& v : f.label) label += (label.empty() ? "" : "/") + v;
    notes->push_back(NoteText("- " + label + ": " + f.outcome + ", as the Result records" +
                              (f.reason.empty() ? "" : " (" + f.reason + ")") + "; not modeled as a run"));
  }
}

std::vector<TableRow> BuildUnitRows(const UnitWork& w, std::vector<std::string>* notes, bool* complete) {
  std::vector<TableRow> rows;
  *complete = true;
  // "- Command (planned):" only: what the author meant to run, not a run.
  const auto& cmds = w.unit->commands;
  if (!cmds.empty() && std::all_of(cmds.begin(), cmds.end(), [](const CommandText& c) { return c.planned; })) {
    // The caption says it: "Prediction, not run:".
  } else if (!cmds.empty() && !w.unit->pending.empty())
    notes->push_back(NoteText("- Result pending: " + w.unit->pending));
  for (size_t ci = 0; ci < w.commands.size(); ++ci) {
    const PlannedCommand& pc = w.commands[ci];
    if (!pc.runnable) {
      // Named by its position in the entry, not its line: the region sits
      // above commands written after Result, and would move their lines.
      notes->push_back("- skipped (command " + std::to_string(ci + 1) + "): " + NoteText(pc.plan.Summary()));
      continue;
    }
    if (!pc.command->composed.empty() && (ci == 0 || w.commands[ci - 1].command->composed != pc.command->composed))
      notes->push_back(NoteText("- composed from the entry's stated flags (" + pc.command->composed + ")"));
    if (!pc.plan.not_run.empty()) notes->push_back(NotRunNote(pc.plan, ci));
    for (const std::string& r : pc.plan.rejected)
      notes->push_back(NoteText("- not modeled (command " + std::to_string(ci + 1) + "): " + r));
    if (pc.plan.repeats > 0) {
      std::string vars;
      for (const auto& v : pc.plan.repeat_vars) vars += (vars.empty() ? "" : ", ") + v;
      notes->push_back(NoteText("- repeated (command " + std::to_string(ci + 1) + "): " +
                                std::to_string(pc.plan.repeats) + " run(s) repeat a configuration above" +
                                (vars.empty() ? "" : " (loop variable " + vars + " reaches no flag)") +
                                "; each configuration is modeled once"));
    }
    for (size_t i = 0; i < pc.plan.invocations.size(); ++i) {
      const auto recs = RecordsOf(pc, i);
      if (recs.empty()) *complete = false;
      const BenchInvocation& inv = pc.plan.invocations[i];
      for (const RunRecord* r : recs) {
        rows.push_back(RowFromRecord(*r));
        rows.back().cal_key = RowCalibrationKey(inv, rows.back().config, w.unit->day);
      }
    }
  }
  if (!w.unit->ran_on_cpu.empty() &&
      std::any_of(rows.begin(), rows.end(), [](const TableRow& r) { return engine::IsModeledTarget(r.target); }))
    notes->push_back(NoteText("- Ran on a CPU (Config: " + w.unit->ran_on_cpu + ")") +
                     ": the v5p model's figures are not what it ran (`--target cpu` measures this machine)");
  MarkRecordedFailures(w, &rows, notes);
  for (auto& n : FoldIndistinctRows(&rows, w.unit->recorded)) notes->push_back(NoteText(n));
  return rows;
}

}  // namespace

UnitTable TableOf(const UnitWork& w) {
  UnitTable t;
  t.rows = UnitRows(w, &t.notes, &t.complete);
  if (!w.unit->recorded.empty()) t.places = RecordedPlaces(t.rows, w.unit->recorded);
  return t;
}

std::string ChartLink(const LoadedDocument& doc, const UnitWork& w, const UnitTable& table, const Region* old, bool draw,
                      std::ostream& err, int* write_errors, bool* chart_stale) {
  const Entry* e = doc.logbook.FindEntry(w.unit->id);
  if (!e) return "";
  // An entry that ran on a CPU gets no chart of the model's figures: they
  // are not what it ran (its table says so).
  if (!w.unit->ran_on_cpu.empty() &&
      std::all_of(table.rows.begin(), table.rows.end(), [](const TableRow& r) { return engine::IsModeledTarget(r.target); }))
    return "";
  ChartDraw how;
  how.write = draw;
  if (old) how.recorded = FindChartStamp(old->content);
  ChartOptions options;
  options.primary_metric = PrimaryMetric(doc.logbook);
  if (w.model && w.model->have_bands) options.ratio_band = w.model->bands.within_entry;
  options.prediction = !PredictionLead(w, table.rows).empty();
  // The figures listed under the table are not listed again under the chart.
  const std::vector<bool> on_table = FiguresOnTable(table.places);
  for (size_t i = 0; i < on_table.size(); ++i)
    if (!on_table[i]) options.listed.insert(w.unit->recorded[i].run.id);
  auto chart = ChartForEntry(doc.path, *e, ChartRuns(w), options, how);
  if (!chart.ok()) {
    const auto code = chart.status().code();
    if (code != Status::Code::kNotFound)
      err << doc.path << ":" << e->heading_line << ": " << e->id << ": chart: " << chart.status().ToString() << "\n";
    if (code != Status::Code::kIOError) return "";
    if (write_errors) ++*write_errors;
    // The old chart no longer shows these runs: no link to it, but a reason.
    return "Chart not drawn: " + NoteText(chart.status().message()) + ". The next `moelog update` retries.\n";
  }
  if (!chart->files.current && chart_stale) *chart_stale = true;
  return chart->markdown + "\n";
}

std::vector<RegionEdit> RenderEdits(const LoadedDocument& doc, const SessionOptions& opt, bool draw,
                                    const std::vector<UnitWork>& work, SessionSummary* sum, std::ostream& out,
                                    std::ostream& err) {
  std::vector<RegionEdit> edits;
  SharedGnuplot charts;  // one gnuplot process draws every chart of the update
  for (const auto& w : work) {
    const std::string invalid = InvalidCommands(doc, w, sum, err);
    if (!w.runnable && opt.show_recorded) ShowRecorded(doc, w, nullptr, out);
    if (!w.runnable && !w.unit->recorded.empty() && doc.kind == DocumentKind::kLogbook) {
      edits.push_back(EditOf(*w.unit, RecordedRegion(doc, draw, w, sum, out, err) + invalid));
      if (opt.print_tables) PrintTable(*w.unit, edits.back().content, out);
      continue;
    }
    if (!w.runnable) {
      SkipUnit(doc, w, invalid, &edits, out);
      continue;
    }
    auto content = UnitRegion(doc, opt, draw, w, sum, out, err);
    if (!content) continue;
    if (opt.print_tables) PrintTable(*w.unit, *content, out);
    edits.push_back(EditOf(*w.unit, *content));
  }
  return edits;
}

void AddCriteriaStatus(const LoadedDocument& doc, RunStore* store, const LauncherTable* table,
                       std::vector<RegionEdit>* edits,
                       SessionSummary* sum, std::ostream& err) {
  const Logbook& lb = doc.logbook;
  const Section* s = lb.FindSection(SectionKind::kStopCriteria);
  if (!s) return;
  bool any = false;
  for (const auto& b : StopCriteriaBullets(lb, doc.text)) any = any || FindPredicateText(b.text).has_value();
  if (!any) return;
  // This session's runs are stored by now: the counted runs include them.
  // Both targets, as `moelog check` counts them.
  std::vector<StoredRun> runs = CountedRuns(lb, store, {"v5p", "cpu"}, table);
  // And the figures every entry's Result records (runs "<entry>#n", source
  // recorded), as `moelog check` counts them by default.
  for (const auto& u : doc.units)
    for (const auto& f : u.recorded) runs.push_back(f.run);
  auto body = CriteriaStatusRegion(doc.text, lb, runs);
  if (!body.ok()) {  // a bad predicate: FILE:LINE, and the update fails
    err << body.status().message() << "\n";
    ++sum->invalid;
    return;
  }
  RegionEdit e;
  e.id = kCriteriaRegionId;
  e.content = *body;
  e.insert_after_line = s->bullets.empty() ? s->heading_line : s->bullets.back().end_line;
  e.blank_before = true;
  edits->push_back(std::move(e));
}

void DropUpToDate(const LoadedDocument& doc, std::vector<UnitWork>* work, std::ostream& err) {
  auto up_to_date = [&](const UnitWork& w) {
    if (!w.runnable) return false;
    const UnitTable table = TableOf(w);
    if (!table.complete) return false;
    std::string content = RenderUnit(w, table);
    const Region* r = doc.scan.Find(w.unit->id);
    bool chart_stale = false;
    if (doc.kind == DocumentKind::kLogbook) content += ChartLink(doc, w, table, r, false, err, nullptr, &chart_stale);
    return r && !r->edited && !chart_stale &&
           doc.text.substr(r->begin_offset, r->end_offset - r->begin_offset) ==
               FormatRegion(w.unit->id, content, r->indent);
  };
  work->erase(std::remove_if(work->begin(), work->end(), up_to_date), work->end());
}

void LearnCalibration(const std::vector<UnitWork>& work, ModelView* model, bool fresh_only) {
  model->Learned();
  for (const auto& w : work) {
    if (fresh_only && !RanNow(w)) continue;
    if (w.unit->recorded.empty() || w.unit->when.empty() || !w.runnable) continue;
    std::vector<std::string> notes;
    bool complete = true;
    model->samples[w.unit->id] = TableSamples(UnitRows(w, &notes, &complete), w.unit->recorded, w.unit->id, w.unit->when,
                                              model->have_bands ? &model->bands : nullptr);
  }
}

}  // namespace moelog::logbook
