// The classify stage's status rule: an entry, or a part of one under a
// sub-heading, that says it has not run ("Status: PENDING", "**Status:**
// queued", "## Exp 4: tiling sweep [TODO]", "(not yet run)", "**Result:**
// n/a", "#### Outcome / Not run: ...") records nothing: the sizes, targets
// and expected figures it lists are its plan. An entry headed as an
// estimate ("## v0 (theoretical)", "(projected)") or as a roadmap records
// nothing either; an iteration's "#### Plan" or "#### Hypothesis" part holds
// the plan's figures. In a tracker's table with a status column, a row still
// queued or planned holds no figure; so does a row whose remark marks it an
// estimate ("| roofline bound |"). Words: data/reader/status.json.
#include <algorithm>
#include <cctype>

#include "logbook/doc/parse_logbook.h"
#include "logbook/reader/data_words.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {
namespace {

struct StatusWords {
  std::set<std::string> not_run, row_not_run, not_words, done, estimate, tag_words, tag_nouns, headers, results, empty,
      note_headers, plan_parts, sheet_words, remark_names, refer_words;
};

const StatusWords& Vocab() {
  static const StatusWords w = [] {
    StatusWords s;
    const std::string file = "data/reader/status.json";
    s.not_run = DataWords(file, "not_run_words");
    s.row_not_run = DataWords(file, "row_not_run_words");
    s.note_headers = DataWords(file, "note_headers");
    s.plan_parts = DataWords(file, "plan_parts");
    s.sheet_words = DataWords(file, "sheet_words");
    s.remark_names = DataWords(file, "remark_names");
    s.refer_words = DataWords(file, "refer_words");
    s.not_words = DataWords(file, "not_words");
    s.done = DataWords(file, "done_words");
    s.estimate = DataWords(file, "estimate_tags");
    s.tag_words = DataWords(file, "tag_words");
    s.tag_nouns = DataWords(file, "tag_nouns");
    s.headers = DataWords(file, "status_headers");
    s.results = DataWords(file, "result_names");
    s.empty = DataWords(file, "empty_results");
    return s;
  }();
  return w;
}

// The words of `s` in lower case: letters, digits, '-' and '\'' kept, the
// rest (emphasis, emoji, punctuation) separates.
std::vector<std::string> PlainWords(const std::string& s) {
  std::vector<std::string> out;
  std::string w;
  for (char ch : s) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c < 0x80 && (std::isalnum(c) || c == '-' || c == '\'')) {
      w += static_cast<char>(std::tolower(c));
    } else if (!w.empty()) {
      out.push_back(w);
      w.clear();
    }
  }
  if (!w.empty()) out.push_back(w);
  return out;
}

// Whether a status value says the run has not happened: its first word is
// a not-run word, or "not" before a word of not_words ("not yet run"), and
// no word says it is done ("planned -> done").
bool NotRunValue(const std::string& value) {
  const auto& v = Vocab();
  const auto words = PlainWords(value);
  if (words.empty()) return false;
  if (std::any_of(words.begin(), words.end(), [&v](const std::string& w) { return v.done.count(w) > 0; })) return false;
  if (v.not_run.count(words[0])) return true;
  return words[0] == "not" && words.size() > 1 && v.not_words.count(words[1]) && words[1] != "to";
}

// Whether the words of `part` are all status words (not_run, estimate tags,
// not_words, tag_words, tag_nouns; numbers and dates aside), with one that
// says not run (of
// `not_run`, or "not" before a word of not_words: "not yet run") or
// estimated.
bool TagWords(const std::string& part, const std::set<std::string>& not_run) {
  const auto& v = Vocab();
  const auto words = PlainWords(part);
  bool marks = false;
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (std::all_of(w.begin(), w.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == '-'; }))
      continue;  // a section's number or a date ("## 5. TODO", "## 2025-06-01 Theoretical")
    marks = marks || not_run.count(w) || v.estimate.count(w) ||
            (w == "not" && i + 1 < words.size() && v.not_words.count(words[i + 1]));
    if (!(v.not_run.count(w) || v.estimate.count(w) || v.not_words.count(w) || v.tag_words.count(w) ||
          v.tag_nouns.count(w)))
      return false;
  }
  return marks;
}

