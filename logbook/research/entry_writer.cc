#include "logbook/research/entry_writer.h"

#include <algorithm>
#include <sstream>

#include "logbook/criteria/criteria.h"
#include "logbook/doc/markdown.h"
#include "logbook/doc/parse_logbook.h"

namespace moelog::logbook {
namespace {

std::string Trimmed(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && (s[b] == ' ' || s[b] == '\n' || s[b] == '\r' || s[b] == '\t')) ++b;
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\n' || s[e - 1] == '\r' || s[e - 1] == '\t')) --e;
  return std::string(s.substr(b, e - b));
}

// The longest run of backticks in `s`.
size_t LongestBacktickRun(std::string_view s) {
  size_t best = 0, run = 0;
  for (char ch : s) {
    run = ch == '`' ? run + 1 : 0;
    best = std::max(best, run);
  }
  return best;
}

// One line of field text: line breaks and other controls as spaces.
std::string OneLine(std::string_view s) {
  std::string out;
  for (char ch : s) out += (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) ? ' ' : ch;
  return out;
}

void WriteFenced(std::ostringstream& e, const std::string& command, const std::string& info, const char* indent) {
  const std::string fence(std::max<size_t>(3, LongestBacktickRun(command) + 1), '`');
  e << indent << fence << info << "\n";
  size_t pos = 0;
  const std::string body = Trimmed(command);
  while (pos <= body.size()) {
    const size_t nl = body.find('\n', pos);
    const std::string line = body.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
    e << (line.empty() ? "" : indent) << line << "\n";
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }
  e << indent << fence << "\n";
}

// What the parse reads as a command's text, for comparison.
std::string ParsedCommand(const CommandText& c) { return Trimmed(c.fenced ? c.text : c.joined); }

template <typename T, typename Key>
bool SameList(const std::vector<T>& a, const std::vector<T>& b, Key key) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (key(a[i]) != key(b[i])) return false;
  return true;
}

std::string PinText(const Pin& p) { return p.key + "=" + p.value; }

// Differences in what was there before the entry: entries, pins, sections, criteria.
void CompareBefore(const Logbook& before, std::string_view before_text, const Logbook& after,
                   std::string_view after_text, std::vector<std::string>* diffs) {
  if (after.entries.size() != before.entries.size() + 1) {
    diffs->push_back("the text would parse to " + std::to_string(after.entries.size()) + " entries, not " +
                     std::to_string(before.entries.size() + 1));
    return;
  }
  for (size_t i = 0; i < before.entries.size(); ++i)
    if (after.entries[i].id != before.entries[i].id || after.entries[i].commands.size() != before.entries[i].commands.size() ||
        after.entries[i].pins.size() != before.entries[i].pins.size()) {
      diffs->push_back("entry " + before.entries[i].id + " would change");
      return;
    }
  if (!SameList(before.pins, after.pins, PinText))
    diffs->push_back("the logbook-wide pins would change (" + std::to_string(before.pins.size()) + " -> " +
                     std::to_string(after.pins.size()) + ")");
  if (!SameList(before.sections, after.sections, [](const Section& s) { return s.name; }))
    diffs->push_back("the sections would change (" + std::to_string(before.sections.size()) + " -> " +
                     std::to_string(after.sections.size()) + " headings)");
  const auto cb = StopCriteriaBullets(before, before_text), ca = StopCriteriaBullets(after, after_text);
  if (!SameList(cb, ca, [](const BulletSource& b) { return b.text; }))
    diffs->push_back("the stop criteria would change (" + std::to_string(cb.size()) + " -> " +
                     std::to_string(ca.size()) + ")");
}

}  // namespace

bool FitsInline(std::string_view command) {
  if (command.empty()) return false;
  for (char ch : command)
    if (ch == '`' || static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) return false;
  return command.front() != ' ' && command.back() != ' ';
}

std::string CommandFenceInfo(const Logbook& logbook, std::string_view text) {
  const auto lines = SplitLines(text);
  for (const auto& e : logbook.entries)
    for (const auto& c : e.commands) {
      if (!c.fenced || c.line < 1 || static_cast<size_t>(c.line) > lines.size()) continue;
      std::string_view l = lines[static_cast<size_t>(c.line) - 1];
      while (!l.empty() && l.front() == ' ') l.remove_prefix(1);
      while (!l.empty() && (l.front() == '`' || l.front() == '~')) l.remove_prefix(1);
      std::string info = Trimmed(l);
      const bool plain = !info.empty() && std::all_of(info.begin(), info.end(), [](char ch) {
        return std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_';
      });
      if (plain) return info;
    }
  return "bash";
}

