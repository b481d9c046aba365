// Placeholder: `moelog plot` is not available in this build yet.
#include "engine/status.h"
#include "logbook/cli/commands.h"

namespace moelog::cli {

int CmdPlot(const Args&) {
  PrintError("plot", "not available in this build yet");
  return kExitError;
}

}  // namespace moelog::cli
