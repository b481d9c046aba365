#include "logbook/doc/outline.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "logbook/doc/command_line.h"
#include "logbook/doc/parse_logbook.h"
#include "logbook/doc/printed_prose.h"
#include "logbook/reader/blocks.h"
#include "logbook/reader/blocks_dumps.h"
#include "logbook/text.h"

namespace moelog::logbook::parse_detail {

// A paragraph's text with where its source lines start, and the text of a
// bold or emphasized node that opens it (its lead). One pass over its nodes.
Paragraph BuildParagraph(const MdDocument& doc, int idx) {
  Paragraph p;
  const MdNode& n = doc.nodes[static_cast<size_t>(idx)];
  p.line = n.start_line;
  p.end_line = n.end_line;
  for (int i = idx + 1; i < n.subtree_end; ++i) {
    const MdNode& c = doc.nodes[static_cast<size_t>(i)];
    if (c.kind == MdKind::kSoftBreak || c.kind == MdKind::kLineBreak) {
      p.text.push_back(' ');
      p.line_starts.push_back(p.text.size());
      if (c.subtree_end < n.subtree_end && doc.nodes[static_cast<size_t>(c.subtree_end)].kind == MdKind::kStrong)
        p.bold_line_starts.push_back(p.text.size());  // "**After:** 3.02 ms" on a line of its own
    } else if ((c.kind == MdKind::kStrong || c.kind == MdKind::kEmph) && i == idx + 1) {
      p.lead = Trim(InlineText(doc, i));
      AppendInlineText(doc, i, &p.text);
      i = c.subtree_end - 1;
    } else if (c.kind == MdKind::kText || c.kind == MdKind::kHtmlInline || c.kind == MdKind::kCode ||
               ProductSign(doc, i, p.text)) {  // "4096*4096*2": a product's signs, no emphasis
      AppendInlineText(doc, i, &p.text);
      if (c.kind == MdKind::kEmph) i = c.subtree_end - 1;
    }
  }
  const size_t lead = p.text.find_first_not_of(' ');
  if (lead == std::string::npos) return Paragraph{};
  p.text.erase(0, lead);
  for (auto& b : p.line_starts) b = b > lead ? b - lead : 0;
  for (auto& b : p.bold_line_starts) b = b > lead ? b - lead : 0;
  // "**PPL**：12.94": a full-width colon reads as the ASCII one and a space,
  // so a field written in any script reads as it does in English.
  static const std::string kWideColon = "\xEF\xBC\x9A";
  for (size_t at = p.text.find(kWideColon); at != std::string::npos; at = p.text.find(kWideColon, at + 2)) {
    p.text.replace(at, kWideColon.size(), ": ");
    for (auto& b : p.line_starts) b = b > at ? b - 1 : b;
    for (auto& b : p.bold_line_starts) b = b > at ? b - 1 : b;
  }
  return p;
}

// A paragraph's text, one source line per line (soft breaks back).
std::string ParagraphLines(const Paragraph& p) {
  std::string out = p.text;
  for (auto it = p.line_starts.rbegin(); it != p.line_starts.rend(); ++it)
    if (*it > 0 && *it <= out.size() && out[*it - 1] == ' ') out[*it - 1] = '\n';
  return out;
}

namespace {

bool FenceHoldsRecord(std::string_view info, std::string_view text) {
  if (IsShellInfo(info) && (HasPrompt(text) || FirstLineIsCommand(text))) return true;
  return LooksLikeOutput(text);
}

// Printed lines pasted as a paragraph of three lines or more (a harness's
// "Name (unit):   value" report without a fence).
bool PastedOutput(const std::vector<std::string_view>& lines, const MdNode& n) {
  std::string text;
  for (int l = n.start_line; l <= n.end_line && l <= static_cast<int>(lines.size()) && l - n.start_line < 64; ++l) {
    text.append(lines[static_cast<size_t>(l - 1)]);
    text += '\n';
  }
  return LooksLikeOutput(text);
}

// "avg_step_ms=20.4027", "p50_us: 13.1": a figure whose unit ends its key.
bool KeyedFigure(std::string_view t) {
  for (size_t eq = t.find_first_of("=:"); eq != std::string_view::npos && eq < 4096; eq = t.find_first_of("=:", eq + 1)) {
    size_t v = eq + 1;
    while (v < t.size() && t[v] == ' ') ++v;
    size_t e = v;
    while (e < t.size() && (std::isdigit(static_cast<unsigned char>(t[e])) || t[e] == '.')) ++e;
    size_t end = eq;  // "step_avg_s = 20.18": blanks may stand around the sign
    while (end > 0 && t[end - 1] == ' ') --end;
    size_t k = end;
    while (k > 0 && (std::isalnum(static_cast<unsigned char>(t[k - 1])) || t[k - 1] == '/')) --k;
    if (e == v || k == end || k == 0 || t[k - 1] != '_') continue;
    if (StatesFigure(std::string(t.substr(v, e - v)) + " " + std::string(t.substr(k, end - k)))) return true;
  }
  return false;
}

// Which lines (1-based) lie inside moelog's own regions: their tables and
// bullets are moelog's output, never a record the logbook holds.
std::vector<bool> RegionLines(const std::vector<std::string_view>& lines) {
  std::vector<bool> in(lines.size() + 2, false);
  bool open = false;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].find("<!-- moelog:begin") != std::string_view::npos) open = true;
    in[i + 1] = open;
    if (lines[i].find("<!-- moelog:end") != std::string_view::npos) open = false;
  }
  return in;
}

