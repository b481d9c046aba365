#include "logbook/plan/adapters.h"

#include <dirent.h>

#include <algorithm>
#include <optional>
#include <regex>

#include <re2/re2.h>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "engine/gpu/bench_flags.h"
#include "logbook/file_util.h"
#include "logbook/plan/bench_args.h"
#include "logbook/plan/int_expr.h"
#include "logbook/text.h"

namespace moelog::logbook {
namespace {

using Json = nlohmann::json;

// The built-in adapter files, compiled in by CMake from data/adapters/.
struct BuiltinFile {
  const char* path;
  const char* text;
};
const BuiltinFile kBuiltinFiles[] = {
#include "builtin_adapters.inc"
};

// Schema errors: "FILE: KEY: why".
class Schema {
 public:
  explicit Schema(std::string file, bool gpu = false) : file_(std::move(file)), gpu_(gpu) {}
  bool gpu() const { return gpu_; }
  Status Error(const std::string& key, const std::string& why) const {
    return Status::InvalidArgument(file_ + ": " + key + ": " + why);
  }
  Status Keys(const Json& j, const std::string& where, const std::set<std::string>& allowed) const {
    if (!j.is_object()) return Error(where, "expected an object");
    for (const auto& [k, v] : j.items())
      if (!allowed.count(k)) return Error(where.empty() ? k : where + "." + k, "not a key of the adapter schema");
    return Status::Ok();
  }
  Status String(const Json& j, const std::string& key, const std::string& where, std::string* out) const {
    if (!j.contains(key)) return Status::Ok();
    if (!j[key].is_string()) return Error(where + key, "expected a string");
    *out = j[key].get<std::string>();
    return Status::Ok();
  }
  Status Strings(const Json& j, const std::string& key, const std::string& where, std::vector<std::string>* out) const {
    if (!j.contains(key)) return Status::Ok();
    if (!j[key].is_array()) return Error(where + key, "expected an array of strings");
    for (const auto& v : j[key]) {
      if (!v.is_string()) return Error(where + key, "expected an array of strings");
      out->push_back(v.get<std::string>());
    }
    return Status::Ok();
  }
  // A list of moelog bench arguments: every flag known, every value accepted.
  Status BenchArgs(const std::vector<std::string>& args, const std::string& key) const {
    if (gpu_) {  // a GPU harness: the GPU bench's flags (engine/gpu/bench_flags.h)
      Status st = engine::gpu::CheckGpuBenchArgs(args);
      return st.ok() ? st : Error(key, "not moelog bench --target <gpu> arguments: " + st.message());
    }
    auto parsed = ParseBenchFlags(args);
    if (!parsed.ok()) return Error(key, "not moelog bench arguments: " + parsed.status().message());
    return Status::Ok();
  }

