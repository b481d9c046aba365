#include "logbook/doc/parse_logbook.h"

#include <algorithm>
#include <climits>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <optional>
#include <set>
#include <unordered_map>

#include "logbook/budgets.h"
#include "logbook/doc/command_line.h"
#include "logbook/doc/entry_ids.h"
#include "logbook/doc/outline.h"
#include "logbook/doc/pasted_printout.h"
#include "logbook/doc/printed_prose.h"
#include "logbook/doc/regions.h"
#include "logbook/doc/resolve_commands.h"
#include "logbook/doc/stated_command.h"
#include "logbook/reader/blocks.h"
#include "logbook/reader/blocks_tsv.h"
#include "logbook/reader/segment.h"
#include "logbook/file_util.h"

namespace moelog::logbook {
namespace parse_detail {

namespace {
std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

void CollectCode(const MdDocument& doc, int node, std::vector<int>* out) {
  const int end = doc.nodes[static_cast<size_t>(node)].subtree_end;
  for (int i = node; i < end; ++i)
    if (doc.nodes[static_cast<size_t>(i)].kind == MdKind::kCode) out->push_back(i);
}
}  // namespace

bool IsShellInfo(std::string_view info) { return IsShellFence(info); }

namespace {
// A paragraph of a list item after its first, as an item of its own.
Bullet ParagraphBullet(const MdDocument& doc, int para, bool with_numbers) {
  Bullet b;
  const MdNode& n = doc.nodes[para];
  b.line = n.start_line;
  b.end_line = n.end_line;
  b.content_indent = std::max(0, n.start_col - 1);
  b.text = Trim(InlineText(doc, para));
  std::vector<int> codes;
  CollectCode(doc, para, &codes);
  for (int c : codes) b.code_spans.emplace_back(doc.nodes[c].literal);
  if (with_numbers) b.numbers = ExtractNumbers(b.text);
  return b;
}
}  // namespace

Bullet BuildBullet(const MdDocument& doc, int item, bool with_numbers) {
  Bullet b;
  const MdNode& n = doc.nodes[item];
  b.line = n.start_line;
  b.end_line = n.end_line;
  b.content_indent = std::max(0, n.start_col - 1) + 2;
  const int para = FirstParagraph(doc, item);
  if (para >= 0) {
    b.text = Trim(InlineText(doc, para));
    b.content_indent = std::max(0, doc.nodes[para].start_col - 1);
    std::vector<int> codes;
    CollectCode(doc, para, &codes);
    for (int c : codes) b.code_spans.emplace_back(doc.nodes[c].literal);
    if (with_numbers) b.numbers = ExtractNumbers(b.text);
  }
  for (int c : n.children) {
    // A later paragraph of a loose item ("1. Naive", a blank line, then its
    // printed result) is read as a sub-item of it: the item's text names it.
    if (doc.nodes[c].kind == MdKind::kParagraph && c != para) {
      b.children.push_back(ParagraphBullet(doc, c, with_numbers));
      continue;
    }
    if (doc.nodes[c].kind != MdKind::kList) continue;
    b.children.reserve(b.children.size() + doc.nodes[c].children.size());
    for (int sub : doc.nodes[c].children)
      if (doc.nodes[sub].kind == MdKind::kItem) b.children.push_back(BuildBullet(doc, sub, with_numbers));
  }
  return b;
}

void AddStatedNumbers(Bullet* b) {
  b->numbers = ExtractNumbers(b->text);
  for (auto& c : b->children) AddStatedNumbers(&c);
}

FencedBlock BuildFenced(const MdDocument& doc, int node, const std::vector<std::string_view>& lines) {
  (void)lines;
  const MdNode& n = doc.nodes[node];
  FencedBlock f;
  f.info = Trim(n.info);
  f.text = n.literal;
  f.line = n.start_line;
  f.end_line = n.end_line;
  f.indent = std::max(0, n.start_col - 1);
  return f;
}

CommandText FencedCommand(const MdDocument& doc, int node) {
  const MdNode& n = doc.nodes[node];
  CommandText cmd;
  cmd.text = n.literal;
  cmd.joined = JoinContinuations(n.literal);
  cmd.line = n.start_line;
  cmd.end_line = n.end_line;
  cmd.fenced = true;
  return cmd;
}

TableBlock BuildTable(const MdDocument& doc, int node) {
  TableBlock t;
  const MdNode& n = doc.nodes[node];
  t.line = n.start_line;
  t.end_line = n.end_line;
  for (int r : n.children) {
    if (doc.nodes[r].kind != MdKind::kTableRow) continue;
    std::vector<std::string> cells;
    for (int c : doc.nodes[r].children) cells.push_back(Trim(InlineText(doc, c)));
    if (doc.nodes[r].header_row) t.header = std::move(cells);
    else t.rows.push_back(std::move(cells));
  }
  // A table written right under a paragraph's lines (no blank line between)
  // starts, for cmark, where the paragraph does; each row is one line, so
  // its header is the line before the delimiter row above its rows.
  const int header = t.end_line - static_cast<int>(t.rows.size()) - 1;
  if (header > t.line) t.line = header;
  return t;
}

void CommonDiagnostics(std::string_view text, const MdDocument& doc,
                       const std::vector<std::string_view>& lines, const std::string& file,
                       std::vector<Diagnostic>* out) {
  if (size_t nul = text.find('\0'); nul != std::string_view::npos) {
    const int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + nul, '\n'));
    out->push_back({file, line, "NUL byte: this does not look like a Markdown text file"});
  }
  if (doc.depth_limited)
    out->push_back({file, 1, "nesting deeper than " + std::to_string(MdDocument::kMaxDepth) +
                                 " levels; the deeper content is ignored"});
  for (size_t i = 0; i < doc.nodes.size(); ++i) {
    const MdNode& n = doc.nodes[i];
    if (n.kind != MdKind::kCodeBlock || !n.fenced || n.start_line <= 0) continue;
    auto fence_of = [&](int line) -> std::string_view {
      if (line < 1 || line > static_cast<int>(lines.size())) return {};
      std::string_view l = lines[line - 1];
      size_t p = 0;
      while (p < l.size() && (l[p] == ' ' || l[p] == '\t' || l[p] == '>')) ++p;
      l.remove_prefix(p);
      size_t q = 0;
      while (q < l.size() && (l[q] == '`' || l[q] == '~')) ++q;
      return l.substr(0, q);
    };
    const std::string_view open = fence_of(n.start_line);
    const std::string_view close = fence_of(n.end_line);
    const bool closed = n.end_line > n.start_line && close.size() >= open.size() && !open.empty() &&
                        close[0] == open[0];
    if (!closed)
      out->push_back({file, n.start_line, "code fence is never closed (it runs to the end of its block)"});
  }
}