// Whether the blocks units[from, to) hold a command or figures: what makes
// a heading an entry where no structure says.
bool HoldsRecord(const MdDocument& doc, const std::vector<std::string_view>& lines, const std::vector<bool>& region,
                 const std::vector<int>& kids, size_t from, size_t to) {
  auto inside = [&](const MdNode& n) {
    return n.start_line > 0 && static_cast<size_t>(n.start_line) < region.size() && region[static_cast<size_t>(n.start_line)];
  };
  for (size_t k = from; k < to && k < kids.size(); ++k) {
    const int idx = kids[k];
    const MdNode& n = doc.nodes[static_cast<size_t>(idx)];
    if (n.kind == MdKind::kHeading) break;
    if (inside(n)) continue;
    if (n.kind == MdKind::kTable) return true;
    for (int i = idx; i < n.subtree_end; ++i) {
      const MdNode& c = doc.nodes[static_cast<size_t>(i)];
      if (inside(c)) continue;
      if (c.kind == MdKind::kCodeBlock && FenceHoldsRecord(c.info, c.literal)) return true;
      if (c.kind == MdKind::kTable || HtmlTableNode(c)) return true;
      if (c.kind == MdKind::kCode && (LooksLikeCommandLine(c.literal) || !AfterPrompt(c.literal).empty())) return true;
      if (c.kind == MdKind::kCode && KeyedFigure(c.literal)) return true;
      if ((c.kind == MdKind::kParagraph || c.kind == MdKind::kTableCell) && StatesFigure(InlineText(doc, i))) return true;
      if (c.kind == MdKind::kParagraph && PrintedLines(ParagraphLines(BuildParagraph(doc, i)))) return true;
      if (c.kind == MdKind::kParagraph && c.end_line - c.start_line >= 2 && PastedOutput(lines, c)) return true;
    }
  }
  return false;
}

// Whether paragraph `n` ends in a dump of pairs (reader/figures_dumps.h):
// `0.01<TAB>1.3318` lines pasted from a sweep, after two lines of words at most.
bool DumpParagraph(const std::vector<std::string_view>& lines, const MdNode& n) {
  std::vector<std::pair<int, std::string>> own;
  for (int l = n.start_line; l <= n.end_line && l <= static_cast<int>(lines.size()) && l - n.start_line < 256; ++l)
    own.emplace_back(l, Trim(lines[static_cast<size_t>(l - 1)]));
  return reader::DumpAfterHead(own) != std::string::npos;
}

// Whether the blocks units[from, to) hold a table, a fenced command or
// output block, a dump of pairs, or a list of results (three items stating
// figures, in one list or lists split by a sentence): a record more than prose.
bool HoldsBlock(const MdDocument& doc, const std::vector<std::string_view>& lines, const std::vector<int>& kids,
                size_t from, size_t to) {
  int stating = 0;
  for (size_t k = from; k < to && k < kids.size(); ++k) {
    const int idx = kids[k];
    const MdNode& n = doc.nodes[static_cast<size_t>(idx)];
    if (n.kind == MdKind::kHeading) break;
    for (int i = idx; i < n.subtree_end; ++i) {
      const MdNode& c = doc.nodes[static_cast<size_t>(i)];
      if (c.kind == MdKind::kTable || HtmlTableNode(c) || (c.kind == MdKind::kCodeBlock && FenceHoldsRecord(c.info, c.literal)))
        return true;
      if (c.kind == MdKind::kParagraph && c.end_line - c.start_line >= 2 && DumpParagraph(lines, c)) return true;
    }
    if (n.kind == MdKind::kList && (stating += ItemsStatingFigures(doc, n)) >= 3) return true;
  }
  return false;
}


