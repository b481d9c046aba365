// Stage doc/ (the first): reads Markdown through cmark-gfm (markdown.h, the
// only cmark user) into logbooks and recipes, entry IDs, owned regions and
// diffs. Depends on nothing else of logbook/ but file_util and numbers.
//
// The document model: plain structs for logbooks and recipes, filled by
// parse_logbook / parse_recipe. Line numbers are 1-based source lines; an
// "end line" is the last non-blank line a thing covers.
#ifndef MOELOG_LOGBOOK_DOCUMENT_H_
#define MOELOG_LOGBOOK_DOCUMENT_H_

#include <string>
#include <vector>

namespace moelog::logbook {

// A problem found in a document, printed as "file:line: message".
struct Diagnostic {
  std::string file;
  int line = 0;
  std::string message;
  std::string ToString() const;
};

// A number stated in prose, e.g. "192.868 TF/s" -> {192.868, "TF/s"}.
// `unit` is empty when no known unit follows ("%", "TF/s", "tokens/s", "s", "ms", "x", "GB/s").
struct StatedNumber {
  double value = 0;
  std::string unit;
  std::string text;  // the number as written ("619304", "822,178")
};

// A shell command found in a document: an inline code span or a fenced block.
struct CommandText {
  std::string text;    // as written (fenced: the block's contents without the fences)
  std::string joined;  // backslash-newline continuations joined into one line, trimmed
  int line = 0;        // first line (fenced: the opening fence)
  int end_line = 0;    // last line (fenced: the closing fence, if any)
  bool fenced = false;
  std::string label;   // the bullet label it sits under ("Baseline", "Negative control"), or ""
  bool planned = false;  // listed under "Command (planned)"
  std::string composed;  // composed from the entry's stated flags (stated_command.h): why; "" as written
  bool prompted = false;  // read after a `$ ` prompt (a shell session's block or an inline span)
};

// A list item: its first paragraph's text and nested items.
struct Bullet {
  std::string text;        // inline text; code spans keep their backticks
  int line = 0;
  int end_line = 0;        // last line of the whole item (sub-items included)
  int content_indent = 0;  // column (0-based) where the item's content starts
  std::vector<std::string> code_spans;  // inline code contents, in order
  std::vector<StatedNumber> numbers;    // numbers stated in `text`
  std::vector<Bullet> children;
};

// A GFM table already present in the document.
struct TableBlock {
  int line = 0, end_line = 0;
  std::string subheading;  // in an entry: the sub-heading (###, ####, ...) it sits under, or "" (reader/blocks.h)
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};

// A fenced code block.
struct FencedBlock {
  std::string info;  // "bash", "" ...
  std::string text;
  int line = 0, end_line = 0;
  int indent = 0;    // column of the opening fence
  // In an entry's outputs (reader/blocks.h): the sub-heading it sits under
  // (or ""), and why it is output: "info" (a language that is no shell),
  // "label" (after an `Output:` label or under an Output sub-heading),
  // "after command", "looks like output", "prompt" (the printed lines of a
  // `$ ` session: `text` holds those lines only, `line` the first of them,
  // `end_line` the session's closing fence).
  std::string subheading;
  std::string output_cue;
};

enum class SectionKind {
  kScope, kLinks, kBaseline, kStopCriteria, kExperimentMatrix, kCommandTemplates,
  kExperimentIdPrefix, kExperimentLog, kNegativeResultsIndex, kCurrentStatus,
  kOverview, kPrerequisites, kNotes, kUnknown,
};

// A level-2 section ("## Baseline"). Unknown sections are kept as kUnknown.
struct Section {
  SectionKind kind = SectionKind::kUnknown;
  std::string name;      // heading text as written ("Experiment Matrix (Initial)")
  int heading_line = 0;
  int end_line = 0;      // last non-blank line before the next level-1/2 heading
  std::vector<Bullet> bullets;  // top-level list items, in order
  std::vector<FencedBlock> blocks;
  std::vector<TableBlock> tables;
};

// "- Name: value" directly under an entry (Hypothesis, Command, Config,
// Result, Interpretation, Next action, Change, Method, ...).
struct Field {
  std::string name;       // "Command"
  std::string qualifier;  // "planned" for "Command (planned):", "new" for "Result (new):"
  std::string value;      // text after the colon on the item's first paragraph
  Bullet bullet;          // the whole item (line range, sub-bullets)
};

// A paragraph of an entry's body (outside lists): its inline text on one
// line (soft breaks as spaces, code spans with their backticks), its lines,
// the text of a bold or emphasized lead ("**Arm A (tip).** ..." -> "Arm A
// (tip)."), and where each source line after the first starts in `text`.
struct Paragraph {
  std::string text;
  std::string lead;
  int line = 0, end_line = 0;
  std::vector<size_t> line_starts;
  std::vector<size_t> bold_line_starts;  // the line starts (of line_starts) where a bold span opens the line
  bool states_figure = false;  // result prose: it states a number with a unit (reader/blocks.h)
  bool output_label = false;   // "Output:", "Log:": it labels the block after it
  int LineAt(size_t offset) const;  // the source line holding text[offset]
};

// One Experiment Log entry: `### YYYY-MM-DD HH:MM - [ID ]label[ (confidence: X)]`.
// A configuration pin: a line `<!-- moelog: ep_dispatch=dense_masked -->`
// (one or more key=value, keys in the harness flags' snake case) inside an
// entry pins its runs; outside entries and the Stop Criteria section it pins
// every entry's. What the pin says is checked when the entry is planned.
struct Pin {
  std::string key, value;
  int line = 0;
};

struct Entry {
  int heading_line = 0;
  int end_line = 0;         // last non-blank line of the entry
  std::string heading;      // heading text
  std::string date;         // "2026-02-09"
  std::string time;         // "13:40"
  std::string explicit_id;  // "MOE-I8-004", or "" when the heading has none
  std::string id;           // explicit_id, or the derived stable ID (see entry_ids.h)
  std::string label;
  std::string confidence;   // "exploratory", "replicated", ... or ""
  // Why the reader took the heading for an entry (reader/segment.h): "dated",
  // "numbered", "log section", "journal" or "content". Undated entries
  // (date "") take their ID from their heading's words (entry_ids.h).
  std::string segment_rule;
  // The heading of a section above the entry that plans ("Expected Results"
  // over "### Phase 1"; reader/segment.h), else "".
  std::string plan_parent;
  // An entry headed by a list item of a dated log (doc/outline.h), not a
  // heading: the column its item's text starts at (its tables go inside the
  // item, the list stays one), else -1. It ends where its item ends.
  int item_indent = -1;
  // A deeper entry starts inside the span its heading's level gives it (`##
  // 2.` over `### 2.1`): the entry ends before that one, its parent.
  bool holds_entries = false;
  std::vector<Field> fields;
  std::vector<CommandText> commands;  // Command field spans + fenced blocks, in order
  std::vector<TableBlock> tables;     // tables in the entry (not moelog's own, in its regions)
  std::vector<FencedBlock> outputs;   // fenced blocks that are no shell (a harness's printed lines)
  std::vector<Bullet> notes;          // top-level bullets that are no field ("- Token scaling (EP ring, `impl=x`):")
  std::vector<Paragraph> paragraphs;  // top-level paragraphs of the entry, in order
  struct SubHeading {
    int line = 0;
    std::string text;  // inline text, code spans with their backticks
    int level = 0;     // its `#` count (0: not known)
  };
  std::vector<SubHeading> subheadings;  // headings below the entry's own (####), in order
  std::vector<Pin> pins;              // its configuration pins, in order
  const Field* FindField(const std::string& name) const;
  // Result bullets that state numbers, depth-first (the recorded figures).
  std::vector<const Bullet*> RecordedBullets() const;
  bool HasNonPlannedCommand() const;
};

struct Logbook {
  std::string file;
  std::string title;      // level-1 heading text
  int title_line = 0;
  std::string id_prefix;  // from "Experiment ID Prefix" (first code span or word), or ""
  std::vector<Section> sections;
  std::vector<Entry> entries;
  std::vector<Diagnostic> diagnostics;
  std::vector<Pin> pins;                // pins for every entry (outside entries and Stop Criteria)
  std::vector<Diagnostic> pin_errors;   // pin comments that are not key=value lists
  int line_count = 0;
  const Section* FindSection(SectionKind kind) const;
  const Entry* FindEntry(const std::string& id) const;
};

// One recipe step: a numbered item or a heading, with its shell blocks.
struct RecipeStep {
  int number = 0;           // 1-based order in the recipe
  std::string title;        // item / heading text
  int line = 0;
  int end_line = 0;         // last line of the step (its last block)
  std::vector<CommandText> commands;  // one per fenced shell block
  std::vector<FencedBlock> blocks;
  std::vector<std::string> notes;     // prose paragraphs / bullets within the step
};

struct Recipe {
  std::string file;
  std::string title;
  std::vector<RecipeStep> steps;
  std::vector<Section> sections;
  std::vector<Bullet> notes;  // bullets of the "Notes" section
  std::vector<Diagnostic> diagnostics;
  int line_count = 0;
};

const char* SectionKindName(SectionKind kind);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_DOCUMENT_H_
