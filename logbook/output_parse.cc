#include "logbook/output_parse.h"

namespace moelog::logbook {

ParsedOutput ParseHarnessOutput(std::string_view) { return {}; }
ParsedRun RunFromResult(const engine::RunResult&) { return {}; }

}  // namespace moelog::logbook
