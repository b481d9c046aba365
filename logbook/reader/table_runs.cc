// Reader stage table: columns of one metric that are runs of their own
// ("| Size | Baseline (ms) | Optimized (ms) |", "| N | cuBLAS TFLOPS | ours
// TFLOPS |", a printed "mojo (us/call) | upstream (us/call)"). Each such
// column is its own figure set of the row, keyed variant=<its header's
// words>, never one row of two runs. Columns of one metric that are parts or
// statistics of one run ("prefill (ms) | decode (ms)", "mean ms | median ms";
// same_run_words of data/reader/table.json) stay one figure set.

#include "logbook/reader/data_words.h"
#include "logbook/reader/internal.h"
#include "logbook/reader/table_repeats.h"

namespace moelog::logbook::reader {

namespace {

const std::set<std::string>& SameRunWords() {
  static const std::set<std::string> words = DataWords("data/reader/table.json", "same_run_words");
  return words;
}

}  // namespace

// Whether a qualifier names a value of a setting ("15_in_toks" beside
// "1144_in", "8_gpu"): one of its words is a bare number and none is a
// statistic ("p99"). Such columns are runs even when a word of theirs
// names a part of a run ("in", "input").
static bool NumberedSetting(const std::string& q) {
  bool number = false;
  std::stringstream ss(q);
  for (std::string w; std::getline(ss, w, '_');) {
    if (StatisticWord(w) || SpreadStatistic(w)) return false;
    number = number || (!w.empty() && std::all_of(w.begin(), w.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }));
  }
  return number;
}

// Whether a column's qualifier names a part or a statistic of a run
// ("prefill", "mean", "exposed_collective", "per_token", "gpu", a repeat's "run_1").
bool PartOfARun(const std::string& qualifier) {
  static const auto* variant = new std::set<std::string>(DataWords("data/reader/table.json", "variant_words"));
  if (!RepeatName(qualifier).empty()) return true;  // "run_1": one repeat of the row's measurement (table_repeats.h)
  if (NumberedSetting(qualifier)) return false;     // "15_in_toks": a value of a setting, though "in" names a part
  bool part = false;
  std::stringstream ss(qualifier);
  for (std::string w; std::getline(ss, w, '_');) {
    if (variant->count(w)) return false;  // "moe_only": a run with only that part on
    part = part || SameRunWords().count(w) || StatisticWord(w) || SpreadStatistic(w);
  }
  return part;
}

