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
