#include "logbook/file_util.h"

#include "logbook/budgets.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <ctime>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>
#include <vector>
#include <chrono>

namespace moelog::logbook {
namespace {

std::string Errno() { return std::strerror(errno); }

std::string DirName(const std::string& path) {
  auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

// Why a file of this mode is not one moelog reads ("" when it is regular:
// a symbolic link to a regular file reaches here as that file).
std::string NotRegularFile(const struct stat& st) {
  if (S_ISFIFO(st.st_mode)) return "is a FIFO, not a regular file; moelog reads only regular files";
  if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) return "is a device, not a regular file; moelog reads only regular files";
  if (S_ISSOCK(st.st_mode)) return "is a socket, not a regular file; moelog reads only regular files";
  if (S_ISDIR(st.st_mode)) return "is a directory, not a file";
  if (!S_ISREG(st.st_mode)) return "is not a regular file";
  return "";
}

// Reads `fd` to its end into `text`, at most `max_bytes`; why it failed, or "".
std::string ReadAll(int fd, size_t max_bytes, std::string* text) {
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Errno();
    if (n == 0) return "";
    if (text->size() + static_cast<size_t>(n) > max_bytes)
      return "grew over moelog's limit of " + std::to_string(max_bytes) + " bytes";
    text->append(buf, static_cast<size_t>(n));
  }
}

}  // namespace

Result<std::string> ReadFile(const std::string& path, size_t max_bytes) {
  if (max_bytes == 0) max_bytes = static_cast<size_t>(BudgetLimit(BudgetId::kInputFileBytes));
  // Non-blocking, so a FIFO or a device at the path is refused at fstat, not
  // waited on or read forever.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return Status::IOError(path + ": cannot open: " + Errno());
  struct stat st;
  std::string why = ::fstat(fd, &st) != 0 ? Errno() : NotRegularFile(st);
  if (why.empty() && static_cast<uint64_t>(st.st_size) > max_bytes)
    why = "is " + std::to_string(st.st_size) + " bytes, more than " + std::to_string(max_bytes) + " (budget " +
          BudgetOf(BudgetId::kInputFileBytes).name + ")";
  std::string text;
  if (why.empty()) why = ReadAll(fd, max_bytes, &text);
  ::close(fd);
  if (!why.empty()) return Status::IOError(path + ": " + why);
  return text;
}

LineEnding DetectLineEnding(const std::string& text) {
  size_t lf = 0, crlf = 0, cr = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++lf;
      if (i > 0 && text[i - 1] == '\r') ++crlf;
    } else if (text[i] == '\r') {
      ++cr;
    }
  }
  if (lf == 0) return cr > 0 ? LineEnding::kCr : LineEnding::kLf;
  // Every LF after a CR and no CR elsewhere: a CRLF file.
  return crlf == lf && cr == crlf ? LineEnding::kCrLf : LineEnding::kLf;
}

std::string ToLf(const std::string& text, LineEnding ending) {
  if (ending == LineEnding::kLf) return text;
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\r') {
      out.push_back(text[i]);
    } else if (ending == LineEnding::kCr) {
      out.push_back('\n');
    }  // kCrLf: the CR before each LF is dropped
  }
  return out;
}

std::string FromLf(const std::string& text, LineEnding ending) {
  if (ending == LineEnding::kLf) return text;
  std::string out;
  out.reserve(text.size() + text.size() / 32);
  for (char c : text) {
    if (c != '\n') {
      out.push_back(c);
    } else {
      if (ending == LineEnding::kCrLf) out += "\r\n";
      else out.push_back('\r');
    }
  }
  return out;
}

void RemoveStaleTemporaries(const std::string& dir) {
  static std::mutex mu;
  static std::set<std::string> done;
  {
    std::lock_guard<std::mutex> lock(mu);
    if (!done.insert(dir).second) return;
  }
  static const std::string kMark = ".moelog-tmp-";
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return;
  const time_t now = time(nullptr);
  while (dirent* e = readdir(d)) {
    const std::string name = e->d_name;
    const size_t at = name.rfind(kMark);
    if (at == std::string::npos) continue;
    const size_t rest = name.size() - at - kMark.size();  // XXXXXX, or XXXXXX.ext
    if (rest != 6 && !(rest == 10 && name[at + kMark.size() + 6] == '.')) continue;
    const std::string full = dir + "/" + name;
    struct stat st;
    if (::lstat(full.c_str(), &st) == 0 && now - st.st_mtime > 60) ::unlink(full.c_str());
  }
  closedir(d);
}

mode_t ReplacementMode(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) ? (st.st_mode & 07777) : 0644;
}

Status AtomicWriteFile(const std::string& path, const std::string& contents, bool sync) {
  RemoveStaleTemporaries(DirName(path));
  std::string tmpl = path + ".moelog-tmp-XXXXXX";
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  int fd = mkstemp(buf.data());
  if (fd < 0) return Status::IOError(path + ": cannot create temporary file: " + Errno());
  std::string tmp(buf.data());
  fchmod(fd, ReplacementMode(path));
  size_t off = 0;
  while (off < contents.size()) {
    ssize_t n = write(fd, contents.data() + off, contents.size() - off);
    if (n < 0) {
      if (errno == EINTR) continue;
      std::string err = Errno();
      close(fd);
      unlink(tmp.c_str());
      return Status::IOError(path + ": write failed: " + err);
    }
    off += static_cast<size_t>(n);
  }
  if ((sync && fsync(fd) != 0) || close(fd) != 0) {
    std::string err = Errno();
    unlink(tmp.c_str());
    return Status::IOError(path + ": fsync failed: " + err);
  }
  if (rename(tmp.c_str(), path.c_str()) != 0) {
    std::string err = Errno();
    unlink(tmp.c_str());
    return Status::IOError(path + ": rename failed: " + err);
  }
  int dfd = sync ? open(DirName(path).c_str(), O_RDONLY | O_DIRECTORY) : -1;
  if (dfd >= 0) {
    fsync(dfd);
    close(dfd);
  }
  return Status::Ok();
}

