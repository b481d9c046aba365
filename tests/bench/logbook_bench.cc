// Document-layer speed (BENCHMARKS.md):
//   BM_ParsePlanRewrite: parse + plan every command + splice one region per
//     runnable entry, on a ~1 MB logbook built from the seed's entries
//     (target < 100 ms per iteration), from a cold plan cache each time.
//   BM_ParseOnly, BM_PlanOnly, BM_SpliceOnly: its phases, on one thread.
//   BM_Update100EntriesWarm: `moelog update --target v5p` of a 100-entry
//     logbook whose runs are all in the store (target < 1 s per iteration).
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "logbook/doc/parse_logbook.h"
#include "logbook/doc/regions.h"
#include "logbook/update/session.h"
#include "logbook/plan/launchers.h"
#include "logbook/plan/shell_plan.h"

namespace {

namespace fs = std::filesystem;
using namespace moelog::logbook;

std::string Slurp(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The seed's header and its Experiment Log entries repeated with new
// date-times until the text reaches `bytes`. With `distinct`, every copy's
// harness invocations also get their own `--seed`, so no two copies share an
// argument list (nothing can be reused between copies).
std::string BigLogbook(size_t bytes, bool distinct = false) {
  const std::string seed = Slurp(std::string(MOELOG_SOURCE_DIR) + "/recipes/moe_ep_benchmark_logbook.md");
  const size_t log = seed.find("## Experiment Log\n");
  const size_t first = seed.find("### ", log);
  std::string out = seed.substr(0, first);
  const std::string entries = seed.substr(first);
  for (int day = 0; out.size() < bytes; ++day) {
    std::string copy = entries;
    char date[16];
    std::snprintf(date, sizeof date, "2027-%02d-%02d", 1 + day / 28 % 12, 1 + day % 28);
    for (size_t p = 0; (p = copy.find("### 2026-02-09", p)) != std::string::npos; p += 4)
      copy.replace(p + 4, 10, std::string(date));
    if (distinct) {
      const std::string seed_flag = "--seed " + std::to_string(1000 + day) + " --tokens ";
      for (size_t p = 0; (p = copy.find("--tokens ", p)) != std::string::npos; p += seed_flag.size())
        copy.replace(p, 9, seed_flag);
    }
    out += copy;
    if (day > 1000) break;
  }
  return out;
}

// The built-in table with bench_moe_mlp_profile.py left unadapted: the
// workload of the build before its adapter (its three entries skipped), to
// time adapter matching on the same invocations.
const LauncherTable& WithoutMlpProfile() {
  static const LauncherTable table = [] {
    LauncherTable t = DefaultLauncherTable();
    for (auto& a : t.harnesses)
      if (a.name == "mlp_profile") a.no_adapter = "left out by the benchmark";
    return t;
  }();
  return table;
}

void BM_ParsePlanRewrite(benchmark::State& state) {
  const std::string text = BigLogbook(1 << 20, state.range(0) == 1);
  PlanOptions popt;
  popt.target = "v5p";
  if (state.range(0) == 2) popt.launchers = &WithoutMlpProfile();
  for (auto _ : state) {
    ClearPlanCache();  // one update is one cold pass over the document
    const Logbook lb = ParseLogbook(text, "big.md");
    std::vector<std::string_view> commands;
    for (const auto& e : lb.entries)
      for (const auto& c : e.commands) commands.push_back(c.joined);
    const std::vector<Plan> plans = PlanCommands(commands, popt);  // as `moelog update` plans
    std::vector<RegionEdit> edits;
    size_t next = 0;
    for (const auto& e : lb.entries) {
      size_t invocations = 0;
      for (size_t k = 0; k < e.commands.size(); ++k) invocations += plans[next++].invocations.size();
      if (invocations == 0) continue;
      RegionEdit ed;
      ed.id = e.id;
      ed.content = "| runs |\n|---:|\n| " + std::to_string(invocations) + " |\n\n";
      const Field* r = e.FindField("Result");
      ed.insert_after_line = r ? r->bullet.end_line : e.end_line;
      ed.indent = r ? std::string(static_cast<size_t>(r->bullet.content_indent), ' ') : "";
      edits.push_back(std::move(ed));
    }
    const RegionScan scan = FindRegions(text, "big.md");
    SpliceResult res = SpliceRegions(text, scan, edits, {});
    benchmark::DoNotOptimize(res.text.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
  state.counters["bytes"] = static_cast<double>(text.size());
}
// Arg 0: the seed's entries repeated as written; arg 1: every copy distinct;
// arg 2: as 0 with the mlp_profile entries skipped (the invocations a build
// without adapters planned). Planning uses every core, as in `moelog update`,
// so wall time is what counts.
BENCHMARK(BM_ParsePlanRewrite)->Arg(0)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

// The three phases of BM_ParsePlanRewrite on their own, to show where the
// time goes.
void BM_ParseOnly(benchmark::State& state) {
  const std::string text = BigLogbook(1 << 20);
  for (auto _ : state) {
    const Logbook lb = ParseLogbook(text, "big.md");
    benchmark::DoNotOptimize(lb.entries.data());
  }
}
BENCHMARK(BM_ParseOnly)->Unit(benchmark::kMillisecond);

void BM_PlanOnly(benchmark::State& state) {
  const std::string text = BigLogbook(1 << 20, state.range(0) != 0);
  const Logbook lb = ParseLogbook(text, "big.md");
  PlanOptions popt;
  popt.target = "v5p";
  for (auto _ : state) {
    ClearPlanCache();
    size_t invocations = 0;
    for (const auto& e : lb.entries)
      for (const auto& c : e.commands) invocations += PlanCommand(c.joined, popt).invocations.size();
    benchmark::DoNotOptimize(invocations);
    state.counters["invocations"] = static_cast<double>(invocations);
  }
  state.counters["entries"] = static_cast<double>(lb.entries.size());
}
BENCHMARK(BM_PlanOnly)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_SpliceOnly(benchmark::State& state) {
  const std::string text = BigLogbook(1 << 20);
  const Logbook lb = ParseLogbook(text, "big.md");
  std::vector<RegionEdit> edits;
  for (const auto& e : lb.entries) {
    if (e.commands.empty()) continue;
    RegionEdit ed;
    ed.id = e.id;
    ed.content = "| runs |\n|---:|\n| 1 |\n\n";
    const Field* r = e.FindField("Result");
    ed.insert_after_line = r ? r->bullet.end_line : e.end_line;
    ed.indent = r ? std::string(static_cast<size_t>(r->bullet.content_indent), ' ') : "";
    edits.push_back(std::move(ed));
  }
  for (auto _ : state) {
    const RegionScan scan = FindRegions(text, "big.md");
    SpliceResult res = SpliceRegions(text, scan, edits, {});
    benchmark::DoNotOptimize(res.text.data());
  }
}
BENCHMARK(BM_SpliceOnly)->Unit(benchmark::kMillisecond);

void BM_Update100EntriesWarm(benchmark::State& state) {
  const fs::path dir = fs::temp_directory_path() / ("moelog_bench_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::string text = "# Bench: Research Logbook\n\n## Experiment ID Prefix\n- `BENCH`\n\n## Experiment Log\n";
  for (int i = 0; i < 100; ++i) {
    char head[64];
    std::snprintf(head, sizeof head, "### 2026-04-%02d %02d:%02d - entry %d\n", 1 + i / 24, i % 24, i % 60, i);
    text += head;
    text += "- Command: `uv run --package levanter --extra tpu python lib/levanter/scripts/bench/bench_moe_hillclimb.py "
            "--tokens " + std::to_string(1024 * (1 + i % 10)) + " --hidden 512 --mlp-dim 256 --experts 16 --topk " +
            std::to_string(1 + i / 10 % 4) + " --iters 1 --warmup 0`\n- Result: pending\n\n";
  }
  const std::string path = (dir / "logbook.md").string();
  std::ofstream(path, std::ios::binary) << text;
  SessionOptions o;
  o.db = (dir / "runs.db").string();
  std::ostringstream out, err;
  RunSession(path, DocumentKind::kLogbook, o, out, err);  // run and store everything
  RunSession(path, DocumentKind::kLogbook, o, out, err);  // settle the document
  int64_t hits = 0;
  for (auto _ : state) {
    std::ostringstream o2, e2;
    SessionSummary s = RunSession(path, DocumentKind::kLogbook, o, o2, e2);
    hits = s.cache_hits;
    if (s.executed != 0 || s.changed) {
      std::fprintf(stderr, "%s%s", o2.str().c_str(), e2.str().c_str());
      state.SkipWithError("warm update ran or changed something");
      break;
    }
  }
  state.counters["cache_hits"] = static_cast<double>(hits);
  fs::remove_all(dir);
}
BENCHMARK(BM_Update100EntriesWarm)->Unit(benchmark::kMillisecond);

// A warm update of the EP seed logbook (30 entries, 134 recorded figures
// placed on its tables): /0 with --no-calibrate, /1 calibrated (each
// entry's tables calibrated by the earlier entries' figures). The pair
// times what calibration adds to a warm update.
void BM_UpdateSeedWarm(benchmark::State& state) {
  const fs::path dir = fs::temp_directory_path() / ("moelog_bench_seed_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string path = (dir / "ep.md").string();
  std::ofstream(path, std::ios::binary) << Slurp(std::string(MOELOG_SOURCE_DIR) + "/recipes/moe_ep_benchmark_logbook.md");
  SessionOptions o;
  o.db = (dir / "runs.db").string();
  o.calibrate = state.range(0) != 0;
  std::ostringstream out, err;
  RunSession(path, DocumentKind::kLogbook, o, out, err);  // run and store everything
  RunSession(path, DocumentKind::kLogbook, o, out, err);  // settle the document
  for (auto _ : state) {
    std::ostringstream o2, e2;
    SessionSummary s = RunSession(path, DocumentKind::kLogbook, o, o2, e2);
    if (s.executed != 0 || s.changed) {
      state.SkipWithError("warm update ran or changed something");
      break;
    }
  }
  fs::remove_all(dir);
}
BENCHMARK(BM_UpdateSeedWarm)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