DocumentText ReadDocument(std::string_view text, const std::string& file, int* line_count,
                          std::vector<Diagnostic>* diagnostics) {
  DocumentText d;
  d.lines = SplitLines(text);
  *line_count = static_cast<int>(d.lines.size());
  d.doc = ParseMarkdown(text, d.lines);
  CommonDiagnostics(text, d.doc, d.lines, file, diagnostics);
  return d;
}

}  // namespace parse_detail

using namespace parse_detail;

SectionKind SectionKindFromName(std::string_view name) {
  std::string s = Lower(Trim(name.substr(0, name.find('('))));
  static const std::pair<const char*, SectionKind> kNames[] = {
      {"scope", SectionKind::kScope},
      {"links", SectionKind::kLinks},
      {"baseline", SectionKind::kBaseline},
      {"stop criteria", SectionKind::kStopCriteria},
      {"experiment matrix", SectionKind::kExperimentMatrix},
      {"command templates", SectionKind::kCommandTemplates},
      {"experiment id prefix", SectionKind::kExperimentIdPrefix},
      {"experiment log", SectionKind::kExperimentLog},
      {"entries", SectionKind::kExperimentLog},
      {"entry log", SectionKind::kExperimentLog},
      {"log", SectionKind::kExperimentLog},
      {"research log", SectionKind::kExperimentLog},
      {"experiments", SectionKind::kExperimentLog},
      {"experiment entries", SectionKind::kExperimentLog},
      {"running log", SectionKind::kExperimentLog},
      {"negative results index", SectionKind::kNegativeResultsIndex},
      {"current status", SectionKind::kCurrentStatus},
      {"overview", SectionKind::kOverview},
      {"prerequisites", SectionKind::kPrerequisites},
      {"notes", SectionKind::kNotes},
  };
  for (const auto& [n, k] : kNames)
    if (s == n) return k;
  return SectionKind::kUnknown;
}

std::string JoinContinuations(std::string_view text) {
  std::string out;
  const auto lines = SplitLines(text);
  bool continuing = false;
  for (std::string_view l : lines) {
    std::string_view s = l;
    if (continuing) {
      size_t p = 0;
      while (p < s.size() && (s[p] == ' ' || s[p] == '\t')) ++p;
      s.remove_prefix(p);
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else if (!out.empty()) {
      out += '\n';
    }
    size_t e = s.size();
    while (e > 0 && (s[e - 1] == ' ' || s[e - 1] == '\t')) --e;
    continuing = e > 0 && s[e - 1] == '\\';
    if (continuing) {
      --e;
      while (e > 0 && (s[e - 1] == ' ' || s[e - 1] == '\t')) --e;
    }
    out.append(s.substr(0, e));
  }
  return Trim(out);
}

std::string BulletLabel(std::string_view text) {
  bool in_code = false;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '`') in_code = !in_code;
    else if (text[i] == ':' && !in_code) return Trim(text.substr(0, i));
  }
  return "";
}

