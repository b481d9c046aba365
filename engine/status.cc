#include "engine/status.h"

namespace moelog {

std::string Status::ToString() const {
  const char* prefix = "";
  switch (code_) {
    case Code::kOk: return "OK";
    case Code::kInvalidArgument: prefix = ""; break;
    case Code::kNotFound: prefix = "not found: "; break;
    case Code::kNotSupported: prefix = "not supported: "; break;
    case Code::kParseError: prefix = ""; break;
    case Code::kIOError: prefix = "I/O error: "; break;
    case Code::kOutOfMemory: prefix = "out of memory: "; break;
    case Code::kTimeout: prefix = "timeout: "; break;
    case Code::kKilled: prefix = "killed: "; break;
    case Code::kInternal: prefix = "internal error: "; break;
  }
  return prefix + message_;
}

int Status::ExitCode() const {
  switch (code_) {
    case Code::kOk: return kExitOk;
    case Code::kInvalidArgument:
    case Code::kOutOfMemory: return kExitUsage;
    case Code::kNotSupported: return kExitUnsupported;
    case Code::kParseError: return kExitParse;
    default: return kExitError;
  }
}

}  // namespace moelog