 private:
  std::string file_;
  bool gpu_ = false;
};

// The longest text an adapter's regex is applied to. Patterns run on RE2,
// in time linear in the text (no backtracking: `^(a|aa)+$` on a long value is
// as fast as any other); values and metric lines are short, and anything
// longer is refused (a value) or skipped (an output line) all the same.
constexpr size_t kMaxRegexSubject = 1024;

// An adapter's pattern on the linear-time engine; the error says what RE2
// does not take (backreferences, lookaround: they need backtracking).
Result<std::shared_ptr<const re2::RE2>> CompilePattern(const std::string& pattern) {
  re2::RE2::Options o;
  o.set_log_errors(false);
  auto re = std::make_shared<const re2::RE2>(pattern, o);
  if (!re->ok())
    return Status::InvalidArgument("not a regular expression moelog runs (RE2: linear time, no backreferences "
                                   "or lookaround): " + re->error());
  return std::shared_ptr<const re2::RE2>(re);
}

Status ParseRule(const Schema& s, const Json& j, const std::string& where, ArgRule* r) {
  if (j.is_string()) {  // "--batch": "--tokens"
    r->kind = ArgRule::kValue;
    r->to = j.get<std::string>();
  } else {
    MOELOG_RETURN_IF_ERROR(s.Keys(j, where, {"to", "values", "pattern", "expr", "switch", "ignore", "error", "about"}));
    const int kinds = static_cast<int>(j.contains("to")) + static_cast<int>(j.contains("switch")) +
                      static_cast<int>(j.contains("ignore")) + static_cast<int>(j.contains("error"));
    if (kinds != 1) return s.Error(where, "expected exactly one of to, switch, ignore, error");
    if (j.contains("to")) {
      MOELOG_RETURN_IF_ERROR(s.String(j, "to", where + ".", &r->to));
      if (j.contains("pattern")) {
        MOELOG_RETURN_IF_ERROR(s.String(j, "pattern", where + ".", &r->pattern));
        auto re = CompilePattern(r->pattern);
        if (!re.ok()) return s.Error(where + ".pattern", re.status().message());
        r->compiled = *re;
        if (r->compiled->NumberOfCapturingGroups() < 1)
          return s.Error(where + ".pattern", "needs one group, the value: (...)");
      }
      if (j.contains("expr")) {
        if (j.contains("values") || j.contains("pattern"))
          return s.Error(where + ".expr", "computes the value: no values or pattern beside it");
        MOELOG_RETURN_IF_ERROR(s.String(j, "expr", where + ".", &r->expr));
        auto names = IntExprNames(r->expr);
        if (!names.ok()) return s.Error(where + ".expr", names.status().message());
      }
      if (j.contains("values")) {
        if (!j["values"].is_object()) return s.Error(where + ".values", "expected an object of strings");
        for (const auto& [k, v] : j["values"].items()) {
          if (!v.is_string()) return s.Error(where + ".values." + k, "expected a string");
          r->values[k] = v.get<std::string>();
        }
      }
    } else if (j.contains("switch")) {
      r->kind = ArgRule::kSwitch;
      MOELOG_RETURN_IF_ERROR(s.Strings(j, "switch", where + ".", &r->args));
      MOELOG_RETURN_IF_ERROR(s.BenchArgs(r->args, where + ".switch"));
    } else if (j.contains("ignore")) {
      const Json& v = j["ignore"];
      if (!v.is_string() || (v != "value" && v != "switch"))
        return s.Error(where + ".ignore", "expected \"value\" (the flag takes one) or \"switch\"");
      r->kind = v == "value" ? ArgRule::kIgnoreValue : ArgRule::kIgnoreSwitch;
    } else {
      r->kind = ArgRule::kError;
      MOELOG_RETURN_IF_ERROR(s.String(j, "error", where + ".", &r->message));
    }
  }
  if (r->kind != ArgRule::kValue) return Status::Ok();
  if (r->to.rfind("--", 0) != 0) return s.Error(where + ".to", "expected a moelog bench flag (--name)");
  if (r->values.empty() && s.gpu()) {
    MOELOG_RETURN_IF_ERROR(s.BenchArgs({r->to, "1"}, where + ".to"));
  } else if (r->values.empty()) {
    const std::vector<std::string>& known = BenchFlagNames();
    if (std::find(known.begin(), known.end(), r->to) == known.end())
      return s.Error(where + ".to", "'" + r->to + "' is not a moelog bench flag");
  }
  for (const auto& [from, to] : r->values)
    MOELOG_RETURN_IF_ERROR(s.BenchArgs({r->to, to}, where + ".values." + from));
  return Status::Ok();
}

Status ParseRules(const Schema& s, const Json& j, const std::string& key, std::map<std::string, ArgRule>* out) {
  if (!j.contains(key)) return Status::Ok();
  if (!j[key].is_object()) return s.Error(key, "expected an object");
  for (const auto& [name, rule] : j[key].items()) {
    if (key == "flags" && name.rfind("--", 0) != 0) return s.Error(key + "." + name, "a harness flag starts with --");
    MOELOG_RETURN_IF_ERROR(ParseRule(s, rule, key + "." + name, &(*out)[name]));
  }
  return Status::Ok();
}

Status ParseRuns(const Schema& s, const Json& j, Adapter* a) {
  if (!j.contains("runs")) return Status::Ok();
  if (!j["runs"].is_array() || j["runs"].empty()) return s.Error("runs", "expected a non-empty array of runs");
  for (size_t i = 0; i < j["runs"].size(); ++i) {
    const std::string w = "runs[" + std::to_string(i) + "]";
    const Json& r = j["runs"][i];
    MOELOG_RETURN_IF_ERROR(s.Keys(r, w, {"label", "args", "about", "only_with"}));
    AdapterRun run;
    MOELOG_RETURN_IF_ERROR(s.String(r, "label", w + ".", &run.label));
    MOELOG_RETURN_IF_ERROR(s.String(r, "only_with", w + ".", &run.only_with));
    if (!run.only_with.empty() && !a->flags.count(run.only_with))
      return s.Error(w + ".only_with", "'" + run.only_with + "' is not one of the adapter's flags");
    MOELOG_RETURN_IF_ERROR(s.Strings(r, "args", w + ".", &run.args));
    if (run.label.empty()) return s.Error(w + ".label", "missing");
    // A label may repeat (an impl x top-k matrix labelled by impl): its runs
    // differ by their args, and selecting the label makes all of them.
    MOELOG_RETURN_IF_ERROR(s.BenchArgs(run.args, w + ".args"));
    a->runs.push_back(std::move(run));
  }
  if (!j.contains("select_runs")) return Status::Ok();
  MOELOG_RETURN_IF_ERROR(s.Keys(j["select_runs"], "select_runs", {"env", "flag"}));
  MOELOG_RETURN_IF_ERROR(s.String(j["select_runs"], "env", "select_runs.", &a->select_runs_env));
  MOELOG_RETURN_IF_ERROR(s.String(j["select_runs"], "flag", "select_runs.", &a->select_runs_flag));
  return Status::Ok();
}

Status ParseRevisions(const Schema& s, const Json& j, Adapter* a) {
  if (!j.contains("revisions")) return Status::Ok();
  if (!j["revisions"].is_array()) return s.Error("revisions", "expected an array");
  for (size_t i = 0; i < j["revisions"].size(); ++i) {
    const std::string w = "revisions[" + std::to_string(i) + "]";
    const Json& r = j["revisions"][i];
    MOELOG_RETURN_IF_ERROR(s.Keys(r, w, {"name", "about", "commits", "before", "only_with", "args"}));
    AdapterRevision rev;
    MOELOG_RETURN_IF_ERROR(s.String(r, "name", w + ".", &rev.name));
    MOELOG_RETURN_IF_ERROR(s.Strings(r, "commits", w + ".", &rev.commits));
    MOELOG_RETURN_IF_ERROR(s.String(r, "before", w + ".", &rev.before));
    MOELOG_RETURN_IF_ERROR(s.String(r, "only_with", w + ".", &rev.only_with));
    if (!rev.only_with.empty() && rev.only_with.rfind("--", 0) != 0)
      return s.Error(w + ".only_with", "expected a harness flag (--name), got '" + rev.only_with + "'");
    MOELOG_RETURN_IF_ERROR(s.Strings(r, "args", w + ".", &rev.args));
    if (rev.name.empty()) return s.Error(w + ".name", "missing");
    if (rev.commits.empty() && rev.before.empty()) return s.Error(w, "expected commits or before (or both)");
    for (const auto& c : rev.commits)
      if (c.size() < 7 || c.find_first_not_of("0123456789abcdef") != std::string::npos)
        return s.Error(w + ".commits", "'" + c + "' is not a commit prefix (7+ lowercase hex digits)");
    static const std::regex kWhen(R"(\d{4}-\d{2}-\d{2}( \d{2}:\d{2})?)");
    if (!rev.before.empty() && !std::regex_match(rev.before, kWhen))
      return s.Error(w + ".before", "expected \"YYYY-MM-DD HH:MM\", got '" + rev.before + "'");
    MOELOG_RETURN_IF_ERROR(s.BenchArgs(rev.args, w + ".args"));
    a->revisions.push_back(std::move(rev));
  }
  return Status::Ok();
}

Status ParseOutput(const Schema& s, const Json& j, Adapter* a) {
  if (!j.contains("output")) return Status::Ok();
  if (!j["output"].is_array()) return s.Error("output", "expected an array");
  for (size_t i = 0; i < j["output"].size(); ++i) {
    const std::string w = "output[" + std::to_string(i) + "]";
    const Json& o = j["output"][i];
    MOELOG_RETURN_IF_ERROR(s.Keys(o, w, {"pattern", "metric", "value_group", "label_group"}));
    OutputRule rule;
    MOELOG_RETURN_IF_ERROR(s.String(o, "pattern", w + ".", &rule.pattern));
    MOELOG_RETURN_IF_ERROR(s.String(o, "metric", w + ".", &rule.metric));
    for (const char* k : {"value_group", "label_group"})
      if (o.contains(k) && (!o[k].is_number_integer() || o[k].get<int>() < 0 || o[k].get<int>() > 9))
        return s.Error(w + "." + k, "expected a group number 0..9");
    rule.value_group = o.value("value_group", 1);
    rule.label_group = o.value("label_group", 0);
    if (rule.metric.empty()) return s.Error(w + ".metric", "missing");
    auto re = CompilePattern(rule.pattern);
    if (!re.ok()) return s.Error(w + ".pattern", re.status().message());
    rule.compiled = *re;
    if (rule.compiled->NumberOfCapturingGroups() < std::max(rule.value_group, rule.label_group))
      return s.Error(w + ".pattern", "has fewer groups than value_group/label_group name");
    a->output.push_back(std::move(rule));
  }
  return Status::Ok();
}

bool ValidWhen(const std::string& w) {
  static const std::regex kWhen(R"(\d{4}-\d{2}-\d{2}( \d{2}:\d{2})?)");
  return w.size() <= 16 && std::regex_match(w, kWhen);
}

Status ParseApplies(const Schema& s, const Json& j, Adapter* a) {
  if (!j.contains("applies")) return Status::Ok();
  const Json& ap = j["applies"];
  MOELOG_RETURN_IF_ERROR(s.Keys(ap, "applies", {"commits", "from", "before", "about"}));
  MOELOG_RETURN_IF_ERROR(s.Strings(ap, "commits", "applies.", &a->applies_commits));
  MOELOG_RETURN_IF_ERROR(s.String(ap, "from", "applies.", &a->applies_from));
  MOELOG_RETURN_IF_ERROR(s.String(ap, "before", "applies.", &a->applies_before));
  for (const auto& c : a->applies_commits)
    if (c.size() < 7 || c.find_first_not_of("0123456789abcdef") != std::string::npos)
      return s.Error("applies.commits", "'" + c + "' is not a commit prefix (7+ lowercase hex digits)");
  for (const auto* w : {&a->applies_from, &a->applies_before})
    if (!w->empty() && !ValidWhen(*w))
      return s.Error(w == &a->applies_from ? "applies.from" : "applies.before",
                     "expected \"YYYY-MM-DD\" or \"YYYY-MM-DD HH:MM\", got '" + *w + "'");
  if (a->applies_commits.empty() && a->applies_from.empty() && a->applies_before.empty())
    return s.Error("applies", "expected commits, from or before");
  return Status::Ok();
}

Result<Adapter> ParseAdapterJson(const Json& j, const std::string& file) {
  MOELOG_RETURN_IF_ERROR(Schema(file).Keys(j, "", {"moelog_adapter", "name", "about", "class", "scripts", "no_adapter",
                                                   "native_flags", "flags", "env", "env_refused", "defaults", "runs",
                                                   "select_runs", "revisions", "output", "applies"}));
  std::string target_class;
  MOELOG_RETURN_IF_ERROR(Schema(file).String(j, "class", "", &target_class));
  if (!target_class.empty() && target_class != "gpu")
    return Schema(file).Error("class", "expected \"gpu\" (a GPU harness) or no class (moelog bench's own flags)");
  const Schema s(file, target_class == "gpu");
  if (!j.contains("moelog_adapter") || j["moelog_adapter"] != 1)
    return s.Error("moelog_adapter", "expected 1 (the schema version)");
  Adapter a;
  a.file = file;
  a.target_class = target_class;
  MOELOG_RETURN_IF_ERROR(s.String(j, "name", "", &a.name));
  MOELOG_RETURN_IF_ERROR(s.Strings(j, "scripts", "", &a.scripts));
  MOELOG_RETURN_IF_ERROR(s.String(j, "no_adapter", "", &a.no_adapter));
  if (a.name.empty()) return s.Error("name", "missing");
  if (a.scripts.empty()) return s.Error("scripts", "expected at least one script path");
  for (const auto& sc : a.scripts)
    if (sc.empty() || sc.back() == '/') return s.Error("scripts", "'" + sc + "' is not a script path");
  if (j.contains("native_flags")) {
    if (!j["native_flags"].is_boolean()) return s.Error("native_flags", "expected true or false");
    a.native_flags = j["native_flags"].get<bool>();
  }
  MOELOG_RETURN_IF_ERROR(ParseRules(s, j, "flags", &a.flags));
  MOELOG_RETURN_IF_ERROR(ParseRules(s, j, "env", &a.env));
  MOELOG_RETURN_IF_ERROR(s.Strings(j, "env_refused", "", &a.env_refused));
  MOELOG_RETURN_IF_ERROR(s.Strings(j, "defaults", "", &a.defaults));
  MOELOG_RETURN_IF_ERROR(s.BenchArgs(a.defaults, "defaults"));
  MOELOG_RETURN_IF_ERROR(ParseRuns(s, j, &a));
  if ((!a.select_runs_env.empty() || !a.select_runs_flag.empty()) && a.runs.empty())
    return s.Error("select_runs", "needs runs");
  MOELOG_RETURN_IF_ERROR(ParseRevisions(s, j, &a));
  MOELOG_RETURN_IF_ERROR(ParseOutput(s, j, &a));
  MOELOG_RETURN_IF_ERROR(ParseApplies(s, j, &a));
  return a;
}

bool PathEndsWith(const std::string& path, const std::string& suffix) {
  if (suffix.empty() || path.size() < suffix.size()) return false;
  if (path.compare(path.size() - suffix.size(), suffix.size(), suffix) != 0) return false;
  return path.size() == suffix.size() || path[path.size() - suffix.size() - 1] == '/';
}

// Applies `rule` to one flag or variable with `value` (has_value: the
// harness gave one). Appends moelog bench arguments to `out`.
// A whole number written as one ("-12", "4096"), or nullopt.
std::optional<int64_t> WholeNumber(const std::string& s) {
  if (s.empty() || s.size() > 19) return std::nullopt;
  const size_t b = s[0] == '-' ? 1 : 0;
  if (b == s.size() || s.find_first_not_of("0123456789", b) != std::string::npos) return std::nullopt;
  return std::stoll(s);
}

// A rule's computed value: its expression over the environment the harness
// sees and `value` (the flag's or variable's own).
Result<std::string> Computed(const ArgRule& rule, const std::string& value,
                             const std::map<std::string, std::string>& env) {
  auto r = EvalIntExpr(rule.expr, [&](const std::string& n) -> std::optional<int64_t> {
    if (n == "value") return WholeNumber(value);
    auto it = env.find(n);
    return it == env.end() ? std::nullopt : WholeNumber(it->second);
  });
  if (!r.ok()) return Status::InvalidArgument("'" + rule.expr + "': " + r.status().message());
  return std::to_string(*r);
}

Status ApplyRule(const Adapter& a, const std::string& name, const ArgRule& rule, bool has_value,
                 const std::string& value, const std::map<std::string, std::string>& env,
                 std::vector<std::string>* out) {
  const std::string who = name + " of harness " + a.name + " (" + a.file + ")";
  switch (rule.kind) {
    case ArgRule::kError:
      return Status::InvalidArgument(who + ": " + rule.message);
    case ArgRule::kIgnoreValue:
    case ArgRule::kIgnoreSwitch:
      return Status::Ok();
    case ArgRule::kSwitch:
      out->insert(out->end(), rule.args.begin(), rule.args.end());
      return Status::Ok();
    case ArgRule::kValue:
      break;
  }
  if (!has_value) return Status::InvalidArgument(who + ": needs a value");
  std::string v = value;
  if (!rule.expr.empty()) {
    auto computed = Computed(rule, value, env);
    if (!computed.ok()) return Status::InvalidArgument(who + ": " + computed.status().message());
    v = *computed;
  }
  if (rule.compiled) {
    if (value.size() > kMaxRegexSubject)
      return Status::InvalidArgument(who + ": value longer than " + std::to_string(kMaxRegexSubject) +
                                     " characters, which its pattern is not applied to");
    std::string group;
    if (!re2::RE2::PartialMatch(value, *rule.compiled, &group)) return Status::Ok();
    v = group;
  }
  if (!rule.values.empty()) {
    auto it = rule.values.find(v);
    if (it == rule.values.end()) {
      std::string known;
      for (const auto& [k, x] : rule.values) known += (known.empty() ? "" : ", ") + k;
      return Status::InvalidArgument(who + ": value '" + v + "' is not one of " + known);
    }
    v = it->second;
  }
  out->push_back(rule.to);
  out->push_back(v);
  return Status::Ok();
}

// A switch variable is on unless empty, "0" or "false".
bool EnvOn(const std::string& v) { return !(v.empty() || v == "0" || v == "false" || v == "False"); }

Status AdaptEnv(const Adapter& a, const std::map<std::string, std::string>& env, std::vector<std::string>* out) {
  for (const auto& [name, rule] : a.env) {
    auto it = env.find(name);
    if (it == env.end()) continue;
    if (rule.kind == ArgRule::kSwitch && !EnvOn(it->second)) continue;
    MOELOG_RETURN_IF_ERROR(ApplyRule(a, name, rule, true, it->second, env, out));
  }
  return Status::Ok();
}

// The harness's own flags. `selected` receives the value of the run-selecting flag.
Status AdaptFlags(const Adapter& a, const std::vector<std::string>& args, const std::map<std::string, std::string>& env,
                  std::vector<std::string>* out, std::string* selected, std::set<std::string>* given) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& w = args[i];
    const size_t eq = w.find('=');
    const bool is_flag = w.rfind("--", 0) == 0 && w.size() > 2;
    const std::string name = is_flag ? w.substr(0, eq) : w;
    const bool inline_value = is_flag && eq != std::string::npos;
    const bool select = is_flag && !a.select_runs_flag.empty() && name == a.select_runs_flag;
    auto rule = is_flag ? a.flags.find(name) : a.flags.end();
    if (is_flag) given->insert(name);
    if (!select && rule == a.flags.end()) {
      if (a.native_flags) {
        out->push_back(w);
        continue;
      }
      return Status::InvalidArgument((is_flag ? "not this harness (or a revision moelog does not know): unknown flag "
                                              : "unexpected argument '") + name +
                                     (is_flag ? "" : "'") + " for harness " + a.name + " (" + a.file + ")");
    }
    const bool takes_value = select || rule->second.kind == ArgRule::kValue ||
                             rule->second.kind == ArgRule::kIgnoreValue ||
                             (rule->second.kind == ArgRule::kError && i + 1 < args.size() && args[i + 1][0] != '-');
    std::string value;
    bool has_value = inline_value;
    if (inline_value) value = w.substr(eq + 1);
    else if (takes_value && i + 1 < args.size()) value = args[++i], has_value = true;
    if (select) {
      if (!has_value) return Status::InvalidArgument(name + " of harness " + a.name + ": needs a value");
      *selected = value;
      continue;
    }
    if (inline_value && rule->second.kind == ArgRule::kSwitch)
      return Status::InvalidArgument(name + " of harness " + a.name + " (" + a.file + ") takes no value");
    MOELOG_RETURN_IF_ERROR(ApplyRule(a, name, rule->second, has_value, value, env, out));
  }
  return Status::Ok();
}

}  // namespace

