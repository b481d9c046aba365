#include "logbook/doc/parse_logbook.h"

#include <gtest/gtest.h>

#include <functional>
#include <regex>

#include "tests/logbook/seed_docs.h"

namespace moelog::logbook {
namespace {

using moelog::testing::Lines;
using moelog::testing::SeedPath;
using moelog::testing::Slurp;

class SeedLogbookTest : public ::testing::TestWithParam<const char*> {};

// Properties every seed logbook must satisfy, checked against the source text.
TEST_P(SeedLogbookTest, EntriesMatchSourceHeadings) {
  const std::string text = Slurp(SeedPath(GetParam()));
  ASSERT_FALSE(text.empty());
  const Logbook lb = ParseLogbook(text, GetParam());
  const auto lines = Lines(text);
  // Independent count: lines that look like entry headings.
  const std::regex head(R"(^### \d{4}-\d{2}-\d{2} \d{2}:\d{2} - .*)");
  std::vector<int> heading_lines;
  for (size_t i = 0; i < lines.size(); ++i)
    if (std::regex_match(lines[i], head)) heading_lines.push_back(static_cast<int>(i) + 1);
  ASSERT_EQ(lb.entries.size(), heading_lines.size());
  for (size_t i = 0; i < lb.entries.size(); ++i) {
    const Entry& e = lb.entries[i];
    EXPECT_EQ(e.heading_line, heading_lines[i]);
    EXPECT_NE(lines[e.heading_line - 1].find(e.date + " " + e.time), std::string::npos);
    EXPECT_GE(e.end_line, e.heading_line);
    if (i + 1 < lb.entries.size()) {
      EXPECT_LT(e.end_line, lb.entries[i + 1].heading_line);
    }
    EXPECT_FALSE(lines[e.end_line - 1].empty());
    EXPECT_FALSE(e.id.empty());
    for (const auto& c : e.commands) {
      ASSERT_GE(c.line, e.heading_line);
      ASSERT_LE(c.line, e.end_line);
      // An inline command sits on its line verbatim.
      if (!c.fenced) {
        EXPECT_NE(lines[c.line - 1].find(c.text), std::string::npos) << c.text;
      }
    }
    for (const auto& f : e.fields) {
      EXPECT_NE(lines[f.bullet.line - 1].find(f.name.substr(1)), std::string::npos) << f.name;
      EXPECT_LE(f.bullet.end_line, e.end_line);
    }
  }
  // IDs are unique.
  for (size_t i = 0; i < lb.entries.size(); ++i)
    for (size_t j = i + 1; j < lb.entries.size(); ++j) EXPECT_NE(lb.entries[i].id, lb.entries[j].id);
  for (const auto& d : lb.diagnostics) ADD_FAILURE() << d.ToString();
  EXPECT_NE(lb.FindSection(SectionKind::kStopCriteria), nullptr);
  EXPECT_NE(lb.FindSection(SectionKind::kBaseline), nullptr);
  EXPECT_NE(lb.FindSection(SectionKind::kExperimentLog), nullptr);
}

INSTANTIATE_TEST_SUITE_P(Seeds, SeedLogbookTest,
                         ::testing::Values("moe_ep_benchmark_logbook.md", "moe_ep_int8_logbook.md"));

TEST(ParseLogbookTest, Int8SeedDetails) {
  const Logbook lb = ParseLogbook(Slurp(SeedPath("moe_ep_int8_logbook.md")), "int8.md");
  EXPECT_EQ(lb.title, "MoE EP Int8: Research Logbook");
  EXPECT_EQ(lb.id_prefix, "MOE-I8");
  ASSERT_EQ(lb.entries.size(), 4u);
  const Entry& e0 = lb.entries[0];
  EXPECT_EQ(e0.explicit_id, "MOE-I8-000");
  EXPECT_EQ(e0.label, "Kickoff");
  EXPECT_EQ(e0.confidence, "exploratory");
  EXPECT_TRUE(e0.commands.empty());  // "Command: N/A (setup)"
  ASSERT_NE(e0.FindField("Command"), nullptr);
  EXPECT_EQ(e0.FindField("Command")->value, "N/A (setup)");
  ASSERT_NE(e0.FindField("Config"), nullptr);
  EXPECT_EQ(e0.FindField("Config")->bullet.children.size(), 2u);

  const Entry& e1 = lb.entries[1];
  ASSERT_EQ(e1.commands.size(), 3u);
  EXPECT_EQ(e1.commands[0].label, "");
  EXPECT_EQ(e1.commands[2].label, "Negative control");
  EXPECT_NE(e1.commands[2].text.find("--dtype bfloat16"), std::string::npos);

  const Entry* e3 = lb.FindEntry("MOE-I8-003");
  ASSERT_NE(e3, nullptr);
  ASSERT_EQ(e3->commands.size(), 2u);
  EXPECT_EQ(e3->commands[0].label, "Baseline");
  EXPECT_EQ(e3->commands[1].label, "Int8");
  EXPECT_TRUE(e3->commands[0].planned);
  const Field* cmd = e3->FindField("Command");
  ASSERT_NE(cmd, nullptr);
  EXPECT_EQ(cmd->qualifier, "planned");
  EXPECT_EQ(e3->FindField("Result")->value, "pending.");

  const Section* stop = lb.FindSection(SectionKind::kStopCriteria);
  ASSERT_NE(stop, nullptr);
  EXPECT_EQ(stop->bullets.size(), 3u);
  const Section* base = lb.FindSection(SectionKind::kBaseline);
  ASSERT_NE(base, nullptr);
  bool found_tfs = false;
  for (const auto& b : base->bullets)
    for (const auto& c : b.children)
      if (c.text.rfind("TF/s", 0) == 0) {
        ASSERT_EQ(c.numbers.size(), 1u);
        EXPECT_DOUBLE_EQ(c.numbers[0].value, 239.150);
        found_tfs = true;
      }
  EXPECT_TRUE(found_tfs);
}

TEST(ParseLogbookTest, BenchmarkSeedLoopsAndRecordedNumbers) {
  const Logbook lb = ParseLogbook(Slurp(SeedPath("moe_ep_benchmark_logbook.md")), "ep.md");
  EXPECT_EQ(lb.id_prefix, "");
  const Entry& e = lb.entries[1];
  EXPECT_EQ(e.label, "EP vs Non-EP (shared shape, forward_backward, random)");
  ASSERT_EQ(e.commands.size(), 1u);
  EXPECT_NE(e.commands[0].text.find("for pm in none ep"), std::string::npos);
  auto rec = e.RecordedBullets();
  ASSERT_EQ(rec.size(), 4u);
  EXPECT_EQ(BulletLabel(rec[0]->text), "`none, topk=2`");
  ASSERT_EQ(rec[0]->numbers.size(), 2u);
  EXPECT_DOUBLE_EQ(rec[0]->numbers[0].value, 192.868);
  EXPECT_EQ(rec[0]->numbers[0].unit, "TF/s");
  EXPECT_DOUBLE_EQ(rec[0]->numbers[1].value, 619304);
  EXPECT_EQ(rec[0]->numbers[1].unit, "tokens/s");
  // The Baseline section's per-topk numbers.
  const Section* base = lb.FindSection(SectionKind::kBaseline);
  ASSERT_NE(base, nullptr);
  int count = 0;
  std::function<void(const Bullet&)> walk = [&](const Bullet& b) {
    for (const auto& n : b.numbers)
      if (n.unit == "TF/s") ++count;
    for (const auto& c : b.children) walk(c);
  };
  for (const auto& b : base->bullets) walk(b);
  EXPECT_EQ(count, 5);
  const Section* matrix = lb.FindSection(SectionKind::kExperimentMatrix);
  ASSERT_NE(matrix, nullptr);
  EXPECT_EQ(matrix->name, "Experiment Matrix (Initial)");
}

TEST(ParseLogbookTest, ExtractNumbersSkipsConfigTokens) {
  auto n = ExtractNumbers("`none, topk=8`: 167.512 TF/s, 268,942 tokens/s (`-25.1%`) topk2 v5p 5b6f53c5d 2.31x");
  ASSERT_EQ(n.size(), 4u);
  EXPECT_DOUBLE_EQ(n[0].value, 167.512);
  EXPECT_DOUBLE_EQ(n[1].value, 268942);
  EXPECT_EQ(n[1].unit, "tokens/s");
  EXPECT_DOUBLE_EQ(n[2].value, -25.1);
  EXPECT_EQ(n[2].unit, "%");
  EXPECT_EQ(n[3].unit, "x");
}

TEST(ParseLogbookTest, DiagnosticsForBadHeadingsAndDuplicates) {
  const std::string text =
      "# T\n\n## Experiment Log\n### not a date\n- x\n\n### 2026-01-01 10:00 - A-1 one\n"
      "### 2026-01-01 10:01 - A-1 two\n### 2026-13-01 10:00 - bad month\n```bash\necho\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 2u);
  std::vector<std::string> msgs;
  for (const auto& d : lb.diagnostics) msgs.push_back(d.ToString());
  auto has = [&](const std::string& s) {
    for (const auto& m : msgs)
      if (m.find(s) != std::string::npos) return true;
    return false;
  };
  EXPECT_TRUE(has("t.md:4: heading is not an entry"));
  EXPECT_TRUE(has("t.md:8: duplicate entry ID A-1 (first at line 7)"));
  EXPECT_TRUE(has("t.md:9: heading is not an entry"));
  EXPECT_TRUE(has("t.md:10: code fence is never closed"));
}

TEST(ParseLogbookTest, JoinContinuations) {
  EXPECT_EQ(JoinContinuations("a \\\n  b \\\n c\nd\n"), "a b c\nd");
}

}  // namespace
}  // namespace moelog::logbook

