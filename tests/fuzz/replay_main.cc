// Replays the fuzz corpus (tests/fuzz/corpus) through the fuzz target under
// the normal build, so every nasty input is checked by ctest. The time
// oracle of libFuzzer (-timeout) holds here too: each file with all its
// prefixes within a bound that tells bounded work from quadratic work
// (tests/time_bound.h).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/time_bound.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv) {
  int count = 0;
  for (int i = 1; i < argc; ++i) {
    for (const auto& entry : std::filesystem::directory_iterator(argv[i])) {
      if (!entry.is_regular_file()) continue;
      std::ifstream in(entry.path(), std::ios::binary);
      std::ostringstream ss;
      ss << in.rdbuf();
      const std::string s = ss.str();
      const auto t0 = std::chrono::steady_clock::now();
      LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(s.data()), s.size());
      // Every prefix too: truncated files.
      for (size_t cut = 1; cut < s.size(); cut += 1 + s.size() / 16)
        LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(s.data()), cut);
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (seconds > moelog::test::TimeBound(30.0)) {
        std::printf("%s: %.1f s, over the replay's bound of %.0f s\n", entry.path().c_str(), seconds,
                    moelog::test::TimeBound(30.0));
        return 1;
      }
      ++count;
    }
  }
  std::printf("replayed %d corpus files\n", count);
  return count > 0 ? 0 : 1;
}
