// Placeholder: `moelog compare` is not available in this build yet.
#include "engine/status.h"
#include "logbook/cli/commands.h"

namespace moelog::cli {

int CmdCompare(const Args&) {
  PrintError("compare", "not available in this build yet");
  return kExitError;
}

}  // namespace moelog::cli