namespace {

// "Name (qualifier): value" -> true and the parts.
bool ParseFieldHead(const std::string& text, std::string* name, std::string* qual, std::string* value) {
  const std::string head = BulletLabel(text);
  if (head.empty() || head.size() > 48) return false;
  std::string n = head, q;
  if (size_t paren = head.find('('); paren != std::string::npos) {
    if (head.back() != ')') return false;
    n = Trim(std::string_view(head).substr(0, paren));
    q = Trim(std::string_view(head).substr(paren + 1, head.size() - paren - 2));
  }
  if (n.empty() || !std::isalpha(static_cast<unsigned char>(n[0]))) return false;
  for (char c : n)
    if (!std::isalpha(static_cast<unsigned char>(c)) && c != ' ' && c != '-' && c != '/') return false;
  const std::string ln = [&] {
    std::string l = n;
    for (char& c : l) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return l;
  }();
  size_t colon = text.find(':', 0);
  // The colon that ends the head (BulletLabel skipped code spans; the head has none).
  colon = head.size() <= text.size() ? text.find(':', head.size()) : std::string::npos;
  *value = colon == std::string::npos ? "" : Trim(std::string_view(text).substr(colon + 1));
  // The Command field under the other names researchers give it.
  static const std::set<std::string> kCommandNames = {"command", "commands", "cmd", "cmds", "launch", "launched",
                                                      "launch command", "invocation", "command line", "commands run",
                                                      "repro", "reproduce", "reproduction"};
  if (kCommandNames.count(ln)) n = "Command";
  else if (ln == "result" || ln == "results") n = "Result";
  else if (const size_t sp = ln.rfind(' '); sp != std::string::npos && sp > 0 && sp < 32 &&
                                            (ln.substr(sp + 1) == "result" || ln.substr(sp + 1) == "results") &&
                                            (value->empty() || (*value)[0] == '`' ||
                                             std::isdigit(static_cast<unsigned char>((*value)[0])))) {
    // "Non-EP result:", "EP result (`ring_ag_rs`):" over figures: a Result
    // named by its first words, which qualify it as "Result (Non-EP):" would.
    // A finding in prose ("Negative result (...): decomposing ...") is not.
    q = Trim(std::string_view(n).substr(0, sp)) + (q.empty() ? "" : " " + q);
    n = "Result";
  }
  *name = n;
  *qual = q;
  return true;
}

void CollectItemCommands(const MdDocument& doc, int item, const std::string& label, bool planned, bool is_field,
                         const std::vector<std::string_view>& lines, std::vector<CommandText>* out) {
  const int para = FirstParagraph(doc, item);
  std::string child_label = label;
  if (para >= 0) {
    std::vector<int> codes;
    CollectCode(doc, para, &codes);
    const std::string text = Trim(InlineText(doc, para));
    for (int c : codes) {
      CommandText cmd;
      cmd.text = doc.nodes[c].literal;
      cmd.joined = JoinContinuations(cmd.text);
      cmd.line = doc.nodes[c].start_line > 0 ? doc.nodes[c].start_line : doc.nodes[para].start_line;
      cmd.end_line = cmd.line;
      cmd.label = label;
      cmd.planned = planned;
      if (LooksLikeCommandLine(cmd.joined)) out->push_back(std::move(cmd));
    }
    if (!is_field && codes.empty() && !text.empty() && text.back() == ':') child_label = Trim(text.substr(0, text.size() - 1));
  }
  for (int c : doc.nodes[item].children) {
    const MdNode& n = doc.nodes[c];
    if (n.kind == MdKind::kList) {
      for (int sub : n.children)
        if (doc.nodes[sub].kind == MdKind::kItem) CollectItemCommands(doc, sub, child_label, planned, false, lines, out);
    } else if (n.kind == MdKind::kCodeBlock && n.fenced && IsShellInfo(n.info)) {
      CommandText cmd = FencedCommand(doc, c);
      cmd.label = child_label;
      cmd.planned = planned;
      if (!cmd.joined.empty()) out->push_back(std::move(cmd));
    }
  }
}

void CollectTables(const MdDocument& doc, int node, std::vector<TableBlock>* out) {
  const int end = doc.nodes[static_cast<size_t>(node)].subtree_end;
  for (int i = node; i < end; ++i) {
    if (doc.nodes[static_cast<size_t>(i)].kind != MdKind::kTable) continue;
    out->push_back(BuildTable(doc, i));
    i = doc.nodes[static_cast<size_t>(i)].subtree_end - 1;  // tables do not nest
  }
}

// Where the walk over an entry's blocks stands (reader/blocks.h decides
// what each block is from this).
struct EntryWalk {
  bool after_command = false;   // the previous block was a command
  bool label = false;           // the previous block labels the next as output
  std::string sub;              // the sub-heading the blocks sit under
  bool output_heading = false;  // ... which names output
  const std::vector<std::string_view>* lines = nullptr;  // the document's source lines
};

// A `$ ` session: its prompt lines as commands, the rest as output (an
// output's end line is the closing fence: nothing is ever written inside).
void AddPromptedFence(const MdDocument& doc, int idx, const EntryWalk& w, Entry* e) {
  const MdNode& n = doc.nodes[idx];
  for (PromptPart& part : SplitPrompted(n.literal)) {
    const int first = n.start_line + 1 + part.first_line, last = n.start_line + 1 + part.last_line;
    if (part.command) {
      CommandText cmd;
      cmd.joined = JoinContinuations(part.text);
      cmd.text = std::move(part.text);
      cmd.line = first;
      cmd.end_line = last;
      cmd.fenced = cmd.prompted = true;
      if (!cmd.joined.empty()) e->commands.push_back(std::move(cmd));
      continue;
    }
    FencedBlock b = BuildFenced(doc, idx, {});
    b.text = std::move(part.text);
    b.line = first;
    b.subheading = w.sub;
    b.output_cue = "prompt";
    e->outputs.push_back(std::move(b));
  }
}

// A fence of one command and its printed lines, or of several such
// (reader/blocks.h CommandTranscript): each command, then its printed lines
// as an output.
bool AddCommandWithOutput(const MdDocument& doc, int idx, const EntryWalk& w, Entry* e) {
  const MdNode& n = doc.nodes[idx];
  const bool shell_named = !Trim(n.info).empty() && IsShellFence(n.info);  // ```bash: its first line is a command
  const std::vector<TranscriptPart> parts = CommandTranscript(n.literal, &IsTranscriptCommand, shell_named);
  if (parts.empty()) return false;
  auto offset = [&](int line) {  // where 0-based line `line` of the literal starts (its end past the last)
    size_t at = 0;
    for (int k = 0; k < line && at < n.literal.size(); ++k) {
      const size_t nl = n.literal.find('\n', at);
      at = nl == std::string::npos ? n.literal.size() : nl + 1;
    }
    return std::min(at, n.literal.size());
  };
  for (const TranscriptPart& part : parts) {
    const size_t from = offset(part.command), cut = offset(part.printed), to = offset(part.end);
    CommandText cmd = FencedCommand(doc, idx);
    cmd.text = std::string(n.literal.substr(from, cut - from));
    cmd.joined = JoinContinuations(cmd.text);
    cmd.line = n.start_line + part.command;  // the line before its text, as a fence's
    cmd.end_line = n.start_line + part.printed;
    if (!cmd.joined.empty()) e->commands.push_back(std::move(cmd));
    FencedBlock b = BuildFenced(doc, idx, {});
    b.text = std::string(n.literal.substr(cut, to - cut));
    b.line = n.start_line + part.printed;  // the printed lines start on the line after it, as in a fence
    if (&part != &parts.back()) b.end_line = n.start_line + 1 + part.end;  // the blank line before the next command
    b.subheading = w.sub;
    b.output_cue = "after command";
    e->outputs.push_back(std::move(b));
  }
  return true;
}

void AddEntryFence(const MdDocument& doc, int idx, EntryWalk* w, Entry* e) {
  const MdNode& n = doc.nodes[idx];
  FenceFacts facts{n.info, n.literal, w->after_command, w->label, w->output_heading, FirstLineIsCommand(n.literal)};
  facts.has_command_line = AnyLine(n.literal, &IsCommandLine);
  std::string cue;
  const FenceRole role = ClassifyFence(facts, &cue);
  w->label = false;
  w->after_command = role == FenceRole::kCommand || role == FenceRole::kPrompted;
  if (role == FenceRole::kText) return;
  if (role == FenceRole::kPrompted) return AddPromptedFence(doc, idx, *w, e);
  if (role == FenceRole::kCommand) {
    if (AddCommandWithOutput(doc, idx, *w, e)) return;
    CommandText cmd = FencedCommand(doc, idx);
    if (!cmd.joined.empty()) e->commands.push_back(std::move(cmd));
    return;
  }
  FencedBlock b = BuildFenced(doc, idx, {});
  b.subheading = w->sub;
  b.output_cue = std::move(cue);
  e->outputs.push_back(std::move(b));
}

// A paragraph: result prose, an output label, or explanation; a code span
// "$ cmd ..." in it is a command.
void AddEntryParagraph(const MdDocument& doc, int idx, EntryWalk* w, Entry* e) {
  Paragraph p = BuildParagraph(doc, idx);
  if (p.text.empty()) return;
  if (std::string lines = ParagraphLines(p); PrintedLines(lines) || PastedToolPrintout(lines)) {
    // A program's printed lines pasted as text (a bench tool's printout,
    // wrk's "Running 30s test @ ..." and its lines): an output, not prose.
    FencedBlock b;
    b.text = std::move(lines);
    b.line = p.line - 1;  // its first line is the block's first, as in a fence
    b.end_line = p.end_line;
    b.subheading = w->sub;
    b.output_cue = "looks like output";
    e->outputs.push_back(std::move(b));
    w->label = w->after_command = false;
    return;
  }
  bool prose_left = true;  // printed lines amid the prose are outputs
  if (PrintedOutOfProse(ParagraphLines(p), w->sub, &p, &e->outputs, &prose_left) > 0) w->label = w->after_command = false;
  if (!prose_left) return;
  p.output_label = IsOutputLabel(p.text);
  p.states_figure = !p.output_label && StatesFigure(p.text);
  w->label = p.output_label;
  w->after_command = w->after_command && p.output_label;
  const MdNode& n = doc.nodes[idx];
  for (int i = idx + 1; i < n.subtree_end; ++i) {
    const MdNode& c = doc.nodes[static_cast<size_t>(i)];
    if (c.kind != MdKind::kCode || c.literal.empty() || c.literal[0] == '-') continue;
    const std::string_view after = AfterPrompt(c.literal);
    if (after.empty() || !LooksLikeCommandLine(Trim(after))) continue;
    CommandText cmd;
    cmd.text = std::string(after);
    cmd.joined = JoinContinuations(after);
    cmd.line = cmd.end_line = c.start_line > 0 ? c.start_line : n.start_line;
    cmd.prompted = true;
    e->commands.push_back(std::move(cmd));
  }
  e->paragraphs.push_back(std::move(p));
}

void AddEntryList(const MdDocument& doc, int idx, EntryWalk* w, Entry* e) {
  const MdNode& n = doc.nodes[idx];
  e->fields.reserve(e->fields.size() + n.children.size());
  bool label = false;
  for (int item : n.children) {
    if (doc.nodes[item].kind != MdKind::kItem) continue;
    Field f;
    f.bullet = BuildBullet(doc, item, /*with_numbers=*/false);
    label = IsOutputLabel(f.bullet.text) && doc.nodes[item].children.size() <= 1;
    if (!ParseFieldHead(f.bullet.text, &f.name, &f.qualifier, &f.value)) {
      e->notes.push_back(std::move(f.bullet));
      continue;
    }
    if (f.name != "Command") AddStatedNumbers(&f.bullet);
    if (f.name == "Command") {
      std::string q = f.qualifier;
      for (char& c : q) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      CollectItemCommands(doc, item, "", q.find("planned") != std::string::npos, true, {}, &e->commands);
    }
    e->fields.push_back(std::move(f));
  }
  const size_t first_table = e->tables.size();
  CollectTables(doc, idx, &e->tables);
  for (size_t t = first_table; t < e->tables.size(); ++t) e->tables[t].subheading = w->sub;
  for (int i = idx; i < n.subtree_end; ++i) {
    const MdNode& c = doc.nodes[static_cast<size_t>(i)];
    if (c.kind == MdKind::kCodeBlock && c.fenced && !IsShellInfo(c.info)) {
      FencedBlock b = BuildFenced(doc, i, {});
      b.subheading = w->sub;
      b.output_cue = "info";
      e->outputs.push_back(std::move(b));
    }
  }
  w->label = label;
  w->after_command = false;
}

// A block quote's text the entry's own (QuotesAnotherSource says which is
// not): its first and last paragraphs.
bool OwnQuote(const MdDocument& doc, const MdNode& n) {
  std::string first, last;
  for (int c : n.children)
    if (doc.nodes[static_cast<size_t>(c)].kind == MdKind::kParagraph) (first.empty() ? first : last) = InlineText(doc, c);
  return !QuotesAnotherSource(first, last.empty() ? first : last);
}

// A paragraph of tab-separated lines (a caption line or two above or below
// them aside): the table it is (reader/blocks_tsv.h), its line where a pipe
// table's header would be, two above its first row.
bool PastedTsv(const MdNode& n, const std::vector<std::string_view>& lines, const std::string& sub, Entry* e) {
  if (n.start_line < 1 || n.end_line > static_cast<int>(lines.size()) || n.end_line - n.start_line < 2) return false;
  int first = n.start_line, last = n.end_line;
  while (first < last && first - n.start_line < 2 && lines[first - 1].find('\t') == std::string_view::npos) ++first;
  while (last > first && n.end_line - last < 2 && lines[last - 1].find('\t') == std::string_view::npos) --last;
  const std::vector<std::string_view> own(lines.begin() + first - 1, lines.begin() + last);
  auto rows = TabSeparatedRows(own);
  if (rows.empty()) return false;
  TableBlock t;
  t.end_line = last;
  t.header = std::move(rows.front());
  t.rows.assign(std::make_move_iterator(rows.begin() + 1), std::make_move_iterator(rows.end()));
  t.line = first - 1;  // two above the first row, as a pipe table's delimiter row puts it
  t.subheading = sub;
  e->tables.push_back(std::move(t));
  return true;
}

void AddEntryBlock(const MdDocument& doc, int idx, EntryWalk* w, Entry* e) {
  const MdNode& n = doc.nodes[idx];
  if (n.kind == MdKind::kItem || (n.kind == MdKind::kBlockQuote && OwnQuote(doc, n))) {
    // A list item that heads an entry (doc/outline.h), a quote of the entry's own words: their blocks.
    for (int c : n.children) AddEntryBlock(doc, c, w, e);
  } else if (n.kind == MdKind::kList) {
    AddEntryList(doc, idx, w, e);
  } else if (n.kind == MdKind::kParagraph && w->lines && ContinuesPastedPrintout(n, *w->lines, e)) {
    w->label = w->after_command = false;  // a pasted printout's next paragraph
  } else if ((n.kind == MdKind::kParagraph || (n.kind == MdKind::kCodeBlock && !n.fenced)) && w->lines &&
             PastedConsole(n, *w->lines, w->sub, e)) {  // a console pasted as text
    w->label = false, w->after_command = !e->commands.empty() && e->commands.back().end_line == n.end_line;
  } else if (n.kind == MdKind::kCodeBlock && n.fenced) {
    AddEntryFence(doc, idx, w, e);
  } else if (n.kind == MdKind::kCodeBlock && LooksLikeOutput(n.literal) && !FirstLineIsCommand(n.literal)) {
    FencedBlock b = BuildFenced(doc, idx, {});  // an indented block of printed lines
    b.line = n.start_line - 1;
    b.subheading = w->sub;
    b.output_cue = "looks like output";
    e->outputs.push_back(std::move(b));
    w->label = w->after_command = false;
  } else if (n.kind == MdKind::kTable) {
    e->tables.push_back(BuildTable(doc, idx));
    e->tables.back().subheading = w->sub;
    w->label = w->after_command = false;
  } else if (n.kind == MdKind::kParagraph && w->lines && PastedTsv(n, *w->lines, w->sub, e)) {
    w->label = w->after_command = false;  // a table pasted as tab-separated lines
  } else if (n.kind == MdKind::kParagraph) {
    AddEntryParagraph(doc, idx, w, e);
  } else if (HtmlTableNode(n)) {
    for (TableBlock& t : HtmlTableBlocks(doc, idx, w->sub)) e->tables.push_back(std::move(t));
    w->label = w->after_command = false;
  }
}

void AddSectionBlock(const MdDocument& doc, int idx, const std::vector<std::string_view>& lines, Section* s) {
  const MdNode& n = doc.nodes[idx];
  if (n.kind == MdKind::kItem) {
    s->bullets.push_back(BuildBullet(doc, idx));
  } else if (n.kind == MdKind::kList) {
    for (int item : n.children)
      if (doc.nodes[item].kind == MdKind::kItem) s->bullets.push_back(BuildBullet(doc, item));
    CollectTables(doc, idx, &s->tables);
  } else if (n.kind == MdKind::kCodeBlock) {
    s->blocks.push_back(BuildFenced(doc, idx, lines));
  } else if (n.kind == MdKind::kTable) {
    s->tables.push_back(BuildTable(doc, idx));
  } else if (n.kind == MdKind::kParagraph && s->kind == SectionKind::kExperimentIdPrefix) {
    // A prefix written as a plain paragraph: keep it as a bullet-like line.
    Bullet b;
    b.text = Trim(InlineText(doc, idx));
    b.line = n.start_line;
    b.end_line = n.end_line;
    std::vector<int> codes;
    CollectCode(doc, idx, &codes);
    for (int c : codes) b.code_spans.emplace_back(doc.nodes[c].literal);
    s->bullets.push_back(std::move(b));
  }
}

int LastNonBlank(const std::vector<std::string_view>& lines, int from, int floor) {
  int l = from;
  while (l > floor && Trim(lines[l - 1]).empty()) --l;
  return l;
}

std::string PrefixFrom(const Section& s) {
  for (const auto& b : s.bullets) {
    if (!b.code_spans.empty()) return Trim(b.code_spans[0]);
    std::string t = Trim(b.text);
    if (!t.empty()) return t.substr(0, t.find(' '));
  }
  return "";
}

}  // namespace

