// Placeholder: `moelog ids` is not available in this build yet.
#include "engine/status.h"
#include "logbook/cli/commands.h"

namespace moelog::cli {

int CmdIds(const Args&) {
  PrintError("ids", "not available in this build yet");
  return kExitError;
}

}  // namespace moelog::cli
