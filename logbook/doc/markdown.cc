// The cmark-gfm wrapper. cmark objects live only inside ParseMarkdown, in
// cmark's arena, released together when the parse is converted; the tree is
// walked with cmark's iterator so that deeply nested input cannot exhaust the
// stack.
#include "logbook/doc/markdown.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace moelog::logbook {
namespace {

// cmark-gfm's arena allocator: every allocation of a parse comes from a few
// large slabs, and the whole tree is released at once by cmark_arena_reset()
// instead of node by node. The arena is one per process, so parses take turns.
std::mutex g_arena_mu;

class ArenaParse {
 public:
  ArenaParse() : lock_(g_arena_mu) {}
  ~ArenaParse() { cmark_arena_reset(); }  // frees the parser, the tree and iterators
  ArenaParse(const ArenaParse&) = delete;
  ArenaParse& operator=(const ArenaParse&) = delete;

 private:
  std::lock_guard<std::mutex> lock_;
};

void EnsureExtensions() {
  static std::once_flag once;
  std::call_once(once, [] { cmark_gfm_core_extensions_ensure_registered(); });
}

MdKind KindOf(cmark_node* n) {
  switch (cmark_node_get_type(n)) {
    case CMARK_NODE_DOCUMENT: return MdKind::kDocument;
    case CMARK_NODE_BLOCK_QUOTE: return MdKind::kBlockQuote;
    case CMARK_NODE_LIST: return MdKind::kList;
    case CMARK_NODE_ITEM: return MdKind::kItem;
    case CMARK_NODE_CODE_BLOCK: return MdKind::kCodeBlock;
    case CMARK_NODE_HTML_BLOCK: return MdKind::kHtmlBlock;
    case CMARK_NODE_PARAGRAPH: return MdKind::kParagraph;
    case CMARK_NODE_HEADING: return MdKind::kHeading;
    case CMARK_NODE_THEMATIC_BREAK: return MdKind::kThematicBreak;
    case CMARK_NODE_TEXT: return MdKind::kText;
    case CMARK_NODE_SOFTBREAK: return MdKind::kSoftBreak;
    case CMARK_NODE_LINEBREAK: return MdKind::kLineBreak;
    case CMARK_NODE_CODE: return MdKind::kCode;
    case CMARK_NODE_HTML_INLINE: return MdKind::kHtmlInline;
    case CMARK_NODE_EMPH: return MdKind::kEmph;
    case CMARK_NODE_STRONG: return MdKind::kStrong;
    case CMARK_NODE_LINK: return MdKind::kLink;
    case CMARK_NODE_IMAGE: return MdKind::kImage;
    default: break;
  }
  const char* t = cmark_node_get_type_string(n);
  if (t == nullptr) return MdKind::kOther;
  if (!std::strcmp(t, "table")) return MdKind::kTable;
  if (!std::strcmp(t, "table_header") || !std::strcmp(t, "table_row")) return MdKind::kTableRow;
  if (!std::strcmp(t, "table_cell")) return MdKind::kTableCell;
  return MdKind::kOther;
}

bool IsBlank(std::string_view line) {
  for (char c : line)
    if (c != ' ' && c != '\t' && c != '\r') return false;
  return true;
}

bool IsBlock(MdKind k) {
  switch (k) {
    case MdKind::kText: case MdKind::kSoftBreak: case MdKind::kLineBreak: case MdKind::kCode:
    case MdKind::kHtmlInline: case MdKind::kEmph: case MdKind::kStrong: case MdKind::kLink:
    case MdKind::kImage:
      return false;
    default:
      return true;
  }
}

// Matches cmark's iterator: leaves get an ENTER event only.
bool IsLeaf(cmark_node* n) {
  switch (cmark_node_get_type(n)) {
    case CMARK_NODE_HTML_BLOCK: case CMARK_NODE_THEMATIC_BREAK: case CMARK_NODE_CODE_BLOCK:
    case CMARK_NODE_TEXT: case CMARK_NODE_SOFTBREAK: case CMARK_NODE_LINEBREAK: case CMARK_NODE_CODE:
    case CMARK_NODE_HTML_INLINE: case CMARK_NODE_FOOTNOTE_REFERENCE:
      return true;
    default:
      return false;
  }
}

// Copies cmark's strings (freed with its tree) into chunks owned by the
// document, so nodes can hold views.
class TextArena {
 public:
  explicit TextArena(std::vector<std::unique_ptr<char[]>>* chunks) : chunks_(chunks) {}
  std::string_view Copy(const char* s) {
    if (s == nullptr) return {};
    const size_t n = std::strlen(s);
    if (n == 0) return {};
    if (n > left_) {
      const size_t size = std::max(n, kChunk);
      chunks_->push_back(std::make_unique_for_overwrite<char[]>(size));
      next_ = chunks_->back().get();
      left_ = size;
    }
    std::memcpy(next_, s, n);
    std::string_view out(next_, n);
    next_ += n;
    left_ -= n;
    return out;
  }