namespace moelog::logbook {
namespace {

// A table written right under a paragraph (no blank line between) is where
// its header row is, not where the paragraph starts: each row's figures
// carry their own line.
TEST(ParseLogbookTest, ATableUnderAParagraphStartsAtItsHeader) {
  const std::string text =
      "# Log\n\n## 2026-01-02 Sweep\n"
      "The clock drops under load.\nSo the peak is lower.\n"
      "| bs | ms |\n|---:|---:|\n| 16 | 1.5 |\n| 4 | 1.4 |\n";
  const Logbook lb = ParseLogbook(text, "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  ASSERT_EQ(lb.entries[0].tables.size(), 1u);
  EXPECT_EQ(lb.entries[0].tables[0].line, 6);
  EXPECT_EQ(lb.entries[0].tables[0].end_line, 9);
}

// A loose list item's later paragraphs ("1. Naive", a blank line, then a
// printed result indented under it) are sub-items of it, each at its line.
TEST(ParseLogbookTest, ALooseItemsLaterParagraphsAreItsSubItems) {
  const Logbook lb = ParseLogbook(
      "# T\n\n## 2026-01-02 kernels\n\n"
      "1. Naive\n\n"                    // 5
      "    `N: 1024; time: 1.5s`\n\n"    // 7
      "    second paragraph\n\n"         // 9
      "2. Tiled\n",                      // 11
      "t.md");
  ASSERT_EQ(lb.entries.size(), 1u);
  const auto& items = lb.entries[0].notes;
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0].text, "Naive");
  ASSERT_EQ(items[0].children.size(), 2u);
  EXPECT_EQ(items[0].children[0].text, "`N: 1024; time: 1.5s`");
  EXPECT_EQ(items[0].children[0].line, 7);
  EXPECT_EQ(items[0].children[0].code_spans, std::vector<std::string>{"N: 1024; time: 1.5s"});
  EXPECT_EQ(items[0].children[1].line, 9);
  EXPECT_TRUE(items[1].children.empty());
}

// A document without headings that records runs is one entry, headed by
// its first sentence (or, when it opens with a table, its file's name);
// one that only talks about figures is none.
TEST(ParseLogbookTest, ADocumentWithoutHeadingsThatRecordsRunsIsOneEntry) {
  const std::string table = "| size | time (ms) |\n|---|---|\n| 1024 | 0.31 |\n| 2048 | 2.05 |\n";
  const Logbook a = ParseLogbook("GEMM sweep on one GPU. Sizes are square.\n\n" + table, "notes/a.md");
  ASSERT_EQ(a.entries.size(), 1u);
  EXPECT_EQ(a.entries[0].heading_line, 1);
  EXPECT_NE(a.entries[0].id.find("GEMM-SWEEP-ON-ONE-GPU"), std::string::npos) << a.entries[0].id;
  EXPECT_EQ(a.entries[0].id.find("SQUARE"), std::string::npos) << a.entries[0].id;
  ASSERT_EQ(a.entries[0].tables.size(), 1u);
  const Logbook b = ParseLogbook(table, "bench/gemm_sweep.md");
  ASSERT_EQ(b.entries.size(), 1u);
  EXPECT_NE(b.entries[0].id.find("GEMM-SWEEP"), std::string::npos) << b.entries[0].id;
  EXPECT_TRUE(ParseLogbook("We expect about 2 ms at this size, maybe less.\n", "c.md").entries.empty());
}

}  // namespace
}  // namespace moelog::logbook
