// Reader stage figures, a progress bar's line (figures_progressbar.h).
#include "logbook/reader/figures_progressbar.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <vector>

#include "logbook/reader/data_words.h"
#include "logbook/text.h"

namespace moelog::logbook::reader {

namespace {

const std::map<std::string, std::string>& BarWords() {
  static const auto* words = new std::map<std::string, std::string>(DataWordMap("data/reader/bench_printouts.json", "progress_bar"));
  return *words;
}

std::string BarWord(const char* key, const char* fallback) {
  const auto it = BarWords().find(key);
  return it == BarWords().end() ? fallback : it->second;
}

bool Digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// "05:23<44:35", "00:12", "1:02:03<?": the elapsed (and remaining) time.
bool ClockSpan(const std::string& s) {
  if (s.empty() || !Digit(s[0]) || s.find(':') == std::string::npos) return false;
  for (char c : s)
    if (!Digit(c) && c != ':' && c != '<' && c != '?' && c != '.' && c != 'd' && c != ' ') return false;
  return true;
}

// "29.73s/iter", "2.43it/s", "987.65 tok/s": the number and its rate unit
// apart ("29.73 s/iter"); false for "?it/s".
bool Rate(const std::string& s, std::string* out) {
  size_t e = 0;
  while (e < s.size() && (Digit(s[e]) || s[e] == '.')) ++e;
  if (e == 0 || !Digit(s[0])) return false;
  const std::string unit = Trim(s.substr(e));
  if (unit.find('/') == std::string::npos || unit.size() > 12 || unit.find(' ') != std::string::npos) return false;
  *out = s.substr(0, e) + " " + unit;
  return true;
}

// The bar before the brackets: "Training:  10%|████▍     | 10/100" (desc,
// percent, bar, count) or "12345it" (a count alone): its description and
// count.
bool BarHead(const std::string& head, std::string* desc, std::string* count) {
  const size_t bar = head.find("%|");
  if (bar == std::string::npos) {  // "12345it", "desc: 345it"
    const size_t sp = head.rfind(' ');
    std::string last = sp == std::string::npos ? head : head.substr(sp + 1);
    size_t e = 0;
    while (e < last.size() && Digit(last[e])) ++e;
    if (e == 0 || last.substr(e).find_first_not_of("abcdefghijklmnopqrstuvwxyz") != std::string::npos) return false;
    *count = last.substr(0, e);
    *desc = sp == std::string::npos ? "" : Trim(head.substr(0, sp));
  } else {
    const size_t close = head.find('|', bar + 2);
    if (close == std::string::npos) return false;
    size_t p = bar;
    while (p > 0 && (Digit(head[p - 1]) || head[p - 1] == '.' || head[p - 1] == ' ')) --p;
    if (p == bar) return false;
    *desc = Trim(head.substr(0, p));
    const std::string n = Trim(head.substr(close + 1));
    const size_t slash = n.find('/');
    *count = n.substr(0, slash);
    if (count->empty() || !std::all_of(count->begin(), count->end(), Digit)) return false;
  }
  while (!desc->empty() && (desc->back() == ':' || desc->back() == ' ')) desc->pop_back();
  return true;
}

std::vector<std::string> SplitCommas(const std::string& s) {
  std::vector<std::string> out;
  size_t b = 0;
  for (size_t e = s.find(','); ; e = s.find(',', b)) {
    out.push_back(Trim(s.substr(b, e == std::string::npos ? std::string::npos : e - b)));
    if (e == std::string::npos) break;
    b = e + 1;
  }
  return out;
}

}  // namespace

bool ProgressBarForm(const std::string& text, std::string* out) {
  if (text.size() < 8 || text.back() != ']' || text.size() > 400) return false;
  const size_t open = text.rfind(" [");
  if (open == std::string::npos) return false;
  const std::vector<std::string> parts = SplitCommas(text.substr(open + 2, text.size() - open - 3));
  std::string desc, count, rate;
  if (parts.size() < 2 || !ClockSpan(parts[0]) || !Rate(parts[1], &rate) || !BarHead(Trim(text.substr(0, open)), &desc, &count))
    return false;
  std::string head;  // "Epoch 3" of "Epoch 3: 50%|...": a counter of its own
  if (const size_t sp = desc.rfind(' '); sp != std::string::npos && std::all_of(desc.begin() + static_cast<std::ptrdiff_t>(sp) + 1, desc.end(), Digit))
    head = desc + " | ", desc.clear();
  *out = head + BarWord("counter", "step") + " " + count + " | " + (desc.empty() ? BarWord("name", "progress") : desc) + ": " + rate;
  for (size_t k = 2; k < parts.size(); ++k)  // the postfix: "loss=3.1"
    if (const size_t eq = parts[k].find('='); eq != std::string::npos && eq > 0)
      out->append(" | ").append(Trim(parts[k].substr(0, eq))).append(": ").append(Trim(parts[k].substr(eq + 1)));
  return true;
}

}  // namespace moelog::logbook::reader