bool parse_detail::EntryHeadingRest(std::string_view s, size_t* rest_offset) {
  return StrictHeadingRest(s, rest_offset);
}

namespace {

// moelog's own regions are its output, not the logbook's words: the bullets
// (a list of figures placed on no row, notes) and tables inside them belong
// to no entry field, so reading a Result never reads moelog's last output.
void DropRegionContent(std::string_view text, const std::string& file, Logbook* lb) {
  const RegionScan scan = FindRegions(text, file);
  if (scan.regions.empty()) return;
  auto inside = [&](int line) { return scan.Holds(line); };
  std::function<void(Bullet*)> prune = [&](Bullet* b) {
    b->children.erase(std::remove_if(b->children.begin(), b->children.end(),
                                     [&](const Bullet& c) { return inside(c.line); }),
                      b->children.end());
    for (auto& c : b->children) prune(&c);
  };
  for (auto& e : lb->entries) {
    // A region written at the entry's level (the entry has no Result field
    // to hold it): its bullets are neither fields nor notes of the entry.
    e.fields.erase(std::remove_if(e.fields.begin(), e.fields.end(),
                                  [&](const Field& f) { return inside(f.bullet.line); }),
                   e.fields.end());
    e.notes.erase(std::remove_if(e.notes.begin(), e.notes.end(), [&](const Bullet& b) { return inside(b.line); }),
                  e.notes.end());
    e.paragraphs.erase(std::remove_if(e.paragraphs.begin(), e.paragraphs.end(),
                                      [&](const Paragraph& p) { return inside(p.line); }),
                       e.paragraphs.end());
    for (auto& f : e.fields) prune(&f.bullet);
    for (auto& b : e.notes) prune(&b);
    e.tables.erase(std::remove_if(e.tables.begin(), e.tables.end(),
                                  [&](const TableBlock& t) { return inside(t.line); }),
                   e.tables.end());
  }
}

// The key=value list of a pin comment line ("<!-- moelog: k=v k2=v2 -->",
// commas or spaces between pairs); nullopt when the line is no pin comment
// (a region marker, other text); an error text when it is one but malformed.
std::optional<std::vector<Pin>> PinsOfLine(std::string_view line, int number, std::string* error) {
  const std::string t = Trim(line);
  static constexpr std::string_view kOpen = "<!-- moelog:", kClose = "-->";
  if (t.size() < kOpen.size() + kClose.size() || t.compare(0, kOpen.size(), kOpen) != 0 ||
      t.compare(t.size() - kClose.size(), kClose.size(), kClose) != 0)
    return std::nullopt;
  const std::string body = t.substr(kOpen.size(), t.size() - kOpen.size() - kClose.size());
  if (body.empty() || (body[0] != ' ' && body[0] != '\t')) return std::nullopt;  // moelog:begin, :end, :chart
  std::vector<Pin> pins;
  std::string word;
  auto flush = [&]() {
    if (word.empty()) return true;
    const size_t eq = word.find('=');
    const bool key_ok = eq != std::string::npos && eq > 0 && std::all_of(word.begin(), word.begin() + eq, [](char c) {
      return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_';
    });
    if (!key_ok || eq + 1 == word.size()) {
      *error = "expected key=value in a moelog pin (e.g. <!-- moelog: ep_dispatch=dense_masked -->), got '" + word + "'";
      return false;
    }
    pins.push_back({word.substr(0, eq), word.substr(eq + 1), number});
    word.clear();
    return true;
  };
  for (char c : body) {
    if (c == ' ' || c == '\t' || c == ',') {
      if (!flush()) return std::vector<Pin>{};
    } else {
      word += c;
    }
  }
  if (!flush()) return std::vector<Pin>{};
  if (pins.empty()) *error = "an empty moelog pin";
  return pins;
}

// Pin comments, whole lines outside code blocks, moelog's regions and the
// Stop Criteria section (where `<!-- moelog: ... -->` holds a predicate):
// in an entry its own, elsewhere the logbook's.
void CollectPins(std::string_view text, const std::vector<std::string_view>& lines, const MdDocument& doc,
                 Logbook* lb) {
  // Candidate lines first (a prefix test, no allocation): most logbooks have none.
  std::vector<int> candidates;
  for (int i = 0; i < static_cast<int>(lines.size()); ++i) {
    const std::string_view l = lines[static_cast<size_t>(i)];
    const size_t b = l.find_first_not_of(" \t");
    if (b != std::string_view::npos && l.compare(b, 12, "<!-- moelog:") == 0) candidates.push_back(i + 1);
  }
  if (candidates.empty()) return;
  std::vector<std::pair<int, int>> skip;
  for (const auto& n : doc.nodes)
    if (n.kind == MdKind::kCodeBlock) skip.push_back({n.start_line, n.end_line});
  for (const auto& r : FindRegions(text, lb->file).regions) skip.push_back({r.begin_line, r.end_line});
  for (const auto& s : lb->sections)
    if (s.kind == SectionKind::kStopCriteria) skip.push_back({s.heading_line, s.end_line});
  // The skipped spans merged in line order, so each candidate is one binary
  // search (a logbook of many fenced blocks and many pins costs no product).
  std::sort(skip.begin(), skip.end());
  std::vector<std::pair<int, int>> merged;
  for (const auto& r : skip) {
    if (!merged.empty() && r.first <= merged.back().second + 1) merged.back().second = std::max(merged.back().second, r.second);
    else merged.push_back(r);
  }
  auto skipped = [&](int number) {
    auto it = std::upper_bound(merged.begin(), merged.end(), std::make_pair(number, INT_MAX));
    return it != merged.begin() && number <= std::prev(it)->second;
  };
  for (const int number : candidates) {
    std::string error;
    auto pins = PinsOfLine(lines[static_cast<size_t>(number - 1)], number, &error);
    if (!pins || skipped(number)) continue;
    if (!error.empty()) {
      lb->pin_errors.push_back({lb->file, number, error});
      continue;
    }
    // Entries are in line order: the last one headed before the line holds it when it ends after it.
    auto after = std::upper_bound(lb->entries.begin(), lb->entries.end(), number,
                                  [](int n, const Entry& e) { return n <= e.heading_line; });
    auto entry = after == lb->entries.begin() || number > std::prev(after)->end_line ? lb->entries.end()
                                                                                     : std::prev(after);
    auto& into = entry == lb->entries.end() ? lb->pins : entry->pins;
    into.insert(into.end(), pins->begin(), pins->end());
  }
}

}  // namespace

