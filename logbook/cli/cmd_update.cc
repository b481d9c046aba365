// Placeholder: `moelog update` is not available in this build yet.
#include "engine/status.h"
#include "logbook/cli/commands.h"

namespace moelog::cli {

int CmdUpdate(const Args&) {
  PrintError("update", "not available in this build yet");
  return kExitError;
}

}  // namespace moelog::cli
