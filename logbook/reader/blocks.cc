#include "logbook/reader/blocks.h"
#include "logbook/reader/blocks_boxes.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <set>

#include "logbook/reader/blocks_benchtools.h"
#include "logbook/reader/blocks_text.h"
#include "logbook/reader/data_words.h"
#include "logbook/reader/figures_progressbar.h"
#include "logbook/reader/figures_serieslines.h"
#include "logbook/reader/figures_toollines.h"
#include "logbook/reader/vocabulary.h"
#include "logbook/text.h"

namespace moelog::logbook {

namespace {

struct BlockWords {
  std::set<std::string> labels, headings, sessions, result_words, units, settings_languages, monitor_banners;
  std::set<std::string> tools;  // output.json's subcommand_tools and subcommand_programs
};

const BlockWords& Words() {
  static const BlockWords words = [] {
    BlockWords w;
    auto take = [](const char* key, std::set<std::string>* into) { *into = reader::DataWords("data/reader/blocks.json", key); };
    take("output_labels", &w.labels);
    take("output_headings", &w.headings);
    take("shell_session_infos", &w.sessions);
    take("result_words", &w.result_words);
    take("units", &w.units);
    take("settings_languages", &w.settings_languages);
    take("monitor_banners", &w.monitor_banners);
    w.tools = reader::DataWords("data/reader/output.json", "subcommand_tools");
    w.tools.merge(reader::DataWords("data/reader/output.json", "subcommand_programs"));
    return w;
  }();
  return words;
}

std::string_view InfoLang(std::string_view info) {
  info = info.substr(0, info.find(' '));
  while (!info.empty() && (info.back() == ' ' || info.back() == '\t')) info.remove_suffix(1);
  return info;
}

// The first non-blank line of a text.
std::string_view FirstLine(std::string_view text) {
  size_t p = 0;
  while (p < text.size()) {
    const size_t nl = text.find('\n', p);
    const std::string_view l = text.substr(p, nl == std::string_view::npos ? std::string_view::npos : nl - p);
    if (l.find_first_not_of(" \t\r") != std::string_view::npos) return l;
    if (nl == std::string_view::npos) break;
    p = nl + 1;
  }
  return {};
}

// Where the command after a prompt starts in `line`, or npos.
size_t PromptEnd(std::string_view line) {
  size_t p = line.find_first_not_of(" \t");
  if (p == std::string_view::npos) return p;
  if (line[p] == '(') {  // "(venv) $ cmd"
    const size_t close = line.find(')', p);
    if (close == std::string_view::npos || close - p > 40) return std::string_view::npos;
    p = line.find_first_not_of(' ', close + 1);
    if (p == std::string_view::npos) return p;
  }
  if (line.compare(p, 2, "$ ") == 0) return p + 2;
  // "user@host:~/dir$ cmd", "root@box:~/bench# cmd": one word naming a
  // host or a folder, ending in '$' (or '#' after a user@host).
  const size_t sp = line.find(' ', p);
  if (sp == std::string_view::npos || sp - p > 80 || sp == p) return std::string_view::npos;
  const std::string_view word = line.substr(p, sp - p);
  const bool at = word.find('@') != std::string_view::npos;
  if (word.back() == '$' && (at || word.find(':') != std::string_view::npos)) return sp + 1;
  return word.back() == '#' && at && word.find(':') != std::string_view::npos ? sp + 1 : std::string_view::npos;
}

// Three digits from `p` and no fourth: a group of a number's thousands.
bool GroupOfThree(std::string_view t, size_t p) {
  for (size_t k = p; k < p + 3; ++k)
    if (k >= t.size() || !std::isdigit(static_cast<unsigned char>(t[k]))) return false;
  return p + 3 >= t.size() || !std::isdigit(static_cast<unsigned char>(t[p + 3]));
}

bool IsNumberToken(std::string_view t) {
  while (!t.empty() && (t.back() == ',' || t.back() == '%' || t.back() == 'x')) t.remove_suffix(1);
  if (t.empty()) return false;
  size_t p = (t[0] == '-' || t[0] == '+') ? 1 : 0;
  bool digit = false;
  for (; p < t.size(); ++p) {
    if (std::isdigit(static_cast<unsigned char>(t[p]))) digit = true;
    else if (t[p] == ',' && digit && GroupOfThree(t, p + 1)) continue;  // "438,403": thousands grouped
    else if (t[p] != '.' && t[p] != 'e' && t[p] != 'E' && t[p] != '-') return false;
  }
  return digit;
}

std::vector<std::string_view> Tokens(std::string_view l) {
  std::vector<std::string_view> out;
  size_t p = 0;
  while (p < l.size()) {
    while (p < l.size() && (l[p] == ' ' || l[p] == '\t' || l[p] == '|')) ++p;
    const size_t a = p;
    while (p < l.size() && l[p] != ' ' && l[p] != '\t' && l[p] != '|') ++p;
    if (p > a) out.push_back(l.substr(a, p - a));
  }
  return out;
}

// key=value pairs with a value that starts with a digit ("loss=3.28").
int KeyValues(std::string_view l) {
  int n = 0;
  for (size_t eq = l.find('='); eq != std::string_view::npos; eq = l.find('=', eq + 1))
    if (eq > 0 && eq + 1 < l.size() && std::isalnum(static_cast<unsigned char>(l[eq - 1])) &&
        (std::isdigit(static_cast<unsigned char>(l[eq + 1])) || l[eq + 1] == '-' || l[eq + 1] == '.'))
      ++n;
  return n;
}

// Whether a line opening with for/if/while is the shell's ("for t in 1 2;
// do", "if [ -f x ]; then"), not pseudo-code's ("For each (batch, head):",
// "if x > 0:").
bool ShellControl(std::string_view t, const std::vector<std::string_view>& tokens) {
  if (tokens.size() >= 3 && tokens[2] == "in") return true;
  for (const char* mark : {"; do", ";do", "; then", ";then", "[ ", "[[", "(("})
    if (t.find(mark) != std::string_view::npos) return true;
  return false;
}

// A line a shell script holds rather than a program prints: an assignment
// ("NUM=4", "export X=1"), a comment, a control word, a continuation.
bool ShellishLine(std::string_view l) {
  const std::string t = Trim(l);
  if (t.empty()) return false;
  if (t[0] == '#' || t.back() == '\\' || t.rfind("./", 0) == 0) return true;
  const auto tokens = Tokens(t);
  const std::string first = LowerAscii(tokens.empty() ? std::string_view{} : tokens[0]);
  for (const char* w : {"export", "cd", "then", "fi", "do", "done", "source", "set", "echo", "unset"})
    if (first == w) return true;
  if ((first == "for" || first == "if" || first == "while") && ShellControl(t, tokens)) return true;
  // "vllm bench serve --request-rate 2 --num-prompts 50": a program word, then its flags.
  if (tokens.size() >= 2 && std::isalpha(static_cast<unsigned char>(first[0])) && first.back() != ':' &&
      std::any_of(tokens.begin() + 1, tokens.end(), [](std::string_view w) {
        return w.size() > 2 && w.substr(0, 2) == "--" && std::isalpha(static_cast<unsigned char>(w[2]));
      }))
    return true;
  const size_t eq = first.find('=');
  return eq != std::string::npos && eq > 0 && tokens.size() == 1 &&
         std::all_of(first.begin(), first.begin() + static_cast<std::ptrdiff_t>(eq),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// A strictly printed line: JSON, key=value, a banner ("==== Result ===="),
// or "Name: value" with at most a value and its unit after the colon.
// A printed record of three fields or more, each a name and a number,
// split by '|' ("step 56 | loss: 8.319 | lr 4.78e-05 | dt: 4875.88ms"), or
// three key=value spans: a training loop's or a bench's line.
bool RecordLine(std::string_view t) {
  std::string digits, unit, event;
  if (KeyValues(t) >= 3 || StatisticLine(t) || ElapsedStamp(t, &digits, &unit, &event)) return true;
  int fields = 0;
  for (size_t b = 0; b <= t.size() && fields < 3;) {
    size_t e = t.find('|', b);
    if (e == std::string_view::npos) e = t.size();
    const std::string f = Trim(t.substr(b, e - b));
    size_t k = 0;
    while (k < f.size() && (std::isalpha(static_cast<unsigned char>(f[k])) || f[k] == '/' || f[k] == '_' ||
                            f[k] == ' ' || f[k] == '-'))
      ++k;
    size_t v = k < f.size() && f[k] == ':' ? k + 1 : k;
    while (v < f.size() && f[v] == ' ') ++v;
    const bool named = k > 0 && std::isalpha(static_cast<unsigned char>(f[0])) && (v > k || f[k - 1] == ' ');
    if (named && f.size() <= 48 && v < f.size() && std::isdigit(static_cast<unsigned char>(f[v]))) ++fields;
    b = e + 1;
  }
  return fields >= 3;
}

bool StrictPrintedLine(std::string_view l) {
  const std::string t = Trim(l);
  if (t.empty()) return false;
  if (RecordLine(t) || RunHeaderLine(t)) return true;
  if ((t.front() == '{' && t.back() == '}') || KeyValues(t) >= 1) return true;
  if (t.rfind("===", 0) == 0 || t.rfind("---", 0) == 0) return true;
  const size_t colon = t.find(": ");
  if (colon == std::string::npos || colon == 0 || colon > 60) return false;
  const auto after = Tokens(std::string_view(t).substr(colon + 1));
  return !after.empty() && after.size() <= 2;
}

std::vector<std::string_view> SplitLines(std::string_view text) {
  std::vector<std::string_view> out;
  size_t p = 0;
  while (p < text.size()) {
    const size_t nl = text.find('\n', p);
    out.push_back(text.substr(p, nl == std::string_view::npos ? std::string_view::npos : nl - p));
    if (nl == std::string_view::npos) break;
    p = nl + 1;
  }
  return out;
}


// A program's progress message: a short line that starts or ends with an
// ellipsis ("Initializing data...", " ...comparing the results", "Loading
// weights…"); no shell line is written so.
bool ProgressMessage(const std::string& t) {
  auto ellipsis_at = [&](size_t p) { return t.compare(p, 3, "...") == 0 || t.compare(p, 3, "\xE2\x80\xA6") == 0; };
  if (t.size() < 6 || t.size() > 100 || (!ellipsis_at(0) && !ellipsis_at(t.size() - 3))) return false;
  return std::any_of(t.begin(), t.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; });
}

// "[ 510] 9.4s/step": a log line that starts with its counter, never a command.
bool CounterLine(std::string_view l) { return CounterEnd(Trim(l)) > 0; }

// One line of printed output: JSON, CSV, key=value, a result word, two
// numbers or more, or a figure with its unit.
bool OutputLine(std::string_view l) {
  const std::string t = Trim(l);
  if (t.empty()) return false;
  if ((t.front() == '{' && t.back() == '}') || (t.front() == '[' && t.back() == ']')) return true;
  if (t.front() == '[' && reader::ToolLineForm(t) != t) return true;  // "[READ], AverageLatency(us), 1114.39"
  if (KeyValues(t) >= 1 || CounterLine(t)) return true;
  if (std::string bar; reader::ProgressBarForm(t, &bar)) return true;  // "eval: 100%|####| 50/50 [01:50<00:00, 2.21s/it]"
  if (ProgressMessage(t)) return true;  // "Initializing data...", "...allocating GPU memory"
  if (StrictPrintedLine(t) && std::any_of(t.begin(), t.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
    return true;
  const auto tokens = Tokens(t);
  // "Q read:  25,165,824   3 * B * H * S * D * 2": the author's arithmetic beside a figure, no printout.
  if (std::count(tokens.begin(), tokens.end(), std::string_view("*")) >= 2) return false;
  int numbers = 0;
  for (std::string_view tok : tokens) numbers += IsNumberToken(tok) ? 1 : 0;
  if (numbers >= 2) return true;
  if (!tokens.empty()) {
    std::string first = LowerAscii(tokens[0]);
    while (!first.empty() && (first.back() == ':' || first.back() == ',')) first.pop_back();
    if (numbers >= 1 && Words().result_words.count(first)) return true;
  }
  // A CSV row (a header too): two fields or more, none empty, no blanks.
  if (t.find(',') != std::string::npos && t.find(' ') == std::string::npos && t.find(",,") == std::string::npos &&
      t.front() != ',' && t.back() != ',')
    return true;
  return StatesFigure(t);
}

}  // namespace

bool IsShellFence(std::string_view info) {
  const std::string lang = LowerAscii(InfoLang(info));
  return lang.empty() || lang == "bash" || lang == "sh" || lang == "shell" || lang == "console" || lang == "zsh" ||
         lang == "shell-session";
}

bool HasPrompt(std::string_view text) {
  const std::string_view first = FirstLine(text);
  return !first.empty() && PromptEnd(first) != std::string_view::npos;
}

std::string_view AfterPrompt(std::string_view span) {
  const size_t p = PromptEnd(span);
  if (p == std::string_view::npos || span.find('\n') != std::string_view::npos) return {};
  return span.substr(p);
}

std::vector<PromptPart> SplitPrompted(std::string_view text) {
  std::vector<PromptPart> parts;
  bool continuing = false;
  int line = 0;
  for (size_t p = 0; p <= text.size(); ++line) {
    const size_t nl = text.find('\n', p);
    if (nl == std::string_view::npos && p == text.size()) break;
    std::string_view l = text.substr(p, nl == std::string_view::npos ? std::string_view::npos : nl - p);
    p = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    const size_t prompt = continuing ? std::string_view::npos : PromptEnd(l);
    const bool command = continuing || prompt != std::string_view::npos;
    if (!command && Trim(l).empty() && (parts.empty() || !parts.back().command)) {
      if (!parts.empty()) parts.back().text += "\n";
      continue;
    }
    if (parts.empty() || parts.back().command != command || (prompt != std::string_view::npos)) {
      parts.push_back({command, "", line, line});
    }
    PromptPart& part = parts.back();
    part.text.append(prompt == std::string_view::npos ? l : l.substr(prompt));
    part.text += "\n";
    part.last_line = line;
    const std::string_view t = Trim(l).empty() ? std::string_view{} : l;
    continuing = command && !t.empty() && t.back() == '\\';
  }
  for (PromptPart& part : parts)  // an output's trailing blank lines
    while (!part.command && part.text.size() > 1 && part.text[part.text.size() - 2] == '\n') part.text.pop_back();
  return parts;
}

bool IsOutputLabel(std::string_view text) {
  std::string t;
  for (char c : text)
    if (c != '*' && c != '_') t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  t = Trim(t);
  if (t.size() < 3 || t.size() > 60 || t.back() != ':') return false;
  t.pop_back();
  t = Trim(t.substr(0, t.find('(')));
  const size_t sp = t.rfind(' ');
  const std::string last = sp == std::string::npos ? t : t.substr(sp + 1);
  return Words().labels.count(last) > 0 && std::count(t.begin(), t.end(), ' ') <= 4;
}

bool IsOutputLabelWord(std::string_view word) { return Words().labels.count(LowerAscii(word)) > 0; }

bool IsOutputHeading(std::string_view text) {
  std::string t = LowerAscii(text);
  t = Trim(t.substr(0, t.find('(')));
  while (!t.empty() && t.back() == ':') t.pop_back();
  return Words().headings.count(t) > 0;
}

namespace {

// "**Cycles:** 147,734", "Throughput (tok/s): 1,080": a label whose last
// word (or parenthetical) is a unit, then a number: a figure whose unit is
// written before it.
bool UnitLabelFigure(std::string_view text) {
  const size_t colon = text.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon > 60) return false;
  std::string label;
  for (char c : text.substr(0, colon))
    if (c != '*' && c != '_' && c != '`') label += c;
  label = LowerAscii(Trim(label));
  if (!label.empty() && label.back() == ')') {
    label.pop_back();
    label = label.substr(label.rfind('(') == std::string::npos ? 0 : label.rfind('(') + 1);
  }
  const std::string last = label.substr(label.rfind(' ') == std::string::npos ? 0 : label.rfind(' ') + 1);
  if (last.size() < 2 || !Words().units.count(last)) return false;
  size_t p = colon + 1;
  while (p < text.size() && (text[p] == ' ' || text[p] == '*' || text[p] == '`')) ++p;
  return p < text.size() && std::isdigit(static_cast<unsigned char>(text[p]));
}

}  // namespace

// For a heading: a factor written "×" after the number at `i`, or a unit of
// the figures stage's vocabulary in any spelling ("123165 cyc", "8.1 Mops"),
// unless the number is the level a run was set to ("vegeta at 500 rps", "@ 8 GPUs").
static bool HeadingFigureUnit(std::string_view text, size_t i, const std::string& written) {
  if (written == "\xC3\x97") return true;
  const bool at = (i >= 3 && LowerAscii(text.substr(i - 3, 3)) == "at ") || (i >= 1 && text[i - 1] == '@') ||
                  (i >= 2 && text.substr(i - 2, 2) == "@ ");
  reader::UnitInfo info{};
  return !at && written.size() >= 2 && reader::UnitIn(reader::ReaderLexicon(), written, &info) && !info.derived &&
         !info.metric.empty();
}

static bool StatesFigureIn(std::string_view text, bool any_unit) {
  if (UnitLabelFigure(text)) return true;
  const auto& units = Words().units;
  for (size_t i = 0; i < text.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) continue;
    if (i > 0 && (std::isalpha(static_cast<unsigned char>(text[i - 1])) || text[i - 1] == '_')) {
      while (i < text.size() && std::isalnum(static_cast<unsigned char>(text[i]))) ++i;
      continue;
    }
    size_t j = i;
    while (j < text.size() && (std::isdigit(static_cast<unsigned char>(text[j])) || text[j] == '.' || text[j] == ',')) ++j;
    size_t u = j < text.size() && text[j] == ' ' ? j + 1 : j;
    size_t e = u;
    while (e < text.size() && e - u < 12 && !std::isspace(static_cast<unsigned char>(text[e])) && text[e] != ',' &&
           text[e] != ';' && text[e] != ')' && text[e] != '`')
      ++e;
    std::string written(text.substr(u, e - u));
    while (!written.empty() && (written.back() == '.' || written.back() == ':')) written.pop_back();
    const std::string unit = LowerAscii(written);
    if (!unit.empty() && units.count(unit)) return true;
    if (any_unit && HeadingFigureUnit(text, i, written)) return true;
    // A rate in any unit the figures stage knows ("1.3 MH/s", "41,200 ops/s").
    if (reader::UnitInfo info{}; written.find('/') != std::string::npos &&
                                 reader::UnitIn(reader::ReaderLexicon(), written, &info) && !info.derived)
      return true;
    i = j;
  }
  return false;
}

bool StatesFigure(std::string_view text) { return StatesFigureIn(text, false); }
bool HeadingStatesFigure(std::string_view text) { return StatesFigureIn(text, true); }

namespace {

// A number of a heading that stands as a word of its own (not glued to a
// word before it: "v2", "H100", "fp16"; not a version "12.4.1"), and the
// unit written right after it, glued or after one blank ("" when none).
struct HeadingNumber {
  size_t end = 0;
  int decimals = 0;
  bool first = false;  // the heading's first word
  std::string unit;
};

std::vector<HeadingNumber> HeadingNumbers(std::string_view h) {
  std::vector<HeadingNumber> out;
  auto digit = [&](size_t k) { return k < h.size() && std::isdigit(static_cast<unsigned char>(h[k])); };
  bool words_before = false;
  for (size_t i = 0; i < h.size() && out.size() < 32; ++i) {
    const unsigned char c = static_cast<unsigned char>(h[i]);
    if (!std::isdigit(c)) {
      words_before = words_before || std::isalpha(c);
      continue;
    }
    const bool glued = i > 0 && (std::isalnum(static_cast<unsigned char>(h[i - 1])) || h[i - 1] == '_' ||
                                 h[i - 1] == '.' || h[i - 1] == '-' || h[i - 1] == '/');
    size_t j = i;
    while (digit(j)) ++j;
    int decimals = 0;
    if (j + 1 < h.size() && h[j] == '.' && digit(j + 1))
      for (++j; digit(j); ++j) ++decimals;
    const bool version = j + 1 < h.size() && h[j] == '.' && digit(j + 1);
    if (!glued && !version) {
      HeadingNumber n;
      n.end = j;
      n.decimals = decimals;
      n.first = !words_before;
      size_t u = j < h.size() && h[j] == ' ' ? j + 1 : j;
      size_t e = u;
      while (e < h.size() && e - u < 12 && !std::isspace(static_cast<unsigned char>(h[e])) && h[e] != ',' &&
             h[e] != ';' && h[e] != ')' && h[e] != '(' && h[e] != '`')
        ++e;
      std::string unit = LowerAscii(h.substr(u, e - u));
      while (!unit.empty() && (unit.back() == '.' || unit.back() == ':')) unit.pop_back();
      if (!unit.empty() && Words().units.count(unit)) n.unit = unit;
      else if (u == j && j < h.size() && std::isalpha(static_cast<unsigned char>(h[j]))) n.unit.assign(1, '?');  // "4k", "2nd"
      out.push_back(n);
    }
    while (i < h.size() && (std::isalnum(static_cast<unsigned char>(h[i])) || h[i] == '.')) ++i;
    words_before = true;
  }
  return out;
}

bool RatioUnit(const std::string& unit) { return unit == "x" || unit == "%" || unit == "?"; }

}  // namespace

HeadingUnit HeadingsUnit(const std::vector<std::string>& headings) {
  std::set<std::string> units;
  std::set<int> decimals;
  int stating = 0;
  for (const auto& h : headings) {
    bool states = false;
    for (const auto& n : HeadingNumbers(h.size() > 400 ? std::string_view(h).substr(0, 400) : std::string_view(h)))
      if (!n.unit.empty() && !RatioUnit(n.unit)) units.insert(n.unit), decimals.insert(n.decimals), states = true;
    stating += states ? 1 : 0;
  }
  if (units.size() != 1 || decimals.size() != 1 || stating < 2 || *decimals.begin() < 1) return {};
  return {*units.begin(), *decimals.begin()};
}

std::string WithHeadingUnit(const std::string& heading, const HeadingUnit& u) {
  if (u.unit.empty() || heading.size() > 400) return heading;
  std::string out = heading;
  const auto numbers = HeadingNumbers(heading);
  for (auto it = numbers.rbegin(); it != numbers.rend(); ++it)  // from the end: earlier offsets stay
    if (it->unit.empty() && !it->first && it->decimals == u.decimals) out.insert(it->end, " " + u.unit);
  return out;
}

namespace {

// A line of one mark repeated ("=====", "-----"), three at least.
bool RuleOnly(const std::string& t) {
  return t.size() >= 3 && (t[0] == '=' || t[0] == '-') && t.find_first_not_of(t[0]) == std::string::npos;
}

// A row of a table printed in Markdown ("| model | size | t/s |", llama-bench's
// and many harnesses' printouts): a printed line, whatever its cells hold.
bool PrintedPipeRow(const std::string& t) {
  return t.size() >= 5 && t.front() == '|' && t.back() == '|' && std::count(t.begin(), t.end(), '|') >= 3;
}

}  // namespace

bool LooksLikeOutput(std::string_view text) {
  // A bench tool's printout: its machine lines hold no figure, yet it is output.
  if (BenchToolPrintout(text)) return true;
  if (FramedLines(SplitLines(text))) return true;  // a table or banner drawn in boxes
  int lines = 0, output = 0, script = 0, statements = 0;
  size_t p = 0;
  while (p < text.size() && lines < 200) {
    const size_t nl = text.find('\n', p);
    const std::string_view l = text.substr(p, nl == std::string_view::npos ? std::string_view::npos : nl - p);
    p = nl == std::string_view::npos ? text.size() : nl + 1;
    if (Trim(l).empty() || RuleOnly(Trim(l))) continue;  // a printout's rule ("=====") says nothing either way
    ++lines;
    std::string report;
    // A section title naming its numbers' unit and series ("IOPS (Read/Write)") is the printout's.
    output += OutputLine(l) || ReportLine(l, &report) || reader::PrintedSeriesTitle(Trim(l)) || PrintedPipeRow(Trim(l)) ? 1 : 0;
    const bool shellish = ShellishLine(l);
    script += shellish ? 1 : 0;
    statements += shellish && Trim(l)[0] != '#' ? 1 : 0;
  }
  // "# --wait=60: wait 60 sec ..." over "export NCCL_ASYNC_ERROR_HANDLING=1": a
  // script's comments and statements, however much the comments read like output.
  if (statements > 0 && 2 * script >= lines) return false;
  return lines > 0 && 2 * output >= lines;
}

// Whether a block holds a device monitor's status screen (a line holding
// one of monitor_banners: "| NVIDIA-SMI 535.104.05 ...").
static bool MonitorScreen(std::string_view text) {
  for (std::string_view l : SplitLines(text)) {
    const std::string lower = LowerAscii(l.substr(0, std::min<size_t>(l.size(), 200)));
    for (const auto& banner : Words().monitor_banners)  // read in lower case
      if (lower.find(banner) != std::string::npos) return true;
  }
  return false;
}

FenceRole ClassifyFence(const FenceFacts& f, std::string* cue) {
  cue->clear();
  const std::string lang = LowerAscii(InfoLang(f.info));
  // A style sheet or a configuration file (```css, ```yaml, ```toml): the
  // values it sets, neither a command nor a printout.
  if (Words().settings_languages.count(lang) || MonitorScreen(f.text)) return FenceRole::kText;
  if (!IsShellFence(f.info)) {
    *cue = "info";
    return FenceRole::kOutput;
  }
  if (HasPrompt(f.text)) return FenceRole::kPrompted;
  if (BenchToolPrintout(f.text)) {  // criterion's, Google Benchmark's lines: plainly output
    *cue = "looks like output";
    return FenceRole::kOutput;
  }
  // A block the author named a shell is a command, as always; a bare block
  // (or a session) is one unless where it sits or what it holds says output.
  if (!lang.empty() && !Words().sessions.count(lang)) {
    // A shell-named block that holds no command and reads as printed lines
    // ("Latency: 0.67 ms" pasted into a ```bash fence) is output all the same.
    if (f.first_line_is_command || f.has_command_line || !LooksLikeOutput(f.text)) return FenceRole::kCommand;
    for (std::string_view l : SplitLines(f.text))
      if (ShellishLine(l)) return FenceRole::kCommand;
    *cue = "looks like output";
    return FenceRole::kOutput;
  }
  std::string report;  // a profiler's report line ("[6/8] Executing 'osrt_sum' stats report") is no command
  const std::string_view first = FirstLine(f.text);
  const bool command_first = f.first_line_is_command && !CounterLine(first) && !ReportLine(first, &report) &&
                             !reader::PrintedSeriesTitle(Trim(first));
  if ((f.output_label || f.output_heading) && !command_first) *cue = "label";
  else if (f.after_command && !command_first) *cue = "after command";
  else if (!command_first && LooksLikeOutput(f.text)) *cue = "looks like output";
  if (!cue->empty()) return FenceRole::kOutput;
  return NoCommandIn(f) ? FenceRole::kText : FenceRole::kCommand;
}

// A bare block none of whose lines reads as a command or a shell script's
// (pseudo-code, a directory tree, a config file): neither command nor
// output. One word alone ("nvidia-smi") is still taken for a command.
bool NoCommandIn(const FenceFacts& f) {
  if (f.first_line_is_command || f.has_command_line) return false;
  const std::vector<std::string_view> lines = SplitLines(f.text);
  size_t words = 0;
  for (std::string_view l : lines) {
    if (ShellishLine(l)) return false;
    words += Tokens(Trim(l)).size();
  }
  return words > 1;
}

// "M = 4096", "L = 128 : 32 * 4": a program's echo of a setting (a shell
// never writes blanks around `=`).
static bool SpacedSetting(const std::string& t) {
  const auto tokens = Tokens(t);
  return tokens.size() >= 3 && tokens[1] == "=" && IsNumberToken(tokens[2]) &&
         std::all_of(tokens[0].begin(), tokens[0].end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

std::vector<TranscriptPart> CommandTranscript(std::string_view text, bool (*is_command)(std::string_view),
                                              bool first_is_command) {
  const std::vector<std::string_view> lines = SplitLines(text);
  std::vector<TranscriptPart> parts;
  size_t i = 0;
  while (i < lines.size() && Trim(lines[i]).empty()) ++i;
  while (i < lines.size()) {
    if (!(first_is_command && parts.empty()) && !is_command(Trim(lines[i]))) return {};
    TranscriptPart part;
    part.command = static_cast<int>(i);
    // Its continuations: after a backslash, or while a quote is open (a
    // long argument wrapped where the terminal's width ended).
    for (int quotes = 0; i < lines.size() && !Trim(lines[i]).empty(); ++i) {
      quotes += static_cast<int>(std::count(lines[i].begin(), lines[i].end(), '\''));
      if (Trim(lines[i]).back() != '\\' && quotes % 2 == 0) break;
    }
    if (i >= lines.size()) return {};
    size_t out = i + 1;
    while (out < lines.size() && Trim(lines[out]).empty()) ++out;
    if (out >= lines.size()) return {};
    // Its printed lines run up to a blank line followed by the next command.
    size_t end = out;
    std::string rest;
    for (; end < lines.size(); ++end) {
      const std::string t = Trim(lines[end]);
      if (t.empty()) {
        size_t next = end;
        while (next < lines.size() && Trim(lines[next]).empty()) ++next;
        if (next < lines.size() && is_command(Trim(lines[next]))) break;
        continue;
      }
      if (is_command(t) || ShellishLine(lines[end]) || HasPrompt(lines[end])) return {};
      if (!SpacedSetting(t)) rest.append(lines[end]).push_back('\n');  // "M = 4096": says nothing either way
    }
    if (!LooksLikeOutput(rest)) return {};
    part.printed = static_cast<int>(out);
    part.end = static_cast<int>(end);
    parts.push_back(part);
    i = end;
    while (i < lines.size() && Trim(lines[i]).empty()) ++i;
  }
  return parts;
}

bool AnyLine(std::string_view text, bool (*pred)(std::string_view)) {
  for (std::string_view l : SplitLines(text))
    if (pred(Trim(l))) return true;
  return false;
}

std::vector<std::pair<int, int>> PrintedRuns(std::string_view text) {
  const std::vector<std::string_view> lines = SplitLines(text);
  auto elision = [](const std::string& t) {
    return t.size() >= 3 && t.find_first_not_of(".\xE2\x80\xA6") == std::string::npos;  // "...", "……"
  };
  auto digits = [](const std::string& t) {
    return std::any_of(t.begin(), t.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
  };
  std::vector<std::pair<int, int>> out;
  for (size_t i = 0; i < lines.size() && i < 4096;) {
    const std::string t = Trim(lines[i]);
    if (!StrictPrintedLine(t) || !digits(t)) {
      ++i;
      continue;
    }
    size_t last = i, printed = 0;
    bool record = false;
    for (size_t k = i; k < lines.size(); ++k) {
      const std::string u = Trim(lines[k]);
      if (elision(u)) continue;
      if (!StrictPrintedLine(u) || !digits(u)) break;
      ++printed, last = k;
      record = record || RecordLine(u);
    }
    if (printed >= 2 && record) out.emplace_back(static_cast<int>(i), static_cast<int>(last));
    i = last + 1;
  }
  return out;
}

bool PastedToolPrintout(std::string_view text) {
  int lines = 0;
  for (std::string_view l : SplitLines(text)) lines += Trim(l).empty() ? 0 : 1;
  return lines >= 3 && BenchToolPrintout(text);
}

bool OneWordTitle(std::string_view t) {
  return t.size() >= 3 && t.size() <= 40 && (t.back() == ':' || t.ends_with("\xEF\xBC\x9A")) &&
         t.find_first_of(" \t=") == std::string_view::npos;
}

bool NumberlessTitle(std::string_view t) {
  if (t.empty() || t.size() > 80 || t.back() == '.' || t.back() == ':') return false;
  bool letters = false;
  int words = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    const auto c = static_cast<unsigned char>(t[i]);
    const bool starts = i == 0 || !std::isalnum(static_cast<unsigned char>(t[i - 1]));
    if (std::isdigit(c) && starts && (i == 0 || t[i - 1] != '.')) return false;  // a number of its own
    letters = letters || std::isalpha(c);
    words += (c != ' ' && (i == 0 || t[i - 1] == ' ')) ? 1 : 0;
  }
  return letters && words <= 10;
}

bool PrintedLines(std::string_view text) {
  int lines = 0, printed = 0;
  bool titled = false;  // "CONC4:" over "Mean TPOT (ms):   28.75": the title of the lines below it
  for (std::string_view l : SplitLines(text)) {
    const std::string t = Trim(l);
    if (t.empty()) continue;
    ++lines;
    const bool strict = StrictPrintedLine(l);
    printed += strict ? 1 : 0;
    if (lines == 1 && !strict) titled = OneWordTitle(t);
    if (lines > 4096) break;
  }
  if (titled && lines >= 3 && printed == lines - 1) return true;
  return lines >= 3 && printed >= 3 && 5 * printed >= 4 * lines;
}

size_t CounterEnd(std::string_view line) {
  const size_t close = line.find(']');
  if (line.empty() || line[0] != '[' || close == std::string_view::npos || close > 12) return 0;
  const std::string n = Trim(line.substr(1, close - 1));
  const bool digits = !n.empty() && std::all_of(n.begin(), n.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
  return digits ? close + 1 : 0;
}

// A tool whose plain words are its subcommand (`npm run bench`, `cargo
// bench`) or a profiler's (`nsys profile ./app`): data/reader/output.json.
bool IsSubcommandTool(std::string_view program) { return Words().tools.count(std::string(program)) > 0; }

}  // namespace moelog::logbook
