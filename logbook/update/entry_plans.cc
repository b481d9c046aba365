#include "logbook/update/entry_plans.h"

#include <algorithm>
#include <cctype>

#include "logbook/plan/bench_args.h"

namespace moelog::logbook {
namespace {

std::vector<Pin> EffectivePins(const Logbook& logbook, const Entry& entry) {
  std::vector<Pin> pins = logbook.pins;
  pins.insert(pins.end(), entry.pins.begin(), entry.pins.end());
  return pins;
}

}  // namespace

Result<std::vector<std::string>> PinnedBenchArgs(const Logbook& logbook, const Entry& entry) {
  // A malformed pin line of this entry, or of the logbook (outside entries).
  for (const auto& e : logbook.pin_errors) {
    const bool in_entry = std::any_of(logbook.entries.begin(), logbook.entries.end(), [&](const Entry& x) {
      return e.line > x.heading_line && e.line <= x.end_line;
    });
    if (!in_entry || (e.line > entry.heading_line && e.line <= entry.end_line))
      return Status::InvalidArgument(e.ToString());
  }
  std::vector<std::string> args;
  for (const Pin& p : EffectivePins(logbook, entry)) {
    std::string flag = "--" + p.key;
    std::replace(flag.begin(), flag.end(), '_', '-');
    const std::string where = logbook.file + ":" + std::to_string(p.line) + ": pin '" + p.key + "=" + p.value + "': ";
    if (p.key == "target")
      return Status::InvalidArgument(where + "the target is chosen on moelog's command line (--target)");
    auto parsed = ParseBenchFlags({"--target", "v5p", flag, p.value});
    if (!parsed.ok()) {
      const std::string& why = parsed.status().message();
      // An unknown flag is an unknown key: say it in the pin's words.
      if (why.find("unknown flag " + flag) != std::string::npos)
        return Status::InvalidArgument(where + "unknown key '" + p.key + "' (a harness flag in snake case: " +
                                       "ep_dispatch, ep_comm_path, capacity_policy, quant_mode, ...)");
      return Status::InvalidArgument(where + why);
    }
    args.push_back(flag);
    args.push_back(p.value);
  }
  return args;
}

std::string PinsNote(const Logbook& logbook, const Entry& entry) {
  std::string s;
  for (const Pin& p : EffectivePins(logbook, entry))
    s += (s.empty() ? "" : ", ") + p.key + "=" + p.value;
  return s;
}

namespace {

bool IsLowerHex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }
bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The hex commit that follows "commit" or "Commit" in `text` (after spaces,
// '=' or ':' and an optional backtick): 7 to 40 lowercase hex digits ending
// at a word boundary. "" when none. A scan, linear in the text (logbook text
// is someone else's: no backtracking matcher runs on it).
std::string CommitAfterWord(const std::string& text) {
  for (size_t at = text.find("ommit"); at != std::string::npos; at = text.find("ommit", at + 1)) {
    if (at == 0 || (text[at - 1] != 'c' && text[at - 1] != 'C')) continue;
    size_t i = at + 5;
    while (i < text.size() && (std::isspace(static_cast<unsigned char>(text[i])) || text[i] == '=' || text[i] == ':')) ++i;
    if (i < text.size() && text[i] == '`') ++i;
    size_t end = i;
    while (end < text.size() && IsLowerHex(text[end])) ++end;
    const size_t n = end - i;
    if (n >= 7 && n <= 40 && (end == text.size() || !IsWordChar(text[end]))) return text.substr(i, n);
  }
  return "";
}

// "commit=`5b6f53c5d`", "commit 5b6f53c", "Commit: abcdef1..." in a bullet
// or its sub-bullets: the hex that follows.
std::string CommitIn(const Bullet& b) {
  if (std::string x = CommitAfterWord(b.text); !x.empty()) return x;
  for (const auto& c : b.children)
    if (std::string x = CommitIn(c); !x.empty()) return x;
  return "";
}

}  // namespace

EntryContext ContextOf(const Entry& entry) {
  EntryContext c;
  c.when = entry.date + (entry.time.empty() ? "" : " " + entry.time);
  for (const auto& f : entry.fields)
    if (c.commit.empty()) c.commit = CommitIn(f.bullet);
  return c;
}

namespace {

// Whether the entry is planned on its own: it has pins (its own or the
// logbook's, or a pin line that is no key=value list, which then makes its
// plans invalid), or a harness revision of the table's adapters applies to it.
bool PlannedOnItsOwn(const Logbook& logbook, const Entry& entry, const LauncherTable& table) {
  if (!logbook.pins.empty() || !entry.pins.empty() || !logbook.pin_errors.empty()) return true;
  const EntryContext context = ContextOf(entry);
  return std::any_of(table.harnesses.begin(), table.harnesses.end(), [&](const Adapter& a) {
    return std::any_of(entry.commands.begin(), entry.commands.end(),
                       [&](const auto& c) { return RevisionMayApply(a, context, c.joined); });
  });
}

// The entry's commands planned with its context and its pins' flags appended
// to each invocation. A pin that does not check makes every plan invalid and
// sets *pin_error to its FILE:LINE message.
std::vector<Plan> PlanEntryOnItsOwn(const Logbook& logbook, const Entry& entry, const PlanOptions& options,
                                    std::string* pin_error) {
  std::vector<std::string_view> texts;
  for (const auto& c : entry.commands) texts.push_back(c.joined);
  auto pin_args = PinnedBenchArgs(logbook, entry);
  if (!pin_args.ok()) {
    *pin_error = pin_args.status().message();
    std::vector<Plan> plans;
    for (const auto& c : entry.commands) {
      Plan p;
      p.original = c.joined;
      p.verdict = PlanVerdict::kInvalid;
      p.reason = kPinErrorReason + pin_args.status().message();
      plans.push_back(std::move(p));
    }
    return plans;
  }
  PlanOptions o = options;
  o.extra_bench_args.insert(o.extra_bench_args.end(), pin_args->begin(), pin_args->end());
  o.context = ContextOf(entry);
  return PlanCommands(texts, o);
}

}  // namespace

std::vector<std::vector<Plan>> PlanEntries(const Logbook& logbook, const std::vector<const Entry*>& entries,
                                           const PlanOptions& options, std::vector<std::string>* pin_errors) {
  // Entries without pins or revisions are planned together (one planner,
  // shared caches); the others each on its own.
  const LauncherTable& table = options.launchers ? *options.launchers : DefaultLauncherTable();
  std::vector<bool> alone(entries.size());
  std::vector<std::string_view> texts;
  for (size_t i = 0; i < entries.size(); ++i) {
    alone[i] = PlannedOnItsOwn(logbook, *entries[i], table);
    if (!alone[i])
      for (const auto& c : entries[i]->commands) texts.push_back(c.joined);
  }
  std::vector<Plan> shared = PlanCommands(texts, options);
  size_t next = 0;
  std::vector<std::vector<Plan>> out(entries.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    if (alone[i]) {
      std::string pin_error;
      out[i] = PlanEntryOnItsOwn(logbook, *entries[i], options, &pin_error);
      if (!pin_error.empty() && pin_errors) pin_errors->push_back(pin_error);
      continue;
    }
    for (size_t c = 0; c < entries[i]->commands.size(); ++c) out[i].push_back(std::move(shared[next++]));
  }
  return out;
}

}  // namespace moelog::logbook
