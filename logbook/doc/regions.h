// Owned regions: the only parts of a document moelog writes.
//
//   <!-- moelog:begin id=<ID> hash=<content hash> -->
//   ...contents...
//   <!-- moelog:end -->
//
// The hash covers the exact bytes between the two marker lines, so a region
// edited by hand is detected (hash mismatch) and not overwritten without
// --force. Splicing rewrites region contents (and inserts new regions) while
// every byte outside regions stays identical. Markers inside fenced code
// blocks are text, not markers.
#ifndef MOELOG_LOGBOOK_REGIONS_H_
#define MOELOG_LOGBOOK_REGIONS_H_

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/status.h"
#include "logbook/doc/document.h"

namespace moelog::logbook {

struct Region {
  std::string id;
  std::string hash;          // as written in the begin marker
  int begin_line = 0;        // line of the begin marker
  int end_line = 0;          // line of the end marker
  size_t begin_offset = 0;   // byte offset of the begin marker line
  size_t content_begin = 0;  // first byte after the begin marker line
  size_t content_end = 0;    // first byte of the end marker line
  size_t end_offset = 0;     // first byte after the end marker line
  std::string indent;        // leading whitespace of the begin marker line
  std::string content;       // bytes between the marker lines
  bool edited = false;       // RegionHash(content) != hash
};

struct RegionScan {
  std::vector<Region> regions;  // in document order, never nested
  // Nested, unterminated, stray end, missing id, duplicate id. When any is
  // present the document must not be rewritten.
  std::vector<Diagnostic> diagnostics;
  bool ok() const { return diagnostics.empty(); }
  // The first region of `id`, or nullptr: one hash lookup (an index built on
  // first use; change an ID only through Rename).
  const Region* Find(const std::string& id) const;
  void Rename(size_t i, const std::string& id);
  // Whether `line` lies in a region (markers included): a binary search.
  bool Holds(int line) const;

 private:
  mutable std::unordered_map<std::string, size_t> by_id_;
  mutable size_t indexed_ = static_cast<size_t>(-1);  // regions.size() when by_id_ was built
};

RegionScan FindRegions(std::string_view text, const std::string& file);

// 16 hex digits of FNV-1a(content): detects a hand edit, not an attacker.
std::string RegionHash(std::string_view content);

// A whole region (markers included) for `content`, every non-empty line
// prefixed with `indent`; ends with a newline. The hash is that of the
// indented contents, exactly as written.
std::string FormatRegion(const std::string& id, std::string_view content, const std::string& indent);

// One change: replace region `id` if it exists, else insert a new region
// after line `insert_after_line` (0 = at the top), preceded by a blank line
// when `blank_before`.
struct RegionEdit {
  std::string id;
  std::string content;       // unindented region contents (ends with '\n')
  std::string indent;
  int insert_after_line = 0;
  bool blank_before = false;
};

struct SpliceOptions {
  bool force = false;  // overwrite regions edited by hand
};

struct SpliceResult {
  std::string text;
  std::vector<std::string> changed;        // IDs whose region was written or inserted
  std::vector<std::string> kept_edited;    // IDs left alone because edited by hand
};

// Applies edits to `text`. REQUIRES: scan == FindRegions(text) and scan.ok().
// Bytes outside regions are copied unchanged; a region whose new text is
// identical is not counted as changed.
SpliceResult SpliceRegions(std::string_view text, const RegionScan& scan,
                           const std::vector<RegionEdit>& edits, const SpliceOptions& options);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_REGIONS_H_
