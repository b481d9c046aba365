// A CommonMark + GFM-tables parse of a document into a flat, owned tree with
// source positions. This is the only interface to cmark-gfm: callers never
// see cmark types, and the cmark tree is freed before ParseMarkdown returns.
//
// The tree is built for speed on large logbooks: nodes sit in one array in
// document (pre-)order, so a node's descendants are the contiguous range
// (i, subtree_end); texts are views into a few large blocks and child lists
// are views into one index array, all owned by the MdDocument.
#ifndef MOELOG_LOGBOOK_MARKDOWN_H_
#define MOELOG_LOGBOOK_MARKDOWN_H_

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace moelog::logbook {

enum class MdKind {
  kDocument, kBlockQuote, kList, kItem, kCodeBlock, kHtmlBlock, kParagraph, kHeading,
  kThematicBreak, kTable, kTableRow, kTableCell, kText, kSoftBreak, kLineBreak, kCode,
  kHtmlInline, kEmph, kStrong, kLink, kImage, kOther,
};

// One node. Lines are 1-based. end_line is normalized to the last line that
// holds the node's text (cmark reports "next line, column 0" for some blocks).
// Inline nodes on continuation lines may carry 0 positions (softbreaks).
struct MdNode {
  MdKind kind = MdKind::kOther;
  int start_line = 0, start_col = 0, end_line = 0, end_col = 0;
  int level = 0;            // heading level (1..6)
  bool ordered = false;     // list: ordered (numbered)
  int list_start = 0;       // list: first number of an ordered list
  bool fenced = false;      // code block: fenced (``` or ~~~)
  bool header_row = false;  // table row: the header row
  std::string_view info;     // code block: fence info string ("bash")
  std::string_view literal;  // text, code span, code block and HTML contents
  int parent = -1;
  int subtree_end = 0;          // one past the node's last descendant
  std::span<const int> children;  // indices into MdDocument::nodes, in order
};

// Owns the nodes and the storage their views point into. Move-only: a copy
// would leave the views pointing into the original.
struct MdDocument {
  MdDocument() = default;
  MdDocument(MdDocument&&) = default;
  MdDocument& operator=(MdDocument&&) = default;
  MdDocument(const MdDocument&) = delete;
  MdDocument& operator=(const MdDocument&) = delete;

  std::vector<MdNode> nodes;  // nodes[0] is the document
  // True when nesting beyond kMaxDepth was dropped (pathological input).
  bool depth_limited = false;
  static constexpr int kMaxDepth = 48;
  const MdNode& root() const { return nodes[0]; }

  // Storage behind MdNode::children and the string views (chunks never move).
  std::vector<int> child_ids;
  std::vector<std::unique_ptr<char[]>> text_chunks;
};

// Parses `text` (any bytes; never fails, never crashes) with the GFM table
// extension attached. `lines` is SplitLines(text), when the caller has it.
// Safe to call from several threads; the parses take turns, because
// cmark-gfm's arena allocator is one per process.
MdDocument ParseMarkdown(std::string_view text);
MdDocument ParseMarkdown(std::string_view text, const std::vector<std::string_view>& lines);

// Whether emphasis node `node` stands between digits, `before` ending in
// one ("4096*4096*2": cmark reads the middle factor as emphasis): the
// signs of a product, kept in the text.
bool ProductSign(const MdDocument& doc, int node, const std::string& before);
// Appends the inline text of `node` (see InlineText) to `out`.
void AppendInlineText(const MdDocument& doc, int node, std::string* out);

// The inline text of a node: text and code-span contents concatenated, code
// spans wrapped in backticks, soft/hard breaks as one space.
std::string InlineText(const MdDocument& doc, int node);

// The first paragraph child of a list item (or -1).
int FirstParagraph(const MdDocument& doc, int item);

// A heading as the parse sees it (never one inside a fence or HTML block).
struct MdHeading {
  int line = 0;
  int level = 0;
  std::string text;  // inline text
};
std::vector<MdHeading> Headings(const MdDocument& doc);

// Splits `text` into lines without their terminators ("\n" or "\r\n"). A
// final line without a newline is included; an empty text gives no lines.
std::vector<std::string_view> SplitLines(std::string_view text);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_MARKDOWN_H_
