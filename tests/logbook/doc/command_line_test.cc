// Inline code spans of a Command bullet: command lines are planned, prose
// and single words are not.
#include "logbook/doc/command_line.h"

#include <gtest/gtest.h>

namespace moelog::logbook {
namespace {

TEST(CommandLine, CommandLinesAre) {
  for (const char* s : {"uv run --package levanter lib/levanter/scripts/bench/bench_moe_hillclimb.py --topk 2",
                        "python bench_moe_hillclimb.py --tokens 64", ".venv/bin/python x/bench.py --a 1",
                        "RAY_AUTH_MODE=token uv run scripts/ray/dev_tpu.py --config c.yaml execute -- x",
                        "gcloud compute tpus tpu-vm ssh t --command 'python b.py'", "ssh host 'cd r && x'",
                        "python -m levanter.main --x", "bench_moe_hillclimb.py --topk 4", "./run.sh fast",
                        "N/A (setup)", "n/a", "moelog bench --tokens 64", "python3.11 b.py --x",
                        "for k in 2 4; do python b.py --topk $k; done", "ray job submit -- python b.py",
                        "iris job run --cluster=c -- python b.py", "sbatch repro.sbatch", "nice -n 5 python b.py",
                        "... bench_moe_hillclimb.py --topk {2,8}", "... python b.py --x 1",
                        "npm run bench -- --scenario eager", "cargo bench --bench parse", "nsys profile ./app"})
    EXPECT_TRUE(LooksLikeCommandLine(s)) << s;
}

TEST(CommandLine, ProseAndSingleWordsAreNot) {
  for (const char* s : {"q", "tk", "current", "runs q", "bench_moe_hillclimb.py", "--topk 4", "topk=2",
                        "tokens=32768 hidden=2048", "null_route_frac=0.0", "fused_w13", "E=64: topk2 275.6",
                        "see the table above", "", "   ", "python", "RESULT tflops=1.0", "... --quant-mode none ...",
                        "...", "... bench_moe_hillclimb.py",
                        "step:100/5000 train_loss:5.9011 train_time:40112ms", "12/500 [=====>] loss 3.1", "npm", "cargo"})
    EXPECT_FALSE(LooksLikeCommandLine(s)) << s;
}

}  // namespace
}  // namespace moelog::logbook
