// Whole-file reads and atomic writes. A write goes to a temporary file in the
// same directory, is fsynced, then renamed over the target, so readers see
// either the old or the new contents, never a half-written file.
#ifndef MOELOG_LOGBOOK_FILE_UTIL_H_
#define MOELOG_LOGBOOK_FILE_UTIL_H_

#include <string>

#include "engine/status.h"

namespace moelog::logbook {

Result<std::string> ReadFile(const std::string& path);

// Atomically replaces `path` with `contents` (temp file, fsync, rename,
// fsync of the directory). Keeps the target's permission bits if it exists.
Status AtomicWriteFile(const std::string& path, const std::string& contents);

// An exclusive advisory lock (flock) on `path` + ".lock", held while alive.
class FileLock {
 public:
  FileLock() = default;
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  // Waits up to timeout_ms for the lock; Timeout status if it stays taken.
  Status Acquire(const std::string& path, int timeout_ms = 10000);

 private:
  int fd_ = -1;
};

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_FILE_UTIL_H_