// A bracketed part of a heading that says what the entry waits on
// ("(pending BF16 70B+ access)", "[not yet run on H100]"): it starts with
// one of row_not_run_words, or "not" before a word of not_words.
bool WaitsOn(const std::string& part) {
  const auto& v = Vocab();
  const auto words = PlainWords(part);
  if (words.empty()) return false;
  return v.row_not_run.count(words[0]) || (words[0] == "not" && words.size() > 1 && v.not_words.count(words[1]));
}

// The tag of a heading that marks its entry not run or estimated: a part in
// brackets or parentheses, after a colon, a bar or a dash, or the whole
// text, that TagWords takes, or a bracketed part that WaitsOn; an open
// checkbox before its words; a word of a sheet of plans anywhere in it
// ("Roadmap for Q3", "Milestones"; sheet_words). "" when none.
std::string HeadingTag(const std::string& heading) {
  std::string h = Trim(heading);
  if (h.rfind("[ ]", 0) == 0) return "[ ]";
  for (const auto& w : PlainWords(h))
    if (Vocab().sheet_words.count(w)) return w;  // "## 2025-06-11 Roadmap for Q3"
  for (const std::string sep : {" \xE2\x80\x94 ", " \xE2\x80\x93 ", " - ", "\xC2\xB7"}) {
    std::string joined;
    size_t from = 0;
    for (size_t at = h.find(sep); at != std::string::npos; at = h.find(sep, from)) {
      joined += h.substr(from, at - from) + "|";
      from = at + sep.size();
    }
    h = joined + h.substr(from);
  }
  std::string part;
  bool bracketed = false;
  for (char c : h + "|") {
    if (c == '(' || c == ')' || c == '[' || c == ']' || c == ':' || c == '|') {
      if (TagWords(part, Vocab().not_run) || (bracketed && c != '|' && WaitsOn(part))) return Trim(part);
      part.clear();
      bracketed = c == '(' || c == '[';
    } else {
      part += c;
    }
  }
  return "";
}

