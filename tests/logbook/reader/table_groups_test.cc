// The table stage: tables of one entry with the same columns but the
// first, whose header names a group of the rows (a framework and its
// version: "| tornado 6.4.1 | image | req/s |", then "| aiohttp 3.9.5 |
// image | req/s |") are one table: the rows' labels under one key, the
// header's text a second key (group), never a key of its own per table.
#include <gtest/gtest.h>

#include "tests/logbook/reader/read_entry.h"

namespace moelog::logbook::reader {
namespace {

const std::string kHead = "# Server shootout\n\n## 2026-05-02 hello handlers on the desk box\n\n";

const std::string kTables =
    "Load generated with `hey` from the same box.\n\n"
    "| tornado 6.4.1 | image | req/s |\n"
    "|---|---|---|\n"
    "| tornado(asyncio) | 12.1m | 8410 |\n"
    "| tornado(uvloop) | 12.3m | 11920 |\n"
    "\n"
    "| aiohttp 3.9.5 | image | req/s |\n"
    "|---|---|---|\n"
    "| aiohttp(gunicorn) | 14.0m | 15300 |\n";

bool AnyKeyContains(const Config& c, const std::string& part) {
  for (const auto& [k, v] : c)
    if (k.find(part) != std::string::npos) return true;
  return false;
}

TEST(ReaderTableGroups, GroupHeaderIsAKeyNotAColumn) {
  const auto figs = ReadEntry(kHead, kTables);
  ASSERT_EQ(figs.size(), 3u);
  for (const auto& f : figs) {
    EXPECT_FALSE(AnyKeyContains(f.run.config, "6_4_1")) << f.text;
    EXPECT_FALSE(AnyKeyContains(f.run.config, "3_9_5")) << f.text;
    EXPECT_FALSE(AnyKeyContains(f.run.config, "tornado")) << f.text;
  }
  const RecordedFigure* first = OnLine(figs, 9);
  const RecordedFigure* third = OnLine(figs, 14);
  ASSERT_NE(first, nullptr);
  ASSERT_NE(third, nullptr);
  EXPECT_EQ(first->run.config.at("group"), "tornado 6.4.1");
  EXPECT_EQ(third->run.config.at("group"), "aiohttp 3.9.5");
  // The rows' labels under one key in both tables.
  std::string key;
  for (const auto& [k, v] : first->run.config)
    if (v == "tornado(asyncio)") key = k;
  ASSERT_FALSE(key.empty());
  ASSERT_TRUE(third->run.config.count(key));
  EXPECT_EQ(third->run.config.at(key), "aiohttp(gunicorn)");
}

TEST(ReaderTableGroups, ColumnHeadersThatDifferStayColumns) {
  // "model" and "config" name columns of their own: no group.
  const auto figs = ReadEntry(kHead,
                              "| model | req/s |\n|---|---|\n| llama-8b | 120 |\n\n"
                              "| config | req/s |\n|---|---|\n| fp8 | 140 |\n");
  ASSERT_EQ(figs.size(), 2u);
  for (const auto& f : figs) EXPECT_FALSE(f.run.config.count("group")) << f.text;
}

TEST(ReaderTableGroups, HeaderInAnyScriptNamesItsKey) {
  // "| 镜像 | req/s |": the author's header is the key, not a part of the case label.
  const auto figs = ReadEntry(kHead, "| 镜像 | req/s |\n|---|---|\n| 12.1m | 8410 |\n| 14.0m | 15300 |\n");
  ASSERT_EQ(figs.size(), 2u);
  ASSERT_TRUE(figs[0].run.config.count("镜像"));
  EXPECT_EQ(figs[0].run.config.at("镜像"), "12.1m");
}

}  // namespace
}  // namespace moelog::logbook::reader
