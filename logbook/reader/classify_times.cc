// Reader stage classify, as the figures stage scans: a number with its
// unit that is no run's figure at all (how long a job, its compile or an
// event went on, a setting written as an adjective or beside a setting's
// noun, a threshold) and what a change adds or saves. Their words are data
// (vocabulary.json: duration_*, job_duration_*, setting_*, delta_leads; a
// rating word right after the unit, its unit group's rating).
#include <algorithm>
#include <cctype>

#include "logbook/reader/classify_settings.h"
#include "logbook/reader/data_words.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {

// A duration a job or test run took ("succeeded in 40.12 seconds", "33
// passed in 10.41s", "after 3 s", "parent duration `195006ms`") or a limit
// ("times out at 60 seconds") is no benchmark figure.
bool JobDuration(const std::string& s, size_t start) {
  size_t b = start;
  const std::string w = Lower(WordBefore(s, start, &b));
  // "after 3 s", "succeeded in 40 s", "compile `148.4s`" (job_duration_leads).
  if (ReaderLexicon().job_duration_leads.count(w)) return !SpansACount(s, start);  // "8 tokens in 1540ms": a run's
  if (w == "at" && Lower(WordBefore(s, b)) == "out") return true;  // "times out at 60 seconds": a limit
  // "compilation took 85 s": the compiler's time, not the benchmark's.
  if (w == "took" && Lower(WordBefore(s, b)).rfind("compil", 0) == 0) return true;
  // "parent duration `195006ms`", "job duration 3 s", "wall time 41 s", "compile time 85 s" (job_time_words).
  static const auto* whole = new std::set<std::string>(DataWords("data/reader/vocabulary.json", "job_time_words"));
  return (w == "duration" || w == "time") && whole->count(Lower(WordBefore(s, b))) > 0;
}

// A time written as an adjective before what it bounds or measures of a job
// ("a 5,400-second execution window", "the 60-second test limit", "an
// 8-minute 16-second task duration", "a 5 minute test suite run": a
// unit's singular word after an article's number): a setting or a job's
// duration, no figure.
bool DurationAdjective(const std::string& s, const UnitRead& u, size_t start) {
  const bool singular = u.unit.size() > 3 && u.unit.back() != 's' &&
                        std::all_of(u.unit.begin(), u.unit.end(), [](char c) { return std::islower(static_cast<unsigned char>(c)); });
  const std::string article = LeadWord(s, start);
  if (u.at == 0 || (s[u.at - 1] != '-' && !(singular && (article == "a" || article == "an")))) return false;
  // What a setting bounds, or whose duration it is (a job's, not a step's:
  // "an 8.4-second median duration" is a figure).
  return ReaderLexicon().duration_nouns.count(WordAfterTime(s, u.at + u.len)) > 0;
}

// The word after a time's unit at `at`, past the rest of a compound time
// ("3 h 47 m uptime", "a 9-minute 12-second task"), in lower case.
std::string WordAfterTime(const std::string& s, size_t at) {
  size_t e = at;
  std::string next = Lower(WordAt(s, e, &e));
  for (int parts = 0; parts < 3 && !next.empty() && std::isdigit(static_cast<unsigned char>(next[0])); ++parts) {
    const bool glued = std::isalpha(static_cast<unsigned char>(next.back()));  // "47m", "12-second"
    next = Lower(WordAt(s, e, &e));
    if (!glued && next.size() <= 7 && !ReaderLexicon().duration_events.count(next)) next = Lower(WordAt(s, e, &e));  // "47 m"
  }
  return next;
}

// The word before a number at `start`, past an approximation sign ("for ~4
// min", "adds ≈30 us") and a range's first end ("adds ~1-2 s"), lower case.
std::string LeadWord(const std::string& s, size_t start, size_t* at) {
  size_t b = start;
  for (;;) {
    while (b > 0 && s[b - 1] == ' ') --b;
    size_t dash = 0;  // a range's second end ("adds ~1-2 s"): the word before its first
    if (b >= 2 && s[b - 1] == '-') dash = 1;
    else if (b >= 4 && s.compare(b - 3, 3, "\xE2\x80\x93") == 0) dash = 3;
    if (dash > 0 && std::isdigit(static_cast<unsigned char>(s[b - dash - 1]))) {
      b -= dash;
      while (b > 0 && (std::isdigit(static_cast<unsigned char>(s[b - 1])) || s[b - 1] == '.')) --b;
    } else if (b > 0 && s[b - 1] == '~') {
      --b;
    } else if (b >= 3 && s.compare(b - 3, 3, "\xE2\x89\x88") == 0) {
      b -= 3;
    } else {
      break;
    }
  }
  return Lower(WordBefore(s, b, at));
}

