// Placeholder: `moelog check` is not available in this build yet.
#include "engine/status.h"
#include "logbook/cli/commands.h"

namespace moelog::cli {

int CmdCheck(const Args&) {
  PrintError("check", "not available in this build yet");
  return kExitError;
}

}  // namespace moelog::cli