std::string ComposeEntry(const EntryIntent& intent, const std::string& fence_info) {
  std::ostringstream e;
  e << "### " << OneLine(intent.heading) << "\n";
  for (const auto& [name, value] : intent.before) e << "- " << name << ": " << OneLine(value) << "\n";
  const bool all_inline = std::all_of(intent.commands.begin(), intent.commands.end(), FitsInline);
  if (intent.commands.empty()) {
    e << "- Command: N/A\n";
  } else if (intent.commands.size() == 1 && all_inline && !intent.command_sub_bullets) {
    e << "- Command: `" << intent.commands[0] << "`\n";
  } else {
    e << "- Command:\n";
    for (const auto& c : intent.commands) {
      if (FitsInline(c)) e << "  - `" << c << "`\n";
      else WriteFenced(e, c, fence_info, "  ");
    }
  }
  if (!intent.config.empty()) {
    e << "- Config:\n";
    for (const auto& c : intent.config) e << "  - " << OneLine(c) << "\n";
  }
  for (const auto& [name, value] : intent.after) e << "- " << name << ": " << OneLine(value) << "\n";
  return e.str();
}

std::vector<std::string> ParseBackDifferences(const Logbook& before, std::string_view before_text,
                                              const Logbook& after, std::string_view after_text,
                                              const EntryIntent& intent) {
  std::vector<std::string> diffs;
  CompareBefore(before, before_text, after, after_text, &diffs);
  if (after.entries.size() != before.entries.size() + 1) return diffs;
  const Entry& e = after.entries.back();
  if (!intent.id.empty() && e.id != intent.id) diffs.push_back("the new entry would read as " + e.id + ", not " + intent.id);
  if (Trimmed(e.heading) != Trimmed(OneLine(intent.heading)))
    diffs.push_back("the new entry's heading would read \"" + e.heading + "\"");
  if (e.commands.size() != intent.commands.size()) {
    diffs.push_back("the new entry would hold " + std::to_string(e.commands.size()) + " commands, not " +
                    std::to_string(intent.commands.size()));
  } else {
    for (size_t i = 0; i < e.commands.size(); ++i)
      if (ParsedCommand(e.commands[i]) != Trimmed(intent.commands[i]))
        diffs.push_back("command " + std::to_string(i + 1) + " would read back as `" +
                        OneLine(ParsedCommand(e.commands[i]).substr(0, 120)) + "`");
  }
  if (!e.pins.empty()) diffs.push_back("the new entry would carry pin " + PinText(e.pins[0]));
  if (!e.subheadings.empty()) diffs.push_back("the new entry would hold heading \"" + e.subheadings[0].text + "\"");
  for (const auto& [name, value] : intent.before)
    if (!e.FindField(name)) diffs.push_back("the new entry would lack its " + name + " field");
  return diffs;
}

Result<std::string> AppendEntry(const Logbook& logbook, std::string_view text, const EntryIntent& intent) {
  const std::string entry = ComposeEntry(intent, CommandFenceInfo(logbook, text));
  const int after = logbook.entries.empty() ? 0 : logbook.entries.back().end_line;
  std::string out;
  int line = 1;
  size_t pos = 0;
  bool placed = false;
  while (pos < text.size()) {
    const size_t nl = text.find('\n', pos);
    const size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
    out.append(text.substr(pos, end - pos));
    if (line == after) {
      if (nl == std::string_view::npos) out += '\n';
      out += "\n" + entry;
      if (end < text.size() && text[end] != '\n') out += "\n";
      placed = true;
    }
    pos = end;
    ++line;
  }
  if (!placed) {
    if (!out.empty() && out.back() != '\n') out += '\n';
    out += "\n" + entry;
  }
  const Logbook check = ParseLogbook(out, logbook.file);
  const auto diffs = ParseBackDifferences(logbook, text, check, out, intent);
  if (diffs.empty()) return out;
  std::string msg = logbook.file + ": the new entry would not parse back as written (nothing written): ";
  for (size_t i = 0; i < diffs.size() && i < 3; ++i) msg += (i ? "; " : "") + diffs[i];
  return Status::InvalidArgument(msg);
}

}  // namespace moelog::logbook