// The last line of YAML front matter ("---" on the first line up to the
// next "---" or "..."), or 0: its "key: value" lines are no heading.
int FrontMatterEnd(const std::vector<std::string_view>& lines) {
  if (lines.empty() || Trim(lines[0]) != "---") return 0;
  for (size_t i = 1; i < lines.size() && i < 200; ++i)
    if (const std::string t = Trim(lines[i]); t == "---" || t == "...") return static_cast<int>(i) + 1;
  return 0;
}

// A paragraph or a list item (its first paragraph) that opens with a date:
// the words that would head it as an entry, or "".
std::string LeadOf(const MdDocument& doc, int idx) {
  const MdNode& n = doc.nodes[static_cast<size_t>(idx)];
  if (n.kind == MdKind::kItem) {
    if (n.children.empty() || doc.nodes[static_cast<size_t>(n.children.front())].kind != MdKind::kParagraph) return "";
    idx = n.children.front();
  } else if (n.kind != MdKind::kParagraph) {
    return "";
  }
  const Paragraph p = BuildParagraph(doc, idx);
  const std::string_view first = std::string_view(p.text).substr(0, p.line_starts.empty() ? std::string::npos : p.line_starts.front());
  return DatedLead(Trim(first), p.lead);
}

// A paragraph or list item that may head an entry, in the part below
// heading `part` (-1: above every heading).
struct Lead {
  size_t kid = 0;  // its block's position among the root's children
  int node = 0;
  int part = -1;
  std::string text;
  // An entry's head by structure alone (a numbered section's or a label's
  // lead), holding the blocks after it; a dated item is an entry of its own text.
  bool entry = false;
};

// Whether the part below heading `part` may hold entries headed by dated
// paragraphs or items: neither its heading nor a heading below it (or, above
// every heading, any heading) is dated, and its heading names no part that
// recaps, plans or explains runs nor one of the logbook's own sections by
// its whole name (a `## Summary` of dated bullets restates the entries;
// reader/segment.h).
bool UndatedPart(const std::vector<OutlineHeading>& heads, int part) {
  if (part >= 0) {
    const std::string& name = heads[static_cast<size_t>(part)].text;
    // A short name reserved by its last word ("Legacy info") may still hold a log of dated paragraphs.
    if (IsRecapHeading(name) || IsPlanHeading(name) || IsExplanationHeading(name) || IsReservedByName(name)) return false;
  }
  const size_t from = part < 0 ? 0 : static_cast<size_t>(part);
  const int level = part < 0 ? 0 : heads[from].level;
  for (size_t k = from; k < heads.size(); ++k) {
    if (k > from && heads[k].level <= level) break;
    if (ReadHeading(heads[k].text).dated) return false;
  }
  return true;
}

// The paragraphs and list items that head entries: those opening with a
// date (DatedLead), two or more in one part, in a part that UndatedPart.
std::vector<Lead> DatedLeads(const MdDocument& doc, const std::vector<OutlineHeading>& heads,
                             const std::vector<size_t>& head_kid) {
  std::vector<Lead> found;
  const auto& kids = doc.root().children;
  for (size_t k = 0, h = 0; k < kids.size(); ++k) {
    while (h < head_kid.size() && head_kid[h] <= k) ++h;
    const int part = static_cast<int>(h) - 1;
    const MdNode& n = doc.nodes[static_cast<size_t>(kids[k])];
    if (n.kind == MdKind::kParagraph) {
      if (std::string t = LeadOf(doc, kids[k]); !t.empty()) found.push_back({k, kids[k], part, std::move(t)});
    } else if (n.kind == MdKind::kList) {
      for (int item : n.children)
        if (std::string t = LeadOf(doc, item); !t.empty()) found.push_back({k, item, part, std::move(t)});
    }
  }
  std::vector<Lead> out;
  for (size_t i = 0; i < found.size();) {
    size_t j = i;
    while (j < found.size() && found[j].part == found[i].part) ++j;
    if (j - i >= 2 && UndatedPart(heads, found[i].part)) out.insert(out.end(), found.begin() + static_cast<long>(i), found.begin() + static_cast<long>(j));
    i = j;
  }
  return out;
}

