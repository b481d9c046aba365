#include "logbook/render/templates.h"
#include "logbook/doc/parse_logbook.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "logbook/criteria/criteria.h"
#include "logbook/file_util.h"

namespace moelog::logbook {
namespace {

namespace fs = std::filesystem;

std::string SourceDir() { return std::string(MOELOG_TEST_DATA_DIR) + "/.."; }

TEST(Templates, ShippedFilesMatchBuiltins) {
  for (const auto& name : TemplateNames()) {
    auto file = ReadFile(SourceDir() + "/templates/" + name + ".md");
    ASSERT_TRUE(file.ok()) << name;
    auto builtin = BuiltinTemplate(name);
    ASSERT_TRUE(builtin.ok());
    EXPECT_EQ(*file, *builtin) << "templates/" << name << ".md differs from the text compiled into moelog";
  }
  EXPECT_FALSE(BuiltinTemplate("nope").ok());
}

TEST(Templates, FillSlots) {
  auto r = FillTemplate("# {{topic}}: {{ prefix }}-{{topic}}\n", {{"topic", "A"}, {"prefix", "B"}}, "t");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, "# A: B-A\n");
  auto missing = FillTemplate("{{who}}", {}, "t.md");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("{{who}}"), std::string::npos);
  EXPECT_FALSE(FillTemplate("{{open", {}, "t").ok());
  // Values are not re-expanded.
  EXPECT_EQ(*FillTemplate("{{a}}", {{"a", "{{b}}"}}, "t"), "{{b}}");
}

TEST(Templates, UserDirectoryOverrides) {
  fs::path dir = fs::path(testing::TempDir()) / "moelog_tmpl";
  fs::create_directories(dir);
  ASSERT_TRUE(AtomicWriteFile((dir / "entry.md").string(), "custom {{id}}\n").ok());
  EXPECT_EQ(*LoadTemplate("entry", dir.string()), "custom {{id}}\n");
  EXPECT_EQ(*LoadTemplate("logbook", dir.string()), *BuiltinTemplate("logbook"));
  EXPECT_EQ(*LoadTemplate("entry", ""), *BuiltinTemplate("entry"));
}

TEST(Templates, SlotValuesAndPrefixesAreChecked) {
  EXPECT_TRUE(CheckSlotValue("--label", "Top-k sweep (int8)").ok());
  EXPECT_FALSE(CheckSlotValue("--label", "two\nlines").ok());
  EXPECT_FALSE(CheckSlotValue("--label", "{{topic}}").ok());
  EXPECT_TRUE(CheckIdPrefix("MOE-I8").ok());
  for (const char* bad : {"", "moe", "MOE-", "-MOE", "MO E", "A--B"}) EXPECT_FALSE(CheckIdPrefix(bad).ok()) << bad;
}

TEST(Templates, NextIdAndPrefixFromSeedLogbook) {
  auto doc = ReadFile(SourceDir() + "/recipes/moe_ep_int8_logbook.md");
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(FindIdPrefix(*doc), std::optional<std::string>("MOE-I8"));
  EXPECT_EQ(NextEntryId(*doc, "MOE-I8"), "MOE-I8-004");
  EXPECT_EQ(NextEntryId("## Experiment Log\n", "X"), "X-000");
  // IDs in fenced code or inside longer IDs do not count.
  EXPECT_EQ(NextEntryId("### X-007 a\n```\n### X-100\n```\n### XX-500\n", "X"), "X-008");
  EXPECT_EQ(NextEntryId("### X-0099 a\n", "X"), "X-0100");
}

TEST(Templates, InsertEntryAtEndOfExperimentLog) {
  const std::string doc = "# T\n## Experiment Log\n### a\n- x\n\n\n## Appendix\ntext\n";
  auto r = InsertEntry(doc, "### b\n- y\n", "d.md");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, "# T\n## Experiment Log\n### a\n- x\n### b\n- y\n\n## Appendix\ntext\n");
  auto e = InsertEntry("# T\n", "### b\n", "d.md");
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.status().message().rfind("d.md:1: ", 0), 0u);
  EXPECT_EQ(InlineCode("a `b` c"), "``a `b` c``");
  // The section as the parse sees it: a heading in any case; a heading inside
  // a four-backtick fence (holding a three-backtick one) is not a section.
  const std::string fenced = "# T\n## Experiment log\n### a\n````\n```\n## Appendix\n```\n````\n\n## End\n";
  auto f = InsertEntry(fenced, "### b\n", "d.md");
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  EXPECT_EQ(*f, "# T\n## Experiment log\n### a\n````\n```\n## Appendix\n```\n````\n### b\n\n## End\n");
  // A CRLF document stays CRLF, the new entry's lines included; its blank
  // lines ("\r\n") are blank.
  auto c = InsertEntry("# T\r\n## Experiment Log\r\n### a\r\n\r\n## End\r\n", "### b\n- y\n", "d.md");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(*c, "# T\r\n## Experiment Log\r\n### a\r\n### b\r\n- y\r\n\r\n## End\r\n");
}

// Golden: `new logbook` then `new entry` twice through the real binary.
TEST(TemplatesGolden, NewLogbookThenTwoEntries) {
  fs::path dir = fs::path(testing::TempDir()) / "moelog_golden_new";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string lb = (dir / "lb.md").string();
  const std::string bin = MOELOG_BINARY;
  auto run = [&](const std::string& args) {
    return std::system(("'" + bin + "' " + args + " >/dev/null 2>&1").c_str());
  };
  ASSERT_EQ(run("new logbook --topic 'MoE Int8 Demo' --prefix DEMO --date 2026-03-01 --out '" + lb + "'"), 0);
  ASSERT_NE(run("new logbook --topic 'MoE Int8 Demo' --prefix DEMO --date 2026-03-01 --out '" + lb + "'"), 0)
      << "an existing file must not be replaced without --force";
  ASSERT_EQ(run("new entry '" + lb + "' --label 'First A/B' --command 'moelog bench --target v5p --tokens 128 --topk 2'"
                " --date '2026-03-01 10:00'"), 0);
  ASSERT_EQ(run("new entry '" + lb + "' --label Second --date '2026-03-01 11:30'"), 0);
  auto got = ReadFile(lb);
  auto want = ReadFile(SourceDir() + "/tests/golden/new_logbook/expected.md");
  ASSERT_TRUE(got.ok() && want.ok());
  EXPECT_EQ(*got, *want);
  // The new logbook's criteria parse (the example predicate is not active).
  auto crit = ParseCriteria(StopCriteriaBullets(ParseLogbook(*got, lb), *got), lb);
  ASSERT_TRUE(crit.ok()) << crit.status().ToString();
  EXPECT_EQ(crit->size(), 2u);
}

}  // namespace
}  // namespace moelog::logbook
