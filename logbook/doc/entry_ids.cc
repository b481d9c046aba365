#include "logbook/doc/entry_ids.h"

#include <cctype>
#include <map>

#include "logbook/doc/markdown.h"
#include "logbook/doc/parse_logbook.h"
#include "logbook/reader/segment.h"

namespace moelog::logbook {

std::string Slug(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (std::isalnum(static_cast<unsigned char>(c))) out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    else if (!out.empty() && out.back() != '-') out += '-';
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

std::string EffectiveIdPrefix(const Logbook& logbook) {
  std::string p = Slug(logbook.id_prefix);
  if (!p.empty() && std::isalpha(static_cast<unsigned char>(p[0]))) return p;
  p = Slug(std::string_view(logbook.title).substr(0, logbook.title.find(':')));
  // "#8108 Mixture-of-Kittens ...": an issue number first; the words after it.
  while (!p.empty() && std::isdigit(static_cast<unsigned char>(p[0]))) {
    const size_t dash = p.find('-');
    p = dash == std::string::npos ? "" : p.substr(dash + 1);
  }
  if (!p.empty() && std::isalpha(static_cast<unsigned char>(p[0]))) return p;
  return "LOG";
}

// Explicit IDs as written; a repeated one gets a suffix (-2, -3, ...) and
// is said once. Returns every ID taken, with its heading line.
std::map<std::string, int> SuffixRepeatedIds(Logbook* logbook) {
  std::map<std::string, int> first_line;
  // Per repeated ID: the next suffix to try, the diagnostic said for its
  // first repeat, and how many repeats followed (said once, at the end: a
  // progress log of one experiment repeats its ID in every entry).
  struct Repeat {
    int next = 2;
    size_t diagnostic = 0;
    int more = 0;
    std::string last;
  };
  std::map<std::string, Repeat> repeats;
  for (auto& e : logbook->entries) {
    if (e.explicit_id.empty()) continue;
    e.id = e.explicit_id;
    auto [it, inserted] = first_line.emplace(e.id, e.heading_line);
    if (inserted) continue;
    // IDs stay unique: the later entry gets a suffix, and the clash is said.
    auto [rep, first_repeat] = repeats.try_emplace(e.explicit_id);
    std::string id;
    do id = e.explicit_id + "-" + std::to_string(rep->second.next++);
    while (first_line.count(id));
    if (first_repeat) {
      rep->second.diagnostic = logbook->diagnostics.size();
      logbook->diagnostics.push_back({logbook->file, e.heading_line,
                                      "duplicate entry ID " + e.id + " (first at line " + std::to_string(it->second) +
                                          "); this entry is " + id + " until one of them is renamed"});
    } else {
      ++rep->second.more;
      rep->second.last = id;
    }
    e.id = id;
    first_line.emplace(id, e.heading_line);
  }
  for (const auto& [id, rep] : repeats)
    if (rep.more > 0)
      logbook->diagnostics[rep.diagnostic].message +=
          "; " + std::to_string(rep.more) + " later entries with this ID are numbered on, to " + rep.last;
  return first_line;
}

void AssignEntryIds(Logbook* logbook) {
  const std::string prefix = EffectiveIdPrefix(*logbook);
  std::map<std::string, int> first_line = SuffixRepeatedIds(logbook);
  std::map<std::string, int> day_count;  // date-only entries numbered so far, per day
  for (auto& e : logbook->entries) {
    if (!e.explicit_id.empty()) continue;
    const std::string day =
        e.date.size() < 10 ? prefix : prefix + "-" + e.date.substr(0, 4) + e.date.substr(5, 2) + e.date.substr(8, 2);
    std::string id;
    if (e.date.empty()) {
      // An undated entry: its heading's words, never its position.
      std::string words = UndatedIdWords(e.label.empty() ? e.heading : e.label);
      // A document that is one record, headed by its title: the prefix.
      // So is the title's own text read as an entry (its preamble).
      const bool title = logbook->title_line > 0 && e.heading_line == logbook->title_line;
      const std::string base = words == prefix || title ? prefix : prefix + "-" + (words.empty() ? std::string("ENTRY") : words);
      id = base;
      for (int n = 2; first_line.count(id); ++n) id = base + "-" + std::to_string(n);
    } else if (e.time.size() == 5) {
      const std::string base = day + "-" + e.time.substr(0, 2) + e.time.substr(3, 2);
      id = base;
      for (int n = 2; first_line.count(id); ++n) id = base + "-" + std::to_string(n);
    } else {
      // A heading with a date only: the day's entries numbered 1, 2, ...
      int& n = day_count[day];  // linear: each day's numbering resumes where it stopped
      do id = day + "-" + std::to_string(++n);
      while (first_line.count(id));
    }
    first_line.emplace(id, e.heading_line);
    e.id = id;
  }
}

std::string AddMissingIds(const Logbook& logbook, std::string_view text, int* added) {
  *added = 0;
  std::map<int, const Entry*> by_line;
  for (const auto& e : logbook.entries)
    if (e.explicit_id.empty()) by_line[e.heading_line] = &e;
  std::string out;
  out.reserve(text.size() + by_line.size() * 32);
  size_t pos = 0;
  int line = 1;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
    std::string_view l = text.substr(pos, end - pos);
    auto it = by_line.find(line);
    bool done = false;
    if (it != by_line.end()) {
      std::string_view body = l;
      while (!body.empty() && (body.back() == '\n' || body.back() == '\r')) body.remove_suffix(1);
      // "### " prefix, then the heading text.
      size_t p = 0;
      while (p < body.size() && body[p] == ' ') ++p;
      while (p < body.size() && body[p] == '#') ++p;
      while (p < body.size() && body[p] == ' ') ++p;
      size_t rest = 0;
      if (parse_detail::EntryHeadingRest(body.substr(p), &rest)) {
        const size_t at = p + rest;
        out.append(body.substr(0, at));
        if (at < body.size()) {
          out += it->second->id + " ";
          out.append(body.substr(at));
        } else if (!body.empty() && body.back() == '-') {
          out += " " + it->second->id;
        } else if (!body.empty() && body.back() == ' ') {
          out += it->second->id;
        } else {
          out += " - " + it->second->id;
        }
        out.append(l.substr(body.size()));
        ++*added;
        done = true;
      }
    }
    if (!done) out.append(l);
    pos = end;
    ++line;
  }
  return out;
}

}  // namespace moelog::logbook
