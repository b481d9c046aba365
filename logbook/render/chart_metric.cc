// Which figure a chart draws when no --y names one (chart.h,
// ChooseChartMetric): the figure a reader of the entry looks for, never a
// count or a setting the record printed beside it.
#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "logbook/reader/table_ledger.h"
#include "logbook/reader/vocabulary.h"
#include "logbook/render/chart.h"

namespace moelog::logbook {
namespace {

// How a metric ranks when the entry's words name none: a rate first (what
// a run achieved: TF/s, tokens/s, GB/s, requests/s), then MFU, then a
// latency (a time a request or step took, a statistic of one), then another
// time (a wall time, a duration), then what else was measured (memory, a
// loss, cycles); a count or a setting (an iteration count, a warmup, a
// timeout) only when nothing else is recorded.
enum Rank { kRate, kShare, kLatency, kTime, kOther, kSetting };

// Words of time_words that name how long a whole run or job took, not a
// request's or a step's latency.
const std::set<std::string> kRunTimeWords = {"time", "duration", "elapsed", "runtime", "walltime"};
// Statistics that stand for the figure itself.
const std::set<std::string> kCentreWords = {"mean", "median", "avg", "average", "p50", "steady"};
// Words of a metric's name that are its unit's ("tokens" of tokens_per_s):
// prose uses them of anything ("1024 tokens"), so they name no metric.
const std::set<std::string> kUnitWords = {"s", "per", "time", "tokens", "tflops", "gb", "mb", "mib", "gib", "kb"};

std::vector<std::string> NameWords(const std::string& metric) {
  std::vector<std::string> out(1);
  for (char c : metric) {
    if (c == '_') {
      if (!out.back().empty()) out.emplace_back();
    } else {
      out.back() += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  if (out.back().empty()) out.pop_back();
  return out;
}

bool Has(const std::vector<std::string>& words, const std::string& w) {
  return std::find(words.begin(), words.end(), w) != words.end();
}

// "x_per_s", "tflops", "gb_per_s_p50": a rate.
bool IsRate(const std::vector<std::string>& w) {
  if (Has(w, "tflops") || Has(w, "throughput")) return true;
  for (size_t i = 0; i + 1 < w.size(); ++i)
    if (w[i] == "per" && w[i + 1] == "s") return true;
  return false;
}

// "time_s", "latency_p50_time_s", "duration_time_s": a time.
bool IsTime(const std::vector<std::string>& w) {
  for (size_t i = 0; i + 1 < w.size(); ++i)
    if (w[i] == "time" && w[i + 1] == "s") return true;
  return w.size() == 2 && w[1] == "s" && reader::NamesATime(w[0]);  // "latency_s", "mean_s"
}

Rank RankOf(const std::string& metric) {
  const reader::Lexicon& lex = reader::ReaderLexicon();
  const std::vector<std::string> w = NameWords(metric);
  if (IsRate(w)) return kRate;  // "iters_per_s": a rate of a count
  for (const auto& word : w)
    if (lex.setting_nouns.count(word) || lex.count_words.count(word) || word == "iters" || word == "iterations")
      return kSetting;
  if (metric == "mfu" || Has(w, "mfu")) return kShare;
  if (IsTime(w)) {
    for (const auto& word : w)
      if (lex.time_words.count(word) && !kRunTimeWords.count(word)) return kLatency;  // "latency", "ttft"
    return kTime;
  }
  return kOther;
}

// 0 for a figure or its centre ("time_s", "mean", "median", "p50"), 1 for
// the best of repeats ("min_time_s", a leaderboard's fastest), 2 for another
// statistic of a spread ("max_time_s", "p99", "std", "error"): of two times,
// the one a reader compares runs by.
int Spread(const std::string& metric) {
  const reader::Lexicon& lex = reader::ReaderLexicon();
  int spread = 0;
  for (const auto& word : NameWords(metric))
    if ((lex.statistic_words.count(word) && !kCentreWords.count(word)) || word == "std" || word == "stddev" ||
        word == "error" || word == "deviation")  // a bench framework's "± error", libtest's "(+/- 56)"
      spread = std::max(spread, word == "min" ? 1 : 2);
  return spread;
}

// The words of a metric's name the entry's prose could name it by
// ("latency", "throughput", "requests"), not its unit's ("time", "s", "per").
std::set<std::string> NamingWords(const std::string& metric) {
  std::set<std::string> out;
  const std::vector<std::string> w = NameWords(metric);
  for (const auto& word : w)
    if (!kUnitWords.count(word) && word.size() > 1) out.insert(word);
  if (IsRate(w)) out.insert("throughput");
  if (RankOf(metric) == kLatency) out.insert("latency");
  return out;
}

// Where the entry's words first name `metric` (their word index), npos when
// they do not.
size_t NamedAt(const std::vector<std::string>& headline, const std::string& metric) {
  const std::set<std::string> naming = NamingWords(metric);
  for (size_t i = 0; i < headline.size(); ++i)
    if (naming.count(headline[i])) return i;
  return std::string::npos;
}

std::vector<std::string> TextWords(const std::string& text) {
  std::vector<std::string> out(1);
  for (char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      out.back() += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!out.back().empty()) {
      out.emplace_back();
    }
  }
  if (out.back().empty()) out.pop_back();
  return out;
}

bool Derived(const std::string& m) {
  return m == "speedup" || m.find("delta_pct") != std::string::npos || m.find("share_pct") != std::string::npos ||
         reader::LedgerChangeMetric(m);
}

}  // namespace

bool MixesRunAndRequestTimes(const std::vector<ChartPoint>& points, const std::string& metric) {
  if (!IsTime(NameWords(metric))) return false;
  const reader::Lexicon& lex = reader::ReaderLexicon();
  bool run = false, request = false;
  for (const auto& p : points) {
    if (!p.metrics.count(metric)) continue;
    bool r = false, q = false;
    for (const auto& [k, v] : p.config)
      for (const auto& w : TextWords(v)) {
        r = r || (kRunTimeWords.count(w) && w != "time");  // "duration", "elapsed": how long the whole run went
        q = q || (lex.time_words.count(w) && !kRunTimeWords.count(w));  // "latency", "ttft": one request's
      }
    run = run || (r && !q), request = request || q;
  }
  return run && request;
}

std::string ChooseChartMetric(const std::vector<ChartPoint>& points, const ChartOptions& options) {
  std::map<std::string, size_t> count;
  for (const auto& p : points)
    for (const auto& [m, v] : p.metrics)
      if (!Derived(m) && m != "band_lo" && m != "band_hi") ++count[m];
  if (count.empty()) return "";
  // A figure of one point compares nothing, and one most points lack would
  // chart a corner of the entry: only metrics recorded at two points or
  // more and at least a quarter as often as the most recorded one count.
  size_t most = 0;
  for (const auto& [m, n] : count) most = std::max(most, RankOf(m) == kSetting ? 0 : n);
  // The entry's words choose among the figures an author recorded; a chart
  // of moelog's own runs draws its figures by rank alone.
  const bool recorded = std::all_of(points.begin(), points.end(), [](const ChartPoint& p) { return p.source == "recorded"; });
  const std::vector<std::string> headline = TextWords(recorded ? options.headline : "");
  // Of figures ranked alike, the ones runs are compared by first (a model's loss before its gradient norm).
  const std::vector<std::string> own = {"tflops", "tokens_per_s", "gb_per_s", "mfu", "time_s", "val_loss", "loss", "train_loss"};
  using Key = std::tuple<size_t, size_t, int, int, size_t, size_t, std::string>;
  std::optional<Key> best;
  for (const auto& [m, n] : count) {
    if (n < std::min<size_t>(2, most) || 4 * n < most) continue;
    const Rank rank = RankOf(m);
    size_t named = std::string::npos;
    if (!options.primary_metric.empty() && m == options.primary_metric) named = 0;
    // A metric the entry's words name but half its points lack is a side
    // figure ("memory 24 MB -> 6 MB" under a table of times): ranked, not named.
    else if (rank != kSetting && 2 * n >= most && (named = NamedAt(headline, m)) != std::string::npos) ++named;
    const size_t order = static_cast<size_t>(std::find(own.begin(), own.end(), m) - own.begin());
    const Key key{named == std::string::npos ? 1 : 0, named, static_cast<int>(rank), Spread(m), most - n, order, m};
    if (!best || key < *best) best = key;
  }
  return best ? std::get<6>(*best) : "";
}

}  // namespace moelog::logbook
