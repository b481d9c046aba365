#include "logbook/doc/regions.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>

#include "engine/format.h"

namespace moelog::logbook {
namespace {

constexpr std::string_view kBegin = "<!-- moelog:begin";
constexpr std::string_view kEnd = "<!-- moelog:end -->";

struct Line {
  size_t begin, end, next;  // [begin, end) without terminator; next = start of the next line
};

std::vector<Line> LinesOf(std::string_view text) {
  std::vector<Line> out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    size_t end = nl == std::string_view::npos ? text.size() : nl;
    size_t next = nl == std::string_view::npos ? text.size() : nl + 1;
    size_t stop = end;
    if (stop > pos && text[stop - 1] == '\r') --stop;
    out.push_back({pos, stop, next});
    pos = next;
  }
  return out;
}

std::string_view LStrip(std::string_view s) {
  size_t p = 0;
  while (p < s.size() && (s[p] == ' ' || s[p] == '\t')) ++p;
  return s.substr(p);
}

std::string_view RStrip(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// "id=X hash=Y -->" attributes.
std::string Attr(std::string_view s, std::string_view key) {
  size_t p = 0;
  while ((p = s.find(key, p)) != std::string_view::npos) {
    if ((p == 0 || s[p - 1] == ' ') && p + key.size() < s.size() && s[p + key.size()] == '=') {
      size_t v = p + key.size() + 1;
      size_t e = v;
      while (e < s.size() && s[e] != ' ' && s[e] != '\t' && !(s[e] == '-' && s.substr(e, 3) == "-->")) ++e;
      return std::string(s.substr(v, e - v));
    }
    p += key.size();
  }
  return "";
}

// The columns of white space a line starts with (a tab to the next stop of 4).
size_t IndentOf(std::string_view line) {
  size_t col = 0;
  for (char c : line) {
    if (c == ' ') ++col;
    else if (c == '\t') col += 4 - col % 4;
    else break;
  }
  return col;
}

// Where a line's text starts: after its indentation and, for a list item,
// its marker ("- item" -> 2, "  1. item" -> 5): what a fence below it may be
// indented by, plus three.
size_t ContentIndentOf(std::string_view line) {
  size_t p = 0;
  while (p < line.size() && (line[p] == ' ' || line[p] == '\t')) ++p;
  size_t m = p;
  if (m < line.size() && (line[m] == '-' || line[m] == '*' || line[m] == '+')) {
    ++m;
  } else {
    while (m < line.size() && m - p < 9 && std::isdigit(static_cast<unsigned char>(line[m]))) ++m;
    m = m > p && m < line.size() && (line[m] == '.' || line[m] == ')') ? m + 1 : p;
  }
  const size_t col = IndentOf(line);
  return m > p && m < line.size() && line[m] == ' ' ? col + (m - p) + 1 : col;
}

// Tracks fenced code blocks line by line (``` or ~~~, inside block quotes
// and list items too) so markers inside code are ignored. A fence opens
// indented at most three columns past where the text above it starts (its
// list item's text): indented further, the line is an indented code
// block's, as cmark reads it ("    ```Cs..." under a heading).
class FenceTracker {
 public:
  // Returns true when `line` is inside a fence or is a fence line.
  bool Step(std::string_view line) {
    std::string_view s = line;
    size_t p = 0;
    while (p < s.size() && (s[p] == ' ' || s[p] == '\t' || s[p] == '>')) ++p;
    s.remove_prefix(p);
    size_t n = 0;
    char c = s.empty() ? 0 : s[0];
    if (c == '`' || c == '~')
      while (n < s.size() && s[n] == c) ++n;
    if (open_ == 0) {
      const bool quoted = line.find('>') < p;
      if (n >= 3 && !(c == '`' && s.substr(n).find('`') != std::string_view::npos) &&
          (quoted || IndentOf(line) <= content_ + 3)) {
        open_ = c;
        len_ = n;
        return true;
      }
      if (!s.empty()) content_ = ContentIndentOf(line);
      return false;
    }
    if (c == open_ && n >= len_ && RStrip(s.substr(n)).empty()) open_ = 0;
    return true;
  }

 private:
  char open_ = 0;
  size_t len_ = 0;
  size_t content_ = 0;  // where the last line of text outside code starts
};

}  // namespace

const Region* RegionScan::Find(const std::string& id) const {
  if (indexed_ != regions.size()) {
    by_id_.clear();
    for (size_t i = 0; i < regions.size(); ++i) by_id_.emplace(regions[i].id, i);
    indexed_ = regions.size();
  }
  const auto it = by_id_.find(id);
  return it == by_id_.end() ? nullptr : &regions[it->second];
}

void RegionScan::Rename(size_t i, const std::string& id) {
  regions[i].id = id;
  indexed_ = static_cast<size_t>(-1);
}

bool RegionScan::Holds(int line) const {
  const auto it = std::upper_bound(regions.begin(), regions.end(), line,
                                   [](int l, const Region& r) { return l < r.begin_line; });
  return it != regions.begin() && line <= (it - 1)->end_line;
}

std::string RegionHash(std::string_view content) {
  // FNV-1a, 64 bits: a content fingerprint for edit detection, not security.
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : content) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return engine::Hex16(h);
}

