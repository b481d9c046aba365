// Flag parsing shared by the standalone benchmark programs (cpu_speed_bench,
// ep_overhead_bench): `--name value` integers and strings, value-less
// switches, and `--only a,b,c`.
#ifndef MOELOG_TESTS_BENCH_BENCH_FLAGS_H_
#define MOELOG_TESTS_BENCH_BENCH_FLAGS_H_

#include <cstdint>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>
#include <string>

namespace moelog::bench {

struct IntFlag {
  int64_t* value;
  int64_t min;  // smallest accepted value
};

struct FlagTable {
  std::map<std::string, IntFlag> ints;
  std::map<std::string, std::string*> strings;
  std::map<std::string, bool*> switches;
  std::set<std::string>* only = nullptr;  // --only a,b,c (absent: not accepted)
};

// Fills the table's targets from argv. False with *err set on an unknown
// flag, a missing value, or a number that is malformed or below its minimum.
inline bool ParseFlags(int argc, char** argv, const FlagTable& t, std::string* err) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (auto sw = t.switches.find(a); sw != t.switches.end()) {
      *sw->second = true;
      continue;
    }
    if (i + 1 >= argc) {
      *err = "missing value for " + a;
      return false;
    }
    const std::string v = argv[++i];
    if (auto it = t.ints.find(a); it != t.ints.end()) {
      char* end = nullptr;
      const long long n = std::strtoll(v.c_str(), &end, 10);
      if (end == v.c_str() || *end != '\0' || n < it->second.min) {
        *err = a + ": bad value '" + v + "'";
        return false;
      }
      *it->second.value = n;
    } else if (auto st = t.strings.find(a); st != t.strings.end()) {
      *st->second = v;
    } else if (a == "--only" && t.only != nullptr) {
      std::stringstream ss(v);
      for (std::string item; std::getline(ss, item, ',');) t.only->insert(item);
    } else {
      *err = "unknown flag " + a;
      return false;
    }
  }
  return true;
}

}  // namespace moelog::bench

#endif  // MOELOG_TESTS_BENCH_BENCH_FLAGS_H_