bool Adapter::Matches(const std::string& script) const {
  return std::any_of(scripts.begin(), scripts.end(), [&](const std::string& s) { return PathEndsWith(script, s); });
}

bool CommitMatches(const std::string& entry_commit, const std::string& prefix) {
  if (entry_commit.size() < 7 || prefix.size() < 7) return false;
  const size_t n = std::min(entry_commit.size(), prefix.size());
  return entry_commit.compare(0, n, prefix, 0, n) == 0;
}

bool AdapterApplies(const Adapter& a, const EntryContext& context) {
  if (a.applies_commits.empty() && a.applies_from.empty() && a.applies_before.empty()) return true;
  if (!context.commit.empty() && !a.applies_commits.empty())  // an entry naming its commit is judged by it
    return std::any_of(a.applies_commits.begin(), a.applies_commits.end(),
                       [&](const std::string& c) { return CommitMatches(context.commit, c); });
  if (a.applies_from.empty() && a.applies_before.empty()) return false;  // commits only, none named
  if (context.when.empty()) return a.applies_before.empty();            // a recipe: today
  // A date without a time is the whole day: from its start, before its end.
  const std::string start = context.when.size() == 10 ? context.when + " 00:00" : context.when;
  const std::string end = context.when.size() == 10 ? context.when + " 99:99" : context.when;
  const std::string from = a.applies_from.size() == 10 ? a.applies_from + " 00:00" : a.applies_from;
  if (!from.empty() && end < from) return false;
  if (!a.applies_before.empty() && !(start < a.applies_before)) return false;
  return true;
}

