// The cmark-gfm wrapper. cmark objects live only inside ParseMarkdown, held
// by unique_ptr deleters; the tree is walked with cmark's iterator so that
// deeply nested input cannot exhaust the stack.
#include "logbook/markdown.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>

#include <cstring>
#include <memory>
#include <mutex>

namespace moelog::logbook {
namespace {

struct ParserDeleter {
  void operator()(cmark_parser* p) const { cmark_parser_free(p); }
};
struct NodeDeleter {
  void operator()(cmark_node* n) const { cmark_node_free(n); }
};
struct IterDeleter {
  void operator()(cmark_iter* i) const { cmark_iter_free(i); }
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

MdNode Convert(cmark_node* n, const std::vector<std::string_view>& lines) {
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
      if (const char* info = cmark_node_get_fence_info(n)) out.info = info;
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
      out.kind == MdKind::kHtmlBlock || out.kind == MdKind::kHtmlInline) {
    if (const char* lit = cmark_node_get_literal(n)) out.literal = lit;
  }
  return out;
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

bool HasLoneCarriageReturn(std::string_view text) {
  for (size_t i = text.find('\r'); i != std::string_view::npos; i = text.find('\r', i + 1))
    if (i + 1 == text.size() || text[i + 1] != '\n') return true;
  return false;
}

}  // namespace

MdDocument ParseMarkdown(std::string_view text) {
  EnsureExtensions();
  MdDocument doc;
  const auto lines = SplitLines(text);
  std::unique_ptr<cmark_parser, ParserDeleter> parser(cmark_parser_new(CMARK_OPT_DEFAULT));
  if (cmark_syntax_extension* table = cmark_find_syntax_extension("table"))
    cmark_parser_attach_syntax_extension(parser.get(), table);
  // cmark ends a line at a lone '\r' too; moelog's line numbers (SplitLines)
  // only at '\n'. A lone CR is treated as an ordinary character so both agree.
  std::string cr_free;
  if (HasLoneCarriageReturn(text)) {
    cr_free.assign(text);
    for (size_t i = 0; i < cr_free.size(); ++i)
      if (cr_free[i] == '\r' && (i + 1 == cr_free.size() || cr_free[i + 1] != '\n')) cr_free[i] = ' ';
    text = cr_free;
  }
  cmark_parser_feed(parser.get(), text.data(), text.size());
  std::unique_ptr<cmark_node, NodeDeleter> root(cmark_parser_finish(parser.get()));
  if (!root) {
    MdNode d;
    d.kind = MdKind::kDocument;
    doc.nodes.push_back(d);
    return doc;
  }
  {
    // One cheap counting pass first, so the node array is allocated once.
    std::unique_ptr<cmark_iter, IterDeleter> counter(cmark_iter_new(root.get()));
    size_t count = 0;
    for (cmark_event_type e; (e = cmark_iter_next(counter.get())) != CMARK_EVENT_DONE;)
      count += e == CMARK_EVENT_ENTER;
    doc.nodes.reserve(count + 1);
  }
  std::unique_ptr<cmark_iter, IterDeleter> iter(cmark_iter_new(root.get()));
  std::vector<int> stack;  // indices of open containers
  int skipped_depth = 0;   // containers entered beyond kMaxDepth
  cmark_event_type ev;
  while ((ev = cmark_iter_next(iter.get())) != CMARK_EVENT_DONE) {
    cmark_node* n = cmark_iter_get_node(iter.get());
    const bool container = !IsLeaf(n);
    if (ev == CMARK_EVENT_EXIT) {
      if (skipped_depth > 0) --skipped_depth;
      else if (!stack.empty()) stack.pop_back();
      continue;
    }
    if (skipped_depth > 0 || static_cast<int>(stack.size()) >= MdDocument::kMaxDepth) {
      doc.depth_limited = true;
      if (container) ++skipped_depth;
      continue;
    }
    MdNode node = Convert(n, lines);
    const int idx = static_cast<int>(doc.nodes.size());
    if (!stack.empty()) {
      node.parent = stack.back();
      doc.nodes[stack.back()].children.push_back(idx);
    }
    doc.nodes.push_back(std::move(node));
    if (container) stack.push_back(idx);
  }
  if (doc.nodes.empty()) {
    MdNode d;
    d.kind = MdKind::kDocument;
    doc.nodes.push_back(d);
  }
  return doc;
}

std::string InlineText(const MdDocument& doc, int node) {
  std::string out;
  std::vector<int> stack{node};
  // Pre-order walk with an explicit stack (children pushed in reverse).
  while (!stack.empty()) {
    const int i = stack.back();
    stack.pop_back();
    const MdNode& n = doc.nodes[i];
    switch (n.kind) {
      case MdKind::kText: out += n.literal; break;
      case MdKind::kCode: out += '`' + n.literal + '`'; break;
      case MdKind::kSoftBreak: case MdKind::kLineBreak: out += ' '; break;
      case MdKind::kHtmlInline: out += n.literal; break;
      default: break;
    }
    for (auto it = n.children.rbegin(); it != n.children.rend(); ++it) stack.push_back(*it);
  }
  return out;
}

int FirstParagraph(const MdDocument& doc, int item) {
  for (int c : doc.nodes[item].children)
    if (doc.nodes[c].kind == MdKind::kParagraph) return c;
  return -1;
}

}  // namespace moelog::logbook
