// Reader stage classify: figures an entry cites from another source
// (classify_cited.h). Words: data/reader/citations.json.
#include "logbook/reader/classify_cited.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <set>

#include "logbook/reader/data_words.h"
#include "logbook/reader/internal.h"
#include "logbook/reader/prose.h"
#include "logbook/text.h"

namespace moelog::logbook::reader {
namespace {

constexpr char kCitedWhy[] =
    "restates another source's figure (its text cites one: an author-year citation, \"Source:\"), not this entry's run";

struct CitedWords {
  std::set<std::string> leads, not_source, months;
};

const CitedWords& Vocab() {
  static const CitedWords w = [] {
    CitedWords c;
    const std::string file = "data/reader/citations.json";
    c.leads = DataWords(file, "source_leads");
    c.not_source = DataWords(file, "not_source_words");
    c.months = DataWords(file, "month_names");
    return c;
  }();
  return w;
}

bool Digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// Whether the text inside one parenthesis or bracket is a name and a year
// ("Clarifai, 2025", "Dao et al. 2023"): the year last, a capitalised name first.
bool NameAndYear(const std::string& inside) {
  const std::string t = Trim(inside);
  if (t.size() < 6 || t.size() > 60) return false;
  size_t y = t.size();
  if (std::isalpha(static_cast<unsigned char>(t[y - 1])) && y >= 5 && Digit(t[y - 2])) --y;  // "2023a"
  if (y < 4 || !Digit(t[y - 1]) || !Digit(t[y - 2]) || !Digit(t[y - 3]) || !Digit(t[y - 4])) return false;
  const std::string year = t.substr(y - 4, 4);
  if ((year.compare(0, 2, "19") != 0 && year.compare(0, 2, "20") != 0) || (y > 4 && Digit(t[y - 5]))) return false;
  std::string name = t.substr(0, y - 4);
  while (!name.empty() && name.back() == ' ') name.pop_back();
  const bool comma = !name.empty() && name.back() == ',';
  if (comma) name.pop_back();
  const bool et_al = name.size() >= 6 && (Lower(name).ends_with("et al.") || Lower(name).ends_with("et al"));
  if (name.empty() || !std::isupper(static_cast<unsigned char>(name[0])) || (!comma && !et_al)) return false;
  for (char c : name)
    if (Digit(c)) return false;  // "(H100 x8, 2024)": no author
  const auto words = Words(name);
  return !words.empty() && words.size() <= 6 && !Vocab().months.count(Lower(words.back()));
}

}  // namespace

bool AuthorYearCitation(const std::string& text) {
  for (size_t open = text.find_first_of("(["); open != std::string::npos; open = text.find_first_of("([", open + 1)) {
    const char close = text[open] == '(' ? ')' : ']';
    size_t b = open + 1;
    if (b < text.size() && text[b] == '[') ++b;  // "([Medium, 2024](url))" read as "(Medium, 2024)" or with its bracket
    const size_t e = text.find_first_of(close == ')' ? ")]" : "]", b);
    if (e == std::string::npos || e - b > 60) continue;
    if (NameAndYear(text.substr(b, e - b))) return true;
  }
  return false;
}

bool SourceLead(const std::string& text) {
  for (const auto& [b, e] : prose::Sentences(text)) {
    std::string s;
    for (char c : text.substr(b, e - b))
      if (c != '*' && c != '_' && c != '#') s += c;
    s = Lower(Trim(s));
    for (const auto& lead : Vocab().leads) {
      if (!s.starts_with(lead)) continue;
      const std::string after = s.substr(lead.size());
      if (!after.empty() && std::isalnum(static_cast<unsigned char>(after[0]))) continue;  // "sourced", "sources" as another lead
      std::string next;
      for (char c : Trim(after)) {
        if (!std::isalnum(static_cast<unsigned char>(c))) break;
        next += c;
      }
      if (Vocab().not_source.count(next)) continue;  // "Source code: ..."
      // "Source: ...", "Source and full comparison ...: [table]", "According to X, ...": a colon or a comma
      // within the sentence's first words.
      const size_t mark = after.find_first_of(":,\xEF");  // ':' ',' or a full-width colon's first byte
      if (mark != std::string::npos && mark <= 80) return true;
    }
  }
  return false;
}

namespace {

// Whether a paragraph or item cites a source.
bool Cites(const std::string& text) { return AuthorYearCitation(text) || SourceLead(text); }

// The numbers written in `text`, as digits with their thousands commas dropped.
void WrittenNumbers(const std::string& text, std::set<std::string>* out) {
  for (size_t i = 0; i < text.size();) {
    if (!Digit(text[i])) {
      ++i;
      continue;
    }
    std::string n;
    for (; i < text.size() && (Digit(text[i]) || ((text[i] == ',' || text[i] == '.') && i + 1 < text.size() && Digit(text[i + 1]))); ++i)
      if (text[i] != ',') n += text[i];
    out->insert(n);
  }
}

// Whether every number of a table row's cells after its label is one `cited` writes.
bool RowCited(const std::string& row, const std::set<std::string>& cited) {
  const size_t label_end = row.find('|', row.find('|') + 1);
  std::set<std::string> nums;
  WrittenNumbers(label_end == std::string::npos ? row : row.substr(label_end), &nums);
  return !nums.empty() && std::all_of(nums.begin(), nums.end(), [&](const std::string& n) { return cited.count(n) > 0; });
}

struct CitedParts {
  std::set<int> lines;           // lines of cited paragraphs, items and tables
  std::set<std::string> numbers; // the numbers cited text writes
};

// A short label between a caption and its table ("**BF16:**"): one line, a few words.
bool ShortLabel(const Paragraph& p) { return p.line == p.end_line && Words(p.text).size() <= 4; }

CitedParts FindCited(const Entry& entry) {
  CitedParts c;
  std::vector<std::pair<int, int>> spans;  // cited paragraphs, first and last line
  for (const auto& p : entry.paragraphs)
    if (Cites(p.text)) {
      spans.emplace_back(p.line, p.end_line);
      for (int l = p.line; l <= p.end_line; ++l) c.lines.insert(l);
      WrittenNumbers(p.text, &c.numbers);
    }
  std::function<void(const Bullet&)> item = [&](const Bullet& b) {
    if (Cites(b.text)) {
      c.lines.insert(b.line);
      WrittenNumbers(b.text, &c.numbers);
    }
    for (const auto& k : b.children) item(k);
  };
  for (const auto& b : entry.notes) item(b);
  for (const auto& f : entry.fields) item(f.bullet);
  for (const auto& t : entry.tables) {
    // A table right after a cited paragraph or a cited table (short labels between), or right above a
    // "Source:" line.
    int above = t.line - 1;
    for (auto it = entry.paragraphs.rbegin(); it != entry.paragraphs.rend(); ++it)
      if (it->end_line < t.line && it->end_line >= above - 1 && ShortLabel(*it)) above = it->line - 1;
    bool cited = std::any_of(spans.begin(), spans.end(), [&](const auto& s) { return s.second < t.line && s.second >= above - 1; });
    for (const auto& p : entry.paragraphs)
      cited = cited || (p.line > t.end_line && p.line <= t.end_line + 2 && SourceLead(p.text));
    if (!cited) continue;
    for (int l = t.line; l <= t.end_line; ++l) c.lines.insert(l);
    spans.emplace_back(t.line, t.end_line);  // "**FP8:**" and its table after the cited "**BF16:**" one: one series
  }
  return c;
}

}  // namespace

void DropCited(const Entry& entry, std::vector<RecordedFigure>* out, std::vector<UnreadFigures>* unread) {
  const CitedParts cited = FindCited(entry);
  if (cited.lines.empty()) return;
  std::vector<RecordedFigure> kept;
  for (auto& f : *out) {
    const bool is_cited = cited.lines.count(f.line) > 0 || (f.table && RowCited(f.text, cited.numbers));
    if (!is_cited) {
      kept.push_back(std::move(f));
    } else if (unread && !(!unread->empty() && unread->back().line == f.line)) {
      unread->push_back({f.line, f.text, kCitedWhy});
    }
  }
  *out = std::move(kept);
}

}  // namespace moelog::logbook::reader
