// Placeholder: `moelog run` is not available in this build yet.
#include "engine/status.h"
#include "logbook/cli/commands.h"

namespace moelog::cli {

int CmdRun(const Args&) {
  PrintError("run", "not available in this build yet");
  return kExitError;
}

}  // namespace moelog::cli
