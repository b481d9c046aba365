// Placeholder: `moelog model` is not available in this build yet.
#include "engine/status.h"
#include "logbook/cli/commands.h"

namespace moelog::cli {

int CmdModel(const Args&) {
  PrintError("model", "not available in this build yet");
  return kExitError;
}

}  // namespace moelog::cli
