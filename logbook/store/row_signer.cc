#include "logbook/store/row_signer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <cerrno>
#include <cstdio>
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

// `path`'s key from the open `fd`; `file` is the file it is (the link's
// target when `path` is a symbolic link), named in the fix.
Result<std::string> ReadKey(int fd, const std::string& path, const std::string& file) {
  struct stat st;
  if (::fstat(fd, &st) != 0) return Status::IOError(path + ": " + Errno());
  if (!S_ISREG(st.st_mode)) return Status::IOError(path + ": not a regular file (remove it: a new key is made)");
  if (st.st_uid != ::geteuid())
    return Status::IOError(path + ": not owned by this user (remove it: a new key is made)");
  if ((st.st_mode & 077) != 0) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    return Status::IOError(path + ": mode " + mode + ", readable by others: `chmod 600 " + file + "`");
  }
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

// Writes 32 random bytes to a new file beside `path` and links it to `path`.
// False when `path` appeared meanwhile (its maker's key is kept).
Result<bool> WriteNewKey(const std::string& path) {
  unsigned char bytes[kKeyBytes];
  if (RAND_bytes(bytes, sizeof bytes) != 1) return Status::IOError("no random bytes for the run-store key");
  std::string tmp = path + ".XXXXXX";
  const int fd = ::mkostemp(tmp.data(), O_CLOEXEC);
  if (fd < 0) return Status::IOError(path + ": cannot create: " + Errno());
  const bool ok = ::fchmod(fd, 0600) == 0 &&
                  ::write(fd, bytes, sizeof bytes) == static_cast<ssize_t>(sizeof bytes) && ::fsync(fd) == 0;
  ::close(fd);
  OPENSSL_cleanse(bytes, sizeof bytes);
  const bool linked = ok && ::link(tmp.c_str(), path.c_str()) == 0;
  const int link_errno = errno;
  ::unlink(tmp.c_str());
  if (!ok) return Status::IOError(path + ": cannot write the key: " + Errno());
  if (linked) return true;
  if (link_errno == EEXIST) return false;
  return Status::IOError(path + ": cannot create: " + std::strerror(link_errno));
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
  if (path.empty()) return Status::IOError("has no place: neither XDG_CONFIG_HOME nor HOME is an absolute path (set HOME)");
  for (int attempt = 0; attempt < 2; ++attempt) {
    // A key kept in a dotfiles folder and linked into place (stow, chezmoi)
    // is used: the link is the user's and leads to a regular file of the
    // user's that no one else can read (ReadKey checks the file itself).
    struct stat link;
    const bool is_link = ::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode);
    if (is_link && link.st_uid != ::geteuid())
      return Status::IOError(path + ": a symbolic link not owned by this user (remove it: a new key is made)");
    std::string file = path;
    if (is_link) {
      char* real = ::realpath(path.c_str(), nullptr);
      if (!real) return Status::IOError(path + ": a symbolic link to nothing usable: " + Errno());
      file = real;
      std::free(real);
    }
    int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | (is_link ? 0 : O_NOFOLLOW));
    if (fd >= 0) {
      auto key = ReadKey(fd, path, file);
      ::close(fd);
      return key;
    }
    if (errno == ELOOP) return Status::IOError(path + ": a symbolic link appeared while it was read; try again");
    if (errno != ENOENT || is_link) return Status::IOError(path + ": " + Errno());
    MOELOG_RETURN_IF_ERROR(MakeConfigDirs(path.substr(0, path.rfind('/'))));
    // The key is written whole into a file of its own and then linked into
    // place, so a moelog starting beside this one reads either no key or the
    // whole key, never a half-written one.
    MOELOG_ASSIGN_OR_RETURN(const bool made, WriteNewKey(path));
    if (!made) continue;  // another moelog made it first: read theirs
  }
  return Status::IOError(path + ": cannot read or create the key");
}

const RowSigner& RowSigner::Default() {
  static const RowSigner* signer = [] {
    const std::string path = UserKeyPath();
    auto key = LoadOrCreateKey(path);
    return key.ok() ? new RowSigner(*key, ThisHost())
                    : new RowSigner("", ThisHost(), "the run-store key " + key.status().message() +
                                                        " (moelog signs each run it stores with it, and uses no "
                                                        "run it cannot check)");
  }();
  return *signer;
}

