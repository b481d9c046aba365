// Placeholder: `moelog runs` is not available in this build yet.
#include "engine/status.h"
#include "logbook/cli/commands.h"

namespace moelog::cli {

int CmdRuns(const Args&) {
  PrintError("runs", "not available in this build yet");
  return kExitError;
}

}  // namespace moelog::cli