// Whether the command's words give `flag` ("--flag" or "--flag=value").
static bool GivesFlag(const std::vector<std::string>& args, const std::string& flag) {
  return std::any_of(args.begin(), args.end(),
                     [&](const std::string& w) { return w == flag || w.rfind(flag + "=", 0) == 0; });
}

// Whether the entry's commit or date selects revision `r`.
static bool ContextSelects(const AdapterRevision& r, const EntryContext& context) {
  if (!context.commit.empty()) {  // an entry naming its commit is judged by it alone
    for (const auto& c : r.commits)
      if (CommitMatches(context.commit, c)) return true;
    return false;
  }
  if (r.before.empty() || context.when.empty()) return false;
  // A date without a time is before `before` when its day is.
  const std::string when = context.when.size() == 10 && r.before.size() > 10 ? context.when + " 99:99" : context.when;
  return when < r.before;
}

bool RevisionMayApply(const Adapter& a, const EntryContext& context, std::string_view command_text) {
  return std::any_of(a.revisions.begin(), a.revisions.end(), [&](const AdapterRevision& r) {
    return (r.only_with.empty() || command_text.find(r.only_with) != std::string_view::npos) &&
           ContextSelects(r, context);
  });
}

const AdapterRevision* FindRevision(const Adapter& a, const EntryContext& context,
                                    const std::vector<std::string>* args) {
  for (const auto& r : a.revisions) {
    if (!r.only_with.empty() && (args == nullptr || !GivesFlag(*args, r.only_with))) continue;
    if (ContextSelects(r, context)) return &r;
  }
  return nullptr;
}