// A paragraph's or list item's first source line, and its paragraph node
// (-1 when it opens with none).
std::string FirstLine(const MdDocument& doc, int idx, int* para) {
  const MdNode& n = doc.nodes[static_cast<size_t>(idx)];
  *para = -1;
  if (n.kind == MdKind::kItem && !n.children.empty() &&
      doc.nodes[static_cast<size_t>(n.children.front())].kind == MdKind::kParagraph)
    *para = n.children.front();
  else if (n.kind == MdKind::kParagraph)
    *para = idx;
  if (*para < 0) return "";
  const Paragraph p = BuildParagraph(doc, *para);
  return p.text.substr(0, p.line_starts.empty() ? std::string::npos : p.line_starts.front());
}

// The numbered sections a block may open: a paragraph whose first line
// numbers it ("1 - Use BTreeMap:"), or each item of an ordered list
// ("1. After cuda graph, ..."), read from its source line; with its node.
std::vector<std::pair<int, NumberedLine>> NumberedBlocks(const MdDocument& doc, const std::vector<std::string_view>& lines,
                                                         int idx) {
  const MdNode& n = doc.nodes[static_cast<size_t>(idx)];
  std::vector<std::pair<int, NumberedLine>> out;
  if (n.kind == MdKind::kParagraph) {
    int para = -1;
    const std::string first = FirstLine(doc, idx, &para);
    // "1. x" opens no paragraph (it is a list); "1 - x", "1) x" do.
    if (const NumberedLine nl = ReadNumberedLine(first); nl.number > 0 && first.find(". ") != 1) out.emplace_back(idx, nl);
  } else if (n.kind == MdKind::kList) {
    for (const int item : n.children) {
      const int line = doc.nodes[static_cast<size_t>(item)].start_line;
      if (line < 1 || static_cast<size_t>(line) > lines.size()) break;
      const NumberedLine nl = ReadNumberedLine(lines[static_cast<size_t>(line) - 1]);
      if (nl.number == 0) break;
      out.emplace_back(item, nl);
    }
  }
  return out;
}

// A paragraph that is one bold span and nothing else, on one line, a few
// words ("**第一次**", "**--max_iters=100  val loss 4.6481**"): a heading
// written in bold; its words, else "".
std::string BoldAlone(const MdDocument& doc, int idx) {
  const MdNode& n = doc.nodes[static_cast<size_t>(idx)];
  if (n.kind != MdKind::kParagraph || n.start_line != n.end_line) return "";
  const Paragraph p = BuildParagraph(doc, idx);
  std::string lead = Trim(p.lead);
  if (lead.empty() || lead.size() > 100 || Trim(p.text) != lead) return "";
  while (!lead.empty() && (lead.back() == ':' || lead.back() == ' ')) lead.pop_back();
  return lead;
}

// A list item of one line naming a variant and the command that built or
// ran it ("- pipelined: `bash compile.sh NONE`", "* fused: `./bench --fuse`"):
// right over the variant's printouts it heads them, whatever its label.
bool CommandLead(const MdDocument& doc, const std::vector<std::string_view>& lines, int unit) {
  const MdNode& n = doc.nodes[static_cast<size_t>(unit)];
  if (n.kind != MdKind::kItem || n.start_line != n.end_line || n.start_line < 1 ||
      static_cast<size_t>(n.start_line) > lines.size())
    return false;
  std::string t = Trim(lines[static_cast<size_t>(n.start_line - 1)]);
  if (t.size() < 2 || (t[0] != '-' && t[0] != '*' && t[0] != '+') || t[1] != ' ') return false;
  t = Trim(t.substr(2));
  if (LeadLabel(t).empty()) return false;
  const std::string rest = Trim(t.substr(t.find(':') + 1));
  return rest.size() > 2 && rest.front() == '`' && rest.back() == '`' && rest.find('`', 1) == rest.size() - 1 &&
         LooksLikeCommandLine(rest.substr(1, rest.size() - 2));
}

