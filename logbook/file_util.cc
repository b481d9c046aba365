#include "logbook/file_util.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
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

}  // namespace

Result<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IOError(path + ": cannot open: " + Errno());
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return Status::IOError(path + ": read failed");
  return ss.str();
}

Status AtomicWriteFile(const std::string& path, const std::string& contents) {
  std::string tmpl = path + ".moelog-tmp-XXXXXX";
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  int fd = mkstemp(buf.data());
  if (fd < 0) return Status::IOError(path + ": cannot create temporary file: " + Errno());
  std::string tmp(buf.data());
  struct stat st;
  if (stat(path.c_str(), &st) == 0) fchmod(fd, st.st_mode & 07777);
  else fchmod(fd, 0644);
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
  if (fsync(fd) != 0 || close(fd) != 0) {
    std::string err = Errno();
    unlink(tmp.c_str());
    return Status::IOError(path + ": fsync failed: " + err);
  }
  if (rename(tmp.c_str(), path.c_str()) != 0) {
    std::string err = Errno();
    unlink(tmp.c_str());
    return Status::IOError(path + ": rename failed: " + err);
  }
  int dfd = open(DirName(path).c_str(), O_RDONLY | O_DIRECTORY);
  if (dfd >= 0) {
    fsync(dfd);
    close(dfd);
  }
  return Status::Ok();
}

FileLock::~FileLock() {
  if (fd_ >= 0) {
    flock(fd_, LOCK_UN);
    close(fd_);
  }
}

Status FileLock::Acquire(const std::string& path, int timeout_ms) {
  std::string lock = path + ".lock";
  fd_ = open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) return Status::IOError(lock + ": cannot open lock file: " + Errno());
  for (int waited = 0;; waited += 50) {
    if (flock(fd_, LOCK_EX | LOCK_NB) == 0) return Status::Ok();
    if (errno != EWOULDBLOCK || waited >= timeout_ms) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  close(fd_);
  fd_ = -1;
  return Status::Timeout(lock + ": another moelog holds the lock");
}

}  // namespace moelog::logbook
