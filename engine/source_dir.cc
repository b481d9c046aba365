#include "engine/source_dir.h"

namespace moelog {

std::string SourceTreeDataDir() { return std::string(MOELOG_SOURCE_DIR) + "/data"; }

}  // namespace moelog
