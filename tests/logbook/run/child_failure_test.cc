// A failed child says why: its own error, the signal and its likely cause,
// the timeout; "internal error" only for a crash.
#include "logbook/run/child_failure.h"

#include <gtest/gtest.h>
#include <signal.h>

#include "logbook/run/runner.h"

namespace moelog::logbook {
namespace {

TEST(ChildFailure, KillNearTheMachinesMemoryIsOutOfMemory) {
  ChildEnd e;
  e.term_signal = SIGKILL;
  e.peak_rss_bytes = 23.4e9;
  e.mem_total_bytes = 24.6e9;
  const Status s = ChildFailure("moelog bench", e);
  EXPECT_EQ(s.code(), Status::Code::kOutOfMemory);
  EXPECT_NE(s.message().find("SIGKILL"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("peak 23.4 GB of 24.6 GB"), std::string::npos) << s.message();
}

TEST(ChildFailure, OtherSignalsAreNamed) {
  ChildEnd e;
  e.term_signal = SIGKILL;
  e.peak_rss_bytes = 1e9;
  e.mem_total_bytes = 24e9;
  Status s = ChildFailure("moelog bench", e);
  EXPECT_EQ(s.code(), Status::Code::kKilled) << s.ToString();
  EXPECT_NE(s.message().find("SIGKILL"), std::string::npos);
  e.term_signal = SIGSEGV;
  s = ChildFailure("moelog bench", e);
  EXPECT_EQ(s.code(), Status::Code::kInternal);  // a crash is moelog's bug
  EXPECT_NE(s.message().find("SIGSEGV"), std::string::npos);
}

TEST(ChildFailure, TheEnginesOwnErrorIsKept) {
  ChildEnd e;
  e.exit_status = 2;
  e.stderr_text =
      "warning: something\nmoelog bench: error: out of memory: --tokens 32768: the cpu engine needs an estimated "
      "31.0 GB at its peak (22.0 GB available now)\n";
  const Status s = ChildFailure("moelog bench", e);
  EXPECT_EQ(s.code(), Status::Code::kOutOfMemory);
  EXPECT_EQ(s.message(), "--tokens 32768: the cpu engine needs an estimated 31.0 GB at its peak (22.0 GB available now)");
  e.stderr_text = "moelog bench: error: --topk: must be <= --experts\n";
  EXPECT_EQ(ChildFailure("moelog bench", e).code(), Status::Code::kInvalidArgument);
}

TEST(ChildFailure, TimeoutSaysAfterHowLong) {
  ChildEnd e;
  e.timed_out = true;
  e.timeout_s = 90;
  const Status s = ChildFailure("moelog bench", e);
  EXPECT_EQ(s.code(), Status::Code::kTimeout);
  EXPECT_NE(s.message().find("after 90 s"), std::string::npos) << s.message();
}

TEST(ChildFailure, RunProcessReportsTheSignalAndThePeak) {
  auto r = RunProcess({MOELOG_BASH, "-c", "kill -SEGV $$"}, 10);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->term_signal, SIGSEGV);
  auto ok = RunProcess({MOELOG_BASH, "-c", "exit 3"}, 10);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->term_signal, 0);
  EXPECT_EQ(ok->exit_status, 3);
  // bash holds some resident memory while it runs; a sleep lets a sample land.
  auto slept = RunProcess({MOELOG_BASH, "-c", "sleep 0.2"}, 10);
  ASSERT_TRUE(slept.ok());
  EXPECT_GT(slept->peak_rss_bytes, 0);
}

}  // namespace
}  // namespace moelog::logbook
