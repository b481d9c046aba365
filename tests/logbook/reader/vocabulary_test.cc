#include "logbook/reader/vocabulary.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>
#include <sstream>

#include <nlohmann/json.hpp>

#include "logbook/reader/data_words.h"
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

// No word list of data/reader/ is named twice in its file: a second list of
// one name would silently replace the first (JSON keeps the last).
TEST(ReaderVocabulary, NoListIsNamedTwice) {
  const std::filesystem::path dir = std::filesystem::path(MOELOG_TEST_DATA_DIR) / ".." / "data" / "reader";
  size_t files = 0;
  for (const auto& file : std::filesystem::directory_iterator(dir)) {
    if (file.path().extension() != ".json") continue;
    ++files;
    std::ifstream in(file.path());
    std::stringstream ss;
    ss << in.rdbuf();
    std::vector<std::set<std::string>> keys;  // the keys seen at each open object's depth
    const auto seen = [&](int depth, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
      if (event == nlohmann::json::parse_event_t::object_start) keys.emplace_back();
      if (event == nlohmann::json::parse_event_t::object_end && !keys.empty()) keys.pop_back();
      if (event == nlohmann::json::parse_event_t::key && !keys.empty()) {
        EXPECT_TRUE(keys.back().insert(parsed.get<std::string>()).second)
            << file.path().filename() << ": \"" << parsed.get<std::string>() << "\" twice (depth " << depth << ")";
      }
      return true;
    };
    const nlohmann::json parsed = nlohmann::json::parse(ss.str(), seen);
    EXPECT_FALSE(parsed.is_discarded()) << file.path().filename();
  }
  EXPECT_GE(files, 10u);
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
  text.insert(at + anchor.size(), "\n    \"TFLOP/fortnight\": {\"metric\": \"tflops\", \"factor\": 1},");
  auto lex = ParseLexicon(text, "vocabulary.json");
  ASSERT_TRUE(lex.ok()) << lex.status().ToString();
  ASSERT_TRUE(UnitIn(*lex, "TFLOP/fortnight", &info));
  EXPECT_EQ(info.metric, "tflops");
  ASSERT_TRUE(UnitIn(*lex, "TFLOP/fortnight/rank", &info));
  EXPECT_EQ(info.metric, "tflops_per_rank");
}

// The leads that say a paragraph records no run ("Hardware:",
// "Interpretation:") are the file's words, not the code's.
TEST(ReaderVocabulary, NoRunLeadsAreTheFilesWords) {
  EXPECT_TRUE(ReaderLexicon().no_run_leads.count("hardware"));
  EXPECT_TRUE(ReaderLexicon().no_run_leads.count("interpretation"));
  auto lex = ParseLexicon(R"({"no_run_leads": ["materiel"]})", "v.json");
  ASSERT_TRUE(lex.ok()) << lex.status().ToString();
  EXPECT_TRUE(lex->no_run_leads.count("materiel"));
  EXPECT_FALSE(ParseLexicon(R"({"no_run_leads": "hardware"})", "v.json").ok());
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


// unit_groups give every spelling of one unit; magnitudes and percent
// metrics are read; a spelling named twice is an error naming it.
TEST(ReaderVocabulary, GroupsMagnitudesAndPercentMetrics) {
  auto lex = ParseLexicon(R"({"unit_groups": [{"metric": "time_s", "factor": 1e-9, "spellings": ["ns", "nsec"]},
                                             {"metric": "memory_mib", "factor": 953.67431640625,
                                              "context": ["vram"], "spellings": ["GB"]}],
                              "magnitudes": {"k": 1000},
                              "percent_metrics": {"utilization": "utilization_pct"}})",
                          "v.json");
  ASSERT_TRUE(lex.ok()) << lex.status().ToString();
  UnitInfo info;
  ASSERT_TRUE(UnitIn(*lex, "nsec", &info));
  EXPECT_DOUBLE_EQ(info.factor, 1e-9);
  ASSERT_TRUE(UnitIn(*lex, "GB", &info));
  EXPECT_EQ(info.context, std::vector<std::string>{"vram"});
  ASSERT_TRUE(UnitIn(*lex, "k nsec", &info));  // a magnitude before a unit
  EXPECT_DOUBLE_EQ(info.factor, 1e-6);
  std::string plain;
  EXPECT_DOUBLE_EQ(MagnitudeOf(*lex, "k nsec", &plain), 1000);
  EXPECT_EQ(plain, "nsec");
  EXPECT_EQ(lex->percent_metrics.at("utilization"), "utilization_pct");
  auto twice = ParseLexicon(R"({"unit_groups": [{"metric": "a", "spellings": ["u"]}, {"metric": "b", "spellings": ["u"]}]})",
                            "v.json");
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.status().ToString().find("unit_groups[1].spellings: \"u\" is named twice"), std::string::npos);
  EXPECT_FALSE(ParseLexicon(R"({"magnitudes": {"k": 0.5}})", "v.json").ok());
}

