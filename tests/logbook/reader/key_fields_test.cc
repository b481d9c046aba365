// Reader stage key: a record's field labels name no run, and a list of its
// settings keys its figures (logbook/reader/key_fields.cc).
#include <gtest/gtest.h>

#include <cmath>

#include "logbook/reader/key_fields.h"
#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

std::string ValueOf(const RecordedFigure& f, const std::string& key) {
  auto it = f.run.config.find(key);
  return it == f.run.config.end() ? "" : it->second;
}

// Whether the row holds the figure `v` (GFLOPS kept as TF/s: v / 1000).
bool HasValue(const RecordedFigure& f, double v) {
  for (const auto& [k, m] : f.run.metrics)
    if (std::abs(m - v) < 1e-9 || std::abs(m - v / 1000) < 1e-12) return true;
  return false;
}

TEST(KeyFields, FieldLabelsAndSettingsItems) {
  EXPECT_TRUE(FieldLabel("Change"));
  EXPECT_TRUE(FieldLabel("**\xE7\xB5\x90\xE6\x9E\x9C**"));  // 結果
  EXPECT_TRUE(FieldLabel("Next step"));
  EXPECT_FALSE(FieldLabel("fused kernel"));
  EXPECT_FALSE(FieldLabel(""));
  std::string k, v;
  EXPECT_TRUE(SettingsItem("matrix_size: `1000`", &k, &v));
  EXPECT_EQ(k, "matrix_size");
  EXPECT_EQ(v, "1000");
  EXPECT_TRUE(SettingsItem("compile flags: `-O3 -march=native`", &k, &v));
  EXPECT_EQ(k, "compile_flags");
  EXPECT_EQ(v, "-O3 -march=native");
  EXPECT_TRUE(SettingsItem("BLOCK_K: 64", &k, &v));
  EXPECT_FALSE(SettingsItem("peak: 900 GB/s", &k, &v));
  EXPECT_FALSE(SettingsItem("the kernel was tuned for this: it won", &k, &v));
}

// An agent's kernel change log: each version's `**変更点**` (change),
// `**結果**` (result) and `**コメント**` (comment) fields, and a folded
// record of the job with a `**params**` list. The result is the row's
// figure; the field names are no keys; the params key the row and are no
// figures of their own.
TEST(KeyFields, AStructuredRecordsParamsKeyItsResult) {
  const std::string body =
      "**\xE5\xA4\x89\xE6\x9B\xB4\xE7\x82\xB9**: \"4x8 register blocking\"\n"
      "**\xE7\xB5\x90\xE6\x9E\x9C**: 27.0% of peak reached `21.6 GFLOPS`\n"
      "**\xE3\x82\xB3\xE3\x83\xA1\xE3\x83\xB3\xE3\x83\x88**: \"B rows reused\"\n\n"
      "<details>\n\n"
      "- [x] **job**\n    - id: `4593390`\n    - status: `success`\n"
      "- **params**:\n    - matrix_size: `1000`\n    - compile_flags: `-O3 -march=native`\n    - block_k: `256`\n\n"
      "</details>\n";
  std::vector<UnreadFigures> unread;
  const auto figs = ReadEntry("# Kernel change log\n\n### v1.4.0\n", body, &unread);
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_TRUE(HasValue(figs[0], 21.6)) << figs[0].text;
  EXPECT_EQ(ValueOf(figs[0], "matrix_size"), "1000");
  EXPECT_EQ(ValueOf(figs[0], "block_k"), "256");
  EXPECT_EQ(ValueOf(figs[0], "compile_flags"), "-O3 -march=native");
  for (const auto& [k, v] : figs[0].run.config) {
    EXPECT_EQ(v.find("\xE5\xA4\x89"), std::string::npos) << k << "=" << v;  // no 変更点 as a value
    EXPECT_EQ(v.find("\xE7\xB5\x90"), std::string::npos) << k << "=" << v;  // no 結果 as a value
  }
  for (const auto& u : unread) EXPECT_EQ(u.text.find("block_k"), std::string::npos) << u.text << ": " << u.why;
}

TEST(KeyFields, AnEnglishChangeFieldNamesNoCase) {
  const auto figs = ReadEntry("# Kernel log\n\n### v1.2.0\n",
                              "**Change**: \"AVX512 intrinsics\"\n**Result**: `6.4 GFLOPS`\n**Comment**: \"explicit\"\n");
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_EQ(ValueOf(figs[0], "case"), "");
  EXPECT_EQ(ValueOf(figs[0], "variant"), "");
}

// Two runs' params lists that give a name two values: which list is whose
// run is not written, so that name keys nothing; a name both give alike does.
TEST(KeyFields, ParamsThatDisagreeKeyNothing) {
  const auto figs = ReadEntry("# Kernel log\n\n### Block sweep\n",
                              "- small tile: 12.1 GFLOPS\n- large tile: 14.8 GFLOPS\n"
                              "- params:\n  - block: `32`\n  - n: `1000`\n"
                              "- params:\n  - block: `64`\n  - n: `1000`\n");
  ASSERT_EQ(figs.size(), 2u);
  for (const auto& f : figs) {
    EXPECT_EQ(ValueOf(f, "block"), "") << f.text;
    EXPECT_EQ(ValueOf(f, "n"), "1000") << f.text;
  }
}

// A list under a settings word that holds a figure ("peak: 900 GB/s") is
// no settings list: its figures are read as before.
TEST(KeyFields, ASetupListWithAFigureIsReadForIt) {
  const auto figs = ReadEntry("# Copy log\n\n### Copy kernel\n", "- settings:\n  - block: `256`\n  - copy bandwidth: 812 GB/s\n");
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_TRUE(HasValue(figs[0], 812.0)) << figs[0].text;
}

}  // namespace
}  // namespace moelog::logbook::reader
