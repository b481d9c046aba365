// Reader stages blocks and figures, a dump of pairs: `0.01<TAB>1.3318` lines
// pasted from a sweep are one row each, keyed by the setting the text names,
// the decimal the metric it names; names key rows by their file stem; a
// row given again is the earlier row (blocks_dumps.cc, figures_dumps.cc).
#include <gtest/gtest.h>

#include "logbook/reader/blocks.h"
#include "logbook/reader/blocks_dumps.h"
#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

TEST(ReaderDumps, ALineIsTwoFieldsKeyAndDecimal) {
  std::string k, v;
  EXPECT_TRUE(DumpPairLine("0.01\t1.3318", &k, &v));
  EXPECT_EQ(k, "0.01");
  EXPECT_EQ(v, "1.3318");
  EXPECT_TRUE(DumpPairLine("1e-4  2.5", &k, &v));
  EXPECT_TRUE(DumpPairLine("ckpt/model_5.pt 3.0627", &k, &v));
  EXPECT_FALSE(DumpPairLine("naive 0.412", &k, &v));    // a plain word: another printout's
  EXPECT_FALSE(DumpPairLine("512 1024", &k, &v));       // no decimal
  EXPECT_FALSE(DumpPairLine("0.01 1.33 2.1", &k, &v));  // three fields
}

TEST(ReaderDumps, ThreeLinesOfOneKindOfKeyAtLeast) {
  using Lines = std::vector<std::pair<int, std::string>>;
  EXPECT_EQ(PairDumpRows(Lines{{1, "0.1 2.5"}, {2, "0.2 2.4"}, {3, "0.3 2.3"}, {4, "done"}}, 0), 3u);
  EXPECT_EQ(PairDumpRows(Lines{{1, "0.1 2.5"}, {2, "0.2 2.4"}}, 0), 0u);
  EXPECT_EQ(PairDumpRows(Lines{{1, "0.1 2.5"}, {2, "run_a 2.4"}, {3, "0.3 2.3"}}, 0), 0u);
}

// A fenced dump under a list item naming the swept setting: a row per line,
// keyed lr; a later dump that gives a row again adds no row.
TEST(ReaderDumps, AFencedDumpUnderTheSweepsItemIsARowPerLine) {
  std::vector<UnreadFigures> unread;
  const auto figs = ReadEntry("# Tuning\n\n",
                              "## Sweep 1: learning rate\n\n"  // 3
                              "- Tried learning rates: 1e-3, 3e-3, 1e-2\n\n"
                              "```\n0.01\t2.9171\n0.003\t2.6404\n0.001\t2.7022\n```\n\n"  // 8-10
                              "- Then 0.02:\n\n"
                              "```\n0.02\t3.3310\n0.01\t2.9171\n0.003\t2.6404\n```\n",  // 15-17
                              &unread);
  ASSERT_EQ(figs.size(), 4u);
  EXPECT_EQ(figs[0].run.config.at("lr"), "0.01");
  EXPECT_EQ(figs[0].line, 8);
  EXPECT_TRUE(figs[0].run.metrics.count("value"));
  EXPECT_EQ(figs[3].run.config.at("lr"), "0.02");
  int again = 0;
  for (const auto& u : unread) again += u.why.find("given again") != std::string::npos ? 1 : 0;
  EXPECT_EQ(again, 2);
}

// A paragraph whose first line names the dump below it: the metric it names.
TEST(ReaderDumps, AParagraphsLeadNamesTheMetric) {
  const auto figs = ReadEntry("# Tuning\n\n",
                              "## Without the norm layer\n\n"
                              "Here are the batch sizes and validation loss:\n64\t2.8367\n128\t2.3497\n256\t2.2705\n");
  ASSERT_EQ(figs.size(), 3u);
  EXPECT_EQ(figs[1].run.config.at("batch_size"), "128");
  EXPECT_TRUE(figs[1].run.metrics.count("val_loss"));
}

// Run names (checkpoint paths) key each row by the file stem.
TEST(ReaderDumps, NamesKeyRowsByTheirStem) {
  const auto figs = ReadEntry("# Tuning\n\n",
                              "## 2026-03-02 More tuning\n\n"
                              "ckpt/test_model_11.pt 3.05505\nckpt/test_model_5.pt 3.06274\nckpt/test_wide_0.005.pt 3.22168\n");
  ASSERT_EQ(figs.size(), 3u);
  EXPECT_EQ(figs[0].run.config.at("run"), "test_model_11");
  EXPECT_EQ(figs[2].run.config.at("run"), "test_wide_0.005");
}

// Near miss: two pair lines are no dump; nothing read from them.
TEST(ReaderDumps, TwoLinesAreNoDump) {
  const auto figs = ReadEntry("# Tuning\n\n", "## 2026-03-02 Sweep\n\n0.01\t2.9171\n0.003\t2.6404\n");
  EXPECT_TRUE(figs.empty());
}

