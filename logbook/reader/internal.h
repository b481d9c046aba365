// The recorded-figures reader's shared parts: the types and helpers its stages
// (key_*, figures_*, classify, table, entry) hand each other. Internal to
// logbook/reader/; other modules call the API of reader/recorded.h.
#ifndef MOELOG_LOGBOOK_READER_INTERNAL_H_
#define MOELOG_LOGBOOK_READER_INTERNAL_H_

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "engine/bench_config.h"
#include "engine/bench_flags.h"
#include "logbook/doc/parse_logbook.h"
#include "logbook/plan/launchers.h"
#include "logbook/reader/blocks_text.h"
#include "logbook/reader/config_words.h"
#include "logbook/reader/prose.h"
#include "logbook/reader/recorded.h"
#include "logbook/reader/vocabulary.h"
#include "logbook/text.h"

namespace moelog::logbook::reader {

using Config = std::map<std::string, std::string>;
using Vars = std::map<std::string, std::vector<std::string>>;  // varied key -> values
// The earlier entry whose figures `run` restates, every figure of its own
// (its metric's earlier figures, compared at `run`'s written digits), or "".
// Earlier entries' figures by metric, sorted by value (stored units): a
// later figure looks up only the values that round to it.
using EarlierFigures = std::map<std::string, std::multimap<double, std::pair<std::string, const StoredRun*>>>;
struct ParsedCommand;
struct CommandScan;
struct FlagValues;
struct Figure;
struct Listed;
struct ScanMode;
struct UnitRead;
struct FigureScan;
struct EntryCtx;
struct WalkScope;
struct Point;
struct ColumnInfo;
struct CellValue;
struct WrittenValue;
struct Vocabulary;

// The metric of a figure written without a unit whose entry has no harness
// moelog knows ("none `252.091`"): never tabled as such.
inline constexpr char kNoUnit[] = "no_unit";
// A prose number without a unit after a figure with one (ScanMode::carry).
inline constexpr char kCarried[] = "carried";
// Why a text of speedups or changes alone is no run's record (classify keeps
// them in an entry that records nothing else).
inline constexpr char kDerivedWhy[] = "derived (a speedup, a change, an efficiency), not a measurement";
// At most this many figures are read from one entry (one text likewise):
// past it, what reads them (naming, placing, telling apart) would grow with
// the square of their number.
inline constexpr size_t kMaxFiguresPerEntry = 512;
// The text a figure keeps of where it was read (to name it, list it, tell
// its labels): at most this much, so a long text of many figures is not
// copied whole into each of them (memory and time would grow with the text's
// length times its figures). Cut at a character's start.
inline constexpr size_t kMaxFigureText = 4096;
// The side of an arrow a figure set holds, in its "@value" key.
inline constexpr char kSide = '\x1f';
// Where a table column's scale keys start in its figure set's key
// ("Latency (seq=1024)": "\x1eseq=1024;").
inline constexpr char kScaleMark = '\x1e';

bool IsRunKey(const std::string& key);
std::string SnakeKey(const std::string& key);
bool IsIdentStart(char c);
bool IsIdentChar(char c);
std::vector<std::string> Words(const std::string& s);
std::string StripVar(std::string v);
bool IsBoolFlag(const std::string& key);
std::string ScriptName(const std::string& w);
bool EnvAssignment(const std::string& w, std::string* key, std::string* value);
void TupleLoops(const std::string& cmd, std::map<std::string, std::vector<std::string>>* loops);
bool TestRun(const std::vector<std::string>& w, size_t i);
std::string ScriptAt(const std::vector<std::string>& w, size_t* i);
void FlagAt(const std::vector<std::string>& w, size_t* i, const CommandScan& st, ParsedCommand* pc);
void ParseCommand(const std::string& cmd, ParsedCommand* pc);
void ParseCommandAt(const std::string& cmd, int if_depth, int depth, ParsedCommand* pc);
std::string PlainWord(const std::string& raw);
std::string InnerScript(const std::string& raw);
std::string QuotedScript(const std::string& raw);
std::vector<std::string> BothValues(const std::string& key);
void AdapterRunKeys(const std::string& cmd, Vars* vars);
bool IsUpperOrDigit(char c);
int CountBefore(const std::string& text, size_t e, size_t* b);
int PerNodeGpus(const std::string& text, bool* total);
int CountAfter(const std::string& text, size_t q);
int NodeCount(const std::string& text);
int GroupsBefore(const std::string& text, size_t* b);
int CountBeforeName(const std::string& text, size_t p, size_t n);
std::string AcceleratorIn(const std::string& text);
std::string EntryAccelerator(const Entry& e);
int AcceleratorCount(const std::string& accelerator);
bool StartsHardware(const std::string& word);
std::vector<std::string> HardwareStated(const std::string& text);
std::vector<std::pair<int, std::string>> DocumentHardware(const Logbook& logbook);
std::string HardwareAt(const std::vector<std::pair<int, std::string>>& statements, int line);
void KeyHardware(const Entry& entry, const std::string& document, std::vector<RecordedFigure>* out);
void FieldLineKeys(const Entry& entry, std::vector<RecordedFigure>* out);
// RecordedFigures with the hardware the document states above the entry
// ("H100x4"; DocumentHardware, HardwareAt), for figures whose entry states none.
std::vector<RecordedFigure> RecordedFiguresUnder(const Entry& entry, const std::string& file,
                                                 std::vector<UnreadFigures>* unread, bool mfu_logbook,
                                                 bool tflops_logbook, double tflops_example,
                                                 const std::string& document_hardware,
                                                 const HeadingUnit& heading_unit = {},
                                                 const std::string& table_unit = "");
// The unit the document's own text under its title says its tables are
// written in ("p50 latency in microseconds per variant"), when one sentence
// that states no figure names one such unit and no other names another; "".
std::string DocumentTableUnit(const Logbook& logbook);
std::string ChoiceKey(const std::string& word);
bool ConfigList(const Bullet& b, const std::set<std::string>& flag_keys, std::string* key,
                std::vector<std::string>* values);
std::vector<std::pair<std::string, std::string>> FlagSpans(const Entry& e, const ParsedCommand& parsed);
ParsedCommand EntryCommands(const Entry& e);
FlagValues CollectFlagValues(const ParsedCommand& pc, const std::vector<std::pair<std::string, std::string>>& spans,
                             Vars* vars);
void SortFlagValues(const ParsedCommand& pc, bool generic, FlagValues* fv, Config* fixed, Vars* vars);
std::string Lower(std::string w);
bool RestatingWord(const std::string& w);
bool ReferenceWord(const std::string& w);
void ConfigBullet(const Bullet& b, bool generic, const std::set<std::string>& flag_keys, Config* fixed, Vars* vars);
std::set<std::string> ArmChainKeys(const Entry& e);
void EntryConfig(const Entry& e, Config* fixed, Vars* vars, bool* generic, bool* known_harness, Config* feeds,
                 std::set<std::string>* commands_vary);
std::string KeyOfValue(const Vars& vars, const std::string& word);
bool ShortValue(const Vars& vars, const std::string& word, std::string* key, std::string* value);
bool KeyDigits(const std::string& w, const Vars& vars, std::string* key, std::string* value,
               const Config* fixed = nullptr);
Config ShapeLabel(const std::string& w, const Vars& vars, const Config& fixed);
bool PartsName(const std::string& w, const std::string& k);
bool BoolWord(const std::string& word, const Vars& vars, std::string* key, std::string* value);
bool IsFixedValue(const Config& fixed, const std::string& word);
Config LabelWords(const std::string& label, const Vars& vars, const Config& fixed, bool generic,
                  const Config* feeds = nullptr);
bool LooseValue(const Vars& vars, const std::string& word, std::string* key, std::string* value);
bool FillerWord(const std::string& w);
Config LabelConfig(const std::string& label, const Vars& vars, const Config& fixed, bool generic = false,
                   const Config* feeds = nullptr);
int WrittenDecimals(const std::string& num);
bool UnitOf(const std::string& unit, UnitInfo* info);
bool UnitOfIn(const std::string& unit, const std::string& before, UnitInfo* info);
bool RatedUnit(const std::string& unit, const std::string& before);
bool AnyUnit(const std::string& unit, UnitInfo* info);
// Digits grouped by '_' or '\'' as programs and Swiss tables write them
// ("40_977", "26'661MiB") regrouped by commas in place, lengths kept; true
// when any was.
bool CommaGrouped(std::string* text);
bool UnitNamedAfter(const std::string& unit, const std::string& s, size_t at, const std::string& before,
                    UnitInfo* info);
double MagnitudeAt(const std::string& s, size_t k, size_t* len);
std::string PercentMetric(const std::string& s, size_t from, size_t to);
std::string UnitToken(const std::string& s, size_t k);
// A time written in two to four parts, largest unit first, each a number
// glued to its unit ("3m 04s", "2m09s", "1h 12m", "1m 44s 79ms", "2h 51m
// 31s"; the units and their lengths: duration_parts of
// data/reader/vocabulary.json); only the last part may have a fraction
// ("1m2.500s"). `at`: where the first part's number starts. The one reader
// of such times (prose, printed lines and table cells): their sum in
// seconds, where the text ends, the last part's digits, the first part's
// unit in seconds, whether hours (or more) lead, and the decimals the sum is
// written to in seconds; false when the text there is no such time ("3ms",
// a lone "5m").
struct PartsDuration {
  double seconds = 0;
  size_t end = 0;
  std::string last_digits;
  double first_unit = 0;
  bool hours = false;
  int decimals = 0;
};
bool DurationInParts(const std::string& s, size_t at, PartsDuration* out);
std::string WordAt(const std::string& s, size_t p, size_t* end);
bool MfuQualifier(const std::string& w);
bool MfuQualifies(const std::string& s, size_t from, size_t to);
bool ThresholdBefore(const std::string& s, size_t at);
// figures_quality.cc: a quality of a model's output by its snake-case name
// ("val_loss", "perplexity"), else ""; the quality the words before a bare
// number at `start` name; the quality a bare number names by those words
// or, as the text's first number, by the label it follows.
std::string QualityName(const std::string& name);
std::string QualityBefore(const std::string& s, size_t start);
struct ScanMode;
std::string BareQuality(const std::string& s, size_t start, const ScanMode& mode);
// Whether a word before a figure names the figure's own metric ("loss" of
// val_loss, "ppl" of ppl): no run's name; also whether a metric is a unit's
// or one named apart from it ("time_s" of "after_time_s").
bool NamesOwnMetric(const std::string& word, const std::string& metric);
// A bound word right after a figure's unit ("4 ms or less", "2 ms 以下";
// bound_words_after of vocabulary.json).
bool BoundWordAfter(const std::string& s, size_t at);
// "147 734 cyc" as "147734 cyc": thousands grouped by single spaces before a unit (entry.cc, headings).
std::string SpaceGroupedNumbers(const std::string& t);
// "84% complete", "31% done": a running job's progress follows (progress_words_after of vocabulary.json).
bool ProgressWordAfter(const std::string& s, size_t at);
bool BoundMarkBefore(const std::string& s, size_t at);
bool PercentClauseIsMfu(const std::string& s, size_t from, size_t to);
std::string WordBefore(const std::string& s, size_t at, size_t* begin = nullptr);
size_t ArrowAt(const std::string& s, size_t p);
std::string ArrowUnit(const std::string& s, size_t p);
std::vector<std::pair<std::string, std::string>> AtList(const std::string& s, size_t p, size_t n);
size_t ListNext(const std::string& s, size_t j);
bool CountWord(const std::string& w);
bool StatWord(const std::string& w);
bool MetricWord(const std::string& w);
bool NamesTflops(const Bullet& b);
bool BulletHas(const Bullet& b, const char* word);
bool NoName(const std::string& w);
bool SettingKey(const std::string& key);
std::string KeyUnit(const std::string& key);
std::string DigitsAt(const std::string& s, size_t* j);
// Where an exponent written at s[j] ends ("e-05" of "1.285e-05", "E+3"),
// when no word but a unit goes on after it; `j` when there is none.
size_t ExponentEnd(const std::string& s, size_t j);
size_t CommaListNext(const std::string& s, size_t j);
void ShareListUnit(const std::string& s, size_t i, double value, bool comma_list,
                   const std::vector<Listed>& listed, Figure* f, std::vector<Figure>* out);
bool KeyValueFigure(const std::string& s, size_t eq, size_t* end, Figure* f);
bool PluralNoun(const std::string& w);
UnitRead ReadUnit(const std::string& s, size_t j);
bool AfterArrow(const std::string& s, size_t start);
bool ChangeOf(const std::string& s, size_t start, size_t end);
bool PercentOfPeak(const std::string& s, size_t start);
bool PercentFigure(const std::string& s, size_t start, const UnitRead& u, double value, bool sign, bool negative,
                   const ScanMode& mode, size_t* i, Figure* f);
bool JobDuration(const std::string& s, size_t start);
bool DurationAdjective(const std::string& s, const UnitRead& u, size_t start);
std::string WordAfterTime(const std::string& s, size_t at);
std::string LeadWord(const std::string& s, size_t start, size_t* at = nullptr);
bool EventTime(const std::string& s, const UnitRead& u);
// A label before a figure naming what a change gains or saves ("Measured
// gain: 0.63 s"; change_label_words of vocabulary.json).
bool ChangeLabelBefore(const std::string& s, size_t start);
bool DeltaLead(const std::string& s, size_t start);
// A figure of prose worked out in arithmetic of its clause (an operand of a
// product or a sum whose result is a quantity: "700W x $0.12/kWh = ~$60";
// classify_worked.cc).
bool ProseOperand(const std::string& s, size_t start, size_t end);
const char* NoFigureWhy(const std::string& s, size_t start, const UnitRead& u, const std::string& metric);
bool UnitFigure(const std::string& s, size_t start, const UnitRead& u, const UnitInfo& info, double value,
                size_t* i, Figure* f);
bool BareFigure(const std::string& s, size_t start, size_t j, const UnitRead& u, double value, const ScanMode& mode,
                size_t* i, Figure* f);
bool FigureUnit(const std::string& s, size_t start, size_t j, double value, bool sign, bool negative,
                const ScanMode& mode, int arrow_left, const std::string& arrow_unit, size_t* i, Figure* f,
                std::string* unit_out, bool* before_arrow);
bool NameFigure(const std::string& s, size_t start, int arrow_left, std::vector<Figure>* out, Figure* f);
size_t ClauseStart(const std::string& s, size_t at, bool sentence);
bool StatisticWord(const std::string& w);
// A figure ending at s[end] that a word closing its parentheses says is shared
// (`(0.057ms both)`; figures_shared.cc): the sentence's measurement, no aside.
bool SharedAside(const std::string& s, size_t end);
// Whether a qualifier ("prefill", "exposed_collective", "ttft") names a part or a
// statistic of one run (same_run_words of data/reader/table.json), not a run.
bool PartOfARun(const std::string& qualifier);
bool RunTag(const std::string& w);
bool SubjectFiller(const std::string& w, bool prose = false);
std::vector<std::string> ClauseWords(const std::string& s, size_t start);
std::string ClauseStatistic(const std::string& s, const std::vector<std::string>& clause, size_t end);
std::vector<std::string> SentenceMarks(const std::string& s, size_t start, bool prose, Figure* f);
void ClauseSubject(const std::vector<std::string>& clause, const std::vector<std::string>& sentence, bool prose,
                   Figure* f);
void ClauseNames(const std::string& s, size_t start, size_t end, bool stat_named, Figure* f, bool prose = false);
std::string FigureText(const std::string& text);
// A table row as listed: its cells between bars (FigureText).
std::string RowText(const std::vector<std::string>& row);
// The figures of `from` (metrics, units, digits as written, derived and
// approximate marks) into `to`, beside those it holds.
void MergeRunFigures(const StoredRun& from, StoredRun* to);
bool GluedNumber(FigureScan& st, bool sign);
bool ListedNumber(FigureScan& st, size_t start, size_t j, double value, bool sign);
bool ArrowAfterUnit(const std::string& s, size_t at);
void ProseNames(FigureScan& st, size_t start, Figure* f);
void FromTo(FigureScan& st, size_t start, Figure* f);
bool EstimateAfter(const std::string& s, size_t at);
bool ComputedFigure(const std::string& s, size_t start);
// A factor of a product worked out right after it ("... x 20 s = 16 min";
// figures_worked.cc): `start` the figure's number, `end` past its unit.
bool OperandFigure(const std::string& s, size_t start, size_t end);
void KeepFigure(FigureScan& st, Figure f, size_t start, double value, const std::string& unit, bool before_arrow,
                const std::string& num);
bool SpeedupOfNoRun(const std::string& s, size_t at);
bool ParenCompanion(FigureScan& st, size_t start, Figure f, const std::string& num);
// figures_pairs.cc: the sides of a comparison of runs ("12.4s vs 12.6s",
// "about 736 ns/call versus about 2 ns/call"): where a versus word
// (versus_words) stands right before a number, else npos; whether one
// follows a figure ending at `end` (past at most three words); the unit of
// the number after one at `at` ("9.4 vs 9.45s"); whether a figure in
// parentheses is such a side, not an aside; each side keyed side=1, 2 ...
size_t VersusBefore(const std::string& s, size_t start);
bool VersusAfter(const std::string& s, size_t end);
std::string VersusUnit(const std::string& s, size_t at);
bool VersusSide(const FigureScan& st, size_t start, size_t end, const Figure& f);
void VersusSides(FigureScan& st, size_t start, Figure* f);
// Whether the word ending the text before `at` follows a count that opens
// parentheses ("(8 tokens in", "(512 requests over"; count_span_words): the
// time after it is what that much work took, a run's figure.
bool SpansACount(const std::string& s, size_t at);
bool DifferenceAfter(const std::string& s, size_t at);
// The numbers of `t` written with `min_significant` significant digits or more.
void ScanWrittenNumbers(const std::string& t, std::set<double>* out, size_t min_significant = 5);
std::vector<std::pair<int, std::string>> TextOutsideEntries(const Logbook& logbook);
// Figures under a part of an entry whose heading names a recap or a
// comparison (IsRecapHeading) that the document writes outside that part:
// restated, listed in `unread` (classify_recap.cc).
void DropRecapRestated(const Logbook& logbook, std::vector<std::vector<RecordedFigure>>* out,
                       std::vector<std::vector<UnreadFigures>>* unread);
// Figures an entry leads as expected, projected or aimed for ("**Expected
// results:**" over a list, a table or a printed block) or writes in an open
// task of a checklist ("- [ ] decode: >60 tok/s"): listed, not runs
// (classify_plans.cc).
void DropPlanned(const Entry& entry, std::vector<RecordedFigure>* out, std::vector<UnreadFigures>* unread);
// The figures of a part of a document whose title calls it an estimate
// (IsEstimateTitle), unless the part names what it measured or runs a
// command: estimates, listed (classify_plans.cc).
void DropEstimateDocument(const Logbook& logbook, const Entry& entry, std::vector<RecordedFigure>* out,
                          std::vector<UnreadFigures>* unread);
// `tps` figures of an entry that runs a database tool (pgbench, sysbench:
// transaction_programs of vocabulary.json): transactions a second, not
// tokens (classify_rates.cc).
void TransactionRates(const Entry& entry, std::vector<RecordedFigure>* out);
// Figures of a line or a table's row labelled only by a device's name, all
// bandwidth, compute or memory, in a part that runs nothing ("- A100: 2.0
// TB/s"): the device's datasheet, listed, not runs (classify_specs.cc).
void DropDatasheet(const Entry& entry, std::vector<RecordedFigure>* out, std::vector<UnreadFigures>* unread);
// Figures of a fenced block no command printed that works figures out
// ("Headroom: 80 - 66 = 14 GB"): a calculation, listed, not runs
// (classify_worked.cc).
void DropWorkedBlocks(const Entry& entry, std::vector<RecordedFigure>* out, std::vector<UnreadFigures>* unread);
// The time a task took beside what it completed ("Duration: 412.6s" in a
// part that passed "24/24", "| ✅ 41.2s |"), in a part that runs nothing:
// the work's bookkeeping, listed, not runs (classify_bookkeeping.cc).
void DropBookkeeping(const Entry& entry, std::vector<RecordedFigure>* out, std::vector<UnreadFigures>* unread);
// An entry or a part that says it has not run, or is headed as an estimate,
// and a tracker's rows still queued, hold no run (classify_status.cc).
void DropNotRun(const Entry& entry, std::vector<RecordedFigure>* out, std::vector<UnreadFigures>* unread);
// Why the figures a heading states are no run's, else "": a heading led by
// a goal or an expectation ("### Goal: 2 ms p99"; plan_leads), a device's
// specifications beside its name ("## A100 80GB (2.0 TB/s, 312 TFLOP/s)").
std::string HeadingNoRun(const std::string& heading);
void ScanNumber(FigureScan& st, bool sign);
// Why the numbers with a unit of `text` that are no figure of any run were
// passed over (an event's, a job's or a compile's duration, a setting, a
// threshold, a device's rating), each reason once, in the order met; empty
// when there is none. The same scan as Figures: what --show-recorded tells
// of a line no figure was read from.
std::vector<std::string> NoFigureReasons(const std::string& text);
std::vector<Figure> Figures(const std::string& s, bool bare_is_tflops = true, bool percent_is_mfu = false,
                            bool prose = false, const std::string& carry = "", const std::string& label = "",
                            bool label_shares = false);
StoredRun NewRecorded(const EntryCtx& x, const Config& context, int line);
bool HasBaseMetric(const StoredRun& r);
bool CheckColumn(const std::string& header);
std::string PlainLabel(const std::string& label);
size_t LabelEnd(const std::string& text);
bool NamesShares(const std::string& label);
bool BareIsTflops(const Figure& f, const EntryCtx& x, const WalkScope& w);
Config WordConfig(const Figure& f, const EntryCtx& x);
void SlashLabelList(const Config& context, const std::string& text, std::vector<Figure>* figures);
bool CarriedFigure(const EntryCtx& x, Figure* f);
bool SaysRepeats(const std::string& text);
void KeepRepeats(const std::string& metric, std::vector<double> later, bool listed, Point* p);
void AddToPoint(const Figure& f, bool may_repeat, Point* p, std::vector<double>* repeats);
std::string SiblingUnit(const std::vector<Bullet>& items);
// Whether a list's items each give one share no word names ("2B base:
// 65.1%", "4B base: 76.9%"), two at least, and no item a figure of another
// unit right after its label.
bool ListOfShares(const std::vector<Bullet>& items);
// The share a field's name names ("CPU", "CPU usage", "accuracy"), or "" (figures_scan.cc).
std::string FieldPercentMetric(const std::string& label);
bool BareNumber(const std::string& rest);
std::string LabelUnitOf(const std::string& label);
// The text of the list item (a field's or a note's, or an item below one)
// at `line` of `e`, or "" when no item starts there (table_points.cc).
std::string ItemTextAt(const Entry& e, int line);
// A table cell written as a sentence ("Les threads se bloquent à cause du
// GIL.", a remark of more than eight words): a note on its row, never a
// key's value nor a part of the row's name (table_cells.cc).
bool SentenceCell(const std::string& cell);
// A property's dotted name ("linger.ms", "spark.executor.memory"): letters
// first, parts joined by dots, no number after a dot (classify_times.cc).
bool DottedProperty(std::string w);
// A list of one run's samples after a label naming their `unit` ("Raw
// throughput (req/s): 4120, 4188, 4097"; figures_samples.cc): one row, each
// sample named apart (run_1_<metric>, ...); false when `rest` is no such list.
bool SampleList(const std::string& rest, const std::string& unit, int line, const std::string& text, const EntryCtx& x,
                const WalkScope& scope, std::vector<RecordedFigure>* out);
std::string UnitAfterLeadNumber(const std::string& rest, const std::string& unit);
std::vector<Point> BulletPoints(const std::string& rest, const EntryCtx& x, const WalkScope& w, int line,
                                const std::string& text, std::vector<UnreadFigures>* unread);
void KeepPoints(const std::string& rest, const std::string& kept, int line, const EntryCtx& x, const WalkScope& scope,
                std::vector<RecordedFigure>* out, std::vector<UnreadFigures>* unread);
void Walk(const Bullet& b, WalkScope scope, const EntryCtx& x, std::vector<RecordedFigure>* out,
          std::vector<UnreadFigures>* unread, const std::string& text_override = "");
std::vector<Bullet> OutputBullets(const std::vector<std::pair<int, std::string>>& lines, size_t* i, int indent,
                                  int first_line);
std::vector<Bullet> OutputBullets(const FencedBlock& block);
bool HasWord(const std::string& h, const std::string& w);
bool HeaderUnit(const std::string& h, ColumnInfo* c, std::string* metric);
ColumnInfo ColumnMetric(const std::string& raw);
std::string Unticked(std::string s);
std::string CellCore(std::string cell, bool* approximate);
std::optional<CellValue> CellNumber(std::string cell, const ColumnInfo& col);
ColumnInfo CellUnitMetric(const TableBlock& t, size_t c, const std::string& header);
std::string Qualifier(const std::string& header);
void NameColumns(const std::vector<std::string>& headers, std::vector<ColumnInfo>* cols);
bool NeutralKeyName(const std::string& k);
bool SummaryTable(const std::vector<std::string>& headers, const std::vector<ColumnInfo>& cols);
bool SpreadStatistic(const std::string& w);
void StatisticColumns(const std::vector<std::string>& headers, std::vector<ColumnInfo>* cols);
// Columns of one metric that are runs of their own ("Baseline (ms) |
// Optimized (ms)"): each keyed variant=<its header's words> by its scale, so
// each is a figure set of its own (table_runs.cc).
void RunColumns(const std::vector<std::string>& headers, std::vector<ColumnInfo>* cols);
// A table's one scaled column's scale onto the shares beside it
// ("| Latency (B=128) | Peak BW% |"), and its one "@value" onto the metric
// columns without one ("| Train Loss @200 | tok/s |"): one row, not two.
void OneScale(std::vector<ColumnInfo>* cols);
void ScaleByFirstWord(const std::vector<std::string>& headers, std::vector<ColumnInfo>* cols);
void OneAt(std::vector<ColumnInfo>* cols);
// A figure set whose metrics are one base metric qualified by runs
// ("mojo_time_s", "upstream_time_s" of a printed row; "torch_ms=1.2
// triton_ms=0.8"): one figure set per run, keyed variant=<qualifier>, the
// metric its base (table_runs.cc). Parts of one run stay one set.
void SplitRunMetrics(std::vector<RecordedFigure>* out);
// Figure sets of one run on consecutive lines of prose or of one list, with
// one configuration and no metric twice: one set, the later lines joined to
// the first (table_one_run.cc).
void OneRunLines(const Entry& e, std::vector<RecordedFigure>* out);
// `from`'s figures onto `row` (values, units, decimals, repeats, derived and
// approximate marks, and its lines as joined ones), each metric named
// QualifiedMetricName(qualifier, metric); false, nothing joined, when a name
// is on the row already (table_one_run.cc).
bool JoinRun(RecordedFigure* row, const RecordedFigure& from, const std::string& qualifier = "");

// Whether a line is a record's key and its value ("- `parseMs`: `1680.2`",
// "- render_ms: 62.4"): one word in snake or camel case that names its unit.
bool KeyedLine(const std::string& text);

// The lines of the top-level notes that are items of a list of a record's
// keys: two or more of its items KeyedLine, none a sentence of prose.
std::set<int> RecordKeyList(const std::vector<Bullet>& notes);
// Whether two figure sets' metrics together name runs apart: one base
// metric qualified by words that are no part of a run ("scylla_pct" and
// "minio_pct"; table_runs.cc).
bool RunsApart(const StoredRun& a, const StoredRun& b);
std::vector<ColumnInfo> TableColumns(const TableBlock& t, std::vector<std::string>* headers);
std::string AtKey(const std::vector<ColumnInfo>& cols, const EntryCtx& x);
bool OutcomeCount(const std::string& header);
bool RemarkColumn(const std::string& header);
void LabelCell(const std::string& header, std::string cell, const EntryCtx& x, Config* cfg, std::string* label);
bool NumberCell(const std::string& raw, std::string* unit);
bool EmptyCell(const std::string& raw);
bool ArrowCell(const std::string& cell, std::string* before, std::string* after);
bool NamedParts(const std::string& cell, std::vector<std::pair<std::string, std::string>>* parts);
// A result cell of several readings of its row ("baseline 2.41 H/s; candidates
// 2.37/2.52 H/s", "4.18 vs 4.02 H/s"): each reading's figure and its label
// ("baseline", "candidates 1"; "1", "2" when no words name them), every
// reading in one unit. False for any other cell.
bool ReadingParts(const std::string& cell, std::vector<std::pair<std::string, std::string>>* parts);
bool DurationCell(const std::string& cell, std::string* seconds);
bool NamesUnderDerivedHeader(const TableBlock& t, size_t c, const ColumnInfo& col);
bool ParameterHeader(const std::string& header);
bool SettingHeader(const std::string& header);
bool PlaceholderCell(const std::string& cell);
bool ComparisonCell(const std::string& cell);
bool DashRange(const std::string& cell, std::string* low, std::string* high);
bool LetterKeyColumn(const TableBlock& t, const std::vector<std::string>& headers);
bool RangeCell(const std::string& cell, std::string* figure, std::string* low, std::string* high);
bool SplitCell(const std::string& cell, const ColumnInfo& col, std::map<std::string, StoredRun>* by_at);
void ChangeUnitsAsWritten(const TableBlock& t, const std::vector<std::string>& headers, std::vector<ColumnInfo>* cols);
bool EstimateColumn(const std::string& header);
bool PlanHeader(const std::string& header);
std::vector<size_t> CheckColumns(const std::vector<std::string>& headers, const std::vector<ColumnInfo>& cols);
bool RateBesideChecks(const std::vector<ColumnInfo>& cols, const std::vector<size_t>& checks);
TableBlock WithoutColumns(const TableBlock& t, const std::vector<size_t>& drop);
// A table whose unit is a column of its own (JMH's `| Score | Error | Units
// |`, table_units.cc): into `folded`, each row's unit joined to its figure's
// cell (decimal commas as points), the unit, spread and repeat-count columns
// left out. False for any other table.
bool FoldUnitColumn(const TableBlock& t, TableBlock* folded);
// A table of cells "12.1s / 81.2 MIPS" and "8.4s / 70.3" (table_units.cc):
// into `shared`, each bare second part written with the one unit the
// table's other cells write after a first part of its metric. False (no
// cell changed) for any other table.
bool ShareSlashUnits(const TableBlock& t, TableBlock* shared);
void MetricCell(const std::string& cell, const ColumnInfo& col, std::map<std::string, StoredRun>* by_at);
bool ValueHeader(const std::string& h, const EntryCtx& x);
// `beside_metrics`: value columns beside columns of the rows' own metrics too.
std::vector<size_t> ValueColumns(const TableBlock& t, const std::vector<std::string>& headers, const EntryCtx& x,
                                 bool beside_metrics = false);
ColumnInfo CaptionUnit(const std::string& text);
ColumnInfo ProseUnit(const TableBlock& t, const std::vector<size_t>& vcols, const EntryCtx& x);
ColumnInfo ValueMetric(const TableBlock& t, const std::vector<size_t>& vcols, const std::vector<ColumnInfo>& cols,
                       const EntryCtx& x);
std::string ValueKey(const std::vector<std::string>& headers, const std::vector<size_t>& vcols, const EntryCtx& x);
bool ValueTableFigures(const TableBlock& t, const std::vector<std::string>& headers,
                       const std::vector<ColumnInfo>& cols, const Config& context, const EntryCtx& x,
                       std::vector<RecordedFigure>* out, std::vector<UnreadFigures>* unread);
bool PlanHeader(const std::string& header);
bool EstimateColumn(const std::string& header);
void TableFigures(const TableBlock& t, const Config& context, const EntryCtx& x, std::vector<RecordedFigure>* out,
                  std::vector<UnreadFigures>* unread);
void ResultLines(const std::string& text, int first_line, const Config& context, const EntryCtx& x,
                 std::vector<RecordedFigure>* out);
void ShellTimeLines(const std::string& text, int first_line, const Config& context, const EntryCtx& x,
                    std::vector<RecordedFigure>* out, std::set<int>* read);
// Load and I/O benchmark tools' printouts (wrk, fio, ApacheBench, sysbench;
// figures_toolruns.cc): one row a run, its figures named as the tool names
// them; the lines read go to `read`; a ratio of the runs (hyperfine's
// "1.52 ± 0.07 times faster than ...") is listed in `unread`, derived.
struct PrintedLine;
void ToolRunLines(const std::vector<PrintedLine>& lines, const Config& context, const EntryCtx& x,
                  std::vector<RecordedFigure>* out, std::set<int>* read, std::vector<UnreadFigures>* unread);
Config Under(const Entry& e, int line, Config context, const EntryCtx& x);
// An output block's configuration from outside it (key_output.cc): the
// sub-heading, a label line right above it, the command it prints for; a
// command's plain arguments after its program ("./bench 1000 4" -> "1000 4").
Config BlockContext(const Entry& entry, const FencedBlock& b, const Config& context, const EntryCtx& x);
// A childless bullet right above an output block that labels it ("* 2 req/s").
bool LabelsAnOutputBlock(const Entry& entry, const Bullet& b);
std::string PositionalArgs(const std::string& cmd);
// A block printed by a command that runs once per value of one shell loop
// ("for t in 1 4 8 16; do ... done"): the key the loop feeds, its values.
bool BlockLoop(const Entry& entry, const FencedBlock& b, std::string* key, std::vector<std::string>* values);
// The figures of a block printed by a shell loop, from `from` on: each keyed
// by its loop value when they are alike otherwise (key_output.cc).
void LoopFigures(const Entry& entry, const FencedBlock& block, size_t from, std::vector<RecordedFigure>* out);
// The figures of each record of a printout (a title between banner marks
// up to the mark alone or the next title) read from `lines` (out[from..]):
// one row, its metrics named with what each was printed under, its title
// the key record=... (figures_records.cc). A record whose figures differ
// in another key keeps its rows.
struct PrintedLine;
void RecordRows(const std::vector<PrintedLine>& lines, size_t from, std::vector<RecordedFigure>* out);
std::string TableSetup(const Entry& e, const TableBlock& t, const EntryCtx& x);
Config TableContext(const Entry& e, const TableBlock& t, const Config& context, const EntryCtx& x);
void SetupBySubheading(const Entry& e, std::vector<RecordedFigure>* out);
// A key whose value is a figure, a decimal number and its unit glued
// ("Achieved: 939.7 TF" kept as achieved=939.7TF, "N=1.294B)"): a figure
// the reader had no unit for, no configuration; dropped from the runs'
// keys (key_label.cc).
void DropFigureKeys(std::vector<RecordedFigure>* out);
// A printed repeat counter read as a metric ("Pass 1") made a key (pass=1).
void CounterKeys(std::vector<RecordedFigure>* out);
void LeadInSettings(const Entry& e, std::vector<RecordedFigure>* out);
void SetupByLeadIn(const Entry& e, std::vector<RecordedFigure>* out);
// The figures of an output block (figures_output.cc): printed `Name (unit):
// value` lines, key=value and JSON lines, aligned columns and CSV, each
// figure on its own line's row.
void OutputFigures(const Entry& entry, const FencedBlock& block, const Config& context, const EntryCtx& x,
                   std::vector<RecordedFigure>* out, std::vector<UnreadFigures>* unread);
// A bullet of printed key=value spans only ("- `avg_step_ms=20.4`,
// `peak_bytes=2.1e9`"): read as an output line, keyed by the command above
// it; false (nothing read) for any other bullet.
// A printed key's unit from its suffix ("avg_step_ms" -> "ms"), or "";
// whether a key names a figure written without a unit ("speedup", "val_loss").
std::string PrintedKeyUnit(const std::string& key);
bool UnitlessMetricName(const std::string& key);
bool PrintedBullet(const Bullet& b, const WalkScope& scope, const EntryCtx& x, std::vector<RecordedFigure>* out,
                   std::vector<UnreadFigures>* unread);
void UnstampOthers(const EntryCtx& x, std::vector<RecordedFigure>* out);
void FirstCommandDefaults(const EntryCtx& x, std::vector<RecordedFigure>* out);
bool NamesTime(const Bullet& b);
void EntryUnits(const Entry& entry, bool tflops_logbook, double tflops_example, EntryCtx* x);
std::map<std::string, Config> CommandLabels(const Entry& entry);
std::set<std::string> OwnWords(const Entry& entry);
bool FigureField(const Field& f);
bool PlanField(const Field& f);
void FieldFigures(const Entry& entry, size_t fi, const EntryCtx& x, std::vector<RecordedFigure>* out,
                  std::vector<UnreadFigures>* unread);
std::string SentenceText(const std::string& s, size_t b, size_t e);
void ParagraphFigures(const Entry& entry, const EntryCtx& x, std::vector<RecordedFigure>* out,
                      std::vector<UnreadFigures>* unread);
WrittenValue WrittenOf(const StoredRun& later, const std::string& metric);
bool Restates(const WrittenValue& w, double earlier);
bool RestatesValue(const StoredRun& later, const std::string& metric, double earlier);
bool ThreeDigits(const StoredRun& run);
bool RestatesRun(const StoredRun& later, const std::vector<const StoredRun*>& earlier);
// Drops the rows of a table of `e` that all repeat figures of its tables
// above (RestatesRun; one figure of three significant digits at least),
// listing them in `unread` (classify_tablerecap.cc).
void DropRepeatedTables(const Entry& e, std::vector<RecordedFigure>* figs, std::vector<UnreadFigures>* unread);
// Whether a table row's figures carry digits enough to restate an earlier
// figure, not match it by chance: ThreeDigits, or two figures at least, one
// of three significant digits ("682 | 80ms").
bool TableRowDigits(const StoredRun& run);
void DropRestatedTableFigures(size_t from_tables, std::vector<RecordedFigure>* out,
                              std::vector<UnreadFigures>* unread);
EntryCtx WithTableValues(const EntryCtx& x, const std::vector<RecordedFigure>& out, size_t from_tables);
void LooseFigures(const Entry& entry, const EntryCtx& x, std::vector<RecordedFigure>* out,
                  std::vector<UnreadFigures>* unread);
bool NeutralKey(const std::string& k);
bool Fits(const StoredRun& figure, const std::map<std::string, std::string>& row);
bool OtherConfig(const StoredRun& a, const StoredRun& b);
std::string EarlierEntryOf(const StoredRun& run, const EarlierFigures& earlier, bool named);
// A table whose figures all restate earlier entries' (`earlier`), three of
// them at least at three significant digits (`from`, the earlier entry each
// restates, "" for none): its other figures, written with fewer digits
// ("6.3s" beside "9.14s" of two earlier runs), restate them too.
void RecapTables(const Entry& e, const std::vector<RecordedFigure>& figs, const EarlierFigures& earlier,
                 std::vector<std::string>* from);
bool NamesEntry(const std::string& text, const std::string& id);

struct ParsedCommand {
  std::vector<std::pair<std::string, std::string>> flags;  // key, value ("$VAR" kept)
  std::vector<std::pair<std::string, std::string>> program_flags;  // every --flag of any program, as written
  std::map<std::string, std::vector<std::string>> loops;   // for VAR in a b c
  std::vector<std::string> harnesses;                      // scripts it runs, by name
  std::map<std::string, std::string> feeds;                // loop variable -> the flag it feeds ("" if several)
  std::set<std::string> conditional;                       // flags written inside `if ... fi` only
};

// Where a scan of one command line stands: after a script word (its flags
// are the harness's), inside an `if` (what it sets holds for some runs
// only), and the environment assignments written before the script.
struct CommandScan {
  bool after_script = false, known_script = false;
  int if_depth = 0;
  std::vector<std::pair<std::string, std::string>> env;
};

// Each flag's literal values across the entry's commands and spans (with how
// many invocations give it); loop variables, brace lists go to `vars`.
struct FlagValues {
  std::map<std::string, std::vector<std::string>> values;  // key -> distinct literal values
  std::map<std::string, size_t> count;
  std::set<std::string> flag_keys;
  size_t invocations = 0;
  std::set<std::string> commands_vary;  // keys the entry's commands set to different literal values
};

struct Figure {
  double value = 0;
  std::string metric;
  std::string unit;      // as written ("TF/s", "ms", "x", "%")
  bool derived = false;  // a speedup or a delta
  std::string word;      // identifier right before the number ("" if none)
  std::map<std::string, std::string> named;  // keys the text pairs with it ("at EP2/4/8", "a -> b")
  bool restated = false;  // its sentence restates earlier work ("v143 remains ... at 22.3%")
  std::string run_tag;    // the run its sentence starts with ("v156 measures 9.5 s"), if a tag
  size_t sentence = 0;    // where its sentence starts in the text
  bool subject = false;   // `word` is its clause's subject ("treatment was 22.9%")
  int decimals = -1;      // decimals as written in its unit (-1: not as written, "3.5M")
  const char* not_run = nullptr;  // why it is no run's figure though it has a unit (a range, an estimate ...)
  int list = -1;                   // the " / " list it was written in ("13.2 / 13.1 / 12.8 %"), numbered per text
  bool refers = false;  // its sentence names a run it is compared with ("Reference: 0.307 s"): ReferenceWord
  bool range = false;   // an end of a range ("12.1–12.9 ms"): its measurement's min or max
  // Written right after a figure of its unit with only a comma between
  // ("Build time: 25.63s, 21.51s, 24.24s"): a repeat of that measurement.
  bool comma_repeat = false;
};


// A number of a list waiting for its unit: its value, the word naming it,
// the decimals it is written with.
struct Listed {
  double value = 0;
  std::string word;
  int decimals = -1;
};

// What a number read at [start, j) is: its metric, unit and value from the
// unit after it (or the arrow's, or none), into `f`; false when it is no
// figure. `i` moves past what was read; `unit_out` and `before_arrow` tell
// the caller whether an arrow follows.
struct ScanMode {
  bool bare_is_tflops = true, percent_is_mfu = false;
  bool prose = false;  // a paragraph's sentence: "~36 ms" is an estimate
  std::string carry;   // prose: the unit of the paragraph's last figure ("... 96.2 ms/step bf16; fp8gemm 92.2")
  std::string label;   // the label the text follows ("Peak VRAM:"): a unit's context ("41.2 GB")
  // The label is one run of a list whose items each give one share no word
  // names ("2B base: 65.1%", "4B base: 76.9%"): a bare percentage right
  // after it is that list's figure, `value_pct` (ListOfShares).
  bool label_shares = false;
};

// The unit written after a number ending at `j`, as the reader sees it: a
// multiplier glued to the number ("11.485M tok/s"), a unit joined by a hyphen
// ("10.046-second"), a statistic between number and unit ("417,517 median
// tokens/s": the statistic names the figure), or the unit of the number after
// an arrow ("96.1 -> fp8wire 56.5 ms").
struct UnitRead {
  double scale = 1;
  std::string magnitude;  // "K" of "630K tok/s": the figure's unit is "K tok/s"
  bool glued = false, before_arrow = false, own = false;
  size_t at = 0, len = 0;  // where the unit token starts, how much of it is consumed
  std::string unit, statistic;
};

// The state of one scan of a text for figures (Figures).
struct FigureScan {
  explicit FigureScan(const std::string& text) : s(text) {}
  const std::string& s;
  ScanMode mode;
  std::vector<Figure> out;
  int depth = 0;
  size_t i = 0;
  int arrow_left = -1;     // index in `out` of a figure written before an arrow
  int speedup_left = -1;   // ... of a speedup written before an arrow ("tr 2.7x → 7.3x")
  std::string speedup_word;  // the word naming it ("tr")
  std::string arrow_unit;  // the unit the figure before the arrow was read in
  std::vector<Listed> listed;  // numbers of a " / " list waiting for its unit, their words
  size_t list_next = std::string::npos;                // where the list's next number starts
  bool comma_list = false;  // the list is "a X, b Y unit": each number has its own word
  size_t last_end = std::string::npos;  // past the unit of the last figure kept
  int from_figure = -1;  // index in `out` of a figure written after "from" (prose: "from 31.2 ms to 27.9 ms")
  int to_figure = -1;    // ... after "to" with no "from" before it ("down to 2.9ms from 3.4ms")
  int lists = 0;         // " / " lists read so far (Figure::list)
  std::vector<Figure> asides;  // figures in parentheses no figure before them takes: listed, never a run's
  int companions = 0;  // figures ParenCompanion took in the parentheses open now, after the run's own
  size_t delta_end = std::string::npos;  // past the last figure a change adds or saves ("adds ~3 s")
  // Why each number with a unit that is no figure at all was passed over
  // ("polled for 4 min": an event's duration; NoFigureWhy, a rating).
  std::vector<const char*> no_figure;
};

// What an entry's commands and Config say, for reading its Result.
struct EntryCtx {
  Config fixed;
  Vars vars;
  Config feeds;          // loop variable -> the flag it feeds
  bool generic = false;  // a harness moelog has no adapter for
  bool known = false;    // a harness moelog has an adapter for (bare numbers are its TF/s)
  bool mfu = false;      // the logbook measures MFU: a percentage is MFU
  bool tflops = false;   // the entry's Command or Config names TF/s: a bare figure is TF/s
  bool tflops_logbook = false;  // the logbook's Scope or Baseline names TF/s
  double tflops_example = 0;    // a TF/s figure the logbook writes there (0: none)
  std::set<std::string> own_text;  // words of the entry's heading and run fields (Command, Run, Runs, Run ID)
  std::map<std::string, Config> command_labels;  // "shared off" -> what its command sets apart from the others
  std::set<std::string> commands_vary;  // keys the commands set to different literal values (--hidden 2048 / 3072)
  bool names_time = false;  // the entry names a time measure and no TF/s ("time-based"): a bare figure is no TF/s
  std::string entry_id, file;
  // The entry's prose (paragraphs, then bullets), by line: what names the
  // unit of a table whose columns are values ("(ms/step)" in its caption,
  // "37.28 ms" in a sentence beside a cell 37.28).
  struct Text {
    int line = 0, end_line = 0;
    std::string text;
  };
  std::vector<Text> prose;
  bool repeats = false;  // the entry's commands repeat runs ("for rep in 1 2", "--repeats 3")
  const Entry* entry = nullptr;  // the entry read (its commands key printed figures)
  HeadingUnit heading_unit;  // the unit the logbook's entry headings state results in (HeadingsUnit)
  std::string table_unit;    // the unit the document says its tables are in (DocumentTableUnit)
};

// What a walk down a Result's bullets carries: the config its labels name,
// whether a label names TF/s ("forward TF/s:") and whether one says its
// figures restate earlier work ("Reference at ...:", "(from previous section)").
struct WalkScope {
  Config context;
  bool tflops = false, restated = false;
  bool refers = false;  // a label names a reference or comparison run ("Reference path:"): ReferenceWord
  bool check = false;  // a label names a correctness check ("Max abs diff:", "Correctness:")
  bool repeats = false;  // a bullet above says its runs repeat ("paired repeats ... were stable:")
  bool prose = false;  // a sentence of a paragraph, not a bullet
  bool loose = false;  // a paragraph's sentence or a bullet that is no field
  bool share = false;  // a label names shares ("Share of GPU kernel time:"): a percentage is no MFU
  std::string* carry = nullptr;  // a paragraph's last figure's unit, across its sentences (ScanMode::carry)
  // The unit a label above names ("tail50 tok/sec:", "Throughput (tok/s):"):
  // a figure written without one is in it.
  std::string label_unit;
  std::string label;  // the nearest label's words ("Peak VRAM"): context for a unit that needs one
  // The unit the items of this list give ("v3: 6.96s", "v6: 20.8s"): an item
  // written as a bare number ("v4: 75.67") is in it (SiblingUnit).
  std::string sibling_unit;
  // The items of this list each give one share no word names (ListOfShares).
  bool list_shares = false;
  // The list is a record's keys, two or more of them naming their unit
  // (RecordKeyList): a key's bare count ("`elements`: `677`") is a field of it.
  bool record_keys = false;
  // The names a label above gives its items' comma lists ("Results (final
  // reward, delta, step time):" over "- GA=1: 0.3960, +0.0018, ~12.26s"):
  // the items' values in order (figures_namedlist.cc).
  std::vector<std::string> list_names;
};

// A bullet's figures grouped into points: a figure that names something
// starts a new point; two figures of one metric in one point clash.
struct Point {
  Config cfg;
  StoredRun run;
  bool clash = false;
  bool refers = false;  // a figure of it is a reference's (Figure::refers)
};

// The metric a table column holds, from its header: "TF/s", "tokens/s",
// "tok/s", "ms/step", "time (ms)", "s", "GB/s", "MFU", "speedup", and deltas
// ("delta tokens/s", "gain", "Δ"). "" for other columns.
struct ColumnInfo {
  std::string metric, unit, at;  // at: "0.1" for "tokens/s @0.1"
  double factor = 1;
  bool derived = false;
  Config scale;  // the keys its header holds for every value ("Latency (seq=1024)", "Throughput @ 8 GPUs")
  // The names a header's slash list gives the figures of each cell ("fwd /
  // bwd" over "3.1 / 7.4 ms"; table_pairs.h), else none.
  std::vector<std::string> parts;
};

// A cell's number as written: its value in the column's metric, the
// decimals it is written with when its unit is the column's (-1: "1.21M",
// "1.2 s" under ms), and whether the author wrote it as approximate.
struct CellValue {
  double value = 0;
  int decimals = -1;
  std::string magnitude;  // "k" of "221k": shown as written, in the unit "k <column's unit>"
  std::string unit;       // the cell's own unit when not the column's ("1.53ms" under "376us"), else ""
  bool approximate = false;
};

// A figure as its author wrote it (its value, unit factor and decimals), to
// compare earlier values with: worked out once per figure, not per value.
struct WrittenValue {
  double value = 0, factor = 1;
  int decimals = -1;  // unknown: compared exactly
};

// Keys each value of the logbook's figures has been seen under (bounded):
// what a "variant" value may be of.
struct Vocabulary {
  std::map<std::string, std::set<std::string>> keys_of;  // value -> keys
  void Add(const StoredRun& run) {
    for (const auto& [k, v] : run.config)
      if (k != "variant" && k != "case" && k != "harness" && k != "accelerator" && keys_of.size() < 4096 &&
          !NeutralKeyName(k))
        keys_of[v].insert(k);
  }
  // "variant=bf16" -> "modes=bf16" in the figures of one sweep (those of an
  // entry under one "case": "Token scaling:" over "`32768`: ..."), when the
  // sweep's variant values that the logbook knows (at least half of them)
  // are each a value of one key only, the same key, none a value of several,
  // and the others are numbers where the known ones are (tokens 49152 beside
  // 32768 and 65536). No figure of the sweep may set that key otherwise.
  void Name(std::vector<RecordedFigure>* figs) const {
    std::map<std::string, std::vector<RecordedFigure*>> sweeps;  // case -> figures with a variant
    for (auto& f : *figs)
      if (f.run.config.count("variant")) sweeps[f.run.config.count("case") ? f.run.config.at("case") : ""].push_back(&f);
    for (auto& [c, members] : sweeps) NameSweep(members);
  }
  void NameSweep(const std::vector<RecordedFigure*>& members) const {
    std::set<std::string> keys, known, unknown;
    for (const RecordedFigure* f : members) {
      const std::string& v = f->run.config.at("variant");
      auto it = keys_of.find(v);
      if (it == keys_of.end()) unknown.insert(v);
      else if (it->second.size() == 1) keys.insert(*it->second.begin()), known.insert(v);
      else return;  // a value of several keys: nothing says which
    }
    auto number = [](const std::string& v) { return ParseNumber(v).has_value(); };
    if (keys.size() != 1 || known.size() * 2 < known.size() + unknown.size()) return;
    const bool numeric = std::all_of(known.begin(), known.end(), number);
    if (!unknown.empty() && !(numeric && std::all_of(unknown.begin(), unknown.end(), number))) return;
    const std::string key = *keys.begin();
    for (const RecordedFigure* f : members)
      if (f->run.config.count(key)) return;
    for (RecordedFigure* f : members) {
      f->run.config[key] = f->run.config.at("variant");
      f->run.config.erase("variant");
    }
  }
};

std::vector<EntryCtx::Text> EntryProse(const Entry& entry);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_INTERNAL_H_
