// Metric names as the author wrote them, the unit's metric said once: a
// printed key or a column header that already names its metric
// ("train_time:1338402ms", "| step_time (ms) |") is not named again
// ("train_time_time_s"); one that names a time by another word ("p95
// latency", "TTFT") is headed without "time" added.

#include <algorithm>
#include <cctype>

#include "logbook/reader/vocabulary.h"

namespace moelog::logbook::reader {

namespace {

bool EndsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

std::string QualifiedMetricName(const std::string& qualifier, const std::string& base) {
  if (qualifier.empty()) return base;
  if (base.empty()) return qualifier;
  // "error_rate" + "error_rate_pct": the base names the qualifier already.
  if (base.rfind(qualifier + "_", 0) == 0) return base;
  // "tokens_per_s_decode"-like keys that hold the base whole: as written.
  if (("_" + qualifier + "_").find("_" + base + "_") != std::string::npos) return qualifier;
  // "train_time" + "time_s": the base's first word ends the name already.
  const size_t us = base.find('_');
  if (us != std::string::npos) {
    const std::string lead = base.substr(0, us);
    if (qualifier == lead || EndsWith(qualifier, "_" + lead)) return qualifier + base.substr(lead.size());
  }
  return qualifier + "_" + base;
}

bool NamesATime(const std::string& name) {
  std::string word;
  const auto& words = ReaderLexicon().time_words;
  for (size_t i = 0; i <= name.size(); ++i) {
    const char c = i < name.size() ? name[i] : ' ';
    if (c == '_' || c == ' ' || c == '/' || c == '-') {
      if (words.count(word)) return true;
      word.clear();
    } else {
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  return false;
}

}  // namespace moelog::logbook::reader
