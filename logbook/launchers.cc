#include "logbook/launchers.h"

namespace moelog::logbook {

const LauncherSpec* LauncherTable::FindLauncher(const std::string&) const { return nullptr; }
const HarnessSpec* LauncherTable::FindHarness(const std::string&) const { return nullptr; }
const InterpreterSpec* LauncherTable::FindInterpreter(const std::string&) const { return nullptr; }
Result<LauncherTable> ParseLauncherTable(const std::string&) { return Status::NotSupported("launcher table: not implemented yet"); }
const LauncherTable& DefaultLauncherTable() { static LauncherTable t; return t; }
Result<LauncherTable> LoadLauncherTable(const std::string&) { return Status::NotSupported("launcher table: not implemented yet"); }

}  // namespace moelog::logbook