// A `#` section of a document whose `#` headings are its sections, holding
// a dump, is an entry beside the numbered ones.
TEST(ReaderDumps, ATopSectionHoldingADumpIsAnEntry) {
  const Logbook lb = ParseLogbook(
      "# Tuning the small model\n\n## Experiment 1: tune lr\n\n0.01\t2.9171\n0.003\t2.6404\n0.001\t2.7022\n\n"
      "# Tuning the large model\n\nLR sweep\n\n0.01\t3.4413\n0.003\t3.1702\n0.001\t3.5379\n",
      "t.md");
  ASSERT_EQ(lb.entries.size(), 2u);
  EXPECT_EQ(lb.entries[1].heading, "Tuning the large model");
}

}  // namespace
}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {
namespace {

// A leaderboard's lines pasted as a paragraph (`⚡ 82.8 µs 🐌 85.0 µs` per
// shape): a row per line, the marks naming the statistics; two such
// paragraphs of one entry are told apart by `block`. A line with words, or
// lines unlike each other, make the paragraph prose.
TEST(ReaderDumps, MarkedLinesOfFiguresAreARowEach) {
  const auto figs = ReadEntry("# Challenge\n\n", "## Triton\n\nBaseline:\n\n\xE2\x9A\xA1 82.8 \xC2\xB5s \xF0\x9F\x90\x8C 85.0 \xC2\xB5s  \n"
                                                 "\xE2\x9A\xA1 325 \xC2\xB5s \xF0\x9F\x90\x8C 341 \xC2\xB5s\n\nAfter fusing:\n\n"
                                                 "\xE2\x9A\xA1 62.5 \xC2\xB5s \xF0\x9F\x90\x8C 66.7 \xC2\xB5s  \n"
                                                 "\xE2\x9A\xA1 264 \xC2\xB5s \xF0\x9F\x90\x8C 271 \xC2\xB5s\n");
  ASSERT_EQ(figs.size(), 4u);
  EXPECT_EQ(figs[0].run.config.at("line"), "1");
  EXPECT_EQ(figs[3].run.config.at("block"), "2");
  EXPECT_EQ(figs[1].run.metrics.size(), 2u);
  EXPECT_EQ(figs[0].line, 7);
  const auto prose = ReadEntry("# Challenge\n\n", "## Triton\n\n\xE2\x9A\xA1 82.8 \xC2\xB5s then 85.0 \xC2\xB5s  \n"
                                                  "\xE2\x9A\xA1 325 \xC2\xB5s then 341 \xC2\xB5s\n");
  for (const auto& f : prose) EXPECT_EQ(f.run.config.count("block"), 0u);
}

// Words on the paragraph's first line name the lines below it
// (`FP4->FP16 instead of FP4->FP32`) or say what changed; a number among
// them ("a mini 2us boost") compares, it is no run.
TEST(ReaderDumps, MarkedLinesUnderALineOfWordsAreRowsToo) {
  std::vector<UnreadFigures> unread;
  const auto figs = ReadEntry("# Challenge\n\n", "## CuteDSL\n\nFP4->FP16 instead of FP4->FP32  \n"
                                                 "\xE2\x9A\xA1 35.8 \xC2\xB5s \xF0\x9F\x90\x8C 36.3 \xC2\xB5s  \n"
                                                 "\xE2\x9A\xA1 52.0 \xC2\xB5s \xF0\x9F\x90\x8C 57.3 \xC2\xB5s\n\n"
                                                 "Our intrinsic gives a mini 2us boost.  \n"
                                                 "\xE2\x9A\xA1 33.5 \xC2\xB5s \xF0\x9F\x90\x8C 34.0 \xC2\xB5s  \n"
                                                 "\xE2\x9A\xA1 50.0 \xC2\xB5s \xF0\x9F\x90\x8C 54.4 \xC2\xB5s\n",
                              &unread);
  ASSERT_EQ(figs.size(), 4u);
  EXPECT_EQ(figs[0].line, 6);
  EXPECT_EQ(figs[3].run.config.at("block"), "2");
  bool boost = false;
  for (const auto& u : unread) boost = boost || (u.text.find("2us boost") != std::string::npos && !u.shown_only);
  EXPECT_TRUE(boost);
  EXPECT_TRUE(NumberlessTitle("FP4->FP16 instead of FP4->FP32"));
  EXPECT_FALSE(NumberlessTitle("Our intrinsic gives a mini 2us boost."));
  EXPECT_FALSE(NumberlessTitle("after 3 runs"));
}

}  // namespace
}  // namespace moelog::logbook::reader
