#include <algorithm>
#include <mutex>

#include "engine/gpu/bench_flags.h"
#include "engine/v5p/hardware.h"
#include "logbook/plan/bench_args.h"
#include "logbook/plan/shell_planner.h"

namespace moelog::logbook::shell {
namespace {

// A harness argument list, parsed, validated and canonicalized once.
struct ParsedArgs {
  Result<engine::BenchConfig> config;  // ParseBenchArgs
  Status valid;                        // config->Validate() when config is ok
  std::string canonical;               // engine::CanonicalConfigJson when both are ok
};

// Logbooks repeat the same invocations across entries (reruns, copied
// commands), so parsed argument lists are memoized for the process.
std::mutex g_args_mu;
std::map<std::vector<std::string>, std::shared_ptr<const ParsedArgs>> g_args_memo;

std::shared_ptr<const ParsedArgs> CachedParseBenchArgs(const std::vector<std::string>& args) {
  {
    std::lock_guard<std::mutex> lock(g_args_mu);
    auto it = g_args_memo.find(args);
    if (it != g_args_memo.end()) return it->second;
  }
  auto parsed = std::make_shared<ParsedArgs>(ParsedArgs{ParseBenchArgs(args), Status::Ok(), {}});
  if (parsed->config.ok()) {
    parsed->valid = parsed->config->Validate();
    if (parsed->valid.ok()) parsed->canonical = engine::CanonicalConfigJson(*parsed->config);
  }
  std::lock_guard<std::mutex> lock(g_args_mu);
  if (g_args_memo.size() >= 4096) g_args_memo.clear();  // bounded memory
  g_args_memo.emplace(args, parsed);
  return parsed;
}

// moelog bench flags that only name where the harness writes (profiler
// traces): a value without a static value changes nothing moelog runs.
const char* const kOutputFolderFlags[] = {"--trace-dir"};

}  // namespace

size_t Planner::OutputFolderWords(const std::vector<std::string>& args, size_t i, const Vars& vars) {
  for (const char* flag : kOutputFolderFlags) {
    const std::string f = flag;
    if (args[i] == f && i + 1 < args.size() && !ExpandWord(args[i + 1], vars).unknown.empty()) return 2;
    if (args[i].rfind(f + "=", 0) == 0 && !ExpandWord(args[i], vars).unknown.empty()) return 1;
  }
  return 0;
}

void ClearParsedArgsCache() {
  std::lock_guard<std::mutex> lock(g_args_mu);
  g_args_memo.clear();
}

// moelog bench ...: a benchmark; any other moelog command is not run.
void Planner::PlanMoelog(const Cmd& c, const std::vector<std::string>& words, const std::map<std::string, std::string>& env,
                         const Vars& vars) {
  if (words.size() < 2 || Expand(words[1], vars).value != "bench")
    return Refuse(c, false, "moelog " + (words.size() > 1 ? words[1] : std::string()));
  std::vector<std::string> raw_args(words.begin() + 2, words.end());
  if (auto rewritten = AddBench(c, "moelog", JoinRaw(words), raw_args, env, vars, RenderEnv(c)))
    Memo(&c, *rewritten + RenderRedirs(c), RenderSimpleRaw(c));
}

// A known harness script: its adapter turns the invocation into one or
// more `moelog bench` runs, or says why it has none.
// An unquoted word with an expansion (`$extra`): bash splits its value into
// fields and drops it when empty. Words with quotes or escapes are taken
// whole.
static bool SplitsIntoFields(const std::string& raw, const Expansion& e) {
  return e.had_unquoted_var && raw.find_first_of("\"'\\") == std::string::npos;
}

void Planner::PlanHarness(const Cmd& c, const Adapter& h, const std::vector<std::string>& words, size_t si,
                          const std::map<std::string, std::string>& env, const Vars& vars) {
  std::vector<std::string> raw_args(words.begin() + static_cast<long>(si) + 1, words.end());
  if ((h.target_class == "gpu") != opts_.gpu) {  // a GPU harness's runs are the GPU bench's, and only they
    NoAdapter(opts_.gpu ? "harness " + h.name + " is no GPU harness (--target " + opts_.target + " is a GPU model)"
                        : "harness " + h.name + " is a GPU harness: its runs are modeled with --target <GPU "
                          "hardware file> (h100, b200, ...)");
    MemoRaw(&c);
    return;
  }
  // The common case, the hillclimb harness as it is today: its words are
  // moelog bench's, nothing to translate.
  const std::map<std::string, std::string> harness_env = HarnessEnv(env, vars);
  const bool env_rules = std::any_of(h.env.begin(), h.env.end(),
                                     [&](const auto& rule) { return harness_env.count(rule.first) > 0; });
  const bool pass_through = h.native_flags && h.flags.empty() && !env_rules && h.defaults.empty() &&
                            h.runs.empty() && h.no_adapter.empty() && h.env_refused.empty();
  if (pass_through && FindRevision(h, opts_.context, &raw_args) == nullptr) {
    if (auto rewritten = AddBench(c, h.name, JoinRaw(words), raw_args, env, vars, RenderEnv(c)))
      Memo(&c, *rewritten + RenderRedirs(c), RenderSimpleRaw(c));
    return;
  }
  // A word without a static value may go to a flag the adapter ignores:
  // the adapter reads the words as written first.
  std::vector<std::string> expanded;
  std::string unknown;  // the first word without a static value, and why
  bool split = false;  // an unquoted word (`$extra`) gave other than one field
  for (size_t i = 0; i < raw_args.size(); ++i) {
    auto e = Expand(raw_args[i], vars);
    if (!e.unknown.empty() && unknown.empty()) unknown = FlagOf(raw_args, i) + NoStaticValue(e.unknown.front());
    if (SplitsIntoFields(raw_args[i], e)) {
      auto fields = SplitFields(e.value, " \t\n");
      split = split || fields.size() != 1;
      for (auto& f : fields) expanded.push_back(std::move(f));
      continue;
    }
    expanded.push_back(e.value);
  }
  // Run arguments are shell words, expanded per invocation by AddBench: the
  // command's words as written where the adapter passes them on (a loop's
  // `$tk` stays a variable in the rewritten script), else the translation of
  // the expanded words, quoted -- which bash, inside a loop, could not
  // repeat per iteration, nor values taken from the environment.
  std::optional<Adapted> adapted;
  if (!split) adapted = AdaptAsWritten(h, raw_args, expanded, harness_env);
  if (!adapted && !unknown.empty()) {
    Invalid(Short(JoinRaw(words), 80) + ": " + unknown);
    MemoRaw(&c);
    return;
  }
  if (!adapted) adapted = AdaptExpanded(c, h, words, expanded, harness_env);
  if (!adapted) return;
  if (!loop_vars_.empty())
    for (const auto& [name, rule] : h.env)
      if (harness_env.count(name)) shell_unplannable_ = "harness " + h.name + " configured by " + name + " inside a loop";
  std::vector<std::string> scripts;
  for (const AdaptedRun& run : adapted->runs) {
    auto rewritten =
        AddBench(c, h.name, JoinRaw(words), run.args, env, vars, RenderEnv(c), {run.label, adapted->revision});
    if (!rewritten) return;
    scripts.push_back(*rewritten);
  }
  std::string joined = scripts.size() == 1 ? scripts[0] : "{ ";
  for (size_t k = 0; scripts.size() > 1 && k < scripts.size(); ++k) joined += scripts[k] + "; ";
  Memo(&c, joined + (scripts.size() > 1 ? "}" : "") + RenderRedirs(c), RenderSimpleRaw(c));
}

// The adapter's translation of the expanded words, quoted; nullopt after
// saying why there is none (no adapter, or a flag or value it refuses).
std::optional<Adapted> Planner::AdaptExpanded(const Cmd& c, const Adapter& h, const std::vector<std::string>& words,
                                              const std::vector<std::string>& expanded,
                                              const std::map<std::string, std::string>& harness_env) {
  auto literal = AdaptInvocation(h, expanded, harness_env, opts_.context);
  if (!literal.ok()) {
    if (literal.status().code() == Status::Code::kNotFound) NoAdapter(literal.status().message());
    else Invalid(Short(JoinRaw(words), 80) + ": " + literal.status().message());
    MemoRaw(&c);
    return std::nullopt;
  }
  for (AdaptedRun& run : literal->runs)
    for (std::string& a : run.args) a = ShellQuote(a);
  if (!loop_vars_.empty()) shell_unplannable_ = "harness " + h.name + ": a value it maps given by a loop variable";
  return std::move(*literal);
}

// The adapter's translation of the command's words as written, as shell
// words: each value word is given to the adapter as a placeholder and put
// back; the adapter's own words are quoted. Nullopt when a flag name is not
// literal or the adapter must read a value (a value map, a run selection),
// or the translation fails (the expanded words then say why).
std::optional<Adapted> Planner::AdaptAsWritten(const Adapter& h, const std::vector<std::string>& raw_args,
                                               const std::vector<std::string>& expanded,
                                               const std::map<std::string, std::string>& harness_env) const {
  std::vector<std::string> tokens;
  std::map<std::string, std::string> back;
  for (size_t i = 0; i < raw_args.size(); ++i) {
    if (expanded[i].rfind("--", 0) == 0) {
      if (raw_args[i] != expanded[i]) return std::nullopt;
      tokens.push_back(raw_args[i]);
      continue;
    }
    tokens.push_back(Joined({"\x01", std::to_string(i), "\x01"}, ""));
    back[tokens.back()] = raw_args[i];
  }
  auto sym = AdaptInvocation(h, tokens, harness_env, opts_.context);
  if (!sym.ok()) return std::nullopt;
  for (AdaptedRun& run : sym->runs)
    for (std::string& w : run.args) {
      auto it = back.find(w);
      w = it != back.end() ? it->second : ShellQuote(w);
    }
  return std::move(*sym);
}

// The variables a harness process sees: the command's prefixes, the
// launcher's -e variables and those the script exported.
std::map<std::string, std::string> Planner::HarnessEnv(const std::map<std::string, std::string>& env, const Vars& vars) const {
  std::map<std::string, std::string> out = launcher_env_;
  for (const auto& name : exported_) {
    auto it = vars.find(name);
    if (it != vars.end()) out[name] = it->second;
  }
  for (const auto& [k, v] : env) out[k] = v;
  return out;
}

// The arguments less output folders without a static value, each left out
// with a note.
std::vector<std::string> Planner::DropOutputFolders(const std::vector<std::string>& raw_args, const Vars& vars) {
  std::vector<std::string> args;
  for (size_t i = 0; i < raw_args.size(); ++i) {
    const size_t n = OutputFolderWords(raw_args, i, vars);
    if (n == 0) {
      args.push_back(raw_args[i]);
      continue;
    }
    plan_->notes.push_back("ignored " + Short(JoinRaw({raw_args.begin() + static_cast<long>(i),
                                                       raw_args.begin() + static_cast<long>(i + n)})) +
                           " (an output folder without a static value; moelog writes no traces)");
    i += n - 1;
  }
  return args;
}

// The arguments' values, appended to *expanded; returns the first word
// without a static value, and why ("" when every word has one).
std::string Planner::ExpandBenchArgs(const std::vector<std::string>& args, const Vars& vars,
                                     std::vector<std::string>* expanded) {
  std::string unknown;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& raw = args[i];
    auto e = Expand(raw, vars);
    if (!e.unknown.empty() && unknown.empty()) unknown = FlagOf(args, i) + NoStaticValue(e.unknown.front());
    // An unquoted word (`$extra`) is split into fields, and dropped when
    // empty, as bash does.
    if (SplitsIntoFields(raw, e)) {
      for (auto& f : SplitFields(e.value, " \t\n")) expanded->push_back(std::move(f));
      continue;
    }
    expanded->push_back(e.value);
  }
  return unknown;
}

