#include "logbook/plan/shell_plan.h"

#include <algorithm>
#include <cctype>
#include <thread>
#include <unordered_map>

#include "logbook/plan/shell_planner.h"
#include "logbook/work_queue.h"

namespace moelog::logbook {
namespace {

std::string Trim(std::string_view s) {
  size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return std::string(s.substr(a, b - a));
}

}  // namespace

const char* VerdictName(PlanVerdict v) {
  switch (v) {
    case PlanVerdict::kRunnable: return "runnable";
    case PlanVerdict::kNeedsConsent: return "needs-consent";
    case PlanVerdict::kNoAdapter: return "no-adapter";
    case PlanVerdict::kNotApplicable: return "n/a";
    case PlanVerdict::kInvalid: return "invalid";
  }
  return "invalid";
}

std::string Plan::Summary() const {
  switch (verdict) {
    case PlanVerdict::kRunnable:
      return "runnable: " + std::to_string(invocations.size()) + " invocation(s)" +
             (needs_shell ? " under bash" : "");
    case PlanVerdict::kNeedsConsent: {
      std::string s = "skipped: needs --allow-shell (";
      for (size_t i = 0; i < disallowed.size(); ++i) s += (i ? "; " : "") + disallowed[i];
      if (!unplannable.empty()) s += "; and cannot be planned: " + unplannable;
      return s + ")";
    }
    case PlanVerdict::kNoAdapter: return "skipped: no adapter (" + reason + ")";
    case PlanVerdict::kNotApplicable: return "skipped: N/A" + (reason.empty() ? "" : " (" + reason + ")");
    case PlanVerdict::kInvalid: return "skipped: cannot plan (" + reason + ")";
  }
  return "";
}

std::vector<Plan> PlanCommands(const std::vector<std::string_view>& commands, const PlanOptions& options,
                               int threads) {
  std::vector<Plan> plans(commands.size());
  const size_t n = threads > 0 ? static_cast<size_t>(threads)
                               : std::min(8u, std::max(1u, std::thread::hardware_concurrency()));
  // A plan depends only on the text and the options, so a command written in
  // several entries (a rerun, a baseline repeated) is planned once and copied.
  std::unordered_map<std::string_view, size_t> first;
  first.reserve(commands.size());
  std::vector<size_t> unique, source(commands.size());
  for (size_t i = 0; i < commands.size(); ++i) {
    const auto [it, inserted] = first.try_emplace(commands[i], i);
    source[i] = it->second;
    if (inserted) unique.push_back(i);
  }
  RunQueue(unique.size(), n, [&](size_t u) { plans[unique[u]] = PlanCommand(commands[unique[u]], options); });
  if (unique.size() < commands.size())
    RunQueue(commands.size(), n, [&](size_t i) {
      if (source[i] != i) plans[i] = plans[source[i]];
    });
  return plans;
}

void ClearPlanCache() { shell::ClearParsedArgsCache(); }

Plan PlanCommand(std::string_view command_text, const PlanOptions& options) {
  Plan plan;
  plan.original = std::string(command_text);
  plan.needs_shell = false;
  std::string text = Trim(command_text);
  if (text.empty()) {
    plan.verdict = PlanVerdict::kNotApplicable;
    plan.reason = "empty command";
    return plan;
  }
  {
    std::string head = text.substr(0, 3);
    for (auto& ch : head) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    if (head == "N/A") {
      plan.verdict = PlanVerdict::kNotApplicable;
      std::string rest = Trim(std::string_view(text).substr(3));
      if (rest.size() >= 2 && rest.front() == '(' && rest.back() == ')') rest = rest.substr(1, rest.size() - 2);
      plan.reason = rest;
      return plan;
    }
  }
  shell::Planner planner(options, &plan);
  shell::Rendered r = planner.PlanScript(text, shell::Vars{}, 0);
  plan.rewritten_script = r.rewritten;
  plan.harness_script = r.harness;
  if (!planner.over_budget().empty()) {
    plan.verdict = PlanVerdict::kInvalid;  // with or without consent: nothing could carry it out
    plan.reason = planner.over_budget();
  } else if (!planner.invalid().empty() && !plan.disallowed.empty()) {
    // Reported as what it is first: text that needs a shell.
    plan.verdict = PlanVerdict::kNeedsConsent;
    plan.reason = "needs --allow-shell";
    plan.unplannable = planner.invalid();
  } else if (!planner.invalid().empty()) {
    plan.verdict = PlanVerdict::kInvalid;
    plan.reason = planner.invalid();
  } else if (plan.invocations.empty() && !plan.rejected.empty()) {
    plan.verdict = PlanVerdict::kInvalid;  // every iteration rejected: as one command would be
    plan.reason = plan.rejected.front();
  } else if (!planner.no_adapter().empty()) {
    plan.verdict = PlanVerdict::kNoAdapter;
    plan.reason = planner.no_adapter();
  } else if (plan.invocations.empty()) {
    plan.verdict = PlanVerdict::kNotApplicable;
    plan.reason = planner.not_applicable().empty() ? "no benchmark invocation" : planner.not_applicable();
    for (const auto& d : plan.disallowed) plan.reason += "; " + d;
  } else if (!plan.disallowed.empty()) {
    plan.verdict = PlanVerdict::kNeedsConsent;
    plan.reason = "needs --allow-shell";
  } else {
    plan.verdict = PlanVerdict::kRunnable;
  }
  if (plan.verdict == PlanVerdict::kNeedsConsent && plan.unplannable.empty() && !planner.shell_unplannable().empty())
    plan.unplannable = planner.shell_unplannable();
  if ((plan.verdict != PlanVerdict::kRunnable && plan.verdict != PlanVerdict::kNeedsConsent) ||
      !plan.unplannable.empty())
    plan.invocations.clear();
  return plan;
}

const std::vector<std::string>& ShellAllowList() { return shell::kDirectWords; }

std::string ShellQuote(std::string_view w) {
  if (w.empty()) return "''";
  bool plain = std::all_of(w.begin(), w.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           std::string_view("_-./,:=+@%").find(c) != std::string_view::npos;
  });
  if (plain) return std::string(w);
  std::string s = "'";
  for (char c : w) {
    if (c == '\'') s += "'\\''";
    else s.push_back(c);
  }
  return s + "'";
}

}  // namespace moelog::logbook
