// Reader stage blocks: what each part of an entry is. A fenced block is a
// command, an output (a program's printed lines), or both (a `$ `-prompted
// session: its prompt lines are commands, the rest their output); a
// paragraph is an output label ("Output:"), result prose (it states
// figures) or explanation. The words (labels, units, result-line words) are
// data: data/reader/blocks.json.
//
// Pure functions over texts: the document parser (doc/) walks the blocks
// and files each where these say.
#ifndef MOELOG_LOGBOOK_READER_BLOCKS_H_
#define MOELOG_LOGBOOK_READER_BLOCKS_H_

#include <string>
#include <string_view>
#include <vector>

namespace moelog::logbook {

// What the parser knows of a fenced block and where it sits.
struct FenceFacts {
  std::string_view info;  // the fence's info string ("bash", "", "text")
  std::string_view text;  // its contents
  bool after_command = false;   // the entry's previous block was a command
  bool output_label = false;    // right after an "Output:" label
  bool output_heading = false;  // under an "Output"/"Logs" sub-heading
  bool first_line_is_command = false;  // its first line reads as a command line (doc/command_line.h)
  bool has_command_line = false;       // some line of it reads as a command line
};

// kText: a bare block that is neither a command nor a program's output
// (pseudo-code, a directory tree): nothing is run or read from it.
enum class FenceRole { kCommand, kOutput, kPrompted, kText };

// The role of a fenced block, and why it is an output (`cue`: "info",
// "label", "after command", "looks like output"), or "" for a command.
FenceRole ClassifyFence(const FenceFacts& f, std::string* cue);

// Whether a bare block holds no line that reads as a command (NoCommandIn).
bool NoCommandIn(const FenceFacts& f);

// True when the fence's info names a shell (or is empty): its text was
// always read as a command.
bool IsShellFence(std::string_view info);

// One part of a `$ `-prompted block: a command (its text without the
// prompt, continuation lines included) or the output lines after it.
// Lines are 0-based offsets into the block's text.
struct PromptPart {
  bool command = false;
  std::string text;
  int first_line = 0, last_line = 0;
};

// True when the block's first non-blank line starts with a prompt
// ("$ cmd", "(venv) $ cmd", "user@host:~/dir$ cmd").
bool HasPrompt(std::string_view text);
std::vector<PromptPart> SplitPrompted(std::string_view text);

// An inline span "$ cmd ...": the command after the prompt, or "".
std::string_view AfterPrompt(std::string_view span);

// A paragraph (or a list item) that labels the block after it as output:
// "Output:", "**Log:**", "stdout:", "Results (8xH100):".
bool IsOutputLabel(std::string_view text);
// One word of such a label that says "output" ("output", "result", "log").
bool IsOutputLabelWord(std::string_view word);
// A sub-heading under which blocks are output: "Output", "Raw logs".
bool IsOutputHeading(std::string_view text);

// Lines that read as a program's printed output: aligned numeric columns,
// key=value lines, RESULT lines, JSON lines, CSV, figures with units.
bool LooksLikeOutput(std::string_view text);

// A fence that starts with a command and holds that command's printed
// lines after it (`python bench.py \` ... then a blank line and a result
// banner): the 0-based line where the printed lines start, or -1 when the
// rest is no output (another command, a script). `is_command` says whether
// a line reads as a command line (doc/command_line.h).
// Whether some line of `text` (trimmed) satisfies `pred`.
bool AnyLine(std::string_view text, bool (*pred)(std::string_view));

// A fence of one command followed by the lines it printed, or of several
// such (a terminal pasted without prompts; each command after a blank line
// but the first): the parts, 0-based lines (the command's first line, its
// first printed line, one past its last), or none when some command printed
// nothing that reads as output or the rest is no transcript.
struct TranscriptPart {
  int command = 0, printed = 0, end = 0;
};
// `first_is_command`: the block's first line is a command whatever it reads
// as (a fence the author named a shell: ```bash).
std::vector<TranscriptPart> CommandTranscript(std::string_view text, bool (*is_command)(std::string_view),
                                              bool first_is_command = false);

// Lines outside any fence that a program printed, read strictly (three
// lines at least, nearly all `Name: value`, key=value, JSON or banner
// lines, or two such lines under a one-word title: "CONC4:"): a serving
// benchmark's result pasted as plain text.
bool PrintedLines(std::string_view text);

// A line of one word and its colon that titles the printed lines below it
// ("CONC4:", "bs32:", "CONC32：" with a full-width colon).
bool OneWordTitle(std::string_view t);

// A short name over lines below it that holds no number of its own (digits
// only inside words: `FP4->FP16 instead of FP4->FP32`, never `a 2us boost`):
// at most 80 bytes and 10 words, with letters, not a sentence's end.
bool NumberlessTitle(std::string_view t);
// Lines outside any fence that a bench tool printed (three lines at least,
// BenchToolPrintout: wrk's "Running 30s test @ http://..." and its
// statistics, criterion's lines): a printout pasted as a paragraph.
bool PastedToolPrintout(std::string_view text);

// A block quote whose first paragraph is `first` and last `last` quotes
// another source or an earlier entry (`> From the paper: ...`, `> Previous
// best: 1.3 ms`, `> — vendor docs` at its end; data/reader/blocks.json):
// none of it is the entry's. Any other quote (`> **Status:** blocked`, `>
// Result: 1.21 ms (p50)`) is the entry's own text.
bool QuotesAnotherSource(std::string_view first, std::string_view last);

// Prose that states a figure: a number with a unit ("0.31 ms", "28.5x",
// "412k tok/s").
bool StatesFigure(std::string_view text);
// The same, with a unit in any spelling the figures stage knows ("123 165
// cyc", "1.20\u00d7"): for a heading, whose words are few and chosen.
bool HeadingStatesFigure(std::string_view text);

// A program named by its tool's subcommand (`npm run`, `cargo bench`, `nsys profile`).
bool IsSubcommandTool(std::string_view program);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_READER_BLOCKS_H_
