// Test helpers: the seed documents under recipes/ and small source-line utilities.
#ifndef MOELOG_TESTS_LOGBOOK_SEED_DOCS_H_
#define MOELOG_TESTS_LOGBOOK_SEED_DOCS_H_

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace moelog::testing {

inline std::string SeedPath(const std::string& name) {
  return std::string(MOELOG_TEST_DATA_DIR) + "/../recipes/" + name;
}

inline std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string l;
  while (std::getline(in, l)) out.push_back(l);
  return out;
}

}  // namespace moelog::testing

#endif  // MOELOG_TESTS_LOGBOOK_SEED_DOCS_H_
