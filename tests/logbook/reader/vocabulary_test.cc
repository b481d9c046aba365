#include "logbook/reader/vocabulary.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "logbook/reader/recorded.h"

namespace moelog::logbook::reader {
namespace {

std::string ShippedText() {
  std::ifstream in(std::string(MOELOG_TEST_DATA_DIR) + "/../data/reader/vocabulary.json");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(ReaderVocabulary, TheShippedFileParsesAndIsTheOneCompiledIn) {
  auto lex = ParseLexicon(ShippedText(), "vocabulary.json");
  ASSERT_TRUE(lex.ok()) << lex.status().ToString();
  EXPECT_EQ(lex->units.size(), ReaderLexicon().units.size());
  EXPECT_EQ(lex->statistic_words, ReaderLexicon().statistic_words);
  UnitInfo ms;
  ASSERT_TRUE(UnitIn(ReaderLexicon(), "ms", &ms));
  EXPECT_EQ(ms.metric, "time_s");
  EXPECT_DOUBLE_EQ(ms.factor, 1e-3);
  UnitInfo per;
  ASSERT_TRUE(UnitIn(ReaderLexicon(), "TFLOP/s/GPU", &per));
  EXPECT_EQ(per.metric, "tflops_per_gpu");
  UnitInfo x;
  ASSERT_TRUE(UnitIn(ReaderLexicon(), "\xC3\x97", &x));
  EXPECT_TRUE(x.derived);
  EXPECT_FALSE(UnitIn(ReaderLexicon(), "x/GPU", &x));  // a speedup per device is none
}

// A spelling added to the file is honoured: "TFLOP/fortnight" reads as TF/s once
// the vocabulary names it, and not before.
TEST(ReaderVocabulary, AWordAddedToTheFileIsHonoured) {
  UnitInfo info;
  EXPECT_FALSE(UnitIn(ReaderLexicon(), "TFLOP/fortnight", &info));
  std::string text = ShippedText();
  const std::string anchor = "\"units\": {";
  const size_t at = text.find(anchor);
  ASSERT_NE(at, std::string::npos);
  text.insert(at + anchor.size(), "\n    \"TFLOP/sec\": {\"metric\": \"tflops\", \"factor\": 1},");
  auto lex = ParseLexicon(text, "vocabulary.json");
  ASSERT_TRUE(lex.ok()) << lex.status().ToString();
  ASSERT_TRUE(UnitIn(*lex, "TFLOP/fortnight", &info));
  EXPECT_EQ(info.metric, "tflops");
  ASSERT_TRUE(UnitIn(*lex, "TFLOP/fortnight/rank", &info));
  EXPECT_EQ(info.metric, "tflops_per_rank");
}

TEST(ReaderVocabulary, ABadFileIsAnErrorNamingTheKey) {
  auto bad = ParseLexicon(R"({"units": {"ms": {"metric": "time_s", "factor": -1}}})", "v.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().ToString().find("v.json: units.ms.factor"), std::string::npos) << bad.status().ToString();
  EXPECT_FALSE(ParseLexicon(R"({"statistic_words": "mean"})", "v.json").ok());
  EXPECT_FALSE(ParseLexicon("{", "v.json").ok());
}

// The figures stage reads units through the vocabulary: a Result's "ms" is a
// time in seconds, an unknown word no unit.
TEST(ReaderVocabulary, TheFiguresStageReadsItsUnits) {
  Entry e;
  e.id = "E-1";
  Field f;
  f.name = "Result";
  f.value = "`fused` 0.812 ms, `ref` 1.204 ms";
  f.bullet.text = "Result: " + f.value;
  f.bullet.line = 3;
  e.fields.push_back(f);
  auto figs = RecordedFigures(e);
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_NEAR(figs[0].run.metrics.at("time_s"), 0.000812, 1e-12);
}

}  // namespace
}  // namespace moelog::logbook::reader