// The leads of plain-text sections in parts with no dated leads (`dated`):
// paragraphs whose first lines number them 1, 2, 3 ... (three at least in
// a row: ReadNumberedLine), and paragraphs or list items led by one label
// that leads three at least right over a table or a fenced block (LeadLabel),
// and paragraphs written as a heading in bold alone (BoldAlone), three at
// least right over a table or a fenced block; items of a label and a
// command alone (CommandLead) count together, whatever their labels.
std::vector<Lead> PlainLeads(const MdDocument& doc, const std::vector<std::string_view>& lines,
                             const std::vector<OutlineHeading>& heads, const std::vector<size_t>& head_kid,
                             const std::vector<Lead>& dated) {
  const auto& kids = doc.root().children;
  std::vector<Lead> numbered, labelled;
  std::vector<std::string> labels;
  std::vector<bool> over_block;
  int next = 1;
  for (size_t k = 0, h = 0; k < kids.size(); ++k) {
    while (h < head_kid.size() && head_kid[h] <= k) ++h;
    const int part = static_cast<int>(h) - 1;
    if (std::any_of(dated.begin(), dated.end(), [part](const Lead& l) { return l.part == part; }) || !UndatedPart(heads, part))
      continue;
    const MdNode& n = doc.nodes[static_cast<size_t>(kids[k])];
    // "- device 0: ..." then "- pipelined: `bash compile.sh`" over a printout: the last item leads.
    const bool command = n.kind == MdKind::kList && !n.children.empty() && CommandLead(doc, lines, n.children.back());
    const int unit = n.kind == MdKind::kList && (n.children.size() == 1 || command) ? n.children.back() : kids[k];
    // The first run counting up from 1 in one part; a list of several items
    // only carries on a run of three or more (`6.` to `9.` after `5.`), never
    // starts one (a plain numbered list is no sections).
    const auto blocks = NumberedBlocks(doc, lines, kids[k]);
    for (const auto& [node, nl] : blocks) {
      if (nl.number == 1 && numbered.size() < 3 && blocks.size() == 1) numbered.assign(1, {k, node, part, nl.heading, true}), next = 2;
      else if (nl.number == next && !numbered.empty() && numbered.back().part == part && (blocks.size() == 1 || numbered.size() >= 3))
        numbered.push_back({k, node, part, nl.heading, true}), ++next;
    }
    int para = -1;
    const std::string first = FirstLine(doc, unit, &para);
    if (first.empty()) continue;
    const MdKind after = k + 1 < kids.size() ? doc.nodes[static_cast<size_t>(kids[k + 1])].kind : MdKind::kOther;
    if (const std::string label = LeadLabel(first); !label.empty()) {
      labelled.push_back({k, unit, part, Trim(first), true});
      labels.push_back(command ? "\x01command" : label);
      over_block.push_back(after == MdKind::kCodeBlock || after == MdKind::kTable);
    } else if (const std::string bold = BoldAlone(doc, unit); !bold.empty()) {
      labelled.push_back({k, unit, part, bold, true});  // "**第一次**" over its printout
      labels.push_back("\x01bold");
      over_block.push_back(after == MdKind::kCodeBlock || after == MdKind::kTable);
    }
  }
  if (numbered.size() < 3) numbered.clear();
  std::vector<Lead> out = numbered;
  // A label that leads three printouts or more leads its other items too
  // (`* commit: ...` with nothing run yet ends the entry above it).
  std::map<std::pair<std::string, int>, size_t> printouts;
  for (size_t i = 0; i < labelled.size(); ++i) printouts[{labels[i], labelled[i].part}] += over_block[i] ? 1 : 0;
  for (size_t i = 0; i < labelled.size(); ++i)
    if (printouts[{labels[i], labelled[i].part}] >= 3) out.push_back(labelled[i]);
  std::sort(out.begin(), out.end(), [](const Lead& a, const Lead& b) { return a.kid < b.kid; });
  return out;
}

