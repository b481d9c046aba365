#include "logbook/update/recorded_failures.h"

#include <algorithm>
#include <cctype>

#include "logbook/text.h"

namespace moelog::logbook {
namespace {

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string Unticked(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), '`'), s.end());
  return Trim(s);
}

// "failed", "timed out", "killed" for a text that says so, else "".
std::string OutcomeOf(const std::string& text) {
  const std::string l = Lower(text);
  for (const char* deny : {"no fail", "not fail", "none fail", "0 fail", "never fail", "without fail"})
    if (l.find(deny) != std::string::npos) return "";
  for (const char* w : {"timed out", "timeout", "time out"})
    if (l.find(w) != std::string::npos) return "timed out";
  for (const char* w : {"killed", "oom", "out of memory"})
    if (l.find(w) != std::string::npos) return "killed";
  for (const char* w : {"failed", "fails", "failure", "crashed", "errored"})
    if (l.find(w) != std::string::npos) return "failed";
  return "";
}

// The label's values: "`gmm/int8/bfloat16`" -> gmm, int8, bfloat16;
// "topk=8, ep" -> 8, ep.
std::vector<std::string> LabelValues(const std::string& label) {
  std::vector<std::string> out;
  std::string cur;
  auto flush = [&] {
    if (!cur.empty()) out.push_back(Lower(cur));
    cur.clear();
  };
  for (char c : label) {
    if (c == '/' || c == ',' || c == ' ' || c == ';') flush();
    else if (c == '=') cur.clear();  // "topk=8": the value
    else cur += c;
  }
  flush();
  return out;
}

void Walk(const Bullet& b, std::vector<RecordedFailure>* out) {
  const size_t colon = b.text.find(':');
  const bool labelled = colon != std::string::npos && colon > 0 && colon <= 60;
  // The label names the run; the words after it say how it ended.
  const std::string outcome = labelled && OutcomeOf(b.text.substr(0, colon)).empty() ? OutcomeOf(b.text.substr(colon + 1)) : "";
  if (!outcome.empty()) {
    RecordedFailure f;
    f.line = b.line;
    f.outcome = outcome;
    f.label = LabelValues(Unticked(b.text.substr(0, colon)));
    // The reason: the first sub-item ("`TypeError: ...`"), else the words
    // after the colon.
    f.reason = Unticked(b.children.empty() ? b.text.substr(colon + 1) : b.children.front().text);
    if (f.reason.size() > 120) f.reason = Utf8Prefix(f.reason, 117) + "...";
    if (!f.label.empty()) out->push_back(std::move(f));
  }
  for (const Bullet& c : b.children) Walk(c, out);
}

}  // namespace

std::vector<RecordedFailure> RecordedFailures(const Entry& entry) {
  std::vector<RecordedFailure> out;
  for (const Field& f : entry.fields)
    if (f.name == "Result")
      for (const Bullet& c : f.bullet.children) Walk(c, &out);
  return out;
}

bool FailureNames(const RecordedFailure& f, const std::map<std::string, std::string>& config) {
  if (f.label.empty()) return false;
  for (const std::string& v : f.label) {
    bool found = false;
    for (const auto& [k, value] : config) found = found || Lower(value) == v;
    if (!found) return false;
  }
  return true;
}

}  // namespace moelog::logbook
