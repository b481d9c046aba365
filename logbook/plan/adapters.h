// Harness adapters: what moelog knows of a benchmark script, as data. One
// JSON file per harness (data/adapters/*.json ship the built-in ones, compiled
// in; `--adapters DIR` adds a user's own, matched first). An adapter says
// which scripts it matches, how the script's flags and environment variables
// become `moelog bench` flags, how one invocation expands into several runs
// (one per implementation path, mesh or mode, each with a label), which
// revisions of the script changed its defaults, and how the real script's
// output lines become metrics. The schema is in docs/reference.md
// ("Harness adapters"); every key is checked, and an error names the file and
// the key.
#ifndef MOELOG_LOGBOOK_PLAN_ADAPTERS_H_
#define MOELOG_LOGBOOK_PLAN_ADAPTERS_H_

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/status.h"

namespace re2 {
class RE2;
}

namespace moelog::logbook {

// What one harness flag or environment variable becomes.
struct ArgRule {
  enum Kind { kValue, kSwitch, kIgnoreValue, kIgnoreSwitch, kError };
  Kind kind = kValue;
  std::string to;                             // kValue: the moelog bench flag ("--tokens")
  std::map<std::string, std::string> values;  // kValue: harness value -> moelog value (empty: unchanged)
  std::string pattern;                        // kValue: RE2 regex (linear time); its group 1 in the value is the value
                                              // (no match: the rule adds nothing), e.g. one flag of LIBTPU_INIT_ARGS
  std::shared_ptr<const re2::RE2> compiled;    // `pattern`, compiled once by ParseAdapter
  std::string expr;                           // kValue: the value computed (int_expr.h): names are the harness's
                                              // environment variables, `value` this flag's or variable's own
  std::vector<std::string> args;              // kSwitch: moelog bench arguments when the flag is given
  std::string message;                        // kError: why the flag cannot be modeled
};

// One of the runs an invocation expands into.
struct AdapterRun {
  std::string label;              // "ref_dp", "data x expert"
  std::vector<std::string> args;  // moelog bench arguments of this run
  std::string only_with;          // a harness flag: the run is made only when the command gives it
};

// A revision of the harness whose defaults or semantics differ from today's.
// It applies to an entry naming one of `commits` (by prefix, either way), or,
// when the entry names no commit, to an entry dated before `before`
// ("YYYY-MM-DD HH:MM"); with `only_with`, only to commands that give that
// harness flag (a flag of one branch of the harness, e.g. --quant-mode).
struct AdapterRevision {
  std::string name;               // "dense-masked EP dispatch"
  std::vector<std::string> commits;
  std::string before;
  std::string only_with;          // "--quant-mode" ("" : every command)
  std::vector<std::string> args;  // moelog bench arguments placed before the command's own
};

// One metric of the real harness's output: a line matching `pattern`
// (RE2 regex: matched in linear time, never backtracking) gives `metric` = group `value`, for the run whose label
// is group `label` (0: the invocation's only run).
struct OutputRule {
  std::string pattern;
  std::string metric;             // time_s, tflops, tflops_per_device, tokens_per_s, ...
  int value_group = 1;
  int label_group = 0;
  std::shared_ptr<const re2::RE2> compiled;  // `pattern`, compiled once by ParseAdapter
};

struct Adapter {
  std::string name;                   // "hillclimb"
  std::string file;                   // where it was read from ("data/adapters/hillclimb.json")
  std::string target_class;           // "gpu": its runs are `moelog bench --target <GPU hardware file>` arguments
                                      // (engine/gpu/bench_flags.h); "": moelog bench's own (cpu, v5p)
  std::vector<std::string> scripts;   // path suffixes matched at a path-component boundary
  std::string no_adapter;             // non-empty: the harness is known but not modeled (the reason)
  bool native_flags = false;          // flags not in `flags` are moelog bench's own (the hillclimb harness)
  std::map<std::string, ArgRule> flags;  // by harness flag, "--batch"
  std::map<std::string, ArgRule> env;    // by environment variable, "MOE_HIDDEN"
  std::vector<std::string> env_refused;  // variables that make an invocation unmodeled (no adapter)
  std::vector<std::string> defaults;  // moelog bench arguments before everything the command says
  std::vector<AdapterRun> runs;       // empty: one run without a label
  std::string select_runs_env;        // variable holding a comma list of run labels to make
  std::string select_runs_flag;       // harness flag holding the same
  std::vector<AdapterRevision> revisions;
  std::vector<OutputRule> output;
  // Which entries the adapter is for ("applies"): entries naming one of
  // `applies_commits`, or else dated from `applies_from` (inclusive) and
  // before `applies_before`. Empty: every entry. Where it does not apply, the
  // next adapter for the script does (a user's adapter before a built-in).
  std::vector<std::string> applies_commits;
  std::string applies_from, applies_before;

