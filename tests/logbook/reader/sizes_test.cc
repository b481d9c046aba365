// The reader's size limits, checked on its sources: no file over 1,000
// lines, no function over 60 (a function: a top-level definition, from its
// first line to its closing brace; braces in literals and comments aside).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace moelog::logbook {
namespace {

namespace fs = std::filesystem;

// The braces of a line outside literals and comments; `block` carries a
// /* comment */ across lines.
std::string Braces(const std::string& line, bool* block) {
  std::string out;
  for (size_t i = 0; i < line.size(); ++i) {
    if (*block) {
      if (line.compare(i, 2, "*/") == 0) *block = false, ++i;
      continue;
    }
    if (line.compare(i, 2, "//") == 0) break;
    if (line.compare(i, 2, "/*") == 0) {
      *block = true;
      ++i;
      continue;
    }
    if (line[i] == '"' || line[i] == '\'') {
      const char q = line[i];
      for (++i; i < line.size() && line[i] != q; ++i)
        if (line[i] == '\\') ++i;
      continue;
    }
    if (line[i] == '{' || line[i] == '}') out += line[i];
  }
  return out;
}

// Whether a line at column 0 starts a definition that is not a namespace,
// a type or a directive.
bool StartsFunction(const std::string& line) {
  if (line.empty() || line[0] == ' ' || line[0] == '}' || line[0] == '#' || line[0] == '/') return false;
  for (const char* w : {"namespace", "struct", "class", "enum", "using", "template", "inline constexpr"})
    if (line.rfind(w, 0) == 0) return false;
  return true;
}

struct Longest {
  int lines = 0, at = 0;
};

// The longest function of a source file, in lines.
Longest LongestFunction(const fs::path& file) {
  std::ifstream in(file);
  Longest best;
  bool block = false;
  int depth = 0, start = 0, n = 0, fn_depth = -1;
  for (std::string line; std::getline(in, line);) {
    ++n;
    if (fn_depth < 0 && StartsFunction(line)) start = n, fn_depth = depth;
    for (char c : Braces(line, &block)) {
      depth += c == '{' ? 1 : -1;
      if (c == '}' && depth == fn_depth) {
        if (n - start + 1 > best.lines) best = {n - start + 1, start};
        fn_depth = -1;
      }
    }
    if (fn_depth >= 0 && depth == fn_depth && line.find(';') != std::string::npos &&
        line.find('{') == std::string::npos)
      fn_depth = -1;  // a declaration or a variable
  }
  return best;
}

TEST(ReaderSizes, NoFileOver1000LinesNoFunctionOver60) {
  const fs::path dir = fs::path(MOELOG_TEST_DATA_DIR) / ".." / "logbook" / "reader";
  int files = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string ext = e.path().extension().string();
    if (ext != ".cc" && ext != ".h") continue;
    ++files;
    std::ifstream in(e.path());
    int lines = 0;
    for (std::string l; std::getline(in, l);) ++lines;
    EXPECT_LE(lines, 1000) << e.path();
    const Longest f = LongestFunction(e.path());
    EXPECT_LE(f.lines, 60) << e.path() << ":" << f.at;
  }
  EXPECT_GT(files, 4);
}

TEST(ReaderSizes, TheCheckSeesALongFunction) {
  const fs::path p = fs::temp_directory_path() / "moelog_reader_sizes_probe.cc";
  {
    std::ofstream out(p);
    out << "namespace a {\nint F(int x) {\n  const char* s = \"}\";\n";
    for (int i = 0; i < 70; ++i) out << "  x += '{' == 0;\n";
    out << "  return x;\n}\nint G() { return 1; }\n}  // namespace a\n";
  }
  const Longest f = LongestFunction(p);
  EXPECT_EQ(f.lines, 74);
  EXPECT_EQ(f.at, 2);
  fs::remove(p);
}

}  // namespace
}  // namespace moelog::logbook
