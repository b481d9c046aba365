// The data folder of the source tree moelog was built from: the last place
// data files (hardware, parameters, reader vocabulary) are looked up, after
// MOELOG_DATA_DIR and the installed share/moelog/data.
#pragma once

#include <string>

namespace moelog {

// "<source tree>/data". Only engine/source_dir.cc knows the path, so that
// objects built from two checkouts of the same sources stay identical.
std::string SourceTreeDataDir();

}  // namespace moelog