namespace {

// Whether a qualifier is a metric's name only ("Latency (ms)"): the column
// is the row's own run, as a plain one is.
bool MetricOnly(const std::string& qualifier) {
  std::stringstream ss(qualifier);
  bool any = false;
  for (std::string w; std::getline(ss, w, '_'); any = true)
    if (!MetricWord(w)) return false;
  return any;
}

// A header's words without its unit, as written ("Baseline (ms)" ->
// "Baseline", "**cuBLAS** TFLOPS" -> "cuBLAS", "After (568dfc0)"): the
// run's name.
std::string RunName(const std::string& header) {
  std::string out;
  for (std::string w : Words(header)) {
    w.erase(std::remove_if(w.begin(), w.end(), [](char c) { return c == '*' || c == '`'; }), w.end());
    while (!w.empty() && std::strchr(":,", w.back())) w.pop_back();
    // "MLX (µs)": a unit, in parentheses or not, is no part of the name.
    std::string bare = w;
    if (bare.size() > 2 && bare.front() == '(' && bare.back() == ')') bare = bare.substr(1, bare.size() - 2);
    if (UnitInfo info{}; AnyUnit(bare, &info)) continue;
    if (!w.empty() && (!Qualifier(w).empty() || (!out.empty() && (w == "+" || w == "&")))) out += (out.empty() ? "" : " ") + w;
  }
  return out.size() > 40 ? "" : out;
}

// The words ('_'-separated) every non-empty qualifier holds, when two or more do.
std::set<std::string> SharedWords(const std::vector<std::string>& quals) {
  std::set<std::string> common;
  int n = 0;
  for (const auto& q : quals) {
    if (q.empty()) continue;
    std::set<std::string> words;
    std::stringstream ss(q);
    for (std::string w; std::getline(ss, w, '_');) words.insert(w);
    if (n++ == 0) common = words;
    else
      for (auto it = common.begin(); it != common.end();) it = words.count(*it) ? std::next(it) : common.erase(it);
  }
  return n >= 2 ? common : std::set<std::string>{};
}

// A qualifier without the words in `drop`.
std::string WithoutWords(const std::string& q, const std::set<std::string>& drop) {
  std::string out;
  std::stringstream ss(q);
  for (std::string w; std::getline(ss, w, '_');)
    if (!w.empty() && !drop.count(w)) out += (out.empty() ? "" : "_") + w;
  return out;
}

// Whether a qualifier, its shared words aside, names a backend a run ran on
// ("metal", "cuda", "gpu"; run_backends of table.json).
bool NamesBackend(const std::string& q, const std::set<std::string>& shared) {
  static const auto* backends = new std::set<std::string>(DataWords("data/reader/table.json", "run_backends"));
  std::stringstream ss(WithoutWords(q, shared));
  for (std::string w; std::getline(ss, w, '_');)
    if (backends->count(w)) return true;
  return false;
}

// Whether the table holds a column of changes or speedups ("| Delta |" over
// "49.1% faster"): two columns of one metric beside it are what it compares.
bool ComparedPair(const std::vector<ColumnInfo>& cols, const std::vector<std::string>& quals) {
  if (quals.size() != 2) return false;
  for (const auto& q : quals) {
    std::stringstream ss(q);
    for (std::string w; std::getline(ss, w, '_');)
      if (StatisticWord(w) || SpreadStatistic(w)) return false;  // "mean | p99": statistics of one run
  }
  return std::any_of(cols.begin(), cols.end(), [](const ColumnInfo& c) {
    return c.derived && (c.metric == "speedup" || c.metric.find("delta") != std::string::npos);
  });
}

// The columns of one metric (no "@value", no scale of their own) whose
// qualifiers differ and name no part of a run (unless a change column
// compares the two: "Clean HEAD | Final dispatch | Delta"): each qualifier
// -> its name.
std::map<std::string, std::string> RunQualifiers(const std::vector<std::string>& headers,
                                                 const std::vector<ColumnInfo>& cols) {
  std::map<std::string, std::vector<size_t>> same;  // metric -> columns
  for (size_t c = 0; c < cols.size(); ++c)
    if (!cols[c].metric.empty() && !cols[c].derived && cols[c].at.empty() && cols[c].scale.empty())
      same[cols[c].metric].push_back(c);
  std::map<std::string, std::string> runs;
  for (const auto& [metric, idx] : same) {
    if (idx.size() < 2) continue;
    std::vector<std::string> quals;
    for (size_t c : idx) quals.push_back(Qualifier(headers[c]));
    // "TriSeek p50 ms | Baseline p50 ms": the words all share name no run's
    // part; "CPU import | Metal import": a backend's name makes each a run.
    const std::set<std::string> common = SharedWords(quals);
    const bool backend = std::any_of(quals.begin(), quals.end(), [&](const std::string& q) { return NamesBackend(q, common); }) ||
                         ComparedPair(cols, quals);
    std::map<std::string, std::string> names;
    bool split = true;
    for (size_t k = 0; k < idx.size(); ++k) {
      const std::string& q = quals[k];
      if (q.empty() || MetricOnly(q)) continue;  // the plain column: the row's own run
      const std::string name = RunName(headers[idx[k]]), own = WithoutWords(q, common);
      split = split && (backend || !PartOfARun(own.empty() ? q : own)) && !name.empty() && names.emplace(q, name).second;
    }
    if (split && names.size() + 1 >= idx.size()) runs.insert(names.begin(), names.end());
  }
  return runs;
}

// The base metric a figure's metric name ends with and the words before it
// ("mojo_time_s": "time_s", "mojo"); false for a base metric itself or a
// name that ends with none.
bool QualifiedMetric(const std::string& m, std::string* base, std::string* q) {
  static const std::set<std::string> bases = [] {
    std::set<std::string> b;
    for (const auto& [unit, info] : ReaderLexicon().units)
      if (!info.derived && !info.metric.empty()) b.insert(info.metric);
    return b;
  }();
  base->clear();
  for (const auto& b : bases)
    if (m.size() > b.size() + 1 && b.size() > base->size() && m.compare(m.size() - b.size(), b.size(), b) == 0 &&
        m[m.size() - b.size() - 1] == '_')
      *base = b;
  if (base->empty()) return false;
  *q = m.substr(0, m.size() - base->size() - 1);
  return true;
}

// The runs one figure set holds under qualified metrics of one base
// ("mojo_time_s", "upstream_time_s"; "time_s" beside "cublas_time_s"): the
// qualifiers, when they differ and none names a part of a run.
std::set<std::string> RunsOfSet(const StoredRun& run) {
  std::map<std::string, std::vector<std::string>> by_base;  // base -> qualifiers ("" for the base itself)
  for (const auto& [m, v] : run.metrics) {
    if (run.derived.count(m)) continue;
    std::string base, q;
    if (QualifiedMetric(m, &base, &q)) by_base[base].push_back(q);
    else by_base[m].push_back("");
  }
  std::set<std::string> runs;
  for (const auto& [base, qs] : by_base) {
    if (qs.size() < 2) continue;
    const std::set<std::string> distinct(qs.begin(), qs.end());
    if (distinct.size() != qs.size() || std::any_of(qs.begin(), qs.end(), PartOfARun) ||
        std::any_of(qs.begin(), qs.end(), MetricOnly))
      continue;
    for (const auto& q : qs)
      if (!q.empty()) runs.insert(q);
  }
  return runs;
}

// The run of `runs` a metric of the set belongs to ("" for the set's own).
std::string RunOfMetric(const std::string& m, const std::set<std::string>& runs, std::string* plain) {
  *plain = m;
  std::string found;
  for (const auto& q : runs)
    if (m.size() > q.size() + 1 && m.compare(0, q.size() + 1, q + "_") == 0 && q.size() > found.size()) found = q;
  if (!found.empty()) *plain = m.substr(found.size() + 1);
  return found;
}

// One figure set's metric `m` (and what is kept with it) into `to` as `plain`.
void MoveMetric(StoredRun& from, const std::string& m, const std::string& plain, StoredRun* to) {
  to->metrics[plain] = from.metrics.at(m);
  if (auto u = from.units.find(m); u != from.units.end()) to->units[plain] = u->second;
  if (auto d = from.decimals.find(m); d != from.decimals.end()) to->decimals[plain] = d->second;
  if (auto r = from.repeats.find(m); r != from.repeats.end()) to->repeats[plain] = r->second;
  if (from.derived.count(m)) to->derived.insert(plain);
  if (from.approximate.count(m)) to->approximate.insert(plain);
}

// A figure set of several runs split into one per run (RunsOfSet); the
// set's own figures (those no run's name qualifies) stay on the first.
std::vector<RecordedFigure> SplitSet(RecordedFigure f, const std::set<std::string>& runs) {
  std::map<std::string, RecordedFigure> parts;  // run ("" for the set's own) -> its figure set
  for (const auto& [m, v] : f.run.metrics) {
    std::string plain;
    const std::string run = RunOfMetric(m, runs, &plain);
    auto [it, fresh] = parts.try_emplace(run, f);
    if (fresh) {
      it->second.run.metrics.clear(), it->second.run.units.clear(), it->second.run.decimals.clear();
      it->second.run.repeats.clear(), it->second.run.derived.clear(), it->second.run.approximate.clear();
      if (!run.empty()) {
        std::string& variant = it->second.run.config["variant"];
        variant = variant.empty() ? run : variant + " " + run;
      }
    }
    MoveMetric(f.run, m, plain, &it->second.run);
  }
  // The set's own figures only derived ("0.79x" beside "fused | eager"):
  // kept beside one of the runs (they compare them; neither measures them).
  if (auto own = parts.find(""); own != parts.end() && !HasBaseMetric(own->second.run) && parts.size() > 1) {
    StoredRun& last = parts.rbegin()->second.run;
    for (const auto& [m, v] : own->second.run.metrics)
      if (!last.metrics.count(m)) MoveMetric(own->second.run, m, m, &last);
  }
  std::vector<RecordedFigure> out;
  for (auto& [run, part] : parts)
    if (HasBaseMetric(part.run)) out.push_back(std::move(part));
  return out;
}

}  // namespace