Result<Adapted> AdaptInvocation(const Adapter& a, const std::vector<std::string>& args,
                                const std::map<std::string, std::string>& env, const EntryContext& context) {
  for (const auto& v : a.env_refused)
    if (env.count(v)) return Status::NotFound(a.name + " is configured through the environment (" + v + ")");
  if (!a.no_adapter.empty()) return Status::NotFound(a.no_adapter);
  Adapted out;
  std::vector<std::string> common;
  if (const AdapterRevision* r = FindRevision(a, context, &args)) {
    out.revision = r->name;
    common = r->args;
  }
  common.insert(common.end(), a.defaults.begin(), a.defaults.end());
  MOELOG_RETURN_IF_ERROR(AdaptEnv(a, env, &common));
  std::string selected;
  if (!a.select_runs_env.empty() && env.count(a.select_runs_env)) selected = env.at(a.select_runs_env);
  std::set<std::string> given;
  MOELOG_RETURN_IF_ERROR(AdaptFlags(a, args, env, &common, &selected, &given));
  if (a.runs.empty()) {
    out.runs.push_back({"", std::move(common)});
    return out;
  }
  auto add = [&](const AdapterRun& run) {
    AdaptedRun r{run.label, common};
    r.args.insert(r.args.end(), run.args.begin(), run.args.end());
    out.runs.push_back(std::move(r));
  };
  if (selected.empty()) {
    for (const auto& r : a.runs)
      if (r.only_with.empty() || given.count(r.only_with)) add(r);
    return out;
  }
  // Selected labels, in the selection's order; a repeated label makes each
  // of its runs.
  for (const auto& label : SplitList(selected)) {
    bool found = false;
    for (const auto& r : a.runs)
      if (r.label == label) add(r), found = true;
    if (!found) {
      std::string known;
      for (const auto& r : a.runs)
        if (known.find(r.label) == std::string::npos) known += (known.empty() ? "" : ", ") + r.label;
      return Status::InvalidArgument("harness " + a.name + " has no run '" + label + "' (it has " + known + ")");
    }
  }
  return out;
}

