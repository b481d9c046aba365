// Chart planning: which key is x, which keys name the series and panels, and
// where each figure (moelog's and the logbook's) goes. Drawing is chart.cc.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "engine/bench_flags.h"
#include "engine/target.h"
#include "engine/v5p/coverage.h"
#include "logbook/criteria/recorded.h"
#include "logbook/numbers.h"
#include "logbook/reader/blocks_benchtools.h"
#include "logbook/reader/vocabulary.h"
#include "logbook/render/chart.h"
#include "logbook/render/chart_trim.h"
#include "logbook/render/render_table.h"
#include "logbook/text.h"

namespace moelog::logbook {
namespace {

constexpr size_t kMaxSeries = 6;   // per panel; more become small multiples
constexpr size_t kMaxPanels = 12;  // more is no chart a reader can read
constexpr size_t kTickChars = 60;  // cluster labels longer than this are cut (rotated when they do not fit)
constexpr size_t kTitleChars = 100;
constexpr size_t kTitleLineChars = 124;  // a title line at 12 pt across the narrowest (900 px) chart
constexpr size_t kSubtitleChars = 110;  // a subtitle line; longer text wraps

const std::vector<std::string>& NumericAxes() {
  static const std::vector<std::string> k = engine::AxisKeys(engine::AxisKind::kNumeric);
  return k;
}

const std::vector<std::string>& CategoricalAxes() {
  static const std::vector<std::string> k = engine::AxisKeys(engine::AxisKind::kCategorical);
  return k;
}

bool Contains(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

std::string AxisLabel(const std::string& k) {
  const engine::FlagSpec* f = engine::FindRunKey(k);
  if (f != nullptr && *f->axis.label) return f->axis.label;
  std::string words = k;  // an author's key ("request_rate"): said in words
  std::replace(words.begin(), words.end(), '_', ' ');
  return GnuplotLabel(words);
}

// Canonical text of a value for grouping ("2.0" and "2" agree).
std::string Canon(const std::string& v) {
  if (auto n = ParseNumber(v)) return FormatValue(*n);
  return v;
}

std::optional<std::string> ValueOf(const ChartPoint& p, const std::string& key) {
  auto it = p.config.find(key);
  if (it == p.config.end()) return std::nullopt;
  return Canon(it->second);
}

// What a reader calls a config value in a legend, a panel or under a
// cluster: "EP", "no EP", "k=8", "shared 5632", "H=2048", or the value
// itself for the keys whose values name themselves (gmm, random, fused_w13).
std::string ValueLabel(const std::string& key, const std::string& raw) {
  const std::string v = Canon(raw);
  if (key == "parallel_mode") return v == "none" ? "no EP" : v == "ep" ? "EP" : v == "dp" ? "DP" : v;
  if (key == "topk") return "k=" + v;
  if (key == "shared_expert_dim") return v == "0" ? "no shared" : "shared " + v;
  if (key == "shared_fused") return v == "true" || v == "1" ? "shared fused" : "shared unfused";
  if (key == "target") return engine::FindTarget(v) ? engine::FindTarget(v)->figures : v;
  static const std::map<std::string, std::string> kPrefix = {
      {"hidden", "H="}, {"mlp_dim", "M="}, {"tokens", "T="}, {"experts", "E="}, {"null_route_frac", "null "},
      {"quant_mode", "quant "}, {"remat_mode", "remat "}, {"capacity_factor", "cf "}, {"ep_comm_path", ""},
      {"ep_dispatch", ""}, {"backend", ""}, {"impl", ""}, {"distribution", ""}, {"routing_pack_strategy", ""},
      {"queue_mode", ""}, {"bench_pass", ""}, {"dtype", ""}, {"mlp_path", ""}};
  auto it = kPrefix.find(key);
  return it != kPrefix.end() ? it->second + v : key + "=" + v;
}

// Where a figure comes from, as a legend says it.
std::string SourceLabel(const std::string& source) {
  if (source == "recorded") return "logbook";
  if (source == "modeled") return "model (v5p)";
  if (source == "measured") return "measured (cpu)";
  return source;
}

// A label cut to `max` characters at a word boundary where one is near.
std::string Shorten(const std::string& text, size_t max) {
  if (text.size() <= max) return text;
  size_t cut = text.rfind(' ', max - 3);
  if (cut == std::string::npos || cut < max / 2) cut = max - 3;
  std::string out = Utf8Prefix(text, cut);
  while (!out.empty() && (out.back() == ' ' || out.back() == ',' || out.back() == '(')) out.pop_back();
  return out + "...";
}

// The values of a key over the points: numbers ascending when every value
// is one, else in first-seen order.
std::vector<std::string> OrderedValues(const std::vector<ChartPoint>& points, const std::string& key) {
  std::vector<std::string> out;
  for (const auto& p : points)
    if (auto v = ValueOf(p, key); v && !Contains(out, *v)) out.push_back(*v);
  if (std::all_of(out.begin(), out.end(), [](const std::string& v) { return ParseNumber(v).has_value(); }))
    std::sort(out.begin(), out.end(),
              [](const std::string& a, const std::string& b) { return *ParseNumber(a) < *ParseNumber(b); });
  return out;
}

// Whether each point's `key` value is fixed by its `by` value.
bool FollowsFrom(const std::vector<ChartPoint>& points, const std::string& by, const std::string& key) {
  std::map<std::string, std::string> seen;
  for (const auto& p : points) {
    const auto b = ValueOf(p, by), v = ValueOf(p, key);
    const std::string bv = b ? *b : "", vv = v ? *v : "";
    if (!seen.emplace(bv, vv).second && seen[bv] != vv) return false;
  }
  return true;
}

// The config keys whose values differ between the points. The device count
// and mesh follow the parallel mode: one key, not two. An mlp_profile path
// (mlp_path) names its program: the keys its adapter sets with it (parallel
// mode, impl, staged_parallel) follow from it.
std::vector<std::string> VariedKeys(const std::vector<ChartPoint>& points) {
  std::set<std::string> keys;
  for (const auto& p : points)
    for (const auto& [k, v] : p.config)
      if (!IsIgnoredForPairing(k)) keys.insert(k);
  std::vector<std::string> varied;
  for (const auto& k : keys)
    if (OrderedValues(points, k).size() > 1) varied.push_back(k);
  const std::vector<std::string> all_varied = varied;
  varied.erase(std::remove_if(varied.begin(), varied.end(),
                              [&](const std::string& k) { return Contains(all_varied, FollowedKey(k)); }),
               varied.end());
  if (Contains(varied, "mlp_path"))
    varied.erase(std::remove_if(varied.begin(), varied.end(),
                                [&](const std::string& k) {
                                  return k != "mlp_path" && FollowsFrom(points, "mlp_path", k);
                                }),
                 varied.end());
  // A profiler's count (calls, instances) labels a row beside its name: no
  // axis, cluster or series of a chart of its times.
  if (std::any_of(varied.begin(), varied.end(), [](const std::string& k) { return !ProfilerCountKey(k); }))
    varied.erase(std::remove_if(varied.begin(), varied.end(), [](const std::string& k) { return ProfilerCountKey(k); }),
                 varied.end());
  return varied;
}

// The points' config on `keys` as one comparable string.
std::string Signature(const ChartPoint& p, const std::vector<std::string>& keys) {
  std::string s;
  for (const auto& k : keys) s += k + "=" + ValueOf(p, k).value_or("-") + ";";
  return s;
}

// A key the model gives identical figures for (every value of it, the other
// keys held, has the same time, TF/s and tokens/s; routing statistics aside) says nothing on a chart: only the points
// of one of its values are kept -- the one the logbook's figures name, else
// the first -- unless the logbook's figures name two of its values, or the
// user named the key (--x, --series). Measured points are never folded (equal figures there are
// chance, not a fact of the model).
void FoldIndistinct(std::vector<ChartPoint>* main, std::vector<std::string>* varied,
                    const std::vector<ChartPoint>& recorded, const std::vector<std::string>& named) {
  if (std::any_of(main->begin(), main->end(), [](const ChartPoint& p) { return p.source != "modeled"; })) return;
  for (size_t i = 0; i < varied->size();) {
    const std::string key = (*varied)[i];
    std::vector<std::string> others;
    for (const auto& k : *varied)
      if (k != key) others.push_back(k);
    std::map<std::string, std::set<std::string>> values, figures;  // other keys -> values of key / metrics
    for (const auto& p : *main) {
      const std::string sig = Signature(p, others);
      values[sig].insert(ValueOf(p, key).value_or("-"));
      std::string m;
      for (const char* k : {"time_s", "tflops", "tflops_per_device", "tokens_per_s"})
        if (auto it = p.metrics.find(k); it != p.metrics.end()) m += std::string(k) + "=" + FormatValue(it->second) + ";";
      figures[sig].insert(m);
    }
    const std::vector<std::string> key_values = OrderedValues(*main, key);
    const size_t n = key_values.size();
    const bool same = !Contains(named, key) && std::all_of(figures.begin(), figures.end(), [&](const auto& kv) {
      return kv.second.size() == 1 && values[kv.first].size() == n;
    });
    // The logbook's figures name two of its values: they tell them apart, so do we.
    std::set<std::string> told;
    for (const auto& r : recorded)
      if (auto v = ValueOf(r, key)) told.insert(*v);
    if (!same || told.size() > 1) {
      ++i;
      continue;
    }
    std::string keep = key_values.front();
    for (const auto& r : recorded)
      if (auto v = ValueOf(r, key); v && Contains(key_values, *v)) {
        keep = *v;
        break;
      }
    main->erase(std::remove_if(main->begin(), main->end(),
                               [&](const ChartPoint& p) { return ValueOf(p, key).value_or("-") != keep; }),
                main->end());
    varied->erase(varied->begin() + static_cast<long>(i));
  }
}

// The x axis: --x, else the numeric axis with the most values (3 or more,
// or any when no categorical key varies), else the first categorical axis
// that varies, else any varied key. Exactly one of *numeric, *categorical.
Status ChooseAxis(const std::vector<ChartPoint>& points, const std::vector<std::string>& varied,
                  const std::string& x_option, std::string* numeric, std::string* categorical) {
  const std::string x_opt = x_option.empty() ? "" : NormalizeKey(x_option);
  if (!x_opt.empty()) {
    // A key of a harness moelog has no adapter for (a recorded run's own
    // flag, `num_devices`): its values, as bars.
    const bool own_key = !IsNumericAxis(x_opt) && !IsCategoricalAxis(x_opt) && !points.empty() &&
                         std::all_of(points.begin(), points.end(), [&](const ChartPoint& p) {
                           return p.source == "recorded" && ValueOf(p, x_opt).has_value();
                         });
    if (own_key) {
      if (OrderedValues(points, x_opt).size() < 2) return Status::NotFound("the runs do not vary " + x_opt);
      *categorical = x_opt;
      return Status::Ok();
    }
    if (!IsNumericAxis(x_opt) && !IsCategoricalAxis(x_opt))
      return Status::InvalidArgument("--x " + x_option + " is not a chart axis (numeric: topk, null_route_frac, "
                                     "mlp_dim, tokens, experts, devices, hidden, shared_expert_dim; categorical: "
                                     "backend, impl, remat_mode, parallel_mode, quant_mode, routing_pack_strategy, "
                                     "distribution, queue_mode, bench_pass, target, ep_comm_path, shared_fused, mlp_path)");
    const std::vector<std::string> values = OrderedValues(points, x_opt);
    if (values.size() < 2) return Status::NotFound("the runs do not vary " + x_opt);
    const bool numbers = std::all_of(values.begin(), values.end(), [](const std::string& v) { return ParseNumber(v).has_value(); });
    (IsNumericAxis(x_opt) && numbers ? *numeric : *categorical) = x_opt;
    return Status::Ok();
  }
  size_t best = 0;
  for (const auto& k : NumericAxes()) {
    // A numeric axis plots numbers: a value written otherwise ("2.595B"
    // tokens in a recorded table) makes the key no x axis of a line.
    const std::vector<std::string> values = Contains(varied, k) ? OrderedValues(points, k) : std::vector<std::string>{};
    const bool numbers = std::all_of(values.begin(), values.end(), [](const std::string& v) { return ParseNumber(v).has_value(); });
    if (numbers && values.size() > 1 && values.size() > best) best = values.size(), *numeric = k;
  }
  for (const auto& k : CategoricalAxes())
    if (Contains(varied, k)) {
      *categorical = k;
      break;
    }
  if (!numeric->empty() && best < 3 && !categorical->empty()) numeric->clear();  // a categorical A/B
  if (!numeric->empty()) categorical->clear();
  if (numeric->empty() && categorical->empty()) {
    // Some other key varies: bars by it. Statistics of one run (p50, mean,
    // tail median) are no sweep.
    // A profiler's count (calls, instances) labels a row; it is no axis of its times.
    for (const auto& k : varied)
      if (k != "statistic" && !ProfilerCountKey(k)) {
        *categorical = k;
        break;
      }
    if (categorical->empty()) return Status::NotFound("the runs do not vary along any axis");
  }
  return Status::Ok();
}

bool Records(const std::vector<ChartPoint>& points, const std::string& metric) {
  return std::any_of(points.begin(), points.end(), [&](const ChartPoint& p) { return p.metrics.count(metric) > 0; });
}

// The y metrics: --y (every one must be recorded by some point), else
// ChooseChartMetric's.
Result<std::vector<std::string>> ChooseMetrics(const std::vector<ChartPoint>& points, const ChartOptions& options) {
  std::vector<std::string> metrics;
  for (const auto& m : options.y_metrics) {
    const std::string k = NormalizeKey(m);
    if (!Records(points, k))
      return Status::InvalidArgument("no run records --y " + m + " (valid: " + JoinKeys(KnownMetrics()) + ")");
    if (!Contains(metrics, k)) metrics.push_back(k);
  }
  if (!metrics.empty()) return metrics;
  if (std::string m = ChooseChartMetric(points, options); !m.empty()) return std::vector<std::string>{m};
  return Status::InvalidArgument("no run records a figure to chart (TF/s, tokens/s, time, or another measured metric)");
}

// How the chart's keys are used.
struct Layout {
  std::string x;                      // the numeric axis, or the compared categorical key (bars)
  std::vector<std::string> cluster;   // bars: the key whose values are the clusters
  std::vector<std::string> series;    // lines: keys whose combinations are the series
  std::vector<std::string> panels;    // keys whose combinations are the panels
  std::vector<std::string> hidden;    // varied keys an explicit --series leaves out
  std::vector<std::string> with_x;    // bars: keys that change with x, one value per x value (impl with backend)
};

// Whether `a` and `b` change together: each value of one goes with one
// value of the other, over every point that has both.
bool ChangeTogether(const std::vector<ChartPoint>& points, const std::string& a, const std::string& b) {
  std::map<std::string, std::set<std::string>> ab, ba;
  for (const auto& p : points) {
    auto va = ValueOf(p, a), vb = ValueOf(p, b);
    if (!va || !vb) return false;
    ab[*va].insert(*vb);
    ba[*vb].insert(*va);
  }
  auto one = [](const auto& m) { return std::all_of(m.begin(), m.end(), [](const auto& kv) { return kv.second.size() == 1; }); };
  return one(ab) && one(ba);
}

size_t Combos(const std::vector<ChartPoint>& points, const std::vector<std::string>& keys) {
  std::set<std::string> s;
  for (const auto& p : points) s.insert(Signature(p, keys));
  return s.size();
}

// The key of `keys` with the fewest values (ties: the first).
std::string Fewest(const std::vector<ChartPoint>& points, const std::vector<std::string>& keys) {
  std::string best;
  size_t n = SIZE_MAX;
  for (const auto& k : keys)
    if (OrderedValues(points, k).size() < n) n = OrderedValues(points, k).size(), best = k;
  return best;
}

Result<Layout> ChooseLayout(const std::vector<ChartPoint>& points, const std::vector<std::string>& varied,
                            const std::string& x, bool bars, const ChartOptions& options) {
  Layout l;
  l.x = x;
  std::vector<std::string> rest;
  if (!options.series_keys.empty()) {
    for (const auto& s : options.series_keys) {
      const std::string k = NormalizeKey(s);
      if (!options.keys.Has(k))
        return Status::InvalidArgument("--series " + s + " is not a config key (valid: " + JoinKeys(options.keys.Names()) +
                                       ")");
      if (k != x && !Contains(rest, k) && OrderedValues(points, k).size() > 1) rest.push_back(k);
    }
    for (const auto& k : varied)
      if (k != x && !Contains(rest, k)) l.hidden.push_back(k);
  } else {
    for (const auto& k : varied)
      if (k != x) rest.push_back(k);
  }
  if (bars) {
    // A key that changes with the compared one names its bars with it
    // ("ragged_dot, baseline" | "gmm, fused_w13"): no cluster or panel of its own.
    for (const auto& k : rest)
      if (ChangeTogether(points, x, k)) l.with_x.push_back(k);
    rest.erase(std::remove_if(rest.begin(), rest.end(), [&](const std::string& k) { return Contains(l.with_x, k); }),
               rest.end());
  }
  if (bars && !rest.empty()) {
    // Clusters: the other key with the most values; any further key panels.
    std::string most = rest.front();
    for (const auto& k : rest)
      if (OrderedValues(points, k).size() > OrderedValues(points, most).size()) most = k;
    // Keys that change with the clusters' key name the clusters with it
    // ("H=2048, M=2048"): as panels, each would fill only its own clusters.
    l.cluster = {most};
    for (const auto& k : rest)
      if (k != most) (ChangeTogether(points, most, k) ? l.cluster : l.panels).push_back(k);
    return l;
  }
  if (bars) return l;
  l.series = rest;
  while (Combos(points, l.series) > kMaxSeries && l.series.size() > 1) {
    const std::string k = Fewest(points, l.series);
    l.panels.push_back(k);
    l.series.erase(std::find(l.series.begin(), l.series.end(), k));
  }
  return l;
}

// A combination of key values as a reader reads it: "EP, k=8".
std::string ComboLabel(const ChartPoint& p, const std::vector<std::string>& keys) {
  std::string s;
  for (const auto& k : keys)
    if (auto v = ValueOf(p, k)) s += (s.empty() ? "" : ", ") + ValueLabel(k, *v);
  return s;
}

// Ranks of a point's values on `keys` (the order of OrderedValues), for a
// stable order of series, clusters and panels.
std::vector<size_t> Rank(const ChartPoint& p, const std::vector<std::string>& keys,
                         const std::map<std::string, std::vector<std::string>>& order) {
  std::vector<size_t> r;
  for (const auto& k : keys) {
    const auto& vals = order.at(k);
    auto v = ValueOf(p, k);
    r.push_back(v ? static_cast<size_t>(std::find(vals.begin(), vals.end(), *v) - vals.begin()) : vals.size());
  }
  return r;
}

// The labels of a dimension (panels, series or clusters) in rank order.
struct Dimension {
  std::vector<std::string> keys;
  std::vector<std::pair<std::vector<size_t>, std::string>> labels;  // rank -> label
  size_t Index(const ChartPoint& p, const std::map<std::string, std::vector<std::string>>& order) const {
    const auto r = Rank(p, keys, order);
    for (size_t i = 0; i < labels.size(); ++i)
      if (labels[i].first == r) return i;
    return SIZE_MAX;
  }
};

// `bare`: the axis title names the dimension's one key, so a label is its
// value alone ("direct_take", not "dispatch_permute_mode=direct_take").
Dimension MakeDimension(const std::vector<ChartPoint>& points, const std::vector<std::string>& keys,
                        const std::map<std::string, std::vector<std::string>>& order, size_t max_label,
                        bool bare = false) {
  Dimension d;
  d.keys = keys;
  std::map<std::vector<size_t>, std::string> seen;
  for (const auto& p : points) {
    std::string label = ComboLabel(p, keys);
    if (const std::string prefix = keys.size() == 1 ? keys[0] + "=" : ""; bare && !prefix.empty() && label.rfind(prefix, 0) == 0)
      label.erase(0, prefix.size());
    seen.emplace(Rank(p, keys, order), GnuplotLabel(Shorten(label, max_label)));
  }
  for (const auto& [r, l] : seen) d.labels.push_back({r, l});
  return d;
}

// The note under an EP-vs-none chart of aggregate TF/s: how many chips each
// parallel mode's figure sums over.
std::string AggregateNote(const std::vector<ChartPoint>& points, const std::vector<std::string>& metrics) {
  if (!Contains(metrics, "tflops") || OrderedValues(points, "parallel_mode").size() < 2) return "";
  std::string s;
  for (const auto& pm : OrderedValues(points, "parallel_mode")) {
    std::string devices;
    for (const auto& p : points)
      if (ValueOf(p, "parallel_mode") == pm && ValueOf(p, "devices")) devices = *ValueOf(p, "devices");
    if (devices.empty()) return "";
    s += (s.empty() ? "" : ", ") + ValueLabel("parallel_mode", pm) + " on " + devices +
         (devices == "1" ? " chip" : " chips");
  }
  return "TF/s summed over the chips of a run: " + s;
}

// With an explicit --series, the keys it leaves out that still vary (shape,
// pass, ...) would put several runs on one point: the runs of the one
// combination of those keys that covers the most points are drawn, and the
// combination is said in the subtitle ("T=32768, H=2048, ..."); the note
// counts the others.
std::string KeepWidestGroup(std::vector<ChartPoint>* main, const Layout& l, std::vector<std::string>* notes) {
  if (l.hidden.empty()) return "";
  std::vector<std::string> shown = l.series;
  shown.insert(shown.end(), l.panels.begin(), l.panels.end());
  shown.insert(shown.end(), l.cluster.begin(), l.cluster.end());
  shown.push_back(l.x);
  std::map<std::string, std::set<std::string>> covers;  // hidden signature -> points covered
  std::vector<std::string> order;
  for (const auto& p : *main) {
    const std::string sig = Signature(p, l.hidden);
    if (!covers.count(sig)) order.push_back(sig);
    covers[sig].insert(Signature(p, shown));
  }
  std::string best = order.front();
  for (const auto& sig : order)
    if (covers[sig].size() > covers[best].size()) best = sig;
  const size_t before = main->size();
  main->erase(std::remove_if(main->begin(), main->end(),
                             [&](const ChartPoint& p) { return Signature(p, l.hidden) != best; }),
              main->end());
  std::string keys;
  for (const auto& k : l.hidden) keys += (keys.empty() ? "" : ", ") + k;
  if (main->size() < before)
    notes->push_back(std::to_string(before - main->size()) + " of " + std::to_string(before) +
                     " runs not drawn: they differ in " + keys + " from the runs drawn (choose them with --where).");
  return ComboLabel(main->front(), l.hidden);
}

// Everything PlanChart decides before filling the series.
struct Frame {
  ChartPlan::Kind kind;
  Layout layout;
  std::vector<std::string> metrics;
  bool two_axes = false;
  std::map<std::string, std::vector<std::string>> order;
  Dimension panels, series, clusters;
  std::vector<std::string> x_values;  // lines: canonical numbers; bars: cluster labels
  std::vector<std::string> x_names;   // bars: the cluster labels in full (notes)
};

// The slot of a point: panel, series and x index (SIZE_MAX when it has none).
struct Slot {
  size_t panel = SIZE_MAX, series = SIZE_MAX, x = SIZE_MAX;
  bool ok() const { return panel != SIZE_MAX && series != SIZE_MAX && x != SIZE_MAX; }
  size_t Id(const Frame& f) const { return (panel * f.series.labels.size() + series) * f.x_values.size() + x; }
};

Slot SlotOf(const ChartPoint& p, const Frame& f) {
  Slot s;
  s.panel = f.panels.Index(p, f.order);
  s.series = f.series.Index(p, f.order);
  if (f.kind == ChartPlan::Kind::kBars) s.x = f.clusters.Index(p, f.order);
  else if (auto v = ValueOf(p, f.layout.x))
    s.x = static_cast<size_t>(std::find(f.x_values.begin(), f.x_values.end(), *v) - f.x_values.begin());
  if (s.x >= f.x_values.size()) s.x = SIZE_MAX;
  return s;
}

Frame MakeFrame(const std::vector<ChartPoint>& main, ChartPlan::Kind kind, Layout layout,
                std::vector<std::string> metrics, bool two_axes) {
  Frame f{kind, std::move(layout), std::move(metrics), two_axes, {}, {}, {}, {}, {}, {}};
  std::set<std::string> keys(f.layout.series.begin(), f.layout.series.end());
  keys.insert(f.layout.panels.begin(), f.layout.panels.end());
  keys.insert(f.layout.cluster.begin(), f.layout.cluster.end());
  keys.insert(f.layout.x);
  keys.insert(f.layout.with_x.begin(), f.layout.with_x.end());
  for (const auto& k : keys) f.order[k] = OrderedValues(main, k);
  f.panels = MakeDimension(main, f.layout.panels, f.order, 60);
  if (kind == ChartPlan::Kind::kLine) {
    f.series = MakeDimension(main, f.layout.series, f.order, 60);
    f.x_values = f.order[f.layout.x];
  } else {
    std::vector<std::string> bar_keys = {f.layout.x};
    bar_keys.insert(bar_keys.end(), f.layout.with_x.begin(), f.layout.with_x.end());
    f.series = MakeDimension(main, bar_keys, f.order, 60);
    f.clusters = MakeDimension(main, f.layout.cluster, f.order, kTickChars, /*bare=*/true);  // the x label names it
    for (const auto& [r, l] : f.clusters.labels) f.x_values.push_back(l);
    for (const auto& [r, l] : MakeDimension(main, f.layout.cluster, f.order, 60).labels) f.x_names.push_back(l);
  }
  return f;
}

// A panel holds at most kMaxSeries series: a key with more values is cut
// into chunks, a panel each.
size_t Chunks(const Frame& f) { return (f.series.labels.size() + kMaxSeries - 1) / kMaxSeries; }
size_t ChunkSize(const Frame& f) {
  const size_t n = std::max<size_t>(1, Chunks(f));
  return std::max<size_t>(1, (f.series.labels.size() + n - 1) / n);
}
size_t MetricsPerPanel(const Frame& f) { return f.two_axes ? 1 : f.metrics.size(); }

// A panel of a chunk of series is named by its first and last series, or by
// their positions when those names would not fit a panel's title.
std::string ChunkLabel(const Frame& f, size_t chunk) {
  constexpr size_t kTitleChars = 48;
  const size_t ns = f.series.labels.size(), first = chunk * ChunkSize(f), last = std::min(ns, first + ChunkSize(f)) - 1;
  const std::string& a = f.series.labels[first].second;
  const std::string& b = f.series.labels[last].second;
  if (!a.empty() && !b.empty() && a.size() + b.size() + 4 <= kTitleChars) return a + " to " + b;
  return "series " + std::to_string(first + 1) + " to " + std::to_string(last + 1) + " of " + std::to_string(ns);
}

// The empty panels and series of the frame: panel combination x chunk of
// series x metric.
void AddPanels(const Frame& f, const std::string& source, ChartPlan* plan) {
  const size_t nx = f.x_values.size(), ns = f.series.labels.size(), cs = ChunkSize(f);
  for (const auto& [pr, plabel] : f.panels.labels) {
    for (size_t c = 0; c < std::max<size_t>(1, Chunks(f)); ++c) {
      for (size_t mi = 0; mi < MetricsPerPanel(f); ++mi) {
        ChartPanel panel;
        panel.label = plabel;
        if (Chunks(f) > 1) panel.label += (panel.label.empty() ? "" : ", ") + ChunkLabel(f, c);
        if (MetricsPerPanel(f) > 1) panel.label += (panel.label.empty() ? "" : ", ") + MetricLabel(f.metrics[mi]);
        panel.metric = f.metrics[mi];
        for (size_t si = c * cs; si < std::min(ns, (c + 1) * cs); ++si) {
          for (size_t ai = 0; ai < (f.two_axes ? f.metrics.size() : 1); ++ai) {
            ChartSeries s;
            const std::string& metric = f.metrics[f.two_axes ? ai : mi];
            s.name = f.two_axes ? MetricLabel(metric) : f.series.labels[si].second;
            if (s.name.empty()) s.name = source;
            s.metric = metric;
            s.axis = f.two_axes && ai == 1 ? 2 : 1;
            s.colour = static_cast<int>(f.two_axes ? ai : si);
            s.y.assign(nx, std::nullopt);
            s.recorded.assign(nx, std::nullopt);
            s.lo.assign(nx, std::nullopt);
            s.hi.assign(nx, std::nullopt);
            panel.series.push_back(std::move(s));
          }
        }
        plan->panels.push_back(std::move(panel));
      }
    }
  }
}

// The series of a slot for a metric (nullptr when the chart does not show
// that metric there).
ChartSeries* SeriesAt(ChartPlan* plan, const Frame& f, const Slot& s, const std::string& metric) {
  const size_t cs = ChunkSize(f), chunks = std::max<size_t>(1, Chunks(f));
  const size_t first = (s.panel * chunks + s.series / cs) * MetricsPerPanel(f);
  for (size_t mi = 0; mi < MetricsPerPanel(f); ++mi) {
    ChartPanel& panel = plan->panels[first + mi];
    if (f.two_axes) {
      for (auto& se : panel.series)
        if (se.metric == metric) return &se;
      return nullptr;
    }
    if (panel.metric == metric) return &panel.series[s.series % cs];
  }
  return nullptr;
}

// moelog's figures into their slots; a second point in a filled slot is
// hidden (an explicit --series leaves keys out) and counted.
size_t FillMain(const std::vector<ChartPoint>& main, const Frame& f, ChartPlan* plan) {
  size_t hidden = 0;
  for (const auto& p : main) {
    const Slot s = SlotOf(p, f);
    if (!s.ok()) continue;
    bool clash = false;
    for (const auto& m : f.metrics) {
      auto v = p.metrics.find(m);
      ChartSeries* se = SeriesAt(plan, f, s, m);
      if (v == p.metrics.end() || !se) continue;
      if (se->y[s.x]) {
        clash = clash || *se->y[s.x] != v->second;
        continue;
      }
      se->y[s.x] = v->second;
      auto lo = p.metrics.find("band_lo"), hi = p.metrics.find("band_hi");
      if (lo == p.metrics.end() || hi == p.metrics.end() || !(lo->second > 0 && hi->second > 0)) continue;
      const bool time = m == "time_s" || m == "mean_s";  // a time is expected in [t/hi, t/lo]
      se->lo[s.x] = time ? v->second / hi->second : v->second * lo->second;
      se->hi[s.x] = time ? v->second / lo->second : v->second * hi->second;
      plan->any_band = true;
    }
    hidden += clash;
  }
  return hidden;
}

// The logbook's figures onto the slot of the points they fit
// (PlaceFigures: one slot, not claimed by another figure); the others are
// listed in the plan's notes.
void FillRecorded(const std::vector<ChartPoint>& main, const std::vector<ChartPoint>& recorded, const Frame& f,
                  const std::set<std::string>& listed, ChartPlan* plan) {
  std::vector<std::map<std::string, std::string>> rows;
  std::vector<int> group;
  for (const auto& p : main) {
    const Slot s = SlotOf(p, f);
    if (!s.ok()) continue;
    rows.push_back(p.config);
    group.push_back(static_cast<int>(s.Id(f)));
  }
  std::vector<RecordedFigure> figures;
  for (const auto& r : recorded) {
    RecordedFigure fig;
    fig.run.config = r.config;
    fig.run.metrics = r.metrics;
    figures.push_back(std::move(fig));
  }
  const std::vector<FigurePlacement> placed = PlaceFigures(figures, rows, group);
  std::vector<std::string> missing;
  for (size_t i = 0; i < recorded.size(); ++i) {
    bool drawn = false;
    if (placed[i].row >= 0) {
      const size_t id = static_cast<size_t>(placed[i].row), nx = f.x_values.size(), ns = f.series.labels.size();
      const Slot s{id / nx / ns, id / nx % ns, id % nx};
      for (const auto& [m, v] : recorded[i].metrics)
        if (ChartSeries* se = SeriesAt(plan, f, s, m)) se->recorded[s.x] = v, drawn = true;
    }
    if (drawn) plan->any_recorded = true;
    else if (recorded[i].id.empty() || !listed.count(recorded[i].id)) missing.push_back(FigureValuesText(recorded[i].metrics) + " (" + (placed[i].row < 0 ? placed[i].why : "not a charted metric") + ")");
  }
  if (missing.empty()) return;
  std::string note = "Logbook figures not in the chart: ";
  for (size_t i = 0; i < missing.size() && i < 6; ++i) note += (i ? "; " : "") + missing[i];
  if (missing.size() > 6) note += "; and " + std::to_string(missing.size() - 6) + " more";
  plan->notes.push_back(note + ".");
}


// The unvalidated paths of the modeled points, as a reader would say them:
// the value ("int8", "ragged_dot"), or the axis and its values
// ("null route fraction 0.125, 0.250").
std::vector<std::string> UnvalidatedPaths(const std::vector<ChartPoint>& main) {
  std::vector<std::string> keys;
  std::map<std::string, std::vector<std::string>> values;
  for (const auto& p : main) {
    if (p.source != "modeled") continue;
    for (const std::string& path : engine::v5p::UncalibratedPaths(p.config)) {
      const size_t eq = path.find('=');
      const std::string key = eq == std::string::npos ? path : path.substr(0, eq);
      const std::string value = eq == std::string::npos ? "" : path.substr(eq + 1);
      if (!values.count(key)) keys.push_back(key);
      auto& v = values[key];
      if (std::find(v.begin(), v.end(), value) == v.end()) v.push_back(value);
    }
  }
  std::vector<std::string> out;
  for (const auto& key : keys) {
    std::string list;
    for (const auto& v : values[key]) list += (list.empty() ? "" : ", ") + v;
    const bool bare = key == "backend" || key == "quant_mode" || key == "mlp_path" || key == "impl";
    out.push_back(bare ? list : AxisLabel(key) + " " + list);
  }
  return out;
}

// Bars of one cluster whose modeled figures lie within the within-entry
// ratio band of each other: "k=2: remat none, remat combine".
std::vector<std::string> IndistinctBars(const ChartPlan& plan, double band) {
  std::vector<std::string> out;
  if (band <= 0 || plan.kind != ChartPlan::Kind::kBars) return out;
  for (const auto& panel : plan.panels)
    for (size_t x = 0; x < plan.x_values.size(); ++x) {
      std::vector<size_t> done;
      for (size_t a = 0; a < panel.series.size(); ++a) {
        if (std::find(done.begin(), done.end(), a) != done.end() || !panel.series[a].y[x]) continue;
        std::string names = panel.series[a].name;
        bool any = false;
        for (size_t b = a + 1; b < panel.series.size(); ++b) {
          const auto& ya = panel.series[a].y[x];
          const auto& yb = panel.series[b].y[x];
          // Only figures on validated paths (those with a band) are judged.
          if (!yb || !panel.series[a].lo[x] || !panel.series[b].lo[x]) continue;
          if (!(*ya > 0) || !(*yb > 0) || std::fabs(std::log(*ya / *yb)) > band) continue;
          names += " = " + panel.series[b].name;
          done.push_back(b);
          any = true;
        }
        if (any)
          out.push_back((panel.label.empty() ? "" : panel.label + ", ") +
                        (plan.x_values.size() > 1 || !plan.x_values[x].empty()
                             ? (x < plan.x_names.size() ? plan.x_names[x] : plan.x_values[x]) + ": "
                             : "") +
                        names);
      }
    }
  return out;
}

std::string MainSource(const std::vector<ChartPoint>& main) {
  std::set<std::string> s;
  for (const auto& p : main) s.insert(p.source);
  return s.size() == 1 ? SourceLabel(*s.begin()) : "moelog";
}

std::string Title(const ChartOptions& o, const std::string& fallback) {
  // The whole line fits the chart's width (kTitleLineChars): a long ID leaves
  // the heading less room, and one that would leave it under 60 characters
  // is left out (the chart sits under its entry, its file named by the ID).
  const size_t title_chars = std::min(o.title.size(), kTitleChars);
  const size_t id_room = kTitleLineChars - std::min(kTitleLineChars, o.id.size() + 3);
  const bool with_id = !o.id.empty() && o.id != o.title && (title_chars <= id_room || id_room >= 60);
  std::string t = o.title.empty() ? fallback : Shorten(o.title, with_id ? std::min(kTitleChars, id_room) : kTitleChars);
  if (o.prediction) t = "Prediction: " + t;
  if (with_id) t += " (" + o.id + ")";
  return GnuplotLabel(t, 160);
}

}  // namespace

std::string MetricLabel(const std::string& m) {
  if (m == "tflops") return "TF/s";
  if (m == "tflops_per_device") return "TF/s per device";
  if (m == "tokens_per_s") return "tokens/s";
  if (m == "mean_s" || m == "time_s") return "time (s)";
  if (m == "gb_per_s") return "GB/s";
  if (m == "mfu") return "MFU %";
  if (m == "cycles") return "cycles";
  if (m == "wall_time_s") return "wall time (s)";
  if (m == "memory_mib") return "memory (MiB)";
  // "requests_per_s" -> "requests/s", "utilization_pct" -> "utilization %".
  std::string words = m;
  if (words.size() > 4 && words.compare(words.size() - 4, 4, "_pct") == 0) words.replace(words.size() - 4, 4, " %");
  // "avg_step_time_s" -> "avg step time (s)".
  if (words.size() > 7 && words.compare(words.size() - 7, 7, "_time_s") == 0) {
    // "p95_latency_time_s" -> "p95 latency (s)": a name that says time is not told it again.
    const bool said = reader::NamesATime(words.substr(0, words.size() - 7));
    words.replace(said ? words.size() - 7 : words.size() - 2, said ? 7 : 2, " (s)");
    std::replace(words.begin(), words.end(), '_', ' ');
  }
  // "tflops_per_rank" -> "TF/s per rank", "useful_tflops_per_rank" -> "useful TF/s per rank".
  if (const size_t t = words.find("tflops_per_"); t != std::string::npos && (t == 0 || words[t - 1] == '_') &&
                                                   words.compare(words.size() - 6, 6, "_per_s") != 0)
    words.replace(t, 11, "TF/s per ");
  // "backward_gb_per_s" -> "backward GB/s", "pp2048_tokens_per_s" -> "pp2048 tokens/s",
  // "bandwidth_gbs" -> "bandwidth GB/s": a qualified name in words, its unit as the table heads it.
  for (const auto& [end, unit] : {std::pair<std::string, std::string>{"_gb_per_s", " GB/s"}, {"_gbs", " GB/s"},
                                  {"_tflops", " TF/s"}})
    if (words.size() > end.size() && words.compare(words.size() - end.size(), end.size(), end) == 0) {
      words.replace(words.size() - end.size(), end.size(), unit);
      break;
    }
  if (const size_t per = words.rfind("_per_s"); per != std::string::npos && per + 6 == words.size())
    words.replace(per, 6, "/s");
  std::replace(words.begin(), words.end(), '_', ' ');
  return GnuplotLabel(words);
}

bool IsNumericAxis(const std::string& key) { return Contains(NumericAxes(), key); }
bool IsCategoricalAxis(const std::string& key) { return Contains(CategoricalAxes(), key); }

size_t ChartPlan::LegendEntries() const {
  std::set<std::string> names;
  for (const auto& p : panels)
    for (const auto& s : p.series) names.insert(s.name);
  return names.size() + 1 + (any_recorded ? 1 : 0);  // series, moelog's style, the logbook's style
}

std::string PrimaryMetricOf(const std::string& scope_text) {
  std::string lower;
  for (char c : scope_text) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  size_t at = lower.find("primary metric");
  if (at == std::string::npos) return "";
  const size_t end = lower.find('\n', at);
  const std::string line = lower.substr(at, end == std::string::npos ? std::string::npos : end - at);
  size_t best = std::string::npos;
  std::string metric;
  for (const auto& [word, key] : std::vector<std::pair<std::string, std::string>>{
           {"tf/s", "tflops"}, {"tflops", "tflops"}, {"tokens/s", "tokens_per_s"}, {"tok/s", "tokens_per_s"},
           {"latency", "time_s"}, {"step time", "time_s"}}) {
    const size_t p = line.find(word);
    if (p < best) best = p, metric = key;
  }
  return metric;
}

namespace {

// `text` as subtitle lines of at most kSubtitleChars, broken at blanks (a
// line is never cut); at most `max_lines`, the last saying how many items
// (split at "; ") it leaves to the notes under the chart.
// Returns whether all of `text` is shown.
bool AddWrapped(const std::string& text, ChartPlan* plan, size_t max_lines = 3) {
  std::vector<std::string> lines;
  std::string line;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t sp = text.find(' ', pos);
    if (sp == std::string::npos) sp = text.size();
    const std::string word = text.substr(pos, sp - pos);
    if (!line.empty() && line.size() + 1 + word.size() > kSubtitleChars) lines.push_back(line), line.clear();
    line += (line.empty() ? "" : " ") + word;
    pos = sp + 1;
  }
  if (!line.empty()) lines.push_back(line);
  const bool all = lines.size() <= max_lines;
  if (!all) {
    lines.resize(max_lines);
    lines.back() = "(continued in the notes under the chart)";
  }
  for (const auto& l : lines) plan->subtitles.push_back(GnuplotLabel(l, 2 * kSubtitleChars));
  return all;
}

// The lines under the title: whose figures a recorded-only chart shows, the
// runs' fixed keys, how figures were aggregated, what the error bars are,
// the unvalidated paths, the note on modeled figures and the bars the model
// cannot tell apart (also a note).
void AddSubtitles(const std::vector<ChartPoint>& main, const std::vector<std::string>& metrics,
                  const std::string& fixed, const ChartOptions& options, ChartPlan* plan) {
  const double ratio_band = options.ratio_band;
  if (options.prediction)
    AddWrapped("prediction: the model of commands the entry did not run (or ran elsewhere), not evidence", plan);
  if (plan->source == SourceLabel("recorded"))
    plan->subtitles.push_back("figures the logbook recorded (none run by moelog)");
  if (!fixed.empty()) AddWrapped("runs with " + fixed, plan);
  if (auto note = AggregateNote(main, metrics); !note.empty()) AddWrapped(note, plan);
  if (plan->any_band)
    AddWrapped("error bars: where the measurement is expected (10th to 90th percentile of past model errors on the path)", plan);
  if (const auto paths = UnvalidatedPaths(main); !paths.empty()) {
    std::string list;
    for (const auto& p : paths) list += (list.empty() ? "" : ", ") + p;
    AddWrapped("unvalidated (" + list + "): no error bar, the model is unchecked there", plan);
  }
  if (!options.modeled_note.empty() &&
      std::any_of(main.begin(), main.end(), [](const ChartPoint& p) { return p.source == "modeled"; }))
    AddWrapped(options.modeled_note, plan);
  if (const auto same = IndistinctBars(*plan, ratio_band); !same.empty()) {
    const std::string pct = Fixed(100.0 * (std::exp(ratio_band) - 1.0), 1) + "%";
    std::string list;
    for (const auto& x : same) list += (list.empty() ? "" : "; ") + x;
    // Under the chart too only when the title's lines could not hold it.
    if (!AddWrapped("the model cannot tell apart (within " + pct + "): " + list, plan, 2))
      plan->notes.push_back("Bars the model cannot tell apart (within " + pct + ", its within-entry error): " + list + ".");
  }
}


// The runs FillMain left out (`hidden`: the same configuration as a run
// drawn, other figures), noted. Figures the logbook recorded at one
// configuration with other values are figures whose distinguishing keys
// moelog did not read (the table lists them as figures it cannot tell
// apart): drawing one of each would show a comparison the logbook did not
// make, so there is no chart (NotFound).
Status NoteHidden(size_t hidden, ChartPlan* plan) {
  if (hidden == 0) return Status::Ok();
  if (plan->source == SourceLabel("recorded"))
    return Status::NotFound(std::to_string(hidden) + " recorded figure" + (hidden == 1 ? "" : "s") +
                            " at the configuration of another with other values: moelog cannot tell them apart");
  plan->notes.push_back(std::to_string(hidden) + " run" + (hidden == 1 ? "" : "s") +
                        " not drawn: the same configuration as a run drawn, other figures.");
  return Status::Ok();
}

}  // namespace

Result<ChartPlan> PlanChart(const std::vector<ChartPoint>& points, const ChartOptions& given) {
  ChartOptions options = given;
  std::vector<ChartPoint> main, recorded;
  for (const auto& p : points) (p.source == "recorded" ? recorded : main).push_back(p);
  if (main.empty()) main.swap(recorded);  // only the logbook's figures: they are the chart
  if (main.empty()) return Status::NotFound("no runs to chart");
  // A comparison's sides side by side: the bars compared, each cluster one row of the table.
  if (options.y_metrics.empty() && SplitChangeSides(main, ChooseChartMetric(main, options), &main) &&
      options.x_key.empty())
    options.x_key = "side";
  std::vector<std::string> varied = VariedKeys(main);
  std::vector<std::string> named;  // keys the user put on the chart: never folded
  if (!options.x_key.empty()) named.push_back(NormalizeKey(options.x_key));
  for (const auto& k : options.series_keys) named.push_back(NormalizeKey(k));
  FoldIndistinct(&main, &varied, recorded, named);
  std::string numeric, categorical;
  MOELOG_RETURN_IF_ERROR(ChooseAxis(main, varied, options.x_key, &numeric, &categorical));
  const ChartPlan::Kind kind = numeric.empty() ? ChartPlan::Kind::kBars : ChartPlan::Kind::kLine;
  auto metrics = ChooseMetrics(main, options);
  if (!metrics.ok()) return metrics.status();
  if (options.y_metrics.empty() && MixesRunAndRequestTimes(main, metrics->front()))
    return Status::NotFound("a run's duration beside a request's latency: different measures, no chart");
  const std::string x = numeric.empty() ? categorical : numeric;
  auto layout = ChooseLayout(main, varied, x, kind == ChartPlan::Kind::kBars, options);
  if (!layout.ok()) return layout.status();
  // A single series shows TF/s and tokens/s on two axes.
  const bool two_axes = kind == ChartPlan::Kind::kLine && options.y_metrics.empty() && layout->series.empty() &&
                        layout->panels.empty() && metrics->size() == 1 && (*metrics)[0] != "tokens_per_s" &&
                        Records(main, "tokens_per_s");
  // Side by side, one y axis each: a second axis on the same panel has no
  // grid of its own to read it by.
  if (two_axes) metrics->push_back("tokens_per_s");
  std::vector<std::string> notes;
  const std::string fixed = KeepWidestGroup(&main, *layout, &notes);
  const Frame f = MakeFrame(main, kind, *layout, *metrics, false);
  const size_t panels = f.panels.labels.size() * std::max<size_t>(1, Chunks(f)) * MetricsPerPanel(f);
  if (panels > kMaxPanels)
    return Status::InvalidArgument("the chart would need " + std::to_string(panels) +
                                   " panels; narrow the runs (--where) or name --series");
  ChartPlan plan;
  plan.notes = notes, plan.kind = kind, plan.x_key = x;
  plan.bar_key = kind == ChartPlan::Kind::kBars ? x : "";
  plan.x_values = f.x_values;
  plan.x_names = f.x_names;
  plan.source = MainSource(main);
  if (!options.model_label.empty() && plan.source == SourceLabel("modeled")) plan.source = options.model_label;
  AddPanels(f, plan.source, &plan);
  MOELOG_RETURN_IF_ERROR(NoteHidden(FillMain(main, f, &plan), &plan));
  FillRecorded(main, recorded, f, options.listed, &plan);
  TrimChart(&plan);
  if (DrawnValues(plan) < 2) return Status::NotFound("one figure to draw: a chart would compare nothing");
  plan.x_label = GnuplotLabel(kind == ChartPlan::Kind::kBars && !layout->cluster.empty()
                                  ? AxisLabel(layout->cluster.front())
                                  : AxisLabel(x));
  // The title names a time metric without its unit: the axis says ms or s.
  // A time metric is named in the unit its axis draws ("p95 time (ms)"), so
  // the alt text and the title say what the reader sees on the chart.
  std::string shown = MetricLabel(metrics->front());
  if (shown.size() > 4 && shown.compare(shown.size() - 4, 4, " (s)") == 0) shown = DrawnAxisLabel(plan, metrics->front());
  std::string what = shown + (two_axes ? " and tokens/s" : "") + " vs " + AxisLabel(x);
  plan.title = Title(options, what);
  plan.prediction = options.prediction;
  plan.what = GnuplotLabel(what);
  AddSubtitles(main, *metrics, fixed, options, &plan);
  return plan;
}

}  // namespace moelog::logbook
