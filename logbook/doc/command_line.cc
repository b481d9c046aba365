#include "logbook/doc/command_line.h"

#include "logbook/reader/blocks.h"
#include "logbook/text.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <vector>

namespace moelog::logbook {
namespace {

// Programs and shell words a command line starts with (launchers,
// interpreters, shells, the shell words moelog interprets).
constexpr std::array<std::string_view, 34> kPrograms = {
    "python", "python3", "uv",     "bash",   "sh",     "ssh",    "gcloud", "ray",   "moelog", "env",
    "sudo",   "timeout", "torchrun", "srun", "mpirun", "docker", "kubectl", "nohup", "cd",    "mkdir",
    "export", "source",  "set",    "for",    "read",   "time",   "pytest", "accelerate", "deepspeed", "xargs",
    "iris",   "sbatch",  "nice",   "stdbuf"};

std::vector<std::string_view> Words(std::string_view s) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    const size_t a = i;
    while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    if (i > a) out.push_back(s.substr(a, i - a));
  }
  return out;
}

bool IsAssignment(std::string_view w) {
  const size_t eq = w.find('=');
  if (eq == std::string_view::npos || eq == 0) return false;
  if (!(std::isalpha(static_cast<unsigned char>(w[0])) || w[0] == '_')) return false;
  return std::all_of(w.begin(), w.begin() + static_cast<long>(eq),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

bool EndsWith(std::string_view w, std::string_view suffix) {
  return w.size() >= suffix.size() && w.substr(w.size() - suffix.size()) == suffix;
}

bool IsProgram(std::string_view w) {
  std::string_view base = w.substr(w.find_last_of('/') == std::string_view::npos ? 0 : w.find_last_of('/') + 1);
  if (base.rfind("python3.", 0) == 0) return true;
  if (std::find(kPrograms.begin(), kPrograms.end(), base) != kPrograms.end()) return true;
  // A tool whose plain words are its subcommand (`npm run bench`, `cargo bench`:
  // subcommand_tools of data/reader/output.json) or a profiler (`nsys profile`).
  if (IsSubcommandTool(base)) return true;
  if (w.rfind("-", 0) == 0 || EndsWith(w, ":")) return false;  // "Prompts/Request:": a printed name
  if (w[0] == '\'' || w[0] == '"') return false;  // "'./pack --best' ran": a command quoted in a printout
  // "step:100/5000", "12/500": a printed counter or a name and its number, no path.
  if (std::isdigit(static_cast<unsigned char>(w[0]))) return false;
  const size_t colon = w.find(':');
  if (colon != std::string_view::npos && colon + 1 < w.size() && std::isdigit(static_cast<unsigned char>(w[colon + 1])) &&
      w.find('/') > colon)
    return false;
  return w.find('/') != std::string_view::npos || EndsWith(w, ".py") || EndsWith(w, ".sh");
}

}  // namespace

bool LooksLikeCommandLine(std::string_view span) {
  const std::vector<std::string_view> words = Words(span);
  if (words.empty()) return false;
  std::string head(words[0].substr(0, 3));
  for (char& c : head) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (head == "N/A") return true;
  size_t i = 0;
  // "... bench.py --flags": the author elided the setup before the program.
  while (i < words.size() && (words[i] == "..." || words[i] == "\xE2\x80\xA6")) ++i;
  while (i < words.size() && IsAssignment(words[i])) ++i;
  return i + 1 < words.size() && IsProgram(words[i]);
}

bool FirstLineIsCommand(std::string_view text) {
  const size_t b = text.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return false;
  const size_t nl = text.find('\n', b);
  return LooksLikeCommandLine(Trim(text.substr(b, nl == std::string_view::npos ? std::string_view::npos : nl - b)));
}

bool IsCommandLine(std::string_view l) { return LooksLikeCommandLine(l); }

bool IsTranscriptCommand(std::string_view l) {
  const std::string t = Trim(l);
  const bool path = (t.rfind("./", 0) == 0 || t.rfind("../", 0) == 0) && t.size() > 2 &&
                    t.find_first_of(" \t") == std::string::npos;
  return path || LooksLikeCommandLine(t);
}

}  // namespace moelog::logbook