// A document without headings (nor dated leads) that holds a record and a
// table, a printout or a list of figures: one entry, headed by its first
// block that is no list. Its words are the first sentence of that block
// when it is a paragraph, else the file's name ("gemm_sweep.md": "gemm
// sweep"). Nothing when the document holds no record.
std::vector<Lead> HeadlessLead(const MdDocument& doc, const std::vector<std::string_view>& lines,
                               const std::vector<bool>& region, int front, const std::string& file) {
  const auto& kids = doc.root().children;
  const std::vector<int> all(kids.begin(), kids.end());
  size_t first = 0;
  while (first < all.size() && doc.nodes[static_cast<size_t>(all[first])].start_line <= front) ++first;
  while (first < all.size() && doc.nodes[static_cast<size_t>(all[first])].kind == MdKind::kList) ++first;
  if (first >= all.size() || !HoldsRecord(doc, lines, region, all, first, all.size()) ||
      !HoldsBlock(doc, lines, all, first, all.size()))
    return {};
  std::string text;
  if (doc.nodes[static_cast<size_t>(all[first])].kind == MdKind::kParagraph) {
    text = Trim(InlineText(doc, all[first]));
    if (const size_t stop = text.find_first_of(".:;!?\n"); stop != std::string::npos) text.resize(stop);
    if (text.size() > 60) text.resize(text.rfind(' ', 60) == std::string::npos ? 60 : text.rfind(' ', 60));
  }
  if (Trim(text).empty()) {
    std::string stem = file.substr(file.find_last_of('/') == std::string::npos ? 0 : file.find_last_of('/') + 1);
    stem = stem.substr(0, stem.find('.'));
    for (char& c : stem)
      if (c == '_' || c == '-') c = ' ';
    text = Trim(stem).empty() ? "Document" : stem;
  }
  return {Lead{first, all[first], -1, Trim(text)}};
}

}  // namespace

// The headings among the root's children (none in front matter), the dated
// paragraphs and items that head entries, the walk's units, and the role
// of each heading.
void SegmentDocument(const MdDocument& doc, const std::vector<std::string_view>& lines, DocOutline* o,
                     const std::string& file) {
  const auto& kids = doc.root().children;
  const int front = FrontMatterEnd(lines);
  std::vector<OutlineHeading> heads;
  std::vector<size_t> head_kid;
  for (size_t k = 0; k < kids.size(); ++k) {
    const MdNode& n = doc.nodes[static_cast<size_t>(kids[k])];
    if (n.kind != MdKind::kHeading || n.start_line <= front) continue;
    heads.push_back({n.start_line, n.level, Trim(InlineText(doc, kids[k]))});
    head_kid.push_back(k);
  }
  const std::vector<bool> region = RegionLines(lines);
  std::vector<Lead> leads = DatedLeads(doc, heads, head_kid);
  if (std::vector<Lead> plain = PlainLeads(doc, lines, heads, head_kid, leads); !plain.empty()) {
    leads.insert(leads.end(), plain.begin(), plain.end());
    std::sort(leads.begin(), leads.end(), [](const Lead& a, const Lead& b) { return a.kid < b.kid; });
  }
  if (heads.empty() && leads.empty()) leads = HeadlessLead(doc, lines, region, front, file);
  for (size_t k = 0, h = 0, d = 0; k < kids.size(); ++k) {
    if (h < head_kid.size() && head_kid[h] == k) {
      o->heads.push_back(heads[h++]);
      o->head_unit.push_back(o->units.size());
      o->lead.push_back(false);
    }
    const MdNode& n = doc.nodes[static_cast<size_t>(kids[k])];
    const bool split = d < leads.size() && leads[d].kid == k && n.kind == MdKind::kList;
    for (int unit : split ? std::vector<int>(n.children.begin(), n.children.end()) : std::vector<int>{kids[k]}) {
      if (d < leads.size() && leads[d].node == unit) {
        const int level = leads[d].part < 0 ? 2 : std::min(6, heads[static_cast<size_t>(leads[d].part)].level + 1);
        o->heads.push_back({doc.nodes[static_cast<size_t>(unit)].start_line, level, leads[d].text, leads[d].entry});
        ++d;
        o->head_unit.push_back(o->units.size());
        o->lead.push_back(true);
      }
      o->units.push_back(unit);
    }
  }
  auto range = [o](size_t i) {
    return std::pair<size_t, size_t>{o->head_unit[i] + (o->lead[i] ? 0 : 1),
                                     i + 1 < o->heads.size() ? o->head_unit[i + 1] : o->units.size()};
  };
  o->roles = SegmentOutline(
      o->heads, [&](size_t i) { const auto [a, b] = range(i); return HoldsRecord(doc, lines, region, o->units, a, b); },
      [&](size_t i) { const auto [a, b] = range(i); return HoldsBlock(doc, lines, o->units, a, b); });
}

}  // namespace moelog::logbook::parse_detail
