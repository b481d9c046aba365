// Reader stage key, a command's plain arguments: what sets a run apart
// when its command has no flags. A tool's subcommand (`cargo bench`, `go
// test`, `k6 run`, `npm run bench`) is the tool, not a configuration; a
// shell comment, a quoted phrase, a config file's `name = value` lines and
// the input piped into a tool are never a key; a file the run reads may be.
#include <gtest/gtest.h>

#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

TEST(KeyArgs, ASubcommandIsTheToolNotAnArgument) {
  EXPECT_EQ(PositionalArgs("cargo bench"), "");
  EXPECT_EQ(PositionalArgs("go test -bench=. -benchmem ./..."), "");
  EXPECT_EQ(PositionalArgs("k6 run --vus 20 --duration 30s soak.js"), "");
  EXPECT_EQ(PositionalArgs("npm run bench"), "");
  EXPECT_EQ(PositionalArgs("pytest --benchmark-only"), "");
  EXPECT_EQ(PositionalArgs("dotnet run -c Release"), "");
  EXPECT_EQ(PositionalArgs("sudo $(which nsys) stats report.nsys-rep"), "");
}

TEST(KeyArgs, AFileTheToolRunsMayNameTheWorkload) {
  EXPECT_EQ(PositionalArgs("k6 run soak.js"), "soak.js");
  EXPECT_EQ(PositionalArgs("benchstat old.txt new.txt"), "old.txt new.txt");
}

TEST(KeyArgs, ProgramArgumentsStayKeys) {
  EXPECT_EQ(PositionalArgs("cargo run --release --bin scan -- 10 4"), "10 4");
  EXPECT_EQ(PositionalArgs("./scan 10 4 | tee log"), "10 4");
  EXPECT_EQ(PositionalArgs("cd build && ./scan 64 2"), "64 2");
}

TEST(KeyArgs, CommentsPhrasesAndPipedInputAreNoArguments) {
  EXPECT_EQ(PositionalArgs("./hist  # GPU run"), "");
  EXPECT_EQ(PositionalArgs("echo \"POST http://svc:9000/put\" | vegeta attack -rate=200 | vegeta report"), "");
  EXPECT_EQ(PositionalArgs("./client \"two words\" 8"), "");
  EXPECT_EQ(PositionalArgs("# Pool\nmax_pool = 40\n\n# Cache\ncache_mb = '256 MB'\n"), "");
}

// A printout under a `$ ` prompt of a tool's subcommand: its figures carry
// no key `args=run`.
TEST(KeyArgs, APromptedSubcommandKeysNoFigure) {
  const auto figs = ReadEntry("# Load log\n\n## 2026-05-03 soak\n\n",
                              "```\n$ k6 run --vus 20 soak.js\n"
                              "     http_req_duration..............: avg=8.20ms min=2.1ms med=7.9ms max=95.0ms p(90)=12.1ms p(95)=15.4ms\n"
                              "     http_reqs......................: 24110   401.8/s\n```\n");
  ASSERT_FALSE(figs.empty());
  for (const auto& f : figs) EXPECT_EQ(f.run.config.count("args"), 0u) << f.run.config.begin()->second;
}

}  // namespace
}  // namespace moelog::logbook::reader