// A word or two right before a figure that make it what a change adds or
// saves ("adds ~30 us", "a difference of ~5 seconds", "reduced by 2 ms",
// "saved about 0.6 s", "saves up to 250 us").
bool DeltaLead(const std::string& s, size_t start) {
  size_t at = 0;
  std::string lead = LeadWord(s, start, &at);
  // "saved about 0.6 s": past a word of approximation (approximation_words).
  static const auto* approx = new std::set<std::string>(DataWords("data/reader/vocabulary.json", "approximation_words"));
  if (approx->count(lead)) lead = LeadWord(s, at, &at);
  // "saves up to 250 us": past the bound.
  if (size_t up = at; lead == "to" && LeadWord(s, at, &up) == "up") lead = LeadWord(s, up, &at);
  const auto& leads = ReaderLexicon().delta_leads;
  if (leads.count(lead)) return true;
  return (lead == "of" || lead == "by") && leads.count(Lower(WordBefore(s, at)) + " " + lead) > 0;
}

// A label right before a figure ("Measured gain: 0.63 s", "Direct savings:
// ~0.52 s", "Total gain from caching: 0.11 s") one of whose words names what
// a change gains or saves (change_label_words of vocabulary.json): the
// figure is a difference of two runs.
bool ChangeLabelBefore(const std::string& s, size_t start) {
  static const auto* words = new std::set<std::string>(DataWords("data/reader/vocabulary.json", "change_label_words"));
  size_t b = start;
  while (b > 0 && (s[b - 1] == ' ' || s[b - 1] == '~' || s[b - 1] == '*' || s[b - 1] == '`')) --b;
  if (b == 0 || s[b - 1] != ':') return false;
  const size_t e = b - 1;
  size_t a = e;
  while (a > 0 && e - a < 64 && std::string_view(".;,:(\n").find(s[a - 1]) == std::string_view::npos) --a;
  for (std::string w : Words(s.substr(a, e - a))) {
    while (!w.empty() && !std::isalnum(static_cast<unsigned char>(w.back()))) w.pop_back();
    while (!w.empty() && !std::isalnum(static_cast<unsigned char>(w.front()))) w.erase(w.begin());
    if (words->count(Lower(w))) return true;
  }
  return false;
}

// A time followed by a word that makes it when something happened or how
// long a machine was up ("~6 s later", "3 h 47 m uptime"): no run's figure.
bool EventTime(const std::string& s, const UnitRead& u) {
  return ReaderLexicon().duration_events.count(WordAfterTime(s, u.at + u.len)) > 0;
}