  bool Matches(const std::string& script) const;
};

// What the entry that holds a command says about when and where it ran.
struct EntryContext {
  std::string when;    // "2026-02-09 13:40" ("" for recipes)
  std::string commit;  // hex commit named by the entry ("" when none)
};

// An invocation translated into moelog bench arguments.
struct AdaptedRun {
  std::string label;              // "" when the adapter makes one run
  std::vector<std::string> args;  // moelog bench arguments (without --target)
};
struct Adapted {
  std::vector<AdaptedRun> runs;
  std::string revision;           // the revision that applied ("" for today's harness)
};

// Whether adapter `a` is for the entry (its "applies"); true without one.
bool AdapterApplies(const Adapter& a, const EntryContext& context);

// The revision of `a` that applies to an entry (the first listed that
// does), or null. A revision with `only_with` applies only to a command
// whose words `args` give its flag (without `args`, never).
const AdapterRevision* FindRevision(const Adapter& a, const EntryContext& context,
                                    const std::vector<std::string>* args = nullptr);
// Whether a revision of `a` may apply to a command of the entry: its
// context selects one whose `only_with` flag (if any) the text contains.
bool RevisionMayApply(const Adapter& a, const EntryContext& context, std::string_view command_text);

// Translates a harness invocation: `args` are the words after the script
// (expanded), `env` the variables the process would see. Errors name the
// flag or variable and the adapter's file.
Result<Adapted> AdaptInvocation(const Adapter& a, const std::vector<std::string>& args,
                                const std::map<std::string, std::string>& env, const EntryContext& context);

// Parses one adapter file's text. Errors: InvalidArgument "FILE: KEY: why".
Result<Adapter> ParseAdapter(const std::string& json_text, const std::string& file);

// The built-in adapters (data/adapters/*.json, compiled in), in name order.
const std::vector<Adapter>& BuiltinAdapters();

// The built-in adapter files as compiled in: (path, text).
std::vector<std::pair<std::string, std::string>> BuiltinAdapterTexts();

// The adapters of DIR (*.json, in name order); launchers.h AddAdapters puts
// them before a table's own. IOError when DIR cannot be read;
// InvalidArgument for a schema error.
// Only adapter files (a "moelog_adapter" key) are read; DIR/launchers.json
// is the folder's launcher table (launchers.h AddAdapters); any other file is
// skipped and named in `skipped` (when given).
Result<std::vector<Adapter>> LoadAdapters(const std::string& dir, std::vector<std::string>* skipped = nullptr);

// One metric the real harness printed: for run `label` (AdaptInvocation's
// labels; "" for an adapter with one run).
struct AdapterMetric {
  std::string label, metric;
  double value = 0;
};
// Every metric line of the output, in order. Lines no rule matches are ignored.
std::vector<AdapterMetric> AdapterOutputLines(const Adapter& a, const std::string& text);
// The same by run label (a label printed twice keeps its last values).
std::map<std::string, std::map<std::string, double>> ParseAdapterOutput(const Adapter& a, const std::string& text);

// Whether an entry's commit (as the entry writes it) names `prefix`'s commit.
bool CommitMatches(const std::string& entry_commit, const std::string& prefix);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_PLAN_ADAPTERS_H_
