#include "logbook/render/templates.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <sys/stat.h>

#include "logbook/doc/markdown.h"
#include "logbook/doc/parse_logbook.h"
#include "logbook/file_util.h"

namespace moelog::logbook {
namespace {

// The shipped templates: templates/*.md of the source tree, compiled in
// (logbook/CMakeLists.txt), in name order.
struct Builtin {
  const char* name;
  const char* text;
};
const Builtin kBuiltins[] = {
#include "builtin_templates.inc"
};

bool FileExists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

}  // namespace

std::vector<std::string> TemplateNames() {
  std::vector<std::string> names;
  for (const auto& b : kBuiltins) names.push_back(b.name);
  return names;
}

Result<std::string> BuiltinTemplate(const std::string& name) {
  for (const auto& b : kBuiltins)
    if (name == b.name) return std::string(b.text);
  return Status::NotFound("no template named '" + name + "' (templates: entry, logbook, recipe)");
}

Result<std::string> LoadTemplate(const std::string& name, const std::string& user_dir) {
  if (!user_dir.empty()) {
    std::string path = user_dir + "/" + name + ".md";
    if (FileExists(path)) return ReadFile(path);
  }
  return BuiltinTemplate(name);
}

Result<std::string> FillTemplate(const std::string& text, const std::map<std::string, std::string>& values,
                                 const std::string& template_name) {
  std::string out;
  size_t pos = 0;
  while (true) {
    size_t open = text.find("{{", pos);
    if (open == std::string::npos) break;
    size_t close = text.find("}}", open + 2);
    if (close == std::string::npos)
      return Status::InvalidArgument("template " + template_name + ": '{{' without '}}'");
    std::string slot = text.substr(open + 2, close - open - 2);
    slot.erase(0, slot.find_first_not_of(' '));
    slot.erase(slot.find_last_not_of(' ') + 1);
    auto it = values.find(slot);
    if (it == values.end())
      return Status::InvalidArgument("template " + template_name + ": slot {{" + slot + "}} has no value");
    out += text.substr(pos, open - pos) + it->second;
    pos = close + 2;
  }
  out += text.substr(pos);
  return out;
}

Status CheckSlotValue(const std::string& what, const std::string& value, size_t max_bytes) {
  if (value.size() > max_bytes)
    return Status::InvalidArgument(what + " is longer than " + std::to_string(max_bytes) + " bytes");
  for (unsigned char c : value)
    if (c < 0x20 || c == 0x7f) return Status::InvalidArgument(what + " must be one line without control characters");
  if (value.find("{{") != std::string::npos) return Status::InvalidArgument(what + " must not contain '{{'");
  return Status::Ok();
}

Status CheckIdPrefix(const std::string& prefix) {
  bool ok = !prefix.empty() && prefix.front() != '-' && prefix.back() != '-' &&
            prefix.find("--") == std::string::npos && prefix.size() <= 32;
  for (char c : prefix)
    ok = ok && (std::isupper(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '-');
  if (!ok) return Status::InvalidArgument("--prefix must be upper-case letters and digits joined by dashes, like MOE-I8");
  return Status::Ok();
}

std::optional<std::string> FindIdPrefix(const std::string& markdown) {
  const Logbook lb = ParseLogbook(markdown, "");
  if (lb.id_prefix.empty()) return std::nullopt;
  return lb.id_prefix;
}

namespace {

// The number of every "PREFIX-<digits>" word in `text` (at most 9 digits).
void ForEachIdNumber(const std::string& text, const std::string& needle,
                     const std::function<void(std::string_view)>& fn) {
  size_t p = 0;
  auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-'; };
  while ((p = text.find(needle, p)) != std::string::npos) {
    const size_t q = p + needle.size();
    size_t e = q;
    while (e < text.size() && std::isdigit(static_cast<unsigned char>(text[e]))) ++e;
    const bool starts_word = p == 0 || !word_char(text[p - 1]);
    const bool ends_word = e == text.size() || !word_char(text[e]);
    if (starts_word && ends_word && e > q && e - q <= 9) fn(std::string_view(text).substr(q, e - q));
    p = q;
  }
}

}  // namespace

std::string NextEntryId(const std::string& markdown, const std::string& prefix) {
  long best = -1;
  size_t width = 3;
  const std::string needle = prefix + "-";
  for (const MdHeading& h : Headings(ParseMarkdown(markdown)))
    ForEachIdNumber(h.text, needle, [&](std::string_view digits) {
      best = std::max(best, std::stol(std::string(digits)));
      width = std::max(width, digits.size());
    });
  std::string n = std::to_string(best + 1);
  while (n.size() < width) n = "0" + n;
  return needle + n;
}

Result<std::string> InsertEntry(const std::string& text, const std::string& entry, const std::string& file) {
  // The document's own line ends are kept, the new entry's included.
  const LineEnding ending = DetectLineEnding(text);
  const std::string markdown = ToLf(text, ending);
  const std::vector<std::string_view> lines = SplitLines(markdown);
  int start = -1, end = static_cast<int>(lines.size());  // 0-based lines
  for (const MdHeading& h : Headings(ParseMarkdown(markdown))) {
    if (h.level > 2) continue;
    if (start >= 0) {
      end = h.line - 1;
      break;
    }
    if (h.level == 2 && SectionKindFromName(h.text) == SectionKind::kExperimentLog) start = h.line - 1;
  }
  if (start < 0) return Status::ParseError(file + ":1: no '## Experiment Log' section to add the entry to");
  // Drop blank lines at the end of the section, append the entry, keep one
  // blank line before the next section.
  int last = end;
  while (last > start + 1 && lines[static_cast<size_t>(last - 1)].find_first_not_of(" \t") == std::string::npos) --last;
  std::string out;
  for (int i = 0; i < last; ++i) out.append(lines[static_cast<size_t>(i)]).append("\n");
  out += entry;
  if (!entry.empty() && entry.back() != '\n') out += "\n";
  if (end < static_cast<int>(lines.size())) {
    out += "\n";
    for (size_t i = static_cast<size_t>(end); i < lines.size(); ++i) out.append(lines[i]).append("\n");
    if (!markdown.empty() && markdown.back() != '\n') out.pop_back();
  }
  return FromLf(out, ending);
}

std::string InlineCode(const std::string& text) {
  size_t longest = 0, run = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  std::string fence(longest + 1, '`');
  bool pad = !text.empty() && (text.front() == '`' || text.back() == '`');
  return fence + (pad ? " " : "") + text + (pad ? " " : "") + fence;
}

}  // namespace moelog::logbook
