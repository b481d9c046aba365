// Test helper: what the EP seed's entries before the compact dispatch (13:40,
// 13:44) must show however they are configured (pins or the hillclimb
// adapter's revision): their EP rows modeled slower than no EP, as measured.
#ifndef MOELOG_TESTS_LOGBOOK_UPDATE_EP_SEED_CHECKS_H_
#define MOELOG_TESTS_LOGBOOK_UPDATE_EP_SEED_CHECKS_H_

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "logbook/store/stored_run.h"

namespace moelog::testing {

// TF/s of the counted run of `entry` with parallel_mode `pm` and topk `k`.
inline double EntryTflops(const std::vector<logbook::StoredRun>& runs, const std::string& entry,
                          const std::string& pm, const std::string& k) {
  for (const auto& r : runs)
    if (r.entry_id == entry && r.config.at("parallel_mode") == pm && r.config.at("topk") == k)
      return r.metrics.at("tflops");
  ADD_FAILURE() << entry << " " << pm << " k=" << k;
  return 0.0;
}

inline void ExpectDenseMaskedEntriesSlowerThanNone(const std::vector<logbook::StoredRun>& runs) {
  for (const char* k : {"2", "8"})
    for (const char* entry : {"MOE-EP-BENCHMARK-20260209-1340", "MOE-EP-BENCHMARK-20260209-1344"})
      EXPECT_LT(EntryTflops(runs, entry, "ep", k), EntryTflops(runs, entry, "none", k)) << entry << " k=" << k;
}

}  // namespace moelog::testing

#endif  // MOELOG_TESTS_LOGBOOK_UPDATE_EP_SEED_CHECKS_H_