Result<Adapter> ParseAdapter(const std::string& json_text, const std::string& file) {
  try {
    return ParseAdapterJson(Json::parse(json_text), file);
  } catch (const Json::exception& e) {
    return Status::InvalidArgument(file + ": not JSON: " + e.what());
  }
}

const std::vector<Adapter>& BuiltinAdapters() {
  static const std::vector<Adapter> adapters = [] {
    std::vector<Adapter> v;
    for (const auto& f : kBuiltinFiles) {
      auto a = ParseAdapter(f.text, f.path);
      if (a.ok()) v.push_back(std::move(*a));  // a test checks every built-in file parses
    }
    return v;
  }();
  return adapters;
}

std::vector<std::pair<std::string, std::string>> BuiltinAdapterTexts() {
  std::vector<std::pair<std::string, std::string>> v;
  for (const auto& f : kBuiltinFiles) v.emplace_back(f.path, f.text);
  return v;
}

namespace {

// A JSON object with a "moelog_adapter" key (parsed fully by ParseAdapter).
bool IsAdapterText(const std::string& text) {
  const auto j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  return j.is_object() && j.contains("moelog_adapter");
}

}  // namespace

Result<std::vector<Adapter>> LoadAdapters(const std::string& dir, std::vector<std::string>* skipped) {
  DIR* d = opendir(dir.c_str());
  if (!d) return Status::IOError(dir + ": cannot read the adapters folder");
  std::vector<std::string> names;
  while (const dirent* e = readdir(d)) {
    const std::string n = e->d_name;
    if (n.size() > 5 && n.compare(n.size() - 5, 5, ".json") == 0) names.push_back(n);
  }
  closedir(d);
  std::sort(names.begin(), names.end());
  std::vector<Adapter> out;
  for (const auto& n : names) {
    const std::string path = dir + "/" + n;
    if (n == "launchers.json") continue;  // the folder's launcher table
    auto text = ReadFile(path);
    if (!text.ok()) return text.status();
    if (!IsAdapterText(*text)) {
      if (skipped) skipped->push_back(n + " (not an adapter: no \"moelog_adapter\" key)");
      continue;
    }
    auto a = ParseAdapter(*text, path);
    if (!a.ok()) return a.status();
    out.push_back(std::move(*a));
  }
  return out;
}