// The shipped vocabulary knows what performance logbooks write.
TEST(ReaderVocabulary, TheShippedFileKnowsCommonPerformanceUnits) {
  struct Want {
    const char* unit;
    const char* metric;
    double factor;
  };
  for (const Want& w : {Want{"cycles", "cycles", 1}, Want{"GFLOP/s", "tflops", 1e-3}, Want{"Gflop/s", "tflops", 1e-3},
                        Want{"GFLOPs/s", "tflops", 1e-3}, Want{"PFLOP/s", "tflops", 1e3}, Want{"ns", "time_s", 1e-9},
                        Want{"usec", "time_s", 1e-6}, Want{"\xCE\xBCs", "time_s", 1e-6}, Want{"\xC2\xB5s", "time_s", 1e-6},
                        Want{"msec", "time_s", 1e-3}, Want{"s/it", "time_s", 1}, Want{"hrs", "wall_time_s", 3600},
                        Want{"mins", "wall_time_s", 60}, Want{"MB/s", "gb_per_s", 1e-3}, Want{"GB/sec", "gb_per_s", 1},
                        Want{"req/s", "requests_per_s", 1}, Want{"samples/s", "samples_per_s", 1},
                        Want{"images/s", "images_per_s", 1}, Want{"secondes", "time_s", 1},
                        Want{"Sekunden", "time_s", 1}, Want{"segundos", "time_s", 1},
                        Want{"\xE6\xAF\xAB\xE7\xA7\x92", "time_s", 1e-3}}) {
    UnitInfo info;
    ASSERT_TRUE(UnitIn(ReaderLexicon(), w.unit, &info)) << w.unit;
    EXPECT_EQ(info.metric, w.metric) << w.unit;
    EXPECT_DOUBLE_EQ(info.factor, w.factor) << w.unit;
  }
  UnitInfo tok;
  ASSERT_TRUE(UnitIn(ReaderLexicon(), "tok/s/gpu", &tok));
  EXPECT_EQ(tok.metric, "tokens_per_s_per_gpu");
  ASSERT_TRUE(UnitIn(ReaderLexicon(), "GB", &tok));
  EXPECT_FALSE(tok.context.empty());  // "GB" is memory only where memory is named
}

// Written values convert exactly: a power of ten divides, another factor multiplies.
TEST(ReaderVocabulary, ARateOfAWordIsReadWhateverItsCase) {
  UnitInfo info{};
  ASSERT_TRUE(WordRateIn(ReaderLexicon(), "Token/s", &info));
  EXPECT_EQ(info.metric, "tokens_per_s");
  ASSERT_TRUE(WordRateIn(ReaderLexicon(), "Request/s", &info));
  EXPECT_EQ(info.metric, "requests_per_s");
  ASSERT_TRUE(WordRateIn(ReaderLexicon(), "TOKENS/SEC", &info));
  EXPECT_EQ(info.metric, "tokens_per_s");
  // Symbols keep their case: megabits are no megabytes, "ms/S" no unit.
  EXPECT_FALSE(WordRateIn(ReaderLexicon(), "Mb/s", &info));
  EXPECT_FALSE(WordRateIn(ReaderLexicon(), "gb/S", &info));
}

