// Remote launchers from the default table (data/launchers.json): the harness
// call inside a launcher's quoted command is found and planned.
#include <gtest/gtest.h>

#include <string>

#include "logbook/plan/shell_plan.h"

namespace moelog::logbook {
namespace {

const char* kBench = "lib/levanter/scripts/bench/bench_moe_hillclimb.py --tokens 4096 --topk 2";

TEST(RemoteLaunchers, HarnessInsideTheQuotedCommandIsFound) {
  const std::string b = kBench;
  for (const std::string& text : {
           "gcloud compute tpus tpu-vm ssh my-tpu --zone us-east5-a --worker=all --command 'cd ~/repo && uv run python " +
               b + "'",
           "gcloud compute tpus tpu-vm ssh my-tpu --zone=us-east5-a --command='uv run " + b + "'",
           "ssh -o StrictHostKeyChecking=no tpu-host 'cd ~/repo && .venv/bin/python " + b + "'",
           "ssh tpu-host python3 " + b,
           "ray job submit --address http://127.0.0.1:8265 --working-dir . -- python " + b,
           "RAY_AUTH_MODE=token uv run scripts/ray/dev_tpu.py --config c.yaml --tpu-name t execute -- "
           ".venv/bin/python " + b}) {
    const Plan p = PlanCommand(text);
    EXPECT_EQ(p.verdict, PlanVerdict::kRunnable) << text << " => " << p.Summary();
    ASSERT_EQ(p.invocations.size(), 1u) << text;
    EXPECT_EQ(p.invocations[0].config.tokens, 4096) << text;
    EXPECT_FALSE(p.notes.empty()) << text;  // "stripped launcher ..."
  }
}

// A launcher step that runs no benchmark is not one.
TEST(RemoteLaunchers, LauncherWithoutCommandIsNotApplicable) {
  for (const char* text : {"gcloud compute tpus tpu-vm ssh my-tpu --zone us-east5-a",
                           "gcloud compute tpus tpu-vm create my-tpu --zone z", "ssh tpu-host"}) {
    const Plan p = PlanCommand(text);
    EXPECT_EQ(p.verdict, PlanVerdict::kNotApplicable) << text << " => " << p.Summary();
  }
}

// A hostname-derived value in the remote command: not run; it reaches the
// harness only through a flag, and then the reason names the flag and line.
TEST(RemoteLaunchers, HostnameDerivedValueIsNamed) {
  const Plan p = PlanCommand(
      "gcloud compute tpus tpu-vm ssh t --worker=all --command 'W=$(hostname | sed s/.*-w-//) python " +
      std::string(kBench) + " --seed \"$W\"'");
  EXPECT_EQ(p.verdict, PlanVerdict::kInvalid) << p.Summary();
  EXPECT_NE(p.reason.find("--seed \"$W\": no static value for $W (set by 'W=$(hostname"), std::string::npos)
      << p.reason;
}

}  // namespace
}  // namespace moelog::logbook