std::map<std::string, std::map<std::string, double>> ParseAdapterOutput(const Adapter& a, const std::string& text) {
  std::map<std::string, std::map<std::string, double>> out;
  for (const auto& m : AdapterOutputLines(a, text)) out[m.label][m.metric] = m.value;
  return out;
}

std::vector<AdapterMetric> AdapterOutputLines(const Adapter& a, const std::string& text) {
  std::vector<AdapterMetric> out;
  std::vector<std::shared_ptr<const re2::RE2>> res;
  for (const auto& r : a.output) {
    if (r.compiled) {
      res.push_back(r.compiled);
    } else {  // a rule built by hand (tests): compiled here
      auto re = CompilePattern(r.pattern);
      res.push_back(re.ok() ? *re : nullptr);
    }
  }
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.size() > kMaxRegexSubject) continue;  // no metric line is this long
    for (size_t i = 0; i < res.size(); ++i) {
      if (!res[i]) continue;
      const OutputRule& r = a.output[i];
      const int groups = std::max(r.value_group, r.label_group) + 1;
      std::vector<re2::StringPiece> m(static_cast<size_t>(groups));
      if (!res[i]->Match(line, 0, line.size(), re2::RE2::UNANCHORED, m.data(), groups)) continue;
      char* end = nullptr;
      const std::string v(m[static_cast<size_t>(r.value_group)].data(), m[static_cast<size_t>(r.value_group)].size());
      const double x = std::strtod(v.c_str(), &end);
      if (end == v.c_str()) continue;
      const auto& label = m[static_cast<size_t>(r.label_group)];
      out.push_back({r.label_group > 0 ? std::string(label.data(), label.size()) : "", r.metric, x});
    }
  }
  return out;
}

}  // namespace moelog::logbook