 private:
  static constexpr size_t kChunk = 256 * 1024;
  std::vector<std::unique_ptr<char[]>>* chunks_;
  char* next_ = nullptr;
  size_t left_ = 0;
};

MdNode Convert(cmark_node* n, std::span<const std::string_view> lines, TextArena* arena) {
  MdNode out;
  out.kind = KindOf(n);
  out.start_line = cmark_node_get_start_line(n);
  out.start_col = cmark_node_get_start_column(n);
  out.end_line = cmark_node_get_end_line(n);
  out.end_col = cmark_node_get_end_column(n);
  if (IsBlock(out.kind) && out.start_line > 0) {
    // cmark reports "next line, column 0" for some blocks; normalize to the
    // last non-blank line the block covers.
    if (out.end_col == 0 && out.end_line > out.start_line) --out.end_line;
    if (out.end_line > static_cast<int>(lines.size())) out.end_line = static_cast<int>(lines.size());
    while (out.end_line > out.start_line && IsBlank(lines[out.end_line - 1])) --out.end_line;
    if (out.end_line < out.start_line) out.end_line = out.start_line;
  }
  // A setext heading of several lines ("==== Benchmark Result ====", the
  // printed lines, then a rule of '=') is pasted output, not a heading: a
  // paragraph of those lines.
  if (out.kind == MdKind::kHeading && out.end_line - out.start_line >= 2) out.kind = MdKind::kParagraph;
  switch (out.kind) {
    case MdKind::kHeading: out.level = cmark_node_get_heading_level(n); break;
    case MdKind::kList:
      out.ordered = cmark_node_get_list_type(n) == CMARK_ORDERED_LIST;
      out.list_start = cmark_node_get_list_start(n);
      break;
    case MdKind::kCodeBlock: {
      int len = 0, off = 0;
      char ch = 0;
      out.fenced = cmark_node_get_fenced(n, &len, &off, &ch) != 0;
      out.info = arena->Copy(cmark_node_get_fence_info(n));
      break;
    }
    case MdKind::kTableRow: {
      const char* t = cmark_node_get_type_string(n);
      out.header_row = t != nullptr && !std::strcmp(t, "table_header");
      break;
    }
    default: break;
  }
  if (out.kind == MdKind::kText || out.kind == MdKind::kCode || out.kind == MdKind::kCodeBlock ||
      out.kind == MdKind::kHtmlBlock || out.kind == MdKind::kHtmlInline)
    out.literal = arena->Copy(cmark_node_get_literal(n));
  return out;
}

// Fills child_ids and every node's `children` view from the parent links.
// Nodes are in pre-order, so a parent's children appear in index order.
void LinkChildren(MdDocument* doc) {
  const size_t n = doc->nodes.size();
  std::vector<int> offset(n + 1, 0);
  for (size_t i = 0; i < n; ++i)
    if (const int p = doc->nodes[i].parent; p >= 0) ++offset[static_cast<size_t>(p) + 1];
  for (size_t i = 0; i < n; ++i) offset[i + 1] += offset[i];
  doc->child_ids.assign(static_cast<size_t>(offset[n]), 0);
  std::vector<int> fill(offset.begin(), offset.end() - 1);
  for (size_t i = 0; i < n; ++i)
    if (const int p = doc->nodes[i].parent; p >= 0)
      doc->child_ids[static_cast<size_t>(fill[static_cast<size_t>(p)]++)] = static_cast<int>(i);
  const int* base = doc->child_ids.data();
  for (size_t i = 0; i < n; ++i)
    doc->nodes[i].children = std::span<const int>(base + offset[i], static_cast<size_t>(offset[i + 1] - offset[i]));
}

}  // namespace

std::vector<std::string_view> SplitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    size_t end = nl == std::string_view::npos ? text.size() : nl;
    size_t stop = end;
    if (stop > pos && text[stop - 1] == '\r') --stop;
    lines.push_back(text.substr(pos, stop - pos));
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  return lines;
}