// The target is the user's choice: a command naming another one is a
// conflict, reported, never obeyed. Sets *has_target when the words name
// one; returns the conflict ("" when none).
std::string Planner::TargetConflict(const std::vector<std::string>& expanded, bool* has_target) const {
  for (size_t i = 0; i < expanded.size(); ++i) {
    std::string t;
    if (expanded[i] == "--target" && i + 1 < expanded.size()) t = expanded[i + 1];
    else if (expanded[i].rfind("--target=", 0) == 0) t = expanded[i].substr(9);
    else continue;
    *has_target = true;
    if (t != opts_.target)
      return "the command asks for --target " + Short(t) + ", this run is --target " + opts_.target +
             " (the target is chosen on moelog's command line)";
  }
  return {};
}

// Fills inv->args (the target when the words name none, the words, the
// extra bench arguments) and returns the rewritten command.
std::string Planner::ComposeBench(BenchInvocation* inv, const std::vector<std::string>& expanded,
                                  const std::vector<std::string>& args, bool has_target,
                                  const std::string& env_prefix) const {
  std::string rewritten = env_prefix + ShellQuote(opts_.moelog) + " bench";
  if (!has_target) {
    inv->args = {"--target", opts_.target};
    rewritten += " --target " + ShellQuote(opts_.target);
  }
  inv->args.insert(inv->args.end(), expanded.begin(), expanded.end());
  for (const auto& raw : args) rewritten += " " + raw;
  for (const auto& x : opts_.extra_bench_args) {
    inv->args.push_back(x);
    rewritten += Joined({"", ShellQuote(x)});
  }
  return rewritten;
}

