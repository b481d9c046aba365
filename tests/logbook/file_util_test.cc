#include "logbook/file_util.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "logbook/budgets.h"

namespace moelog::logbook {
namespace {

std::filesystem::path TempDir() {
  auto dir = std::filesystem::temp_directory_path() / ("moelog_files_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// Reading must end at once: never wait on a FIFO nor read a device forever.
Result<std::string> TimedRead(const std::string& path, double* seconds) {
  const auto t0 = std::chrono::steady_clock::now();
  auto r = ReadFile(path);
  *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

TEST(ReadFile, OnlyRegularFilesAreRead) {
  const auto dir = TempDir();
  double s = 0;
  // A logbook linked to /dev/zero (read forever before), and a FIFO (blocked).
  const std::string zero = (dir / "zero.md").string();
  std::filesystem::create_symlink("/dev/zero", zero);
  auto r = TimedRead(zero, &s);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("is a device"), std::string::npos) << r.status().message();
  EXPECT_LT(s, 1.0);
  const std::string fifo = (dir / "fifo.md").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  r = TimedRead(fifo, &s);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find(fifo + ": is a FIFO"), std::string::npos) << r.status().message();
  EXPECT_LT(s, 1.0);
  r = ReadFile(dir.string());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("is a directory"), std::string::npos) << r.status().message();
  // A link to a regular file is read (a logbook kept elsewhere, linked in).
  const std::string real = (dir / "real.md").string(), link = (dir / "link.md").string();
  std::ofstream(real) << "# Real\n";
  std::filesystem::create_symlink(real, link);
  r = ReadFile(link);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(*r, "# Real\n");
  std::filesystem::remove_all(dir);
}

TEST(ReadFile, SizeCapAtTheLimitAndJustOver) {
  const auto dir = TempDir();
  const std::string path = (dir / "ten.md").string();
  std::ofstream(path) << "0123456789";
  EXPECT_TRUE(ReadFile(path, 10).ok());
  auto over = ReadFile(path, 9);
  ASSERT_FALSE(over.ok());
  EXPECT_NE(over.status().message().find("(budget input-file-bytes)"), std::string::npos) << over.status().message();
  // The default is the budget's.
  EXPECT_EQ(BudgetLimit(BudgetId::kInputFileBytes), int64_t{64} << 20);
  std::filesystem::remove_all(dir);
}

TEST(WrittenPath, ALinkedLogbookIsWrittenAtItsTarget) {
  const auto dir = TempDir();
  std::filesystem::create_directories(dir / "dotfiles");
  const std::string real = (dir / "dotfiles" / "log.md").string(), link = (dir / "log.md").string();
  std::ofstream(real) << "old\n";
  std::filesystem::create_symlink(real, link);
  EXPECT_EQ(WrittenPath(real), real);
  EXPECT_EQ(WrittenPath(link), std::filesystem::canonical(real).string());
  ASSERT_TRUE(AtomicWriteFile(WrittenPath(link), "new\n").ok());
  EXPECT_TRUE(std::filesystem::is_symlink(link));  // still a link
  EXPECT_EQ(*ReadFile(real), "new\n");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace moelog::logbook