namespace {

// A percentage named by its line's label ("`scylla`: `182.83% CPU`" ->
// scylla_pct), not by one of the vocabulary's percent metrics
// ("utilization_pct"): what the label names is the run's.
bool LabelledPercent(const std::string& m) {
  static const std::set<std::string> known = [] {
    std::set<std::string> k;
    for (const auto& [w, metric] : ReaderLexicon().percent_metrics) k.insert(metric);
    return k;
  }();
  return m.size() > 4 && m.compare(m.size() - 4, 4, "_pct") == 0 && !known.count(m) && m != "mfu_pct";
}

}  // namespace

bool RunsApart(const StoredRun& a, const StoredRun& b) {
  for (const auto& [m, v] : a.metrics)
    for (const auto& [n, w] : b.metrics)
      if (m != n && LabelledPercent(m) && LabelledPercent(n)) return true;
  StoredRun both = a;
  for (const auto& [m, v] : b.metrics) both.metrics[m] = v;
  both.derived.insert(b.derived.begin(), b.derived.end());
  return !RunsOfSet(both).empty();
}

void SplitRunMetrics(std::vector<RecordedFigure>* out) {
  std::vector<RecordedFigure> kept;
  for (auto& f : *out) {
    const std::set<std::string> runs = RunsOfSet(f.run);
    if (runs.empty()) {
      kept.push_back(std::move(f));
      continue;
    }
    for (auto& part : SplitSet(std::move(f), runs)) kept.push_back(std::move(part));
  }
  *out = std::move(kept);
}