std::string WrittenPath(const std::string& path) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
  char* real = ::realpath(path.c_str(), nullptr);
  if (!real) return path;  // a dangling link: reading it fails first
  std::string target = real;
  std::free(real);
  return target;
}

Status RefuseSymlink(const std::string& path) {
  struct stat st;
  if (::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode))
    return Status::IOError(path + ": is a symbolic link; moelog does not write through links");
  return Status::Ok();
}

namespace {

// Why a file of this mode and link count is not one moelog keeps; "" when it is.
std::string NotOwnFile(const struct stat& st) {
  if (S_ISLNK(st.st_mode)) return "is a symbolic link; moelog does not write through links";
  if (S_ISFIFO(st.st_mode)) return "is a FIFO, not a regular file; moelog does not read or write it (remove it)";
  if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
    return "is a device, not a regular file; moelog does not read or write it (remove it)";
  if (S_ISSOCK(st.st_mode)) return "is a socket, not a regular file; moelog does not read or write it (remove it)";
  if (!S_ISREG(st.st_mode)) return "is not a regular file";
  if (st.st_nlink > 1)
    return "has " + std::to_string(st.st_nlink) +
           " hard links: the same file is elsewhere too, and moelog would change it there (remove this link)";
  return "";
}

}  // namespace

Status CheckOwnFile(const std::string& path) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) return Status::Ok();
    return Status::IOError(path + ": " + Errno());
  }
  const std::string why = NotOwnFile(st);
  return why.empty() ? Status::Ok() : Status::IOError(path + ": " + why);
}

Result<std::string> ReadOwnFile(const std::string& path, size_t max_bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    if (errno == ENOENT) return Status::NotFound(path + ": no such file");
    if (errno == ELOOP) return Status::IOError(path + ": is a symbolic link; moelog does not read through links");
    return Status::IOError(path + ": cannot open: " + Errno());
  }
  struct stat st;
  std::string why = ::fstat(fd, &st) != 0 ? Errno() : NotOwnFile(st);
  if (why.empty() && static_cast<uint64_t>(st.st_size) > max_bytes)
    why = "is " + std::to_string(st.st_size) + " bytes, over moelog's limit of " + std::to_string(max_bytes);
  if (!why.empty()) {
    ::close(fd);
    return Status::IOError(path + ": " + why);
  }
  std::string text;
  why = ReadAll(fd, max_bytes, &text);
  ::close(fd);
  if (!why.empty()) return Status::IOError(path + ": " + why);
  return text;
}

Status MakeRealDir(const std::string& dir) {
  if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) return Status::IOError(dir + ": cannot create: " + Errno());
  struct stat st;
  if (::lstat(dir.c_str(), &st) != 0) return Status::IOError(dir + ": " + Errno());
  if (S_ISLNK(st.st_mode)) return Status::IOError(dir + ": is a symbolic link; moelog does not write through links");
  if (!S_ISDIR(st.st_mode)) return Status::IOError(dir + ": exists and is not a directory");
  return Status::Ok();
}

FileLock::~FileLock() {
  if (fd_ >= 0) {
    // Removed while still held: a waiter that opened this file sees it gone
    // once it gets the lock, and opens the path again.
    ::unlink(lock_path_.c_str());
    flock(fd_, LOCK_UN);
    close(fd_);
  }
}

Status FileLock::Acquire(const std::string& path, int timeout_ms) {
  const std::string lock = path + ".lock";
  for (int waited = 0;;) {
    fd_ = open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
    if (fd_ < 0)
      return Status::IOError(lock + (errno == ELOOP ? ": is a symbolic link; moelog does not write through links"
                                                     : ": cannot open lock file: " + Errno()));
    struct stat mine;
    const std::string why = ::fstat(fd_, &mine) != 0 ? Errno() : NotOwnFile(mine);
    if (!why.empty()) {
      close(fd_);
      fd_ = -1;
      return Status::IOError(lock + ": " + why);
    }
    bool locked = false;
    for (;; waited += 50) {
      if (flock(fd_, LOCK_EX | LOCK_NB) == 0) {
        locked = true;
        break;
      }
      if (errno != EWOULDBLOCK || waited >= timeout_ms) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    if (!locked) break;
    // The holder before us may have removed the file: lock the one at the path.
    struct stat held, now;
    if (fstat(fd_, &held) == 0 && ::lstat(lock.c_str(), &now) == 0 && held.st_dev == now.st_dev &&
        held.st_ino == now.st_ino) {
      lock_path_ = lock;
      return Status::Ok();
    }
    close(fd_);
    fd_ = -1;
  }
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
  return Status::Timeout(lock + ": another moelog holds the lock");
}

}  // namespace moelog::logbook