// HMAC-SHA256 (RFC 2104) on OpenSSL's digests: the inner and outer states
// after the padded key are made once per key, then copied for each row (a
// store read checks every row it serves).
struct RowSigner::Hmac {
  EVP_MD_CTX* inner = nullptr;
  EVP_MD_CTX* outer = nullptr;
  ~Hmac() {
    EVP_MD_CTX_free(inner);
    EVP_MD_CTX_free(outer);
  }
};

RowSigner::RowSigner(std::string key, std::string host, std::string problem)
    : key_(std::move(key)), host_(std::move(host)), problem_(std::move(problem)) {
  if (key_.empty()) return;
  auto h = std::make_shared<Hmac>();
  unsigned char block[64] = {0};
  if (key_.size() > sizeof block) {
    unsigned int n = 0;
    EVP_Digest(key_.data(), key_.size(), block, &n, EVP_sha256(), nullptr);
  } else {
    std::memcpy(block, key_.data(), key_.size());
  }
  unsigned char ipad[64], opad[64];
  for (size_t i = 0; i < 64; ++i) {
    ipad[i] = block[i] ^ 0x36;
    opad[i] = block[i] ^ 0x5c;
  }
  h->inner = EVP_MD_CTX_new();
  h->outer = EVP_MD_CTX_new();
  const bool ok = h->inner && h->outer && EVP_DigestInit_ex(h->inner, EVP_sha256(), nullptr) == 1 &&
                  EVP_DigestUpdate(h->inner, ipad, 64) == 1 &&
                  EVP_DigestInit_ex(h->outer, EVP_sha256(), nullptr) == 1 && EVP_DigestUpdate(h->outer, opad, 64) == 1;
  OPENSSL_cleanse(block, sizeof block);
  OPENSSL_cleanse(ipad, sizeof ipad);
  OPENSSL_cleanse(opad, sizeof opad);
  if (ok) hmac_ = std::move(h);
}

void RowSigner::AppendField(std::string* text, std::string_view field) {
  *text += std::to_string(field.size());
  *text += ':';
  text->append(field.data(), field.size());
  *text += '\n';
}

std::string RowSigner::SignText(std::string_view text) const {
  if (!hmac_) return "";
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  if (!ctx) return "";
  unsigned char inner[EVP_MAX_MD_SIZE], mac[EVP_MAX_MD_SIZE];
  unsigned int n = 0, m = 0;
  static constexpr std::string_view kDomain = "moelog-run-v1\n";
  const bool ok = EVP_MD_CTX_copy_ex(ctx, hmac_->inner) == 1 && EVP_DigestUpdate(ctx, kDomain.data(), kDomain.size()) == 1 &&
                  EVP_DigestUpdate(ctx, text.data(), text.size()) == 1 && EVP_DigestFinal_ex(ctx, inner, &n) == 1 &&
                  EVP_MD_CTX_copy_ex(ctx, hmac_->outer) == 1 && EVP_DigestUpdate(ctx, inner, n) == 1 &&
                  EVP_DigestFinal_ex(ctx, mac, &m) == 1;
  EVP_MD_CTX_free(ctx);
  return ok ? Hex(mac, m) : "";
}

bool RowSigner::VerifyText(std::string_view text, const std::string& signature) const {
  if (!hmac_ || signature.empty()) return false;
  const std::string want = SignText(text);
  return !want.empty() && want.size() == signature.size() &&
         CRYPTO_memcmp(want.data(), signature.data(), want.size()) == 0;
}

std::string RowSigner::Sign(const std::vector<std::string>& fields) const {
  std::string text;
  for (const auto& f : fields) AppendField(&text, f);
  return SignText(text);
}

bool RowSigner::Verify(const std::vector<std::string>& fields, const std::string& signature) const {
  std::string text;
  for (const auto& f : fields) AppendField(&text, f);
  return VerifyText(text, signature);
}

}  // namespace moelog::logbook
