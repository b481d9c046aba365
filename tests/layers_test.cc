// The include graph of engine/ and logbook/ points one way: down the layers
// README's Layout lists. A file may include a file of its own folder or of a
// lower layer, never one of a higher layer or of a sibling at its own layer.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace moelog {
namespace {

namespace fs = std::filesystem;

// The layer of a source file (path relative to the source tree), lowest
// first; -1 when it is in none.
int Layer(std::string_view path) {
  // engine/: the shared core (configuration, routing, formats, the backend
  // interface), then the cpu engine and the v5p model side by side, then
  // expert and data parallelism over the cpu engine and the GPU model (which
  // finds its data files as the v5p model does), then the cpu backend that
  // puts both behind backend.h.
  if (path == "engine/cpu_backend.cc") return 3;
  const std::pair<std::string_view, int> kEngine[] = {
      {"engine/cpu/", 1}, {"engine/v5p/", 1}, {"engine/parallel/", 2}, {"engine/gpu/", 2}, {"engine/", 0}};
  // logbook/: its shared files, then one folder a stage; above all of the
  // engine.
  const std::pair<std::string_view, int> kLogbook[] = {
      {"logbook/doc/", 11},      {"logbook/plan/", 12},   {"logbook/store/", 13},  {"logbook/run/", 14},
      {"logbook/reader/", 15},   {"logbook/criteria/", 16}, {"logbook/render/", 17}, {"logbook/update/", 18},
      {"logbook/research/", 19}, {"logbook/cli/", 20},      {"logbook/", 10}};
  for (const auto& [prefix, layer] : kEngine)
    if (path.starts_with(prefix)) return layer;
  for (const auto& [prefix, layer] : kLogbook)
    if (path.starts_with(prefix)) return layer;
  return -1;
}

std::string_view Folder(std::string_view path) { return path.substr(0, path.rfind('/') + 1); }

// Whether `file` may include `target` (both relative to the source tree).
bool MayInclude(std::string_view file, std::string_view target) {
  return Folder(file) == Folder(target) || Layer(target) < Layer(file);
}

// The quoted includes of a file that name a path in the tree ("a/b.h").
std::vector<std::string> Includes(const fs::path& file) {
  std::vector<std::string> out;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) {
    const std::string_view kInclude = "#include \"";
    if (!line.starts_with(kInclude)) continue;
    const size_t end = line.find('"', kInclude.size());
    if (end == std::string::npos) continue;
    std::string target = line.substr(kInclude.size(), end - kInclude.size());
    if (target.find('/') != std::string::npos) out.push_back(std::move(target));  // not a generated .inc
  }
  return out;
}

TEST(Layers, TheRuleTellsDownFromUp) {
  EXPECT_TRUE(MayInclude("logbook/cli/cmd_check.cc", "logbook/update/counted_runs.h"));
  EXPECT_TRUE(MayInclude("logbook/doc/markdown.cc", "logbook/text.h"));
  EXPECT_TRUE(MayInclude("logbook/doc/markdown.cc", "engine/status.h"));
  EXPECT_TRUE(MayInclude("engine/parallel/sim_comm.h", "engine/cpu/tensor.h"));
  EXPECT_TRUE(MayInclude("engine/cpu_backend.cc", "engine/parallel/mpi_comm.h"));
  EXPECT_FALSE(MayInclude("logbook/doc/markdown.cc", "logbook/plan/shell_plan.h"));
  EXPECT_FALSE(MayInclude("logbook/numbers.cc", "logbook/doc/document.h"));
  EXPECT_FALSE(MayInclude("engine/bench.cc", "logbook/numbers.h"));
  EXPECT_FALSE(MayInclude("engine/bench_config.cc", "engine/parallel/mpi_comm.h"));
  EXPECT_FALSE(MayInclude("engine/cpu/moe_block.cc", "engine/parallel/sim_comm.h"));
  EXPECT_FALSE(MayInclude("engine/cpu/moe_block.cc", "engine/v5p/model.h"));  // siblings
}

TEST(Layers, NoIncludePointsBackUp) {
  const fs::path root = fs::path(MOELOG_TEST_DATA_DIR) / "..";
  std::vector<std::string> back;
  int files = 0;
  for (const char* top : {"engine", "logbook"}) {
    for (const auto& e : fs::recursive_directory_iterator(root / top)) {
      const std::string ext = e.path().extension().string();
      if (!e.is_regular_file() || (ext != ".h" && ext != ".cc" && ext != ".inc")) continue;
      const std::string file = fs::relative(e.path(), root).generic_string();
      ASSERT_GE(Layer(file), 0) << file << " is in no layer: add its folder to Layer()";
      ++files;
      for (const std::string& target : Includes(e.path()))
        if (!MayInclude(file, target)) back.push_back(file + " -> " + target);
    }
  }
  EXPECT_GT(files, 100);
  EXPECT_TRUE(back.empty()) << back.size() << " includes point back up, the first: " << back.front();
}

}  // namespace
}  // namespace moelog
