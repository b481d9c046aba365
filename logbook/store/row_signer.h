// Who made a stored run. Each row moelog stores is signed (HMAC-SHA256)
// with a key that belongs to this user: `$XDG_CONFIG_HOME/moelog/store.key`
// (default `~/.config/moelog/store.key`), 32 random bytes created once with
// mode 0600 -- the one file moelog keeps outside a document's folder. A row
// whose signature checks and whose host is this machine was made here by this
// user; every other row (a store received with a logbook, rows edited by
// hand, rows of another machine) is foreign.
#ifndef MOELOG_LOGBOOK_ROW_SIGNER_H_
#define MOELOG_LOGBOOK_ROW_SIGNER_H_

#include <string>
#include <vector>

#include "engine/status.h"

namespace moelog::logbook {

class RowSigner {
 public:
  // The signer of this process: the user's key, read or created on first use.
  // When the key cannot be read or created, signatures are empty and every
  // row is foreign; problem() says why (reported once by the store).
  static const RowSigner& Default();

  // A signer with the given key (tests), or without one (key empty).
  explicit RowSigner(std::string key, std::string host, std::string problem = "");

  bool available() const { return !key_.empty(); }
  const std::string& problem() const { return problem_; }
  const std::string& host() const { return host_; }

  // Hex HMAC-SHA256 of the fields (length-prefixed, so no two field lists
  // share a text); "" without a key.
  std::string Sign(const std::vector<std::string>& fields) const;
  // Whether `signature` is this key's signature of the fields (constant time).
  bool Verify(const std::vector<std::string>& fields, const std::string& signature) const;

 private:
  std::string key_;
  std::string host_;
  std::string problem_;
};

// Where the user's key lives: $XDG_CONFIG_HOME/moelog/store.key when that is
// an absolute path, else $HOME/.config/moelog/store.key; "" with neither.
std::string UserKeyPath();

// Reads the key at `path`, creating it (32 random bytes, mode 0600, its
// folder 0700) when missing. IOError when it is a link, not a regular file,
// not the user's own, readable by others, or not 32 bytes.
Result<std::string> LoadOrCreateKey(const std::string& path);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_ROW_SIGNER_H_
