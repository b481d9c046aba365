// Golden files: tests/golden/<case>/input.md updated with --target v5p must
// equal expected.md byte for byte, and expected.md must update to itself.
// MOELOG_REGEN_GOLDEN=1 rewrites expected.md and fails the test so that a
// regeneration is never silent (review the diff, then rerun without it).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "logbook/update/session.h"
#include "tests/logbook/seed_docs.h"

namespace moelog::logbook {
namespace {

namespace fs = std::filesystem;
using moelog::testing::Slurp;

void WriteFile(const fs::path& p, const std::string& s) {
  std::ofstream out(p, std::ios::binary);
  out << s;
}

std::string UpdateCopy(const fs::path& dir, const std::string& name, const std::string& text, bool recipe,
                       const std::string& db = "runs.db") {
  const fs::path p = dir / name;
  WriteFile(p, text);
  SessionOptions o;
  o.target = "v5p";
  o.db = (dir / db).string();
  o.write = true;
  std::ostringstream out, err;
  SessionSummary s = RunSession(p.string(), recipe ? DocumentKind::kRecipe : DocumentKind::kLogbook, o, out, err);
  EXPECT_EQ(s.exit_code, 0) << out.str() << err.str();
  return Slurp(p.string());
}

class GoldenTest : public ::testing::TestWithParam<std::string> {};

TEST_P(GoldenTest, InputUpdatesToExpectedAndExpectedIsAFixedPoint) {
  const fs::path dir = fs::path(MOELOG_TEST_DATA_DIR) / "golden" / GetParam();
  const bool recipe = GetParam().rfind("recipe", 0) == 0;
  const fs::path tmp = fs::temp_directory_path() / ("moelog_golden_" + GetParam() + "_" + std::to_string(::getpid()));
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  const std::string input = Slurp((dir / "input.md").string());
  ASSERT_FALSE(input.empty());
  // The document's file name is part of recipe step IDs: keep it stable.
  const std::string got = UpdateCopy(tmp, recipe ? "recipe.md" : "logbook.md", input, recipe);
  const char* regen = std::getenv("MOELOG_REGEN_GOLDEN");
  if (regen != nullptr && std::string(regen) == "1") {
    WriteFile(dir / "expected.md", got);
    ADD_FAILURE() << "regenerated " << (dir / "expected.md") << "; review `git diff` and rerun without MOELOG_REGEN_GOLDEN";
    fs::remove_all(tmp);
    return;
  }
  const std::string expected = Slurp((dir / "expected.md").string());
  ASSERT_FALSE(expected.empty()) << "missing expected.md; run with MOELOG_REGEN_GOLDEN=1";
  EXPECT_EQ(got, expected);
  // expected.md updates to itself, in a fresh store too (runs are recomputed).
  EXPECT_EQ(UpdateCopy(tmp, recipe ? "recipe.md" : "logbook.md", expected, recipe, "fresh.db"), expected);
  fs::remove_all(tmp);
}

// One golden case per line, sorted: cases added side by side merge cleanly.
INSTANTIATE_TEST_SUITE_P(Cases, GoldenTest,
                         ::testing::Values(
                             "idioms_entry_log",
                             "idioms_gpu_jobs",
                             "idioms_stated",
                             "idioms_tpu",
                             "idioms_wrappers",
                             "int8_seed",
                             "loop_logbook",
                             "reader_anecdote_journal",
                             "reader_attack_reports",
                             "reader_bench_frameworks",
                             "reader_bench_printouts",
                             "reader_bench_table",
                             "reader_bold_fields",
                             "reader_console_logs",
                             "reader_headless",
                             "reader_html_tables",
                             "reader_printed_logs",
                             "reader_pasted_console",
                             "reader_pasted_reports",
                             "reader_datasheets",
                             "reader_design_note",
                             "reader_db_printouts",
                             "reader_eval_logs",
                             "reader_frame_rates",
                             "reader_generated_reports",
                             "reader_group_tables",
                             "reader_plain_days",
                             "reader_plans",
                             "reader_printed_prose",
                             "reader_profilers",
                             "reader_rate_samples",
                             "reader_step_headings",
                             "reader_study_journal",
                             "reader_job_records",
                             "reader_kernel_versions",
                             "reader_key_values",
                             "reader_lab_printouts",
                             "reader_labelled_tables",
                             "reader_leaderboard_lines",
                             "reader_load_test_plan",
                             "reader_load_tools",
                             "reader_nested_reports",
                             "reader_nsys_reports",
                             "reader_other_languages",
                             "reader_restating_report",
                             "reader_result_blocks",
                             "reader_serving_sweep",
                             "reader_stamped_builds",
                             "reader_trailing_parts",
                             "reader_record_keys",
                             "reader_hyperfine_labels",
                             "reader_status_tracker",
                             "reader_storage_summaries",
                             "reader_sweep_tables",
                             "reader_test_plans",
                             "reader_tool_printouts",
                             "reader_vertical_tables",
                             "reader_ycsb_reports",
                             "recipe_seed",
                             "recorded_fp8",
                             "recorded_gpu",
                             "recorded_hillclimb",
                             "recorded_idioms",
                             "recorded_output",
                             "recorded_paragraphs",
                             "recorded_prose",
                             "recorded_tables"));

}  // namespace
}  // namespace moelog::logbook