// "- Experiment ID: `BEP-001`" (or "- ID: ...") in an entry whose heading
// names none: the entry's ID.
void TakeStatedId(Entry* e) {
  if (!e->explicit_id.empty()) return;
  for (const Field& f : e->fields) {
    std::string n = f.name;
    for (char& c : n) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (n != "experiment id" && n != "id" && n != "entry id") continue;
    const std::string v = Trim(f.value);
    if (std::string id = IdOfWord(std::string_view(v).substr(0, v.find(' '))); !id.empty()) {
      e->explicit_id = id;
      return;
    }
  }
}

namespace {

// Where the walk over the document's top-level blocks stands: its headings
// (root level) and the role the reader's segment stage gave each, each
// entry's heading level, and the section and entry that take the next
// blocks (-1: none).
struct Outline : DocOutline {
  std::vector<int> entry_levels;
  int sec = -1, ent = -1;
  EntryWalk walk;
};

// Starts entry `e` at heading `k` of the outline.
void OpenEntry(Entry e, size_t k, Logbook* lb, Outline* o) {
  const SegmentedHeading& s = o->roles[k];
  e.heading_line = o->heads[k].line;
  e.heading = o->heads[k].text;
  e.date = s.read.date;
  e.time = s.read.time;
  e.label = s.read.label;
  e.explicit_id = s.read.explicit_id;
  e.confidence = s.read.confidence;
  e.segment_rule = s.rule;
  e.plan_parent = s.plan_parent;
  lb->entries.push_back(std::move(e));
  o->ent = static_cast<int>(lb->entries.size()) - 1;
  o->entry_levels.push_back(s.own_text ? 6 : o->heads[k].level);  // its own text: up to the next heading
  const auto* lines = o->walk.lines;
  o->walk = EntryWalk{};
  o->walk.lines = lines;
}

// Heading `k` of the outline: the title, an entry, a section, a sub-heading
// of the current entry, or none of these.
void TakeHeading(size_t k, const std::string& file, Logbook* lb, Outline* o) {
  const OutlineHeading& h = o->heads[k];
  const HeadingRole role = o->roles[k].role;
  if (role == HeadingRole::kSubheading && o->ent >= 0) {
    lb->entries[static_cast<size_t>(o->ent)].subheadings.push_back({h.line, h.text, h.level});
    o->walk.sub = h.text;
    o->walk.output_heading = IsOutputHeading(h.text);
    o->walk.label = false;
    return;
  }
  o->ent = -1;
  if (h.level == 1) {
    // A `#` heading that is an entry of a document of several is no title.
    if (lb->title.empty() && (role != HeadingRole::kEntry || o->roles[k].rule == "record" || o->roles[k].own_text)) {
      lb->title = h.text;
      lb->title_line = h.line;
    }
    o->sec = -1;
    if (role == HeadingRole::kEntry) OpenEntry(Entry{}, k, lb, o);  // a document that is one record
  } else if (role == HeadingRole::kEntry) {
    if (h.level == 2) o->sec = -1;  // entries written at ##
    OpenEntry(Entry{}, k, lb, o);
  } else if (h.level == 2) {
    Section s;
    s.kind = SectionKindFromName(h.text);
    s.name = h.text;
    s.heading_line = h.line;
    lb->sections.push_back(std::move(s));
    o->sec = static_cast<int>(lb->sections.size()) - 1;
  } else if (h.level == 3 && o->sec >= 0 && lb->sections[static_cast<size_t>(o->sec)].kind == SectionKind::kExperimentLog) {
    lb->diagnostics.push_back({file, h.line,
                               "heading is not an entry (no date, no number, and neither a command nor figures "
                               "below it); left alone"});
  }
}

// Each section ends before the next heading of level 2 or less, each entry
// before the next of its own level or less (trailing blank lines excluded).
void SetEndLines(const std::vector<std::string_view>& lines, const Outline& o, Logbook* lb) {
  // next[L][k]: the line of the first heading after heading k of level L or
  // less (one backward sweep: linear in the headings, however many).
  const size_t n = o.heads.size();
  std::vector<std::vector<int>> next(7, std::vector<int>(n, lb->line_count + 1));
  for (size_t k = n; k-- > 1;)
    for (int level = 1; level <= 6; ++level)
      next[static_cast<size_t>(level)][k - 1] = o.heads[k].level <= level ? o.heads[k].line : next[static_cast<size_t>(level)][k];
  auto end_before = [&](int line, int max_level) {
    const auto at = std::lower_bound(o.heads.begin(), o.heads.end(), line,
                                     [](const OutlineHeading& h, int l) { return h.line < l; });
    const size_t k = static_cast<size_t>(at - o.heads.begin());
    const int stop = k < n ? next[static_cast<size_t>(std::clamp(max_level, 1, 6))][k] : lb->line_count + 1;
    return LastNonBlank(lines, stop - 1, line);
  };
  for (auto& s : lb->sections) s.end_line = end_before(s.heading_line, 2);
  for (size_t i = 0; i < lb->entries.size(); ++i) {
    Entry& e = lb->entries[i];
    int end = end_before(e.heading_line, o.entry_levels[i]);
    // An entry holding a deeper entry (a dated part of a dated entry) ends before it.
    e.holds_entries = i + 1 < lb->entries.size() && lb->entries[i + 1].heading_line > e.heading_line &&
                      lb->entries[i + 1].heading_line <= end;
    if (e.holds_entries) end = LastNonBlank(lines, lb->entries[i + 1].heading_line - 1, e.heading_line);
    e.end_line = e.item_indent >= 0 ? std::min(end, LastNonBlank(lines, e.end_line, e.heading_line)) : end;
  }
}

}  // namespace

