#include "logbook/store/row_signer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace moelog::logbook {
namespace {

constexpr size_t kKeyBytes = 32;

std::string Errno() { return std::strerror(errno); }

std::string ThisHost() {
  char host[256] = {0};
  if (::gethostname(host, sizeof(host) - 1) != 0) return "";
  return host;
}

std::string Hex(const unsigned char* p, size_t n) {
  static const char* kDigits = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    s += kDigits[p[i] >> 4];
    s += kDigits[p[i] & 15];
  }
  return s;
}

// Creates each missing folder of `dir` (mode 0700: the user's own).
Status MakeConfigDirs(const std::string& dir) {
  for (size_t pos = 1; pos <= dir.size(); ++pos) {
    if (pos != dir.size() && dir[pos] != '/') continue;
    const std::string part = dir.substr(0, pos);
    if (::mkdir(part.c_str(), 0700) != 0 && errno != EEXIST) return Status::IOError(part + ": cannot create: " + Errno());
  }
  return Status::Ok();
}

Result<std::string> ReadKey(int fd, const std::string& path) {
  struct stat st;
  if (::fstat(fd, &st) != 0) return Status::IOError(path + ": " + Errno());
  if (!S_ISREG(st.st_mode)) return Status::IOError(path + ": not a regular file");
  if (st.st_uid != ::geteuid()) return Status::IOError(path + ": not owned by this user");
  if ((st.st_mode & 077) != 0) return Status::IOError(path + ": readable by others (chmod 600 it, or remove it)");
  if (st.st_size != static_cast<off_t>(kKeyBytes))
    return Status::IOError(path + ": not a moelog key (" + std::to_string(st.st_size) + " bytes, expected 32)");
  std::string key(kKeyBytes, '\0');
  size_t got = 0;
  while (got < kKeyBytes) {
    const ssize_t n = ::read(fd, key.data() + got, kKeyBytes - got);
    if (n <= 0) return Status::IOError(path + ": read failed");
    got += static_cast<size_t>(n);
  }
  return key;
}

}  // namespace

std::string UserKeyPath() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  if (xdg && xdg[0] == '/') return std::string(xdg) + "/moelog/store.key";
  const char* home = std::getenv("HOME");
  if (home && home[0] == '/') return std::string(home) + "/.config/moelog/store.key";
  return "";
}

Result<std::string> LoadOrCreateKey(const std::string& path) {
  if (path.empty()) return Status::IOError("no HOME: the run-store key has no place");
  for (int attempt = 0; attempt < 2; ++attempt) {
    int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd >= 0) {
      auto key = ReadKey(fd, path);
      ::close(fd);
      return key;
    }
    if (errno == ELOOP) return Status::IOError(path + ": is a symbolic link; moelog's key is a regular file");
    if (errno != ENOENT) return Status::IOError(path + ": " + Errno());
    MOELOG_RETURN_IF_ERROR(MakeConfigDirs(path.substr(0, path.rfind('/'))));
    unsigned char bytes[kKeyBytes];
    if (RAND_bytes(bytes, sizeof bytes) != 1) return Status::IOError("no random bytes for the run-store key");
    fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
      if (errno == EEXIST) continue;  // another moelog made it first: read theirs
      return Status::IOError(path + ": cannot create: " + Errno());
    }
    const bool ok = ::write(fd, bytes, sizeof bytes) == static_cast<ssize_t>(sizeof bytes) && ::fsync(fd) == 0;
    ::close(fd);
    OPENSSL_cleanse(bytes, sizeof bytes);
    if (!ok) {
      ::unlink(path.c_str());
      return Status::IOError(path + ": cannot write the key: " + Errno());
    }
  }
  return Status::IOError(path + ": cannot read or create the key");
}

const RowSigner& RowSigner::Default() {
  static const RowSigner* signer = [] {
    const std::string path = UserKeyPath();
    auto key = LoadOrCreateKey(path);
    return key.ok() ? new RowSigner(*key, ThisHost())
                    : new RowSigner("", ThisHost(), key.status().message() +
                                                        "; runs are stored unsigned and count as foreign");
  }();
  return *signer;
}

RowSigner::RowSigner(std::string key, std::string host, std::string problem)
    : key_(std::move(key)), host_(std::move(host)), problem_(std::move(problem)) {}

std::string RowSigner::Sign(const std::vector<std::string>& fields) const {
  if (key_.empty()) return "";
  std::string text = "moelog-run-v1\n";
  for (const auto& f : fields) text += std::to_string(f.size()) + ":" + f + "\n";
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (!HMAC(EVP_sha256(), key_.data(), static_cast<int>(key_.size()), reinterpret_cast<const unsigned char*>(text.data()),
            text.size(), mac, &len))
    return "";
  return Hex(mac, len);
}

bool RowSigner::Verify(const std::vector<std::string>& fields, const std::string& signature) const {
  if (key_.empty() || signature.empty()) return false;
  const std::string want = Sign(fields);
  return want.size() == signature.size() && CRYPTO_memcmp(want.data(), signature.data(), want.size()) == 0;
}

}  // namespace moelog::logbook