TEST(ReaderVocabulary, ToStoredAndBack) {
  EXPECT_EQ(ToStored(3.12, 1e-3), 3.12 / 1000);
  EXPECT_DOUBLE_EQ(ToStored(100, 0.95367431640625), 95.367431640625);
  EXPECT_DOUBLE_EQ(FromStored(ToStored(41.2, 953.67431640625), 953.67431640625), 41.2);
  EXPECT_DOUBLE_EQ(FromStored(ToStored(840, 1e-9), 1e-9), 840);
}

// Each stage reads its words with DataWords, which gives nothing for a file
// that does not parse: so every shipped reader file must parse, as an object.
TEST(ReaderVocabulary, EveryShippedReaderFileIsAJsonObject) {
  const auto files = ReaderDataFiles();
  EXPECT_GE(files.size(), 8u);
  for (const auto& path : files) {
    const auto j = nlohmann::json::parse(ReaderDataFile(path), nullptr, /*allow_exceptions=*/false);
    EXPECT_TRUE(j.is_object()) << path;
  }
}

TEST(ReaderVocabulary, DataWordsReadAStagesWordList) {
  const auto same = DataWords("data/reader/table.json", "same_run_words");
  EXPECT_TRUE(same.count("prefill")) << "table.json same_run_words";
  for (const auto& w : same) EXPECT_EQ(w.find_first_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ"), std::string::npos) << w;
  EXPECT_TRUE(DataWords("data/reader/table.json", "no_such_key").empty());
  EXPECT_TRUE(DataWords("data/reader/no_such_file.json", "same_run_words").empty());
  const auto aliases = DataWordMap("data/reader/table.json", "header_key_aliases");
  EXPECT_FALSE(aliases.empty());
  EXPECT_TRUE(DataWordMap("data/reader/table.json", "same_run_words").empty());  // an array, not a map
}

// A time unit of a step or a call written per an item of the work ("ns/iter"
// of a bench harness, "\u03bcs/n_kv", "ms/image"): a time per that item; a
// rate ("GB/s") and a speedup per item stay what they are.
TEST(ReaderVocabulary, ATimePerItemIsATime) {
  UnitInfo u;
  ASSERT_TRUE(UnitIn(ReaderLexicon(), "ns/iter", &u));
  EXPECT_EQ(u.metric, "time_per_iter_s");
  EXPECT_DOUBLE_EQ(u.factor, 1e-9);
  ASSERT_TRUE(UnitIn(ReaderLexicon(), "\xCE\xBCs/n_kv", &u));
  EXPECT_EQ(u.metric, "time_per_n_kv_s");
  ASSERT_TRUE(UnitIn(ReaderLexicon(), "ms/image", &u));
  EXPECT_DOUBLE_EQ(u.factor, 1e-3);
  ASSERT_TRUE(UnitIn(ReaderLexicon(), "GB/s", &u));
  EXPECT_EQ(u.metric, "gb_per_s");
  EXPECT_FALSE(UnitIn(ReaderLexicon(), "x/iter", &u));
  EXPECT_FALSE(UnitIn(ReaderLexicon(), "min/epoch", &u));
  EXPECT_FALSE(UnitIn(ReaderLexicon(), "ms/", &u));
}

// "9.5 M/s" under "cycles/sec": a rate with its magnitude only; a rate of
// a word the vocabulary does not hold ("32 GT/s", a link's rating) is none.
TEST(ReaderVocabulary, AMagnitudePerSecondIsARate) {
  UnitInfo u;
  ASSERT_TRUE(UnitIn(ReaderLexicon(), "M/s", &u));
  EXPECT_EQ(u.metric, "rate_per_s");
  EXPECT_DOUBLE_EQ(u.factor, 1e6);
  ASSERT_TRUE(UnitIn(ReaderLexicon(), "K/s", &u));
  EXPECT_DOUBLE_EQ(u.factor, 1e3);
  EXPECT_FALSE(UnitIn(ReaderLexicon(), "GT/s", &u));
  EXPECT_FALSE(UnitIn(ReaderLexicon(), "visits/s", &u));
}

}  // namespace
}  // namespace moelog::logbook::reader
