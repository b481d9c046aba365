// The classify stage's bookkeeping rule: the time a piece of work took,
// beside what it completed, is the work's bookkeeping, no benchmark's
// figure. A pipeline's report that writes how long each task ran (`-
// Duration: 412.6s` under a task that passed `24/24`), a plan tracker's velocity (`Tasks completed: 12`,
// `Average duration: 6m 10s`): when the part that holds the time runs no
// command and prints no output, the time is listed, not tabled. Its words
// are data (status.json: work_duration_labels, done_marks, tally_words).
#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "logbook/reader/data_words.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {
namespace {

struct BookkeepingWords {
  std::set<std::string> labels, marks, tallies;  // work_duration_labels, done_marks (as written), tally_words
};

const BookkeepingWords& Vocab() {
  static const BookkeepingWords w{DataWords("data/reader/status.json", "work_duration_labels"),
                                  DataWords("data/reader/status.json", "done_marks", false),
                                  DataWords("data/reader/status.json", "tally_words")};
  return w;
}

bool HasMark(const std::string& t) {
  return std::any_of(Vocab().marks.begin(), Vocab().marks.end(),
                     [&](const std::string& m) { return t.find(m) != std::string::npos; });
}

// "24/24", "36/36": a count of finished items out of all.
bool HasFraction(const std::string& t) {
  for (size_t at = t.find('/'); at != std::string::npos; at = t.find('/', at + 1))
    if (at > 0 && std::isdigit(static_cast<unsigned char>(t[at - 1])) && at + 1 < t.size() &&
        std::isdigit(static_cast<unsigned char>(t[at + 1])))
      return true;
  return false;
}

// Whether `t` counts work done: a done mark, a fraction, or a tally word (a
// whole word, or inside the text when it is not ASCII: "全部通过") with a
// number.
bool CountsDone(const std::string& t) {
  if (HasMark(t) || HasFraction(t)) return true;
  if (t.find_first_of("0123456789") == std::string::npos && t.find("\xE5\x85\xA8") == std::string::npos) return false;
  const std::string l = Lower(t);
  std::set<std::string> words;
  for (std::string w : Words(l)) {
    while (!w.empty() && std::ispunct(static_cast<unsigned char>(w.back()))) w.pop_back();
    words.insert(w);
  }
  for (const auto& w : Vocab().tallies)
    if (static_cast<unsigned char>(w[0]) >= 0x80 ? l.find(w) != std::string::npos : words.count(w) > 0) return true;
  return false;
}

// The label of a line `Label: value` (bold marks and a list's dash aside), in
// lower case, else "".
std::string Label(std::string t) {
  size_t cut = t.find(':');
  cut = std::min(cut, t.find("\xEF\xBC\x9A"));  // a full-width colon
  if (cut == std::string::npos) return "";
  t = t.substr(0, cut);
  t.erase(std::remove_if(t.begin(), t.end(), [](char c) { return c == '*' || c == '_' || c == '`'; }), t.end());
  return Lower(Trim(t));
}

bool TimeMetric(const std::string& m) { return m.find("time") != std::string::npos || m.find("duration") != std::string::npos; }

// One part of an entry (from a sub-heading to the next): its heading and
// the texts of its lines (list items, paragraphs, table rows).
struct Part {
  int first = 0, last = 0;
  bool runs = false, done = false;
};

Part PartOf(const Entry& entry, int line) {
  Part p{entry.heading_line, entry.end_line};
  std::string heading = entry.heading;
  for (const auto& h : entry.subheadings) {
    if (h.line <= line) p.first = h.line, heading = h.text;
    else p.last = std::min(p.last, h.line - 1);
  }
  auto inside = [&](int l) { return p.first <= l && l <= p.last; };
  p.runs = std::any_of(entry.commands.begin(), entry.commands.end(), [&](const CommandText& c) { return inside(c.line); }) ||
           std::any_of(entry.outputs.begin(), entry.outputs.end(), [&](const FencedBlock& o) { return inside(o.line); });
  p.done = HasMark(heading);
  std::function<void(const Bullet&)> walk = [&](const Bullet& b) {
    if (inside(b.line)) p.done = p.done || CountsDone(b.text);
    for (const auto& c : b.children) walk(c);
  };
  for (const auto& b : entry.notes) walk(b);
  for (const auto& f : entry.fields) walk(f.bullet);
  for (const auto& q : entry.paragraphs)
    if (inside(q.line)) p.done = p.done || CountsDone(q.text);
  return p;
}

// The texts of the entry's list items by line.
std::map<int, std::string> ItemTexts(const Entry& entry) {
  std::map<int, std::string> out;
  std::function<void(const Bullet&)> walk = [&](const Bullet& b) {
    out.emplace(b.line, b.text);
    for (const auto& c : b.children) walk(c);
  };
  for (const auto& b : entry.notes) walk(b);
  for (const auto& f : entry.fields) walk(f.bullet);
  return out;
}

bool AllTime(const RecordedFigure& f) {
  return !f.run.metrics.empty() &&
         std::all_of(f.run.metrics.begin(), f.run.metrics.end(), [](const auto& m) { return TimeMetric(m.first); });
}

// What the entry's parts are, read once: each part by the line it starts
// at, its list items' texts by line.
struct Parts {
  const Entry& entry;
  std::map<int, Part> by_first;
  std::map<int, std::string> items;
  const Part& Of(int line) {
    int first = entry.heading_line;
    for (const auto& h : entry.subheadings)
      if (h.line <= line) first = h.line;
    auto it = by_first.find(first);
    if (it == by_first.end()) it = by_first.emplace(first, PartOf(entry, line)).first;
    return it->second;
  }
};

// Why figure `f` (all of whose figures are times) is the bookkeeping of a
// task, else "".
std::string BookkeepingWhy(Parts& parts, const RecordedFigure& f) {
  if (parts.Of(f.line).runs) return "";
  const auto it = parts.items.find(f.line);
  const std::string label = it == parts.items.end() ? "" : Label(it->second);
  if (label.empty() || !Vocab().labels.count(label) || !parts.Of(f.line).done) return "";
  return "the time a task took (\"" + label + "\") beside what it completed: the work's bookkeeping, not a run";
}

}  // namespace

void DropBookkeeping(const Entry& entry, std::vector<RecordedFigure>* out, std::vector<UnreadFigures>* unread) {
  if (std::none_of(out->begin(), out->end(), AllTime)) return;
  Parts parts{entry, {}, ItemTexts(entry)};
  std::vector<RecordedFigure> kept;
  for (auto& f : *out) {
    const std::string why = AllTime(f) ? BookkeepingWhy(parts, f) : "";
    if (why.empty()) {
      kept.push_back(std::move(f));
    } else if (unread && !(!unread->empty() && unread->back().line == f.line)) {
      unread->push_back({f.line, f.text, why});
    }
  }
  *out = std::move(kept);
}

}  // namespace moelog::logbook::reader
