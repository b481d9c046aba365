#include "logbook/store/sha256.h"

#include <openssl/evp.h>

#include <cstdio>
#include <cstdlib>

namespace moelog::logbook {

std::string Sha256Hex(std::string_view bytes) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  // EVP_Digest fails only when OpenSSL cannot allocate its context; a hash
  // that silently differs would break every cache key, so that is fatal.
  if (EVP_Digest(bytes.data(), bytes.size(), md, &len, EVP_sha256(), nullptr) != 1 || len != 32) {
    std::fputs("moelog: OpenSSL SHA-256 failed\n", stderr);
    std::abort();
  }
  static const char kHex[] = "0123456789abcdef";
  std::string out(64, '0');
  for (unsigned int i = 0; i < 32; ++i) {
    out[2 * i] = kHex[md[i] >> 4];
    out[2 * i + 1] = kHex[md[i] & 15];
  }
  return out;
}

}  // namespace moelog::logbook
