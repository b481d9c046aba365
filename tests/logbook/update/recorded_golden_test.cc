// Every figure the EP seed logbook's Results state, its source line and the
// table row it went to (or why none): tests/golden/recorded_ep/expected.txt,
// regenerated with MOELOG_REGEN_GOLDEN=1 like the other goldens. Each placed
// figure is also checked against data/seed_measurements.csv, which records
// every figure of the seeds with its configuration: a figure on a row whose
// configuration the CSV contradicts is on the wrong row.
#include <gtest/gtest.h>

#include <algorithm>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "logbook/numbers.h"
#include "logbook/store/stored_run.h"
#include "logbook/update/session.h"
#include "tests/logbook/seed_docs.h"

namespace moelog::logbook {
namespace {

namespace fs = std::filesystem;
using moelog::testing::Slurp;

std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false;
  for (char c : s) {
    if (c == '"') quoted = !quoted;
    else if (c == sep && !quoted) out.push_back(cur), cur.clear();
    else cur += c;
  }
  out.push_back(cur);
  return out;
}

// The seed CSV's rows of one logbook: column -> value.
std::vector<std::map<std::string, std::string>> SeedRows(const std::string& seed_file) {
  std::ifstream in(std::string(MOELOG_SOURCE_DIR) + "/data/seed_measurements.csv");
  std::string line;
  std::getline(in, line);
  const auto header = Split(line, ',');
  std::vector<std::map<std::string, std::string>> rows;
  while (std::getline(in, line)) {
    const auto cells = Split(line, ',');
    std::map<std::string, std::string> row;
    for (size_t i = 0; i < header.size() && i < cells.size(); ++i) row[header[i]] = cells[i];
    if (row["seed_file"] == seed_file) rows.push_back(row);
  }
  return rows;
}

// "line 62: 192.868 TF/s, 619304 tokens/s -> row parallel_mode=none, topk=2"
struct Placed {
  std::string value;  // TF/s figure as written by FormatValue
  std::map<std::string, std::string> row;
};
std::vector<Placed> PlacedTflops(const std::string& report) {
  std::vector<Placed> out;
  std::istringstream in(report);
  for (std::string line; std::getline(in, line);) {
    const size_t arrow = line.find(" -> row ");
    const size_t colon = line.find(": line ");
    const size_t tf = line.find(" TF/s");
    if (arrow == std::string::npos || colon == std::string::npos || tf == std::string::npos || tf > arrow) continue;
    const size_t v = line.find(": ", colon + 7) + 2;
    Placed p;
    p.value = line.substr(v, tf - v);
    std::string where = line.substr(arrow + 8);
    where = where.substr(0, where.find(" (stage: "));  // the reader's stage is no key of the row
    where = where.substr(0, where.find("; outside"));  // nor is the band mark
    for (const auto& kv : Split(where, ',')) {
      const size_t eq = kv.find('=');
      if (eq == std::string::npos) continue;
      std::string k = kv.substr(0, eq);
      k.erase(0, k.find_first_not_of(' '));
      p.row[k] = kv.substr(eq + 1);
    }
    out.push_back(p);
  }
  return out;
}

TEST(RecordedGolden, EpSeedFiguresGoToTheirRows) {
  const fs::path tmp = fs::temp_directory_path() / ("moelog_recorded_" + std::to_string(::getpid()));
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  const std::string name = "moe_ep_benchmark_logbook.md";
  const fs::path p = tmp / name;
  fs::copy_file(std::string(MOELOG_TEST_DATA_DIR) + "/../recipes/" + name, p);
  SessionOptions o;
  o.db = (tmp / "runs.db").string();
  o.show_recorded = true;
  std::ostringstream out, err;
  ASSERT_EQ(RunSession(p.string(), DocumentKind::kLogbook, o, out, err).exit_code, 0) << err.str();
  // The figures listed under a table are moelog's output, never read back
  // as the logbook's: a second update changes nothing, --check agrees.
  {
    SessionOptions again = o;
    again.show_recorded = false;
    std::ostringstream o2, e2;
    const std::string once = Slurp(p.string());
    EXPECT_FALSE(RunSession(p.string(), DocumentKind::kLogbook, again, o2, e2).changed);
    EXPECT_EQ(Slurp(p.string()), once);
    again.check = true;
    EXPECT_EQ(RunSession(p.string(), DocumentKind::kLogbook, again, o2, e2).exit_code, 0) << o2.str();
  }
  std::string report;
  std::istringstream lines(out.str());
  for (std::string l; std::getline(lines, l);)
    if (l.find(": line ") != std::string::npos) report += l.substr(l.find(name) + name.size() + 2) + "\n";
  fs::remove_all(tmp);

  const fs::path golden = fs::path(MOELOG_TEST_DATA_DIR) / "golden" / "recorded_ep" / "expected.txt";
  const char* regen = std::getenv("MOELOG_REGEN_GOLDEN");
  if (regen != nullptr && std::string(regen) == "1") {
    std::ofstream(golden, std::ios::binary) << report;
    ADD_FAILURE() << "regenerated " << golden << "; review `git diff` and rerun without MOELOG_REGEN_GOLDEN";
    return;
  }
  EXPECT_EQ(report, Slurp(golden.string()));

  // The count: the EP seed's hillclimb entries state 102 TF/s and 36
  // tokens/s figures, its three bench_moe_mlp_profile.py entries 36 TF/s (one
  // per path, topk and shape), and its 19:40 direct block-tuning probe (no
  // Result field: "Results so far:") 5 TF/s; at least 90% reach a row.
  int tflops = 0, tokens = 0, placed_tflops = 0, placed_tokens = 0;
  std::istringstream rin(report);
  for (std::string l; std::getline(rin, l);) {
    if (l.find("not read: ") != std::string::npos) continue;  // a line no stage read: told, not a figure
    const bool placed = l.find(" -> row ") != std::string::npos;
    if (l.find(" TF/s") != std::string::npos) ++tflops, placed_tflops += placed;
    if (l.find(" tokens/s") != std::string::npos) ++tokens, placed_tokens += placed;
  }
  EXPECT_EQ(tflops, 102 + 36 + 5);
  EXPECT_EQ(tokens, 36);
  EXPECT_GE(placed_tflops + placed_tokens, 0.9 * (tflops + tokens)) << placed_tflops << " + " << placed_tokens;

  // No figure on a row the seed CSV contradicts.
  const auto csv = SeedRows(name);
  static const std::map<std::string, std::string> kColumn = {
      {"topk", "topk"}, {"parallel_mode", "parallel_mode"}, {"backend", "backend"}, {"impl", "impl"},
      {"routing_pack_strategy", "routing_pack"}, {"queue_mode", "queue_mode"}, {"bench_pass", "bench_pass"},
      {"remat_mode", "remat_mode"}, {"distribution", "distribution"}, {"hidden", "hidden"}, {"mlp_dim", "mlp_dim"},
      {"experts", "experts"}, {"shared_expert_dim", "shared_expert_dim"}, {"shared_fused", "shared_fused"},
      {"tokens", "tokens"}, {"mlp_path", "impl"}};  // the CSV names an mlp_profile path in impl
  int checked = 0;
  for (const Placed& f : PlacedTflops(report)) {
    bool agrees = false, found = false;
    for (const auto& row : csv) {
      if (row.at("metric") != "tflops") continue;
      const auto v = ParseNumber(row.at("value"));
      const auto shown = ParseNumber(f.value);  // the report shows the digits as written ("191.980")
      if (!v || !shown || *v != *shown) continue;
      found = true;
      bool ok = true;
      for (const auto& [key, value] : f.row) {
        auto col = kColumn.find(key);
        if (col == kColumn.end() || row.at(col->second).empty()) continue;
        bool any = false;  // a merged cell ("random / runs", "random, runs") agrees when one of its values does
        std::string values = value;
        std::replace(values.begin(), values.end(), ',', '/');
        for (std::string one : Split(values, '/')) {
          one.erase(0, one.find_first_not_of(' '));
          one.erase(one.find_last_not_of(' ') + 1);
          any = any || ValuesEqual(row.at(col->second), one);
        }
        ok = ok && any;
      }
      agrees = agrees || ok;
    }
    EXPECT_TRUE(found) << f.value << " TF/s is not in the seed CSV";
    EXPECT_TRUE(agrees) << f.value << " TF/s is on a row the seed CSV contradicts";
    ++checked;
  }
  EXPECT_GE(checked, 90);
}

}  // namespace
}  // namespace moelog::logbook