namespace {

// A setting noun (setting_nouns), a plural one too ("intervals").
bool SettingNoun(const std::string& w) {
  const auto& nouns = ReaderLexicon().setting_nouns;
  return nouns.count(w) > 0 || (w.size() > 3 && w.back() == 's' && nouns.count(w.substr(0, w.size() - 1)) > 0);
}

// The setting noun right after a figure, or after one of setting_qualifiers
// ("a 64 KiB ring buffer", "a 32 MiB staging chunk").
bool SettingAfter(const std::string& s, const UnitRead& u) {
  size_t e = u.at + u.len;
  const std::string next = Lower(WordAt(s, e, &e));
  return SettingNoun(next) || (ReaderLexicon().setting_qualifiers.count(next) && SettingNoun(Lower(WordAt(s, e, &e))));
}

// Whether the colon at `colon` ends the name of a field that sets a test
// up ("**Duration**: 10 minutes", "- Ramp-up: 10 s"; setting_fields of
// vocabulary.json): the whole name from the line's, the item's or the
// clause's start, markup aside, lower case.
bool SettingFieldColon(const std::string& s, size_t colon) {
  size_t a = colon;
  while (a > 0 && colon - a < 48 && std::string_view("\n.;,(|").find(s[a - 1]) == std::string_view::npos) --a;
  if (a > 0 && colon - a >= 48) return false;
  std::string name = s.substr(a, colon - a);
  name = parse_detail::Trim(name);
  if (name.rfind("- ", 0) == 0 || name.rfind("* ", 0) == 0) name = name.substr(2);  // a list item's mark
  return SettingFieldName(name);
}

// A figure that sets a run up rather than measures it: a number right after
// a command-line flag ("passes --duration 60s", "--timeout=30s", "wrk -d 30s"),
// a whole number assigned in a code span ("`min_elapsed = 800ms`"; a
// harness's `time_s=0.05` is written unspaced), or a whole number (a setting is written whole; "2.1 s warmup", "warmup
// 12.3 s" read a phase) with a setting noun right after it ("at 250 ms
// intervals", "a 64 KiB ring buffer"), right before it with no colon
// between ("warmup 10 s", "timeout 30 s"; "warmup: 12 s" reports one),
// after the colon of a field that sets a test up ("Duration: 10 minutes";
// SettingFieldName), or before `of`, `size` or `length` before it ("a
// timeout of 30 s", "chunk size 4 MiB"), and a property's value
// ("linger.ms=5ms", "raised linger.ms to 5ms").
bool SettingFigure(const std::string& s, size_t start, const UnitRead& u) {
  size_t b = start;
  while (b > 0 && (s[b - 1] == ' ' || s[b - 1] == '`' || s[b - 1] == '*' || s[b - 1] == '~')) --b;
  size_t e = start;
  while (e < s.size() && std::isdigit(static_cast<unsigned char>(s[e]))) ++e;
  const bool whole = e >= s.size() || s[e] != '.';
  size_t at = 0;
  if (b > 0 && s[b - 1] == '=') {
    const std::string key = WordBefore(s, b - 1, &at);
    if (key.rfind("--", 0) == 0 || DottedProperty(key)) return true;  // "--timeout=30s", "linger.ms=5ms"
    // "`min_elapsed = 800ms`": an assignment written as code, a setting.
    const size_t end = u.at + u.len;
    return whole && b >= 2 && s[b - 2] == ' ' && at > 0 && s[at - 1] == '`' && end < s.size() && s[end] == '`';
  }
  const std::string lead = Lower(WordBefore(s, b, &at));
  if (lead.size() > 2 && lead.rfind("--", 0) == 0 && std::isalpha(static_cast<unsigned char>(lead[2]))) return true;  // "--duration 60s"
  if (lead.size() == 2 && lead[0] == '-' && std::isalpha(static_cast<unsigned char>(lead[1])) && (at == 0 || s[at - 1] == ' '))
    return true;  // "oha -z 10s", "wrk -d 30s": a short flag's value
  if (!whole) return false;
  if (SettingAfter(s, u)) return true;
  if (b > 0 && s[b - 1] == ':' && SettingFieldColon(s, b - 1)) return true;  // "**Duration**: 10 minutes"
  if (lead.empty() || (b > 0 && s[b - 1] == ':')) return false;
  if (SettingNoun(lead)) return true;
  if (lead == "to") {  // "raised linger.ms to 5ms": a property set
    size_t e = at;
    while (e > 0 && s[e - 1] == ' ') --e;
    size_t w = e;
    while (w > 0 && s[w - 1] != ' ') --w;
    if (DottedProperty(s.substr(w, e - w))) return true;
  }
  return (lead == "of" || lead == "size" || lead == "length") && SettingNoun(Lower(WordBefore(s, at)));
}

// A rating word of the figure's unit right after it ("350W TDP", "2.0 TB/s
// nominal", "75 W rated"; rating of vocabulary.json): the device's rating
// or limit, no reading.
bool RatingAfter(const std::string& s, const UnitRead& u) {
  UnitInfo info{};
  if (!UnitIn(ReaderLexicon(), u.unit, &info) || info.rating.empty()) return false;
  size_t e = u.at + u.len;
  std::string next = Lower(WordAt(s, e, &e));
  while (!next.empty() && std::ispunct(static_cast<unsigned char>(next.back()))) next.pop_back();
  return !next.empty() && std::find(info.rating.begin(), info.rating.end(), next) != info.rating.end();
}

}  // namespace