namespace {

// cmark-gfm's table extension appends each cell of a row to a list it walks
// to the end: a row of n cells costs n^2 steps. A line with more '|' than
// this is no table row moelog reads (no logbook writes such a table): its
// '|' reach cmark as spaces, so the parse stays linear (offsets unchanged).
constexpr size_t kMaxTableCells = 128;

// `text` with the '|' of each line holding more than kMaxTableCells of them
// blanked; nullopt when no line does. One pass.
std::optional<std::string> WithoutHugeRows(std::string_view text) {
  std::optional<std::string> out;
  for (size_t pos = 0; pos < text.size();) {
    const size_t nl = std::min(text.find('\n', pos), text.size());
    const std::string_view line = text.substr(pos, nl - pos);
    if (static_cast<size_t>(std::count(line.begin(), line.end(), '|')) > kMaxTableCells) {
      if (!out) out.emplace(text);
      std::replace(out->begin() + static_cast<long>(pos), out->begin() + static_cast<long>(nl), '|', ' ');
    }
    pos = nl + 1;
  }
  return out;
}

bool HasLoneCarriageReturn(std::string_view text) {
  for (size_t i = text.find('\r'); i != std::string_view::npos; i = text.find('\r', i + 1))
    if (i + 1 == text.size() || text[i + 1] != '\n') return true;
  return false;
}

// Parses `text` into nodes (children not linked yet). `lines` are its lines;
// `text` has no lone CR.
MdDocument ParseWhole(std::string_view text, std::span<const std::string_view> lines) {
  EnsureExtensions();
  MdDocument doc;
  const ArenaParse arena_scope;
  cmark_node* root = nullptr;
  if (cmark_parser* parser = cmark_parser_new_with_mem(CMARK_OPT_DEFAULT, cmark_get_arena_mem_allocator())) {
    if (cmark_syntax_extension* table = cmark_find_syntax_extension("table"))
      cmark_parser_attach_syntax_extension(parser, table);
    cmark_parser_feed(parser, text.data(), text.size());
    root = cmark_parser_finish(parser);
  }
  TextArena arena(&doc.text_chunks);
  if (root) {
    doc.nodes.reserve(text.size() / 12 + 16);
    cmark_iter* iter = cmark_iter_new(root);
    std::vector<int> stack;  // indices of open containers
    int skipped_depth = 0;   // containers entered beyond kMaxDepth
    cmark_event_type ev;
    while ((ev = cmark_iter_next(iter)) != CMARK_EVENT_DONE) {
      cmark_node* n = cmark_iter_get_node(iter);
      if (ev == CMARK_EVENT_EXIT) {
        if (skipped_depth > 0) {
          --skipped_depth;
        } else if (!stack.empty()) {
          doc.nodes[static_cast<size_t>(stack.back())].subtree_end = static_cast<int>(doc.nodes.size());
          stack.pop_back();
        }
        continue;
      }
      const bool container = !IsLeaf(n);
      if (skipped_depth > 0 || static_cast<int>(stack.size()) >= MdDocument::kMaxDepth) {
        doc.depth_limited = true;
        if (container) ++skipped_depth;
        continue;
      }
      const int idx = static_cast<int>(doc.nodes.size());
      doc.nodes.push_back(Convert(n, lines, &arena));
      MdNode& node = doc.nodes.back();
      node.parent = stack.empty() ? -1 : stack.back();
      node.subtree_end = idx + 1;
      if (container) stack.push_back(idx);
    }
  }
  if (doc.nodes.empty()) {
    MdNode d;
    d.kind = MdKind::kDocument;
    d.subtree_end = 1;
    doc.nodes.push_back(d);
  }
  return doc;
}

// A GFM table's delimiter row ("|---|:--:|"), inside list or quote marks.
bool IsDelimiterRow(std::string_view line) {
  size_t p = 0;
  while (p < line.size() && (line[p] == ' ' || line[p] == '\t' || line[p] == '>')) ++p;
  bool dash = false;
  for (; p < line.size(); ++p) {
    if (line[p] == '-') dash = true;
    else if (line[p] != '|' && line[p] != ':' && line[p] != ' ' && line[p] != '\t' && line[p] != '\r') return false;
  }
  return dash;
}

// A table written right below a paragraph's last line takes that line as
// its header; cmark-gfm then reports the rest of the paragraph at line 0
// and the table from the paragraph's first line. Both get their source
// lines back: the header is the line above the table's delimiter row.
void RepairInterruptedParagraphs(MdDocument* doc, std::span<const std::string_view> lines) {
  for (const MdNode& parent : doc->nodes)
    for (size_t c = 0; c + 1 < parent.children.size(); ++c) {
      MdNode& para = doc->nodes[static_cast<size_t>(parent.children[c])];
      MdNode& table = doc->nodes[static_cast<size_t>(parent.children[c + 1])];
      if (para.kind != MdKind::kParagraph || para.start_line != 0 || table.kind != MdKind::kTable ||
          table.start_line <= 0)
        continue;
      int header = 0;
      for (int k = table.start_line + 1; k <= table.end_line && k <= static_cast<int>(lines.size()); ++k)
        if (IsDelimiterRow(lines[static_cast<size_t>(k - 1)])) {
          header = k - 1;
          break;
        }
      if (header <= table.start_line) continue;
      para.start_line = table.start_line;
      para.end_line = header - 1;
      table.start_line = header;
      for (int r : table.children)
        if (MdNode& row = doc->nodes[static_cast<size_t>(r)]; row.kind == MdKind::kTableRow && row.header_row)
          row.start_line = row.end_line = header;
    }
}

}  // namespace

