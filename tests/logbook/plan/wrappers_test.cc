// Local wrappers and batch launchers from the default table
// (data/launchers.json): timeout, nohup, time, nice, stdbuf, srun,
// sbatch --wrap, iris job run -- CMD, torchrun, mpirun/mpiexec, deepspeed,
// accelerate launch, docker run IMAGE CMD, and `python -m pkg.mod`. The harness
// call they run is found; the wrapper itself is never run.
#include <gtest/gtest.h>

#include <string>

#include "logbook/plan/shell_plan.h"

namespace moelog::logbook {
namespace {

const std::string kBench = "lib/levanter/scripts/bench/bench_moe_hillclimb.py --tokens 4096 --topk 2";

TEST(Wrappers, HarnessInsideAWrapperIsFound) {
  for (const std::string& text : {
           "timeout 600 python " + kBench,
           "timeout -k 10 --preserve-status 1h python3 " + kBench,
           "JAX_PLATFORMS=tpu timeout 600 python " + kBench + " > logs/x.txt 2>&1",
           "nohup uv run " + kBench + " > run.log 2>&1",
           "time python " + kBench,
           "nice -n 5 stdbuf -oL python " + kBench,
           "srun -N 1 --gpus-per-node 8 --export=ALL python " + kBench,
           "sbatch -N 1 --job-name x --wrap 'cd ~/repo && python " + kBench + "'",
           "uv run --package marin-iris --extra controller iris --cluster=c job run --no-wait --job-name j "
           "--gpu H100x8 -e WANDB_MODE offline -- uv run --package marin-levanter python " + kBench,
           std::string("python -m lib.levanter.scripts.bench.bench_moe_hillclimb --tokens 4096 --topk 2"),
           std::string("uv run python -m lib.levanter.scripts.bench.bench_moe_hillclimb --tokens 4096 --topk 2"),
           "/opt/py/bin/python3.11 " + kBench,
           "torchrun --standalone --nproc_per_node 8 " + kBench,
           "torchrun --nnodes=2 --nproc-per-node=8 --rdzv-endpoint host:29500 " + kBench,
           "mpirun -np 8 -x NCCL_DEBUG=INFO --bind-to none python " + kBench,
           "mpiexec -n 4 python3 " + kBench,
           "deepspeed --num_gpus 8 " + kBench,
           "accelerate launch --num_processes 8 --mixed_precision bf16 " + kBench,
           "docker run --rm --gpus all -v /data:/data -e NCCL_DEBUG=INFO ghcr.io/me/img:latest python " + kBench}) {
    const Plan p = PlanCommand(text);
    EXPECT_EQ(p.verdict, PlanVerdict::kRunnable) << text << " => " << p.Summary();
    ASSERT_EQ(p.invocations.size(), 1u) << text;
    EXPECT_EQ(p.invocations[0].config.tokens, 4096) << text;
    EXPECT_FALSE(p.needs_shell) << text;
  }
}

// A local wrapper passes the command's K=V prefixes to what it runs: the
// adapter's env rules read them.
TEST(Wrappers, PrefixesReachTheHarnessThroughALocalWrapper) {
  const Plan p = PlanCommand("LIBTPU_INIT_ARGS=--xla_tpu_scoped_vmem_limit_kib=50000 timeout 600 python " + kBench);
  ASSERT_EQ(p.verdict, PlanVerdict::kRunnable) << p.Summary();
  EXPECT_EQ(p.invocations[0].config.xla_scoped_vmem_kib, 50000);
}

// iris's `-e NAME VALUE` (two words) are the job's environment.
TEST(Wrappers, IrisEnvironmentIsTwoWords) {
  const Plan p = PlanCommand(
      "iris --cluster c job run -e LIBTPU_INIT_ARGS --xla_tpu_scoped_vmem_limit_kib=65536 -- python " + kBench);
  ASSERT_EQ(p.verdict, PlanVerdict::kRunnable) << p.Summary();
  EXPECT_EQ(p.invocations[0].config.xla_scoped_vmem_kib, 65536);
}

// Other steps of the same tools run no benchmark, and unknown scripts or
// modules are named.
TEST(Wrappers, OtherStepsAndScriptsAreNamed) {
  EXPECT_EQ(PlanCommand("iris --cluster c job logs --tail /me/job").verdict, PlanVerdict::kNotApplicable);
  EXPECT_EQ(PlanCommand("timeout 600").verdict, PlanVerdict::kNotApplicable);
  const Plan batch = PlanCommand("sbatch repro.sbatch");
  EXPECT_EQ(batch.verdict, PlanVerdict::kNoAdapter) << batch.Summary();
  EXPECT_NE(batch.reason.find("repro.sbatch"), std::string::npos) << batch.reason;
  const Plan mod = PlanCommand("python -m experiments.moe.bench --ep 4");
  EXPECT_EQ(mod.verdict, PlanVerdict::kNoAdapter) << mod.Summary();
  EXPECT_NE(mod.reason.find("unknown module experiments.moe.bench"), std::string::npos) << mod.reason;
  // Code given inline is never a harness call.
  EXPECT_EQ(PlanCommand("python -c 'print(1)'").invocations.size(), 0u);
}

// A wrapper never hides a program moelog does not run.
TEST(Wrappers, WrappedOtherProgramsStillNeedConsent) {
  const Plan p = PlanCommand("timeout 60 curl http://x; python " + kBench);
  EXPECT_EQ(p.verdict, PlanVerdict::kNeedsConsent) << p.Summary();
}

}  // namespace
}  // namespace moelog::logbook