// The invocation's environment, loop bindings and command line.
void Planner::BindInvocation(BenchInvocation* inv, const std::vector<std::string>& args,
                             const std::map<std::string, std::string>& env, const Vars& vars) const {
  inv->env = pending_env_;
  inv->errexit = errexit_;
  for (const auto& [k, v] : env) inv->env[k] = v;
  for (const auto& name : loop_vars_) {
    auto it = vars.find(name);
    if (it != vars.end()) inv->loop_bindings[name] = it->second;
  }
  // read-assigned variables used in the arguments count as bindings too.
  for (const auto& raw : args)
    if (raw.find('$') != std::string::npos)
      for (const auto& [k, v] : vars)
        if (MentionsVariable(raw, k) && !launcher_env_.count(k)) inv->loop_bindings[k] = v;
  inv->command_line = ShellQuote(opts_.moelog) + " bench";
  for (const auto& a : inv->args) inv->command_line += Joined({"", ShellQuote(a)});
}

namespace {

// Why a parsed argument list cannot run ("" when it can): it does not parse
// or check, or names a data file by path. Model and hardware files are
// moelog's data, named, never a path the document chooses (a path would let
// it forge the model's numbers).
std::string ConfigFault(const ParsedArgs& parsed, const std::string& original) {
  if (!parsed.config.ok())
    return original.substr(0, 80) + (original.size() > 80 ? "...: " : ": ") + parsed.config.status().message();
  if (!parsed.valid.ok()) return parsed.valid.message();
  for (const std::string* data : {&parsed.config->model_params, &parsed.config->hardware})
    if (engine::v5p::IsDataFilePath(*data))
      return Short(original, 80) + ": '" + Short(*data) +
             "' is a file path; a command may name only moelog's data files (e.g. --hardware v5p)";
  return {};
}

}  // namespace