// A Result's value that says nothing was measured ("TBD", "n/a (node
// down)", "not run"): it starts with one of empty_results, writes no digit
// and points nowhere else ("— see the table below"; refer_words). An empty
// value leads what follows, no such thing.
bool EmptyResult(const std::string& value) {
  const std::string v = Lower(Trim(value));
  if (v.empty() || std::any_of(v.begin(), v.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
    return false;
  const auto words = PlainWords(v);  // "— see the table below" points at the result
  if (std::any_of(words.begin(), words.end(), [](const std::string& w) { return Vocab().refer_words.count(w) > 0; }))
    return false;
  for (const auto& e : Vocab().empty) {
    if (v.compare(0, e.size(), e) != 0) continue;
    if (v.size() == e.size() || !std::isalnum(static_cast<unsigned char>(v[e.size()]))) return true;
  }
  return false;
}

// The value after one of `names` and a colon at the start of `line`
// (emphasis, a list's dash or a quote's '>' aside, "Status:" or
// "**Result:** TBD"), or "" when the line states none.
std::string ValueAfterName(const std::string& line, const std::set<std::string>& names) {
  size_t p = 0;
  auto skip = [&] {
    while (p < line.size() && (line[p] == '*' || line[p] == '_' || line[p] == ' ' || line[p] == '-' || line[p] == '>'))
      ++p;
  };
  skip();
  for (const auto& name : names) {
    if (Lower(line.substr(p, name.size())) != name) continue;
    size_t q = p + name.size();
    while (q < line.size() && (line[q] == '*' || line[q] == '_' || line[q] == ' ')) ++q;
    if (q >= line.size() || line[q] != ':') continue;
    ++q;
    while (q < line.size() && (line[q] == '*' || line[q] == '_' || line[q] == ' ')) ++q;
    return line.substr(q);
  }
  return "";
}

// A status statement: where it stands, what it says, and whether it is a
// Result's value rather than a status.
struct Stated {
  int line = 0;
  std::string value;
  bool result = false;
};

// The entry's status statements, in document order: its Status and Result
// fields, the lines of its list items and paragraphs that start with
// "Status:" or "Result:", and the Status and Result rows of its two-column
// tables.
std::vector<Stated> Statements(const Entry& entry) {
  std::vector<Stated> out;
  const auto& v = Vocab();
  auto add = [&](int line, const std::string& text) {
    if (const std::string s = ValueAfterName(text, v.headers); !s.empty())
      out.push_back({line, s, false});
    else if (const std::string r = ValueAfterName(text, v.results); !r.empty())
      out.push_back({line, r, true});
  };
  for (const auto& f : entry.fields) {
    const std::string name = Lower(Trim(f.name));
    if (v.headers.count(name) || v.results.count(name))
      out.push_back({f.bullet.line, f.value, v.results.count(name) > 0});
  }
  for (const auto& b : entry.notes) add(b.line, b.text);
  for (const auto& p : entry.paragraphs)
    for (size_t i = 0; i <= p.line_starts.size(); ++i) {
      const size_t b = i == 0 ? 0 : p.line_starts[i - 1];
      const size_t e = i < p.line_starts.size() ? p.line_starts[i] : p.text.size();
      add(p.line + static_cast<int>(i), p.text.substr(b, e - b));
    }
  for (const auto& t : entry.tables)
    for (size_t r = 0; r < t.rows.size(); ++r) {
      const auto name = t.rows[r].size() == 2 ? PlainWords(t.rows[r][0]) : std::vector<std::string>{};
      if (name.size() == 1 && (v.headers.count(name[0]) || v.results.count(name[0])))
        out.push_back({t.line + 2 + static_cast<int>(r), t.rows[r][1], v.results.count(name[0]) > 0});
    }
  std::stable_sort(out.begin(), out.end(), [](const Stated& a, const Stated& b) { return a.line < b.line; });
  return out;
}

// The entry's remarks on where its figures come from that mark them worked
// out ("- Source: roofline bound", "Kind: projection"; a field or paragraph
// line named one of remark_names whose value is estimate tags, or "not yet
// measured"; a "Notes: TODO" says nothing of the figures).
std::vector<Stated> Remarks(const Entry& entry) {
  std::vector<Stated> out;
  const auto& v = Vocab();
  static const std::set<std::string> none;
  auto marks = [](const std::string& value) { return TagWords(value, none); };  // worked out, or "not yet measured"
  for (const auto& f : entry.fields)
    if (v.remark_names.count(Lower(Trim(f.name))) && marks(f.value)) out.push_back({f.bullet.line, f.value, false});
  for (const auto& p : entry.paragraphs)
    for (size_t i = 0; i <= p.line_starts.size(); ++i) {
      const size_t b = i == 0 ? 0 : p.line_starts[i - 1];
      const size_t e = i < p.line_starts.size() ? p.line_starts[i] : p.text.size();
      if (const std::string r = ValueAfterName(p.text.substr(b, e - b), v.remark_names); !r.empty() && marks(r))
        out.push_back({p.line + static_cast<int>(i), r, false});
    }
  return out;
}

// A span of lines that records no run, and why.
struct NoRun {
  int first = 0, last = 0;
  std::string why;
};

// The opening of a paragraph, cut at a space within 60 bytes (never inside
// a character of several bytes).
std::string Opening(const std::string& text) {
  const std::string t = Trim(text);
  if (t.size() <= 60) return t;
  const size_t cut = t.rfind(' ', 60);
  return t.substr(0, cut == std::string::npos || cut == 0 ? 0 : cut) + " ...";
}

// Whether every word of `text` is one of `names` (and it has one).
bool AllIn(const std::string& text, const std::set<std::string>& names) {
  const auto words = PlainWords(text);
  return !words.empty() &&
         std::all_of(words.begin(), words.end(), [&names](const std::string& w) { return names.count(w) > 0; });
}

// A part of an iteration headed as its plan ("#### Plan", "#### Hypothesis",
// "#### Idea"; plan_parts) holds the plan's figures, no run; a part headed
// as its result ("#### Result", "#### Outcome"; result_names) whose first
// paragraph says nothing was measured ("Not run: the compile failed.")
// makes the whole entry record nothing. Whether `h` was such a part.
bool PlanOrEmptyResultPart(const Entry& entry, const Entry::SubHeading& h, int last, int next_sub,
                           std::vector<NoRun>* out) {
  const auto& v = Vocab();
  if (AllIn(h.text, v.plan_parts)) {
    out->push_back(
        {h.line, last,
         "a part headed as the plan (\"" + Trim(h.text) + "\"): it has not run, its figures are the plan's"});
    return true;
  }
  if (!AllIn(h.text, v.results)) return false;
  for (const auto& p : entry.paragraphs)
    if (p.line > h.line && p.line <= next_sub) {
      if (!EmptyResult(p.text)) return false;
      out->push_back({entry.heading_line, entry.end_line,
                      "its " + Trim(h.text) + " says nothing was measured (\"" + Opening(p.text) +
                          "\"): it has not run, its figures are its plan"});
      return true;
    }
  return false;
}

// Whether lines `first`..`last` of the entry (a part) report a measured
// result despite a status that says the part has not run (a status left
// stale): a Result field, line or row with a digit, or a "#### Result" part
// with a paragraph that has one or a table.
bool ReportsResult(const Entry& entry, const std::vector<Stated>& stated, int first, int last) {
  auto digit = [](const std::string& t) {
    return std::any_of(t.begin(), t.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
  };
  for (const auto& s : stated)
    if (s.result && s.line >= first && s.line <= last && digit(s.value)) return true;
  for (size_t i = 0; i < entry.subheadings.size(); ++i) {
    if (entry.subheadings[i].line < first || entry.subheadings[i].line > last) continue;
    if (!AllIn(entry.subheadings[i].text, Vocab().results)) continue;
    const int from = entry.subheadings[i].line;
    const int to = i + 1 < entry.subheadings.size() ? entry.subheadings[i + 1].line : entry.end_line + 1;
    for (const auto& p : entry.paragraphs)
      if (p.line > from && p.line < to && digit(p.text)) return true;
    for (const auto& t : entry.tables)
      if (t.line > from && t.line < to) return true;
  }
  return false;
}

// The parts of the entry (the entry above its first sub-heading, each
// sub-heading to the next of its level or above) that say they have not run
// or are estimates.
std::vector<NoRun> NotRunParts(const Entry& entry) {
  std::vector<NoRun> out;
  const auto stated = Statements(entry);
  const auto remarks = Remarks(entry);
  auto judge = [&](const std::string& heading, int first, int part_last, int status_last) {
    std::string tag = HeadingTag(heading);
    for (const auto& r : remarks)
      if (tag.empty() && r.line >= first && r.line <= status_last) tag = Trim(r.value);
    if (!tag.empty()) {
      out.push_back(
          {first, part_last,
           "its heading or a remark marks it \"" + tag + "\" (it has not run, or its figures are worked out): no run"});
      return;
    }
    for (const auto& s : stated)
      if (s.line >= first && s.line <= status_last) {
        if (s.result ? EmptyResult(s.value) : NotRunValue(s.value) && !ReportsResult(entry, stated, first, part_last))
          out.push_back({first, part_last,
                         std::string(s.result ? "its Result is empty" : "its status says it has not run") + " (\"" +
                             Trim(s.value) + "\")" + (s.result ? ": it has not run, " : ": ") +
                             "its figures are its plan"});
        return;  // the first statement of the part decides
      }
  };
  const int first_sub = entry.subheadings.empty() ? entry.end_line + 1 : entry.subheadings.front().line;
  judge(entry.heading, entry.heading_line, entry.end_line, first_sub - 1);
  for (size_t i = 0; i < entry.subheadings.size(); ++i) {
    const auto& h = entry.subheadings[i];
    int last = entry.end_line, next_sub = entry.end_line;
    for (size_t k = i + 1; k < entry.subheadings.size(); ++k) {
      const auto& n = entry.subheadings[k];
      next_sub = std::min(next_sub, n.line - 1);
      if (h.level == 0 || n.level == 0 || n.level <= h.level) {
        last = n.line - 1;
        break;
      }
    }
    if (!PlanOrEmptyResultPart(entry, h, last, next_sub, &out)) judge(h.text, h.line, last, next_sub);
  }
  return out;
}

// A column of remarks on the row ("note", "source", "kind"; note_headers):
// a tag there is the row's, not one column's empty value.
bool NoteColumn(const std::string& header) {
  const auto words = PlainWords(header);
  return !words.empty() && Vocab().note_headers.count(words[0]) > 0;
}

// The rows of the entry's tables that say they have not run: the row's
// cell under a status column says so, or its cell without digits under a
// column of remarks is a tag of its own ("| 2025-03-01 | 4.1 ms | roofline
// bound |", "| 64 | 6.9 ms | skipped |"; row_not_run_words, estimate tags).
// A "pending" under a metric's column is that column's missing value: the
// row's other figures stay.
void NotRunRows(const Entry& entry, std::vector<NoRun>* out) {
  const auto& v = Vocab();
  for (const auto& t : entry.tables) {
    size_t col = t.header.size();
    for (size_t c = 0; c < t.header.size(); ++c) {
      const auto words = PlainWords(t.header[c]);
      if (words.size() == 1 && v.headers.count(words[0])) col = c;
    }
    for (size_t r = 0; r < t.rows.size(); ++r) {
      const int line = t.line + 2 + static_cast<int>(r);
      const auto& row = t.rows[r];
      if (col < row.size() && NotRunValue(row[col])) {
        out->push_back({line, line, "a row whose status says it has not run (\"" + Trim(row[col]) + "\"), no figure"});
        continue;
      }
      for (size_t c = 1; c < row.size() && c < t.header.size(); ++c)
        if (NoteColumn(t.header[c]) &&
            std::none_of(row[c].begin(), row[c].end(),
                         [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); }) &&
            TagWords(row[c], v.row_not_run)) {
          out->push_back(
              {line, line,
               "a row marked \"" + Trim(row[c]) + "\" (it has not run, or its figures are worked out), no figure"});
          break;
        }
    }
  }
}

}  // namespace

void DropNotRun(const Entry& entry, std::vector<RecordedFigure>* out, std::vector<UnreadFigures>* unread) {
  std::vector<NoRun> spans = NotRunParts(entry);
  NotRunRows(entry, &spans);
  if (spans.empty()) return;
  std::vector<RecordedFigure> kept;
  for (auto& f : *out) {
    const auto it = std::find_if(spans.begin(), spans.end(),
                                 [&f](const NoRun& s) { return s.first <= f.line && f.line <= s.last; });
    if (it == spans.end()) {
      kept.push_back(std::move(f));
    } else if (unread && !(!unread->empty() && unread->back().line == f.line)) {
      unread->push_back({f.line, f.text, it->why});
    }
  }
  *out = std::move(kept);
}

}  // namespace moelog::logbook::reader
