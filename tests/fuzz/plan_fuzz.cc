// libFuzzer target over the command planner, with an oracle for consent: for
// any command text, a plan made without consent that is runnable
//   - needs no shell and lists no reason for consent (so the runner starts no
//     program but moelog: it runs the invocations itself, shell_plan.h);
//   - has only invocations whose arguments parse and validate, carry the
//     user's target once, and name no file (model and hardware data are
//     names; moelog bench writes nothing);
// and a plan that is not runnable has no invocation to run. Budgets: every
// input plans within kPlanSeconds and raises the process's peak memory by
// less than kPlanBytes (a logbook's text of a few KB must not hang or exhaust
// moelog: the planner caps variables, expanded text and walked commands).
// Built with clang
// when MOELOG_FUZZ=ON; plan_replay_main.cc runs the same checks over
// tests/fuzz/plan_corpus (one attack form per file) under the normal build.
#include <sys/resource.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/bench_config.h"
#include "logbook/plan/bench_args.h"
#include "logbook/plan/shell_plan.h"

namespace {

void Require(bool ok) {
  if (!ok) __builtin_trap();
}

#if defined(__SANITIZE_ADDRESS__)
constexpr double kPlanSeconds = 5.0;  // instrumented builds run several times slower
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr double kPlanSeconds = 5.0;
#else
constexpr double kPlanSeconds = 1.0;
#endif
#else
constexpr double kPlanSeconds = 1.0;
#endif
constexpr long kPlanBytes = 512L << 20;

long PeakRssBytes() {
  struct rusage u {};
  ::getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss * 1024L;
}

bool IsPath(const std::string& s) {
  return s.find('/') != std::string::npos || (s.size() > 5 && s.compare(s.size() - 5, 5, ".json") == 0);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace moelog;
  using namespace moelog::logbook;
  if (size > 4096) return 0;  // commands are short; keeps each input fast
  const std::string text(reinterpret_cast<const char*>(data), size);
  PlanOptions opts;
  opts.target = "v5p";
  opts.max_invocations = 64;
  const long peak_before = PeakRssBytes();
  const auto start = std::chrono::steady_clock::now();
  const Plan plan = PlanCommand(text, opts);
  Require(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < kPlanSeconds);
  Require(PeakRssBytes() - peak_before < kPlanBytes);
  if (plan.verdict != PlanVerdict::kRunnable) {
    Require(plan.verdict == PlanVerdict::kNeedsConsent || plan.invocations.empty());
    Require(plan.unplannable.empty() || plan.invocations.empty());
    return 0;
  }
  Require(!plan.needs_shell);
  Require(plan.disallowed.empty());
  for (const BenchInvocation& inv : plan.invocations) {
    int targets = 0;
    for (size_t i = 0; i < inv.args.size(); ++i) {
      const std::string& a = inv.args[i];
      if (a == "--target") {
        ++targets;
        Require(i + 1 < inv.args.size() && inv.args[i + 1] == "v5p");
      }
      Require(a.rfind("--target=", 0) != 0 || a == "--target=v5p");
      targets += a.rfind("--target=", 0) == 0 ? 1 : 0;
    }
    Require(targets >= 1);
    auto config = logbook::ParseBenchArgs(inv.args);
    Require(config.ok());
    Require(config->Validate().ok());
    Require(config->target == "v5p");
    Require(!IsPath(config->model_params) && !IsPath(config->hardware));
  }
  return 0;
}
