// Reader stage figures, a change written "from A to B unit": both ends are
// runs' figures, the bare A in B's unit.
#include <gtest/gtest.h>

#include "logbook/reader/figures_fromto.h"
#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

TEST(FiguresFromTo, TheBareStartTakesTheUnitAfterTheEnd) {
  const std::string s = "rose from 812.5 to 904.1 tok/s";
  EXPECT_EQ(FromToUnit(s, 10, 15), "tok/s");
  EXPECT_EQ(FromToUnit("went from 3 to 4 runs", 10, 11), "");           // no unit of a metric
  EXPECT_EQ(FromToUnit("ranges from 5 to 10 ms", 12, 13), "");          // a span
  EXPECT_EQ(FromToUnit("at 5 to 10 ms", 3, 4), "");                     // no "from"
}

// "~485ms → ~156ms": approximate marks on an arrow's sides keep the sides
// apart (before, after); a field whose qualifier is words names its case by
// both ("Summation (200K terms)").
TEST(FiguresFromTo, AnArrowBetweenApproximateFiguresNamesItsSides) {
  const auto figs = ReadEntry("# Perf log\n\n", "### Experiment 13: large graphs\n\nResults:\n"
                              "- Summation (200K terms): ~485ms → ~156ms (**3.1x faster**)\n"
                              "- Complex (5K terms): ~115ms → ~27ms (**4.3x faster**)\n");
  ASSERT_EQ(figs.size(), 4u);
  EXPECT_EQ(figs[0].run.config.at("arrow"), "before");
  EXPECT_EQ(figs[1].run.config.at("arrow"), "after");
  EXPECT_EQ(figs[1].run.config.at("case"), "Summation (200K terms)");
  EXPECT_EQ(figs[3].run.config.at("case"), "Complex (5K terms)");
  EXPECT_NEAR(figs[3].run.metrics.at("time_s"), 0.027, 1e-12);
}

TEST(FiguresFromTo, BothEndsOfAChangeAreRead) {
  const auto kept = KeptLines("# Tuning notes\n\n## 2026-04-03 fused loader\n\n"
                              "- **Results:**\n"
                              "    - **Forward throughput:** went up from 812.5 to 904.1 tok/s (~11% gain).\n");
  ASSERT_EQ(kept, (std::set<int>{6}));
  const auto figs = ReadEntry("# Tuning notes\n\n", "## 2026-04-03 fused loader\n\n"
                              "Forward throughput went up from 812.5 to 904.1 tok/s.\n");
  std::set<double> values;
  for (const auto& f : figs)
    for (const auto& [m, v] : f.run.metrics)
      if (m == "tokens_per_s") values.insert(v);
  EXPECT_EQ(values, (std::set<double>{812.5, 904.1}));
}

TEST(FiguresFromTo, ASpanStaysOneRunsSpread) {
  const auto figs = ReadEntry("# Tuning notes\n\n", "## 2026-04-03 loader\n\nStep time ranges from 40 to 44 ms.\n");
  for (const auto& f : figs) EXPECT_EQ(f.run.metrics.count("time_s"), 0u) << f.line;
}

}  // namespace
}  // namespace moelog::logbook::reader
