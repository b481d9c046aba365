// A recorded table and --show-recorded show each figure as its author (or
// their tool) wrote it: digits grouped as printed, a magnitude suffix kept,
// a tool's own unit kept, columns headed in words and in the unit written,
// never a name whose unit disagrees with the figure's.
#include <gtest/gtest.h>

#include "logbook/reader/recorded.h"
#include "logbook/render/render_table.h"

namespace moelog::logbook {
namespace {

RecordedFigure Figure(const std::map<std::string, std::string>& config) {
  RecordedFigure f;
  f.run.config = config;
  return f;
}

void Set(RecordedFigure* f, const std::string& metric, double v, const std::string& unit, int decimals) {
  f->run.metrics[metric] = v, f->run.decimals[metric] = decimals;
  if (!unit.empty()) f->run.units[metric] = unit;
}

// perf stat's counts printed with thousands commas on the lines below the
// printout's first: shown with them, as every count of the printout.
TEST(RenderRecordedWritten, CountsKeepTheCommasTheirPrintoutWrote) {
  RecordedFigure f = Figure({{"keys", "1000000"}});
  f.text = "3,412,908,115      cycles";
  f.written = "3,412,908,115      cycles\n5,120,447,903      instructions\n18,234,561      cache-misses\n";
  Set(&f, "cycles", 3412908115, "", 0), Set(&f, "instructions", 5120447903, "", 0), Set(&f, "cache_misses", 18234561, "", 0);
  RecordedFigure g = f;
  g.run.config = {{"keys", "2000000"}};
  const std::string out = RenderRecordedTable({f, g});
  EXPECT_NE(out.find("| 18,234,561 | 3,412,908,115 | 5,120,447,903 |"), std::string::npos) << out;
  EXPECT_EQ(out.find("18234561"), std::string::npos) << out;
}

// wrk's "Requests/sec: 103602.71": no commas its author did not write.
TEST(RenderRecordedWritten, ARateWrittenPlainStaysPlain) {
  RecordedFigure f = Figure({{"connections", "64"}});
  f.text = "Latency   612.31us   201.44us   9.81ms   91.20%";
  f.written = f.text + "\nRequests/sec: 103602.71\n";
  Set(&f, "requests_per_s", 103602.71, "req/s", 2);
  RecordedFigure g = f;
  g.run.config = {{"connections", "128"}};
  const std::string out = RenderRecordedTable({f, g});
  EXPECT_NE(out.find("| 103602.71 |"), std::string::npos) << out;
  EXPECT_EQ(out.find("103,602.71"), std::string::npos) << out;
  EXPECT_EQ(RecordedValuesAsWritten(f), "103602.71 requests_per_s");  // --show-recorded too
}

// pgbench's "tps = 853.79": headed "tps", not "transactions per s (tps)".
TEST(RenderRecordedWritten, ARateOfOneThingIsHeadedByItsUnit) {
  RecordedFigure f = Figure({{"clients", "8"}}), g = Figure({{"clients", "16"}});
  Set(&f, "transactions_per_s", 853.79, "tps", 2), Set(&g, "transactions_per_s", 1402.5, "tps", 1);
  const std::string out = RenderRecordedTable({f, g});
  EXPECT_NE(out.find("| tps |"), std::string::npos) << out;
  EXPECT_EQ(out.find("transactions per s"), std::string::npos) << out;
}

// fio's "bw (  KiB/s): ... avg=5921.40" and "iops : ... avg=1480.33": words
// and the unit the tool printed, not bw_avg_kib_per_s and iops_avg.
TEST(RenderRecordedWritten, AToolsFieldsAreHeadedInWordsAndTheirUnit) {
  RecordedFigure f = Figure({{"rw", "randwrite"}}), g = Figure({{"rw", "randread"}});
  Set(&f, "bw_avg_kib_per_s", 5921.40, "KiB/s", 2), Set(&f, "iops_avg", 1480.33, "", 2);
  Set(&g, "bw_avg_kib_per_s", 31182.87, "KiB/s", 2), Set(&g, "iops_avg", 7795.69, "", 2);
  f.text = "bw (  KiB/s): min= 4096, max= 7128, per=99.99%, avg=5921.40";
  g.text = "bw (  KiB/s): min=21920, max=39048, per=99.95%, avg=31182.87";
  const std::string out = RenderRecordedTable({f, g});
  EXPECT_NE(out.find("| bw avg KiB/s | iops avg |"), std::string::npos) << out;
  EXPECT_NE(out.find("| 5921.40 | 1480.33 |"), std::string::npos) << out;
  EXPECT_NE(out.find("| 31182.87 | 7795.69 |"), std::string::npos) << out;
  EXPECT_EQ(out.find("_"), std::string::npos) << out;
}

// fio prints one run's latencies in msec, the next one's in usec: each
// cell as printed ("1675.56 usec" in a column of msec, never 1.67556), and
// "max=4655.6k" of nsec is 4655.6k in a column of nsec, not of "k nsec".
TEST(RenderRecordedWritten, ATimeWrittenInAnotherUnitKeepsItsUnit) {
  RecordedFigure f = Figure({{"rw", "randwrite"}}), g = Figure({{"rw", "randread"}});
  Set(&f, "clat_avg_time_s", 5.67e-3, "msec", 2), Set(&g, "clat_avg_time_s", 1675.56e-6, "usec", 2);
  Set(&f, "slat_max_time_s", 4655.6e-6, "k nsec", 1), Set(&g, "slat_max_time_s", 1334.9e-6, "k nsec", 1);
  f.text = "slat (nsec): min=218, max=4655.6k, avg=770.69, stdev=4694.42";
  g.text = "slat (nsec): min=198, max=1334.9k, avg=646.66, stdev=1978.57";
  const std::string out = RenderRecordedTable({f, g});
  EXPECT_NE(out.find("| clat avg time (msec) | slat max time (nsec) |"), std::string::npos) << out;
  EXPECT_NE(out.find("| 5.67 | 4655.6k |"), std::string::npos) << out;
  EXPECT_NE(out.find("| 1675.56 usec | 1334.9k |"), std::string::npos) << out;
  EXPECT_EQ(out.find("1.67556"), std::string::npos) << out;
}

// "💾 Memory: 103.26 GB peak" read as peak_memory_mib in GB: headed
// "peak memory (GB)", not "peak memory mib (GB)".
TEST(RenderRecordedWritten, ANameSaysNoUnitOtherThanItsFigures) {
  RecordedFigure f = Figure({{"gpus", "2"}}), g = Figure({{"gpus", "8"}});
  Set(&f, "peak_memory_mib", 103.26 * 953.67431640625, "GB", 2), Set(&g, "peak_memory_mib", 98.1 * 953.67431640625, "GB", 1);
  const std::string out = RenderRecordedTable({f, g});
  EXPECT_NE(out.find("| peak memory (GB) |"), std::string::npos) << out;
  EXPECT_EQ(out.find("mib"), std::string::npos) << out;
}

// --show-recorded: fio's "IOPS=18.0k" is 18.0k, not 18000.0; a bandwidth
// written in MiB/s is not named in GB/s, a latency in usec not in seconds.
TEST(RenderRecordedWritten, ShowRecordedSaysFiguresAsWritten) {
  StoredRun run;
  run.metrics["read_iops"] = 18000, run.units["read_iops"] = "k ", run.decimals["read_iops"] = 1;
  EXPECT_EQ(RecordedValuesAsWritten(run), "18.0k read_iops");
  run.metrics.clear();
  run.metrics["read_bw_gb_per_s"] = 74.0 * 1048576 / 1e9, run.units["read_bw_gb_per_s"] = "MiB/s";
  run.decimals["read_bw_gb_per_s"] = 1;
  run.metrics["clat_p99_time_s"] = 3032e-6, run.units["clat_p99_time_s"] = "usec", run.decimals["clat_p99_time_s"] = 0;
  run.metrics["bw_avg_kib_per_s"] = 5921.40, run.units["bw_avg_kib_per_s"] = "KiB/s", run.decimals["bw_avg_kib_per_s"] = 2;
  EXPECT_EQ(RecordedValuesAsWritten(run), "5921.40 KiB/s (bw_avg), 3032 usec (clat_p99), 74.0 MiB/s (read_bw)");
}

// A time printed in another unit with thousands commas (an nsys summary's
// "57,234,971.1" ns): --show-recorded keeps its commas as the table does.
TEST(RenderRecordedWritten, ShowRecordedKeepsTheCommasOfATimeInItsOwnUnit) {
  RecordedFigure f = Figure({{"name", "poll"}});
  f.text = "     48.3    1,602,579,192         28   57,234,971.1  poll";
  Set(&f, "avg_time_s", 57234971.1e-9, "ns", 1);
  EXPECT_EQ(RecordedValuesAsWritten(f), "57,234,971.1 ns (avg)");
  f.text = "57234971.1 ns";
  EXPECT_EQ(RecordedValuesAsWritten(f), "57234971.1 ns (avg)");
}

// --show-recorded tells a printout's figures at the lines they are printed
// on: a joined line's own numbers only ("88.38", never "188.38").
TEST(RenderRecordedWritten, AJoinedLineSaysTheFiguresItWrites) {
  RecordedFigure f;
  f.run.metrics["latency_p50_time_s"] = 88.38e-3, f.run.units["latency_p50_time_s"] = "ms";
  f.run.decimals["latency_p50_time_s"] = 2;
  f.run.metrics["latency_p99_time_s"] = 188.38e-3, f.run.units["latency_p99_time_s"] = "ms";
  f.run.decimals["latency_p99_time_s"] = 2;
  EXPECT_EQ(JoinedLineValues(f, "     50%   88.38ms"), "88.38 ms (latency_p50)");
  EXPECT_EQ(JoinedLineValues(f, "     99%  188.38ms"), "188.38 ms (latency_p99)");
  EXPECT_EQ(JoinedLineValues(f, "  Latency Distribution"), "");
}

// A whole number is not told at a line that writes it with decimals or
// grouped digits after it ("13" is not in "| 13.0 |" nor in "13,402").
TEST(RenderRecordedWritten, AWholeNumberIsNotHeldByALongerOne) {
  RecordedFigure f;
  f.run.metrics["prefill_tokens_per_s"] = 13, f.run.units["prefill_tokens_per_s"] = "tokens/s";
  EXPECT_EQ(JoinedLineValues(f, "| decode token/s | 16.8 | 13.0 |"), "");
  EXPECT_EQ(JoinedLineValues(f, "| total | 13,402 |"), "");
  EXPECT_NE(JoinedLineValues(f, "| Prefill token/s | 13 | 105 |"), "");
  EXPECT_NE(JoinedLineValues(f, "prefill ran at 13."), "");
}

// A derived figure written on a joined line ("| Read max RPS | 180 | 540 |
// +200% |") is told there too, marked derived.
TEST(RenderRecordedWritten, ADerivedFigureOnAJoinedLineIsTold) {
  RecordedFigure f;
  f.run.metrics["rps"] = 540, f.run.units["rps"] = "req/s";
  f.run.metrics["rps_delta_pct"] = 200, f.run.units["rps_delta_pct"] = "%", f.run.derived.insert("rps_delta_pct");
  const std::string told = JoinedLineValues(f, "| Read max RPS | 180 | 540 | +200% |");
  EXPECT_NE(told.find("540"), std::string::npos);
  EXPECT_NE(told.find("200"), std::string::npos);
  EXPECT_NE(told.find("(derived)"), std::string::npos);
}

}  // namespace
}  // namespace moelog::logbook