RegionScan FindRegions(std::string_view text, const std::string& file) {
  RegionScan scan;
  const auto lines = LinesOf(text);
  FenceTracker fences;
  int open = -1;  // index into scan.regions of the open region
  std::map<std::string, int> seen;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string_view raw = text.substr(lines[i].begin, lines[i].end - lines[i].begin);
    const int line_no = static_cast<int>(i) + 1;
    if (fences.Step(raw)) continue;
    const std::string_view s = RStrip(LStrip(raw));
    if (s.substr(0, kBegin.size()) == kBegin) {
      if (open >= 0) {
        scan.diagnostics.push_back({file, line_no, "nested moelog region (the region opened at line " +
                                                       std::to_string(scan.regions[open].begin_line) +
                                                       " is not closed)"});
        scan.regions.pop_back();
        open = -1;
        continue;
      }
      Region r;
      r.id = Attr(s, "id");
      r.hash = Attr(s, "hash");
      r.begin_line = line_no;
      r.begin_offset = lines[i].begin;
      r.content_begin = lines[i].next;
      r.indent = std::string(raw.substr(0, raw.size() - LStrip(raw).size()));
      if (r.id.empty()) scan.diagnostics.push_back({file, line_no, "moelog region without id="});
      scan.regions.push_back(std::move(r));
      open = static_cast<int>(scan.regions.size()) - 1;
    } else if (s == kEnd) {
      if (open < 0) {
        scan.diagnostics.push_back({file, line_no, "<!-- moelog:end --> without a matching begin"});
        continue;
      }
      Region& r = scan.regions[open];
      r.end_line = line_no;
      r.content_end = lines[i].begin;
      r.end_offset = lines[i].next;
      r.content = std::string(text.substr(r.content_begin, r.content_end - r.content_begin));
      r.edited = RegionHash(r.content) != r.hash;
      auto [it, inserted] = seen.emplace(r.id, r.begin_line);
      if (!inserted && !r.id.empty())
        scan.diagnostics.push_back({file, r.begin_line, "duplicate moelog region id=" + r.id + " (first at line " +
                                                            std::to_string(it->second) + ")"});
      open = -1;
    }
  }
  if (open >= 0) {
    scan.diagnostics.push_back({file, scan.regions[open].begin_line, "moelog region is never closed (no <!-- moelog:end -->)"});
    scan.regions.pop_back();
  }
  return scan;
}

std::string FormatRegion(const std::string& id, std::string_view content, const std::string& indent) {
  std::string body;
  size_t pos = 0;
  while (pos < content.size()) {
    size_t nl = content.find('\n', pos);
    size_t end = nl == std::string_view::npos ? content.size() : nl;
    std::string_view l = content.substr(pos, end - pos);
    if (!l.empty()) body += indent;
    body.append(l);
    body += '\n';
    pos = end + 1;
  }
  return indent + "<!-- moelog:begin id=" + id + " hash=" + RegionHash(body) + " -->\n" + body + indent +
         "<!-- moelog:end -->\n";
}

SpliceResult SpliceRegions(std::string_view text, const RegionScan& scan, const std::vector<RegionEdit>& edits,
                           const SpliceOptions& options) {
  SpliceResult res;
  struct Op {
    size_t from, to;  // replaced byte range
    std::string with;
    std::string id;
  };
  std::vector<Op> ops;
  const auto lines = LinesOf(text);
  for (const auto& e : edits) {
    if (const Region* r = scan.Find(e.id)) {
      if (r->edited && !options.force) {
        res.kept_edited.push_back(e.id);
        continue;
      }
      std::string full = FormatRegion(e.id, e.content, r->indent);
      std::string_view old = text.substr(r->begin_offset, r->end_offset - r->begin_offset);
      // Keep the file's own final-newline state when the region ends the file.
      if (r->end_offset == text.size() && !old.empty() && old.back() != '\n') full.pop_back();
      if (old == full) continue;
      ops.push_back({r->begin_offset, r->end_offset, std::move(full), e.id});
    } else {
      const int after = std::clamp(e.insert_after_line, 0, static_cast<int>(lines.size()));
      size_t at = after == 0 ? 0 : lines[after - 1].next;
      std::string ins = FormatRegion(e.id, e.content, e.indent);
      if (e.blank_before) ins = "\n" + ins;
      // The previous line may lack a final newline (end of file).
      if (at > 0 && at == text.size() && text.back() != '\n') ins = "\n" + ins;
      ops.push_back({at, at, std::move(ins), e.id});
    }
  }
  // An insertion at the first byte of a replaced region goes before it (it
  // overlaps nothing); otherwise it would be dropped as an overlap below.
  std::stable_sort(ops.begin(), ops.end(), [](const Op& a, const Op& b) {
    return a.from != b.from ? a.from < b.from : (a.from == a.to && b.from != b.to);
  });
  size_t pos = 0;
  for (const auto& op : ops) {
    if (op.from < pos) continue;  // overlapping edits: the first wins
    res.text.append(text.substr(pos, op.from - pos));
    res.text += op.with;
    pos = op.to;
    res.changed.push_back(op.id);
  }
  res.text.append(text.substr(pos));
  return res;
}

}  // namespace moelog::logbook
