// Whole-file reads and atomic writes. A write goes to a temporary file in the
// same directory, is fsynced, then renamed over the target, so readers see
// either the old or the new contents, never a half-written file.
#ifndef MOELOG_LOGBOOK_FILE_UTIL_H_
#define MOELOG_LOGBOOK_FILE_UTIL_H_

#include <sys/types.h>

#include <string>

#include "engine/status.h"

namespace moelog::logbook {

// Every file moelog reads that it does not keep itself (a logbook, criteria
// file, adapter, launcher table, template) is read so: opened non-blocking,
// checked to be a regular file (a symbolic link to one is fine) and at most
// `max_bytes` (0: the input-file-bytes budget, budgets.h). IOError naming the
// path otherwise: a FIFO, a device (/dev/zero), a socket, a directory, a file
// over the budget. Never blocks, never reads without end.
Result<std::string> ReadFile(const std::string& path, size_t max_bytes = 0);

// The file a logbook path is written at: the path itself, or, when it is a
// symbolic link, the file it leads to (resolved whole), so a logbook kept
// elsewhere and linked into place stays a link and its target is updated.
std::string WrittenPath(const std::string& path);

// A text file's line ends: LF; CRLF (every LF preceded by CR); CR alone
// (no LF at all, classic Mac). Mixed files count as LF and are kept as they are.
enum class LineEnding { kLf, kCrLf, kCr };
LineEnding DetectLineEnding(const std::string& text);
// `text` with LF line ends (unchanged for kLf), and back. FromLf(ToLf(t, e), e)
// == t for e = DetectLineEnding(t).
std::string ToLf(const std::string& text, LineEnding ending);
std::string FromLf(const std::string& text, LineEnding ending);

// Atomically replaces `path` with `contents` (temp file, fsync, rename,
// fsync of the directory). Keeps the target's permission bits if it exists.
// sync == false skips both fsyncs (a reader still sees the old file or the
// new one, but a crash may lose the new one): only for files moelog checks
// before it trusts them, e.g. a chart's .dat and .gp, whose hashes the
// region's stamp records (two fsyncs each were most of an update's wall time
// on a busy disk).
Status AtomicWriteFile(const std::string& path, const std::string& contents, bool sync = true);

// The permission bits of a file that replaces `path`: path's own when it is a
// regular file, 0644 otherwise (a temporary from mkstemp starts at 0600).
mode_t ReplacementMode(const std::string& path);

// Temporary files a killed moelog left in `dir` ("*.moelog-tmp-XXXXXX" and
// "*.moelog-tmp-XXXXXX.ext", older than a minute: a live write takes
// milliseconds) are removed, links themselves, never followed. Once per
// folder per process: AtomicWriteFile calls it for its target's folder.
void RemoveStaleTemporaries(const std::string& dir);

// IOError when `path` exists and is a symbolic link: moelog never writes
// through a link a document's folder holds (figures/, .moelog/, the store,
// lock and temporary files).
Status RefuseSymlink(const std::string& path);

// What a file moelog keeps in a document's folder must be (the store, its
// -wal/-shm/-journal, the lock, charts and their data): absent, or a regular
// file with one link. IOError naming the path when it is a symbolic link, a
// FIFO, a device, a socket, a directory, or a hard link (st_nlink > 1: the
// same file is also somewhere else, and writing it would write there).
Status CheckOwnFile(const std::string& path);

// Reads a file moelog keeps in a document's folder without ever blocking or
// following a link: O_NOFOLLOW | O_NONBLOCK, then fstat. NotFound when
// missing; IOError as CheckOwnFile says, or when it is over max_bytes.
Result<std::string> ReadOwnFile(const std::string& path, size_t max_bytes = size_t{1} << 30);

// Creates the directory `dir` (mode 0755) if it is missing; IOError when it
// is a symbolic link or not a directory.
Status MakeRealDir(const std::string& dir);

// An exclusive advisory lock (flock) on `path` + ".lock", held while alive.
// The lock file is never a symbolic link (O_NOFOLLOW) and is removed when the
// lock is released.
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
  std::string lock_path_;
};

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_FILE_UTIL_H_