std::vector<MdHeading> Headings(const MdDocument& doc) {
  std::vector<MdHeading> out;
  for (size_t i = 0; i < doc.nodes.size(); ++i)
    if (doc.nodes[i].kind == MdKind::kHeading)
      out.push_back({doc.nodes[i].start_line, doc.nodes[i].level, InlineText(doc, static_cast<int>(i))});
  return out;
}

MdDocument ParseMarkdown(std::string_view text) { return ParseMarkdown(text, SplitLines(text)); }

MdDocument ParseMarkdown(std::string_view text, const std::vector<std::string_view>& lines) {
  // cmark ends a line at a lone '\r' too; moelog's line numbers (SplitLines)
  // only at '\n'. A lone CR is treated as an ordinary character so both agree.
  std::string cr_free;
  if (HasLoneCarriageReturn(text)) {
    cr_free.assign(text);
    for (size_t i = 0; i < cr_free.size(); ++i)
      if (cr_free[i] == '\r' && (i + 1 == cr_free.size() || cr_free[i + 1] != '\n')) cr_free[i] = ' ';
    text = cr_free;
  }
  const std::optional<std::string> narrow = WithoutHugeRows(text);
  if (narrow) text = *narrow;
  MdDocument doc = ParseWhole(text, lines);
  LinkChildren(&doc);
  RepairInterruptedParagraphs(&doc, lines);
  return doc;
}

bool ProductSign(const MdDocument& doc, int node, const std::string& before) {
  const MdNode& n = doc.nodes[static_cast<size_t>(node)];
  if (n.kind != MdKind::kEmph || before.empty() || !std::isdigit(static_cast<unsigned char>(before.back()))) return false;
  const std::string inner = InlineText(doc, node);
  if (inner.empty() || !std::all_of(inner.begin(), inner.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == '.'; }))
    return false;
  const size_t next = static_cast<size_t>(n.subtree_end);
  return next < doc.nodes.size() && doc.nodes[next].kind == MdKind::kText && !doc.nodes[next].literal.empty() &&
         std::isdigit(static_cast<unsigned char>(doc.nodes[next].literal[0]));
}

void AppendInlineText(const MdDocument& doc, int node, std::string* out) {
  // Pre-order over the node's subtree, which is a contiguous index range.
  const int end = doc.nodes[static_cast<size_t>(node)].subtree_end;
  std::vector<int> closes;  // where a product's emphasis ends: its second sign goes there
  for (int i = node; i < end; ++i) {
    for (; !closes.empty() && closes.back() == i; closes.pop_back()) out->push_back('*');
    const MdNode& n = doc.nodes[static_cast<size_t>(i)];
    if (n.kind == MdKind::kEmph && ProductSign(doc, i, *out)) out->push_back('*'), closes.push_back(n.subtree_end);
    switch (n.kind) {
      case MdKind::kText: case MdKind::kHtmlInline: out->append(n.literal); break;
      case MdKind::kCode:
        out->push_back('`');
        out->append(n.literal);
        out->push_back('`');
        break;
      case MdKind::kSoftBreak: case MdKind::kLineBreak: out->push_back(' '); break;
      default: break;
    }
  }
  for (; !closes.empty(); closes.pop_back()) out->push_back('*');
}

std::string InlineText(const MdDocument& doc, int node) {
  std::string out;
  AppendInlineText(doc, node, &out);
  return out;
}

int FirstParagraph(const MdDocument& doc, int item) {
  for (int c : doc.nodes[item].children)
    if (doc.nodes[c].kind == MdKind::kParagraph) return c;
  return -1;
}

}  // namespace moelog::logbook