// One iteration of a sweep whose flags parse but whose combination does not
// check (--capacity-policy pad with --parallel-mode ep): not modeled, listed
// with its loop values; the other iterations are.
void Planner::RejectIteration(const BenchInvocation& inv, const Status& why) {
  std::string at;
  for (const auto& [k, v] : inv.loop_bindings) at += Joined({at.empty() ? "" : ", ", k, "=", v}, "");
  if (plan_->rejected.size() < 32) plan_->rejected.push_back(Joined({Short(at, 80), ": ", why.message()}, ""));
}

// The same run again (`for rep in 1 2; do CMD; done`: a loop variable that
// reaches no flag): a repetition, modeled once, counted. True when `inv`
// repeats a run already added.
bool Planner::CountRepeat(const BenchInvocation& inv, const std::vector<std::string>& args) {
  std::string key = inv.harness + '\n' + inv.command_line + '\n' + inv.label;
  for (const auto& [k, v] : inv.env) key += Joined({"\n", k, "=", v}, "");
  if (seen_runs_.insert(std::move(key)).second) return false;
  ++plan_->repeats;
  for (const auto& name : loop_vars_)
    if (std::none_of(args.begin(), args.end(), [&](const std::string& a) { return MentionsVariable(a, name); }) &&
        std::find(plan_->repeat_vars.begin(), plan_->repeat_vars.end(), name) == plan_->repeat_vars.end())
      plan_->repeat_vars.push_back(name);
  return true;
}

