// A bench tool's printout pasted in paragraphs: one output.
#include "logbook/doc/pasted_printout.h"

#include <string>

#include "logbook/doc/command_line.h"
#include "logbook/reader/blocks.h"
#include "logbook/reader/blocks_benchtools.h"
#include "logbook/text.h"

namespace moelog::logbook {
namespace {

// A line of prose: six words or more ending in a sentence's mark.
bool SentenceLine(std::string_view l) {
  const std::string t = Trim(l);
  if (t.empty() || (t.back() != '.' && t.back() != '!' && t.back() != '?')) return false;
  int words = 1;
  for (char c : t) words += c == ' ' ? 1 : 0;
  return words >= 6;
}

// Whether the source lines strictly between `from` and `to` (1-based) are blank.
bool BlankBetween(const std::vector<std::string_view>& lines, int from, int to) {
  for (int l = from + 1; l < to; ++l)
    if (!Trim(lines[static_cast<size_t>(l - 1)]).empty()) return false;
  return true;
}

// The printout a paragraph of the entry ending right above `n` opens on one
// of its lines after a command's (`$ ab -n 500 ...` in a code span, then
// "This is ApacheBench, ..."): made the entry's last output, from that line
// on. False when it opens none.
bool OpenedAbove(const MdNode& n, const std::vector<std::string_view>& lines, Entry* e) {
  if (e->paragraphs.empty()) return false;
  const Paragraph& p = e->paragraphs.back();
  if (p.end_line >= n.start_line || p.line < 1 || !BlankBetween(lines, p.end_line, n.start_line)) return false;
  if (!e->outputs.empty() && e->outputs.back().end_line >= p.line) return false;
  for (int k = p.line; k <= p.end_line && k <= p.line + 1; ++k) {
    std::string text;
    for (int l = k; l <= p.end_line; ++l) text.append(lines[static_cast<size_t>(l - 1)]).push_back('\n');
    if (!BenchToolPrintout(text)) continue;
    FencedBlock b;
    b.text = std::move(text);
    b.line = k - 1;  // its first line is the block's first, as in a fence
    b.end_line = p.end_line;
    b.output_cue = "looks like output";
    e->outputs.push_back(std::move(b));
    return true;
  }
  return false;
}

}  // namespace

bool ContinuesPastedPrintout(const MdNode& n, const std::vector<std::string_view>& lines, Entry* e) {
  if (n.start_line < 1 || n.end_line > static_cast<int>(lines.size())) return false;
  std::string text;
  for (int l = n.start_line; l <= n.end_line; ++l) {
    const std::string_view line = lines[static_cast<size_t>(l - 1)];
    if (SentenceLine(line) || !AfterPrompt(line).empty() || (l == n.start_line && FirstLineIsCommand(line))) return false;
    text.append(line).push_back('\n');
  }
  if (BenchToolPrintout(text)) return false;  // a printout of its own: the next run's
  // Words without a digit ("Run without the cache", "Запуск без кэша") are
  // a caption of the printout after them, in any language: no printed line.
  if (text.find_first_of("0123456789") == std::string::npos) return false;
  const bool above = !e->outputs.empty() && e->outputs.back().end_line < n.start_line &&
                     e->outputs.back().end_line >= 1 && BlankBetween(lines, e->outputs.back().end_line, n.start_line);
  if (!above && !OpenedAbove(n, lines, e)) return false;
  FencedBlock& out = e->outputs.back();
  if (out.output_cue != "looks like output" && out.output_cue != "prompt") return false;
  const std::string last = Trim(lines[static_cast<size_t>(out.end_line - 1)]);
  if (last.rfind("```", 0) == 0 || last.rfind("~~~", 0) == 0 || !BenchToolPrintout(out.text)) return false;  // a fence's
  if (!out.text.empty() && out.text.back() != '\n') out.text.push_back('\n');
  out.text.append(static_cast<size_t>(n.start_line - out.end_line - 1), '\n');
  out.text += text;
  out.end_line = n.end_line;
  return true;
}

}  // namespace moelog::logbook
