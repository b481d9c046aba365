// Golden files of the reader's first stages, one logbook per style of other
// authors (tests/golden/reader_<style>/input.md, invented text in their
// styles): which headings are entries and why, their IDs, and what each
// block of an entry is. expected.txt is the dump below; MOELOG_REGEN_GOLDEN=1
// rewrites it and fails the test (review the diff, then rerun without it).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "logbook/doc/parse_logbook.h"
#include "tests/logbook/seed_docs.h"

namespace moelog::logbook {
namespace {

namespace fs = std::filesystem;
using moelog::testing::Slurp;

std::string FirstLine(const std::string& s) { return s.substr(0, s.find('\n')); }

std::string Join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : " | ") + s;
  return out;
}

void DumpBlocks(const Entry& e, std::ostream& out) {
  for (const auto& c : e.commands)
    out << "  command " << c.line << (c.prompted ? " (prompted)" : "") << ": " << FirstLine(c.joined) << "\n";
  for (const auto& o : e.outputs)
    out << "  output " << o.line << "-" << o.end_line << " (" << o.output_cue << ")"
        << (o.subheading.empty() ? "" : " under \"" + o.subheading + "\"") << ": " << FirstLine(o.text) << "\n";
  for (const auto& t : e.tables)
    out << "  table " << t.line << (t.subheading.empty() ? "" : " under \"" + t.subheading + "\"") << ": "
        << Join(t.header) << " (" << t.rows.size() << " rows)\n";
  for (const auto& s : e.subheadings) out << "  subheading " << s.line << ": " << s.text << "\n";
  for (const auto& p : e.paragraphs)
    out << "  paragraph " << p.line << " (" << (p.output_label ? "output label" : p.states_figure ? "result" : "explanation")
        << ")\n";
  for (const auto& f : e.fields) out << "  field " << f.bullet.line << ": " << f.name << "\n";
  for (const auto& b : e.notes) out << "  note " << b.line << (b.numbers.empty() ? "" : " (states numbers)") << "\n";
}

std::string Dump(const Logbook& lb) {
  std::ostringstream out;
  out << "title: " << lb.title << "\n";
  for (const auto& s : lb.sections) out << "section " << s.heading_line << ": " << s.name << "\n";
  for (const auto& e : lb.entries) {
    out << "entry " << e.heading_line << "-" << e.end_line << " [" << e.segment_rule << "] " << e.id
        << (e.date.empty() ? "" : " date=" + e.date) << (e.time.empty() ? "" : " time=" + e.time) << "\n"
        << "  heading: " << e.heading << "\n  label: " << e.label << "\n";
    DumpBlocks(e, out);
  }
  for (const auto& d : lb.diagnostics) out << "diagnostic " << d.line << ": " << d.message << "\n";
  return out.str();
}

class ReaderGoldenTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ReaderGoldenTest, EntriesAndBlocksAsExpected) {
  const fs::path dir = fs::path(MOELOG_TEST_DATA_DIR) / "golden" / GetParam();
  const std::string input = Slurp((dir / "input.md").string());
  ASSERT_FALSE(input.empty());
  const std::string got = Dump(ParseLogbook(input, "logbook.md"));
  const char* regen = std::getenv("MOELOG_REGEN_GOLDEN");
  if (regen != nullptr && std::string(regen) == "1") {
    std::ofstream(dir / "expected.txt", std::ios::binary) << got;
    ADD_FAILURE() << "regenerated " << (dir / "expected.txt") << "; review `git diff` and rerun without MOELOG_REGEN_GOLDEN";
    return;
  }
  const std::string expected = Slurp((dir / "expected.txt").string());
  ASSERT_FALSE(expected.empty()) << "missing expected.txt; run with MOELOG_REGEN_GOLDEN=1";
  EXPECT_EQ(got, expected);
}

// One style per line, sorted.
INSTANTIATE_TEST_SUITE_P(Styles, ReaderGoldenTest,
                         ::testing::Values(
                             "reader_agent",
                             "reader_command_output",
                             "reader_datasheets",
                             "reader_dated_paragraphs",
                             "reader_dot_dated",
                             "reader_hyperfine",
                             "reader_journal",
                             "reader_lab_printouts",
                             "reader_leaderboard_lines",
                             "reader_nested_reports",
                             "reader_nsys_reports",
                             "reader_numbered",
                             "reader_other_languages",
                             "reader_pasted_console",
                             "reader_plans",
                             "reader_preamble",
                             "reader_printed_logs",
                             "reader_report",
                             "reader_research_log",
                             "reader_result_blocks",
                             "reader_serving",
                             "reader_status_tracker",
                             "reader_test_plans",
                             "reader_worklog"));

}  // namespace
}  // namespace moelog::logbook
