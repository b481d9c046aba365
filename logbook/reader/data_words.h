// The word lists of the reader's built-in data files (data/reader/*.json),
// read by each stage for its own words.
#ifndef MOELOG_LOGBOOK_READER_DATA_WORDS_H_
#define MOELOG_LOGBOOK_READER_DATA_WORDS_H_

#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace moelog::logbook::reader {

// The paths of every built-in data/reader/ file.
std::vector<std::string> ReaderDataFiles();

// A built-in data file, parsed once per process on first use (thread-safe;
// never destroyed, so a stage's static may read it at exit): a JSON object,
// or a discarded value when the file is missing or does not parse.
const nlohmann::json& ReaderDataJson(const std::string& path);

// A stage's own word list: the strings of array `key` in the built-in data
// file `path` (DataWords("data/reader/table.json", "same_run_words")), lower
// case unless `lower` is false. Empty when the file or the key is missing or
// not an array of strings; vocabulary_test checks every file parses.
std::set<std::string> DataWords(const std::string& path, const char* key, bool lower = true);
// The string values of object `key` in a built-in data file, by key in lower case.
std::map<std::string, std::string> DataWordMap(const std::string& path, const char* key);
// The positive number values of object `key` in a built-in data file, by key
// as written ("duration_parts": {"ms": 0.001, ...}).
std::map<std::string, double> DataNumberMap(const std::string& path, const char* key);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_DATA_WORDS_H_