namespace {

// A paragraph outside every entry and section (the document's own text
// under its title, "Benchmarks run on 4x H100 GPUs."): kept as a line of a
// section without a heading (kind unknown, name ""), what the document
// states of all its runs. At most 64 such lines.
void AddIntroParagraph(const MdDocument& doc, int idx, Logbook* lb) {
  const MdNode& n = doc.nodes[static_cast<size_t>(idx)];
  if (lb->sections.empty() || lb->sections.front().heading_line != 0) lb->sections.insert(lb->sections.begin(), Section{});
  Section& intro = lb->sections.front();
  if (intro.bullets.size() >= 64) return;
  Bullet b;
  b.text = Trim(InlineText(doc, idx));
  b.line = n.start_line;
  b.end_line = n.end_line;
  intro.bullets.push_back(std::move(b));
}

}  // namespace

// Entry `e`, headed by list item `item`: where its text starts (its tables
// go inside the item) and where the item ends (its end).
void ItemEntry(const MdDocument& doc, int item, Entry* e) {
  const MdNode& n = doc.nodes[static_cast<size_t>(item)];
  const int text = n.children.empty() ? item : n.children.front();
  e->item_indent = std::max(0, doc.nodes[static_cast<size_t>(text)].start_col - 1);
  e->end_line = n.end_line;
}

