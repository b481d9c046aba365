// Placeholder: `moelog new` is not available in this build yet.
#include "engine/status.h"
#include "logbook/cli/commands.h"

namespace moelog::cli {

int CmdNew(const Args&) {
  PrintError("new", "not available in this build yet");
  return kExitError;
}

}  // namespace moelog::cli
