#pragma once
// SHA-256 content hashes (OpenSSL's EVP): cache keys, region and chart stamps.

#include <string>
#include <string_view>

namespace moelog::logbook {

// sha256 of bytes, lowercase hex (64 chars).
std::string Sha256Hex(std::string_view bytes);

}  // namespace moelog::logbook