Logbook ParseLogbook(std::string_view text, const std::string& file) {
  Logbook lb;
  lb.file = file;
  const auto [lines, doc] = ReadDocument(text, file, &lb.line_count, &lb.diagnostics);
  Outline o;
  o.walk.lines = &lines;
  SegmentDocument(doc, lines, &o, file);
  for (size_t pos = 0, k = 0; pos < o.units.size(); ++pos) {
    const int idx = o.units[pos];
    if (k < o.head_unit.size() && o.head_unit[k] == pos && !o.lead[k]) {
      TakeHeading(k++, file, &lb, &o);
      continue;
    }
    const MdNode& n = doc.nodes[static_cast<size_t>(idx)];
    if (k < o.head_unit.size() && o.head_unit[k] == pos) {  // a dated paragraph or item
      // A dated item is an entry of its own text; an item led by a label over
      // its table or printout holds the blocks after it too.
      const bool item_only = !o.heads[k].lead_entry;
      TakeHeading(k++, file, &lb, &o);
      if (n.kind == MdKind::kItem && item_only && o.ent >= 0) ItemEntry(doc, idx, &lb.entries[static_cast<size_t>(o.ent)]);
    } else if (n.kind != MdKind::kItem && o.ent >= 0 && lb.entries[static_cast<size_t>(o.ent)].item_indent >= 0) {
      o.ent = -1;  // the text after a dated list is its part's, not its last item's
    }
    if (o.ent >= 0) AddEntryBlock(doc, idx, &o.walk, &lb.entries[static_cast<size_t>(o.ent)]);
    else if (o.sec >= 0) AddSectionBlock(doc, idx, lines, &lb.sections[static_cast<size_t>(o.sec)]);
    else if (doc.nodes[static_cast<size_t>(idx)].kind == MdKind::kParagraph) AddIntroParagraph(doc, idx, &lb);
  }
  SetEndLines(lines, o, &lb);
  if (const Section* p = lb.FindSection(SectionKind::kExperimentIdPrefix)) lb.id_prefix = PrefixFrom(*p);
  DropRegionContent(text, file, &lb);
  CollectPins(text, lines, doc, &lb);
  for (auto& e : lb.entries) TakeStatedId(&e);
  AssignEntryIds(&lb);
  ResolveLoopSpans(&lb);
  ResolveSameAs(&lb);     // copies the referenced entry's commands, its loops resolved
  ResolveLoopSpans(&lb);  // the entry's own loops around "same as X with `--flag`"
  ResolveStatedCommands(&lb);
  ResolveBraceFlags(&lb);
  return lb;
}

Result<Logbook> LoadLogbook(const std::string& path) { return ParseFile(path, ParseLogbook); }

}  // namespace moelog::logbook