// Adds one invocation; returns its rewritten command (without
// redirections), or nullopt when the arguments do not check (the command
// is then invalid and memoized as written).
std::optional<std::string> Planner::AddBench(const Cmd& c, const std::string& harness, const std::string& original,
                                             const std::vector<std::string>& raw_args,
                                             const std::map<std::string, std::string>& env, const Vars& vars,
                                             const std::string& env_prefix, const RunTag& tag) {
  auto refuse = [&](const std::string& why) -> std::optional<std::string> {
    Invalid(why);
    MemoRaw(&c);
    return std::nullopt;
  };
  BenchInvocation inv;
  inv.harness = harness;
  inv.original = original;
  inv.label = tag.label;
  inv.revision = tag.revision;
  const std::vector<std::string> args = DropOutputFolders(raw_args, vars);
  std::vector<std::string> expanded;
  const std::string unknown = ExpandBenchArgs(args, vars, &expanded);
  if (!unknown.empty()) {
    // Another harness's flags say more than a value moelog cannot know.
    auto flags = ParseBenchFlags(expanded);
    const bool other = !flags.ok() && flags.status().message().rfind("not this harness", 0) == 0;
    return refuse(Short(original, 80) + ": " + (other ? flags.status().message() : unknown));
  }
  bool has_target = false;
  const std::string conflict = TargetConflict(expanded, &has_target);
  if (!conflict.empty()) return refuse(Short(original, 80) + ": " + conflict);
  std::string rewritten = ComposeBench(&inv, expanded, args, has_target, env_prefix);
  BindInvocation(&inv, args, env, vars);
  if (opts_.gpu) return AddGpuBench(c, std::move(inv), original, rewritten);
  const std::shared_ptr<const ParsedArgs> parsed = CachedParseBenchArgs(inv.args);
  if (!parsed->config.ok() && !loop_vars_.empty() && ParseBenchFlags(inv.args).ok()) {
    RejectIteration(inv, parsed->config.status());
    ++benches_;
    return rewritten;
  }
  if (const std::string fault = ConfigFault(*parsed, original); !fault.empty()) return refuse(fault);
  inv.config = *parsed->config;
  inv.canonical_config = parsed->canonical;
  if (CountRepeat(inv, args)) {
    ++benches_;
    return rewritten;
  }
  if (static_cast<int>(plan_->invocations.size()) >= opts_.max_invocations) {
    Invalid("more than " + std::to_string(opts_.max_invocations) + " invocations after loop expansion");
    return std::nullopt;
  }
  ++benches_;
  plan_->invocations.push_back(std::move(inv));
  return rewritten;
}

// A GPU bench invocation: its arguments checked against the GPU bench's
// flags (the cpu/v5p configuration stays the default; the arguments are the
// cache key).
std::optional<std::string> Planner::AddGpuBench(const Cmd& c, BenchInvocation inv, const std::string& original,
                                                const std::string& rewritten) {
  if (Status st = engine::gpu::CheckGpuBenchArgs(inv.args); !st.ok()) {
    Invalid(Short(original, 80) + ": " + st.message());
    MemoRaw(&c);
    return std::nullopt;
  }
  for (const std::string& a : inv.args) inv.canonical_config += (inv.canonical_config.empty() ? "" : " ") + a;
  if (static_cast<int>(plan_->invocations.size()) >= opts_.max_invocations) {
    Invalid("more than " + std::to_string(opts_.max_invocations) + " invocations after loop expansion");
    return std::nullopt;
  }
  ++benches_;
  plan_->invocations.push_back(std::move(inv));
  return rewritten;
}

}  // namespace moelog::logbook::shell