// A property's dotted name ("linger.ms", "batch.size",
// "spark.executor.memory"): letters first, parts joined by dots, no number
// of its own ("1.5", "v0.3" are none).
bool DottedProperty(std::string w) {
  while (!w.empty() && (w.front() == '`' || w.front() == '*')) w.erase(0, 1);
  while (!w.empty() && (w.back() == '`' || w.back() == '*')) w.pop_back();
  const size_t dot = w.find('.');
  if (dot == std::string::npos || dot == 0 || w.back() == '.' || !std::isalpha(static_cast<unsigned char>(w[0]))) return false;
  for (size_t i = 0; i < w.size(); ++i) {
    const char c = w[i];
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.' && c != '-') return false;
    if (c == '.' && (w[i - 1] == '.' || !std::isalpha(static_cast<unsigned char>(w[i + 1])))) return false;
  }
  return true;
}

bool SettingFieldName(const std::string& name) {
  static const auto* fields = new std::set<std::string>(DataWords("data/reader/vocabulary.json", "setting_fields"));
  std::string plain;
  for (char c : name)
    if (c != '*' && c != '_' && c != '`') plain += c;
  plain = Lower(parse_detail::Trim(plain));
  while (!plain.empty() && plain.back() == ':') plain.pop_back();
  if (fields->count(plain)) return true;
  // "global timeout", "poll interval": a label of a few words ending in a setting's noun (setting_label_nouns).
  static const auto* nouns = new std::set<std::string>(DataWords("data/reader/vocabulary.json", "setting_label_nouns"));
  const auto words = Words(plain);
  return !words.empty() && words.size() <= 3 && nouns->count(words.back()) > 0;
}

bool SettingFieldValue(const std::string& name, const std::string& value) {
  if (!SettingFieldName(name)) return false;
  const size_t d = value.find_first_of("0123456789");
  if (d == std::string::npos) return false;
  size_t e = d;
  while (e < value.size() && (std::isdigit(static_cast<unsigned char>(value[e])) || value[e] == ',')) ++e;
  return e >= value.size() || value[e] != '.' || e + 1 >= value.size() ||
         !std::isdigit(static_cast<unsigned char>(value[e + 1]));
}

// Why a number with its unit is no figure of any run at all, or nullptr:
// how long a job, its compile or an event went on, a setting, a threshold
// (the classify rules the scan applies as it reads). The reason is kept for
// --show-recorded (NoFigureReasons); the number is never a figure.
// A number glued to a plural "s" before "of" ("1000s of nodes", "100s of
// GB"): a rough count, no time.
bool PluralCount(const std::string& s, const UnitRead& u) {
  if (!u.glued || u.unit != "s") return false;
  const size_t p = u.at + u.len;
  return s.compare(p, 4, " of ") == 0;
}

const char* NoFigureWhy(const std::string& s, size_t start, const UnitRead& u, const std::string& metric) {
  if (PluralCount(s, u)) return "a rough count in the plural (1000s of ...), not a time";
  if (metric == "time_s" && JobDuration(s, start))
    return "a job's, a test's or a compile's duration, or its limit (after, in, compile, job duration ...), not a run's figure";
  if (metric.find("time_s") != std::string::npos) {
    if (DurationAdjective(s, u, start)) return "a setting or a job's span written as an adjective (a 60-second limit ...), not a run's figure";
    if (EventTime(s, u) || ReaderLexicon().duration_leads.count(LeadWord(s, start)))
      return "an event's duration (polled for, later, ago, uptime ...), not a run's figure";
  }
  if (SettingFigure(s, start, u))
    return "a setting (an interval, a buffer, a timeout, a warmup, a flag's value ...), not a run's figure";
  if (ProseOperand(s, start, u.at + u.len)) return "worked out in arithmetic of its clause (a x b = c), not a run's figure";
  if (RatingAfter(s, u)) return "a device's rating (a rating word right after it: TDP, nominal, rated ...), not a run's figure";
  if (ThresholdBefore(s, start)) return "a threshold (at least, a budget of, target ...), not a run's figure";  // "a budget of 3 ms"
  return nullptr;
}

}  // namespace moelog::logbook::reader