// A header's first word in lower case, "" when it is not a word of letters.
static std::string FirstHeaderWord(const std::string& header) {
  const auto words = Words(Lower(header));
  if (words.empty()) return "";
  std::string w = words[0];
  w.erase(std::remove_if(w.begin(), w.end(), [](char ch) { return ch == '*' || ch == '`'; }), w.end());
  return w.size() >= 2 && std::all_of(w.begin(), w.end(), [](char ch) { return std::isalpha(static_cast<unsigned char>(ch)); }) ? w : "";
}

void RunColumns(const std::vector<std::string>& headers, std::vector<ColumnInfo>* cols) {
  const std::map<std::string, std::string> runs = RunQualifiers(headers, *cols);
  if (runs.empty()) return;
  for (size_t c = 0; c < cols->size(); ++c) {
    ColumnInfo& col = (*cols)[c];
    if (col.metric.empty() || col.derived || !col.at.empty() || !col.scale.empty()) continue;
    const std::string q = Qualifier(headers[c]);
    // "tiled GFLOP/s" beside "naive ms | tiled ms": the tiled run's figure too.
    for (const auto& [run, name] : runs)
      if (q == run || q.rfind(run + "_", 0) == 0) col.scale["variant"] = name;
  }
}

// "| Latency (B=128) | Peak BW% |": a table whose one scaled column names
// the scale its row ran at; a share beside it (a percentage of a peak, a
// utilization) is of that measurement, so one row. Other figures keep their
// own scale ("| score | Throughput @ 8 GPUs |": the score ran elsewhere).
void OneScale(std::vector<ColumnInfo>* cols) {
  const Config* scale = nullptr;
  for (const auto& c : *cols) {
    if (c.metric.empty() || c.scale.empty()) continue;
    if (c.scale.count("variant") || (scale != nullptr && *scale != c.scale)) return;
    scale = &c.scale;
  }
  if (scale == nullptr) return;
  const Config one = *scale;
  for (auto& c : *cols)
    if (!c.metric.empty() && c.scale.empty() && c.at.empty() && c.unit == "%") c.scale = one;
}

// "| Fixed `l=64` | Progressive `l` | Fixed accuracy | Progressive accuracy |":
// a column without a scale of its own whose header opens with the word of
// one scaled column's header (and of no other metric column's) is that run's
// figure too: it takes that column's scale.
void ScaleByFirstWord(const std::vector<std::string>& headers, std::vector<ColumnInfo>* cols) {
  auto first = [&headers](size_t c) { return FirstHeaderWord(headers[c]); };
  std::map<std::string, std::vector<size_t>> by_word;  // first word -> metric columns
  for (size_t c = 0; c < cols->size(); ++c)
    if (!(*cols)[c].metric.empty() && !(*cols)[c].derived && !first(c).empty()) by_word[first(c)].push_back(c);
  for (size_t c = 0; c < cols->size(); ++c) {
    ColumnInfo& col = (*cols)[c];
    if (col.metric.empty() || col.derived || !col.scale.empty() || first(c).empty()) continue;
    const std::vector<size_t>& same = by_word[first(c)];
    size_t scaled = cols->size(), plain = 0;
    for (size_t k : same) {
      if (!(*cols)[k].scale.empty()) scaled = scaled == cols->size() ? k : cols->size() + 1;
      else ++plain;
    }
    if (scaled < cols->size() && plain == 1 && (*cols)[scaled].metric != col.metric) col.scale = (*cols)[scaled].scale;
  }
}

// "| Train Loss @200 | Eval Loss @200 | tok/s |": one "@value" only, on some
// of the metric columns, is where the row's run was read, not a second run
// of the row: every metric column of the row takes it.
void OneAt(std::vector<ColumnInfo>* cols) {
  std::set<std::string> ats;
  for (const auto& c : *cols)
    if (!c.metric.empty() && !c.at.empty()) ats.insert(c.at);
  if (ats.size() != 1) return;
  for (auto& c : *cols)
    if (!c.metric.empty() && c.at.empty() && c.scale.empty()) c.at = *ats.begin();
}

}  // namespace moelog::logbook::reader
