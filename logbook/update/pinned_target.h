// The hardware a logbook pins: a GPU named in its front matter (`hardware:`,
// `gpu:`, `accelerator:`, `target:`, `platform:`, `system:`) or on a labelled
// line (`- Hardware: 2x8 H100`, `- Config: ... B200 ...`, `GPU:`,
// `Accelerator:`, `Platform:`, `System:`, `Setup:`, `Target:`), matched
// against the GPU hardware files (data/hardware, "class": "gpu"). It is the
// default target of `update` and `next` when the user gives no --target.
#ifndef MOELOG_LOGBOOK_UPDATE_PINNED_TARGET_H_
#define MOELOG_LOGBOOK_UPDATE_PINNED_TARGET_H_

#include <string>
#include <string_view>
#include <vector>

namespace moelog::logbook {

struct PinnedHardware {
  std::string name;                // the hardware file's name ("h100"); empty: none pinned
  std::string where;               // "front matter, hardware:" or "line 12, hardware:"
  std::vector<std::string> named;  // every GPU the labelled lines name (several: none pinned)
};

// Front matter first (its one GPU, if it names one); else the labelled lines,
// when they all name the same GPU. Words match a hardware file's name case-
// insensitively, a count prefix allowed ("8xH100", "2x8 H100"); "GB200" is
// not "B200".
PinnedHardware FindPinnedHardware(std::string_view text);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_UPDATE_PINNED_TARGET_H_
