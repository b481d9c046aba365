#include "logbook/update/pinned_target.h"

#include <algorithm>
#include <cctype>

#include "logbook/update/gpu_session.h"

namespace moelog::logbook {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& ch : out) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return out;
}

// The GPU hardware files a line's words name, in order, each once.
std::vector<std::string> GpusNamed(std::string_view line) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && !std::isalnum(static_cast<unsigned char>(line[i]))) ++i;
    size_t j = i;
    while (j < line.size() && std::isalnum(static_cast<unsigned char>(line[j]))) ++j;
    std::string word = Lower(line.substr(i, j - i));
    i = j;
    size_t d = 0;  // a count prefix: "8xh100"
    while (d < word.size() && std::isdigit(static_cast<unsigned char>(word[d]))) ++d;
    if (d > 0 && d + 1 < word.size() && word[d] == 'x') word = word.substr(d + 1);
    if (word.size() < 2 || word.size() > 32 || !std::isalpha(static_cast<unsigned char>(word[0]))) continue;
    if (std::find(out.begin(), out.end(), word) == out.end() && IsGpuTarget(word)) out.push_back(word);
  }
  return out;
}

// The label of a "Label: value" line (list marker and emphasis stripped),
// lower-cased; empty when the line has none.
std::string LabelOf(std::string_view line, std::string_view* value) {
  size_t i = 0;
  while (i < line.size() && (line[i] == ' ' || line[i] == '-' || line[i] == '*' || line[i] == '+')) ++i;
  const size_t colon = line.find(':', i);
  if (colon == std::string_view::npos || colon - i > 24) return "";
  std::string label;
  for (size_t k = i; k < colon; ++k)
    if (line[k] != '*' && line[k] != '_') label += static_cast<char>(std::tolower(static_cast<unsigned char>(line[k])));
  while (!label.empty() && label.back() == ' ') label.pop_back();
  *value = line.substr(colon + 1);
  return label;
}

bool Pins(const std::string& label) {
  static const char* kLabels[] = {"hardware", "gpu",    "gpus",   "accelerator", "accelerators", "target",
                                  "platform", "system", "config", "setup",       "machine",      "cluster"};
  return std::find(std::begin(kLabels), std::end(kLabels), label) != std::end(kLabels);
}

}  // namespace

PinnedHardware FindPinnedHardware(std::string_view text) {
  PinnedHardware pin;
  size_t pos = 0;
  int no = 0;
  bool in_front = text.substr(0, 4) == "---\n";
  std::string front_gpu;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++no;
    if (in_front && no > 1 && (line == "---" || line == "...")) {
      in_front = false;
      continue;
    }
    std::string_view value;
    const std::string label = LabelOf(line, &value);
    if (label.empty() || !Pins(label)) continue;
    const std::vector<std::string> gpus = GpusNamed(value);
    if (in_front && no > 1 && gpus.size() == 1 && front_gpu.empty()) {
      front_gpu = gpus[0];
      pin.where = "front matter, " + label + ":";
    }
    for (const std::string& g : gpus)
      if (std::find(pin.named.begin(), pin.named.end(), g) == pin.named.end()) {
        pin.named.push_back(g);
        if (pin.named.size() == 1 && front_gpu.empty()) pin.where = "line " + std::to_string(no) + ", " + label + ":";
      }
  }
  if (!front_gpu.empty()) pin.name = front_gpu;
  else if (pin.named.size() == 1) pin.name = pin.named[0];
  else pin.where.clear();
  return pin;
}

}  // namespace moelog::logbook
