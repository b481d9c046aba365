#include "logbook/criteria/compare.h"

#include "engine/target.h"
#include "engine/v5p/coverage.h"
#include "logbook/criteria/pairing.h"
#include "logbook/numbers.h"
#include "logbook/text.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>

namespace moelog::logbook {
namespace {

bool MatchesAll(const StoredRun& r, const Assignments& as) {
  for (const auto& [k, v] : as) {
    auto rv = RunValue(r, k);
    if (!rv || !ValuesEqual(*rv, v)) return false;
  }
  return true;
}


double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::string JoinDistinct(const std::vector<std::string>& v) {
  std::vector<std::string> d;
  for (const auto& x : v)
    if (std::find(d.begin(), d.end(), x) == d.end()) d.push_back(x);
  std::string s;
  for (const auto& x : d) s += (s.empty() ? "" : "/") + (x.empty() ? std::string("?") : x);
  return s;
}

std::string Describe(const Assignments& as) {
  std::string s;
  for (const auto& [k, v] : as) s += (s.empty() ? "" : ",") + k + "=" + v;
  return s;
}

}  // namespace

Result<Assignments> ParseAssignments(const std::string& text, const std::string& flag, const RunKeys& keys) {
  Assignments out;
  for (std::string item : SplitList(text)) {
    item = Trim(item);
    if (item.empty()) continue;
    size_t eq = item.find('=');
    if (eq == std::string::npos) return Status::InvalidArgument(flag + ": '" + item + "' is not key=value");
    std::string key = NormalizeKey(Trim(item.substr(0, eq)));
    if (key.empty() || !keys.Has(key))
      return Status::InvalidArgument(flag + ": unknown config key '" + item.substr(0, eq) + "' (valid: " +
                                     JoinKeys(keys.Names()) + ")");
    out.emplace_back(key, Trim(item.substr(eq + 1)));
  }
  if (out.empty()) return Status::InvalidArgument(flag + " needs at least one key=value");
  return out;
}

namespace {

using Group = std::vector<const StoredRun*>;

// One side of a row: the median, spread, ids, hosts, targets and ISAs of the
// group's figures of `metric` (a model's figure counts once); false when no
// run of the group has it.
bool FillSide(const Group& g, const std::string& metric, SideStats* s) {
  std::vector<double> v;
  std::vector<std::string> hosts, targets, isas;
  auto modeled = [](const StoredRun* r) { return r->source == "modeled" || engine::IsModeledTarget(r->target); };
  s->deterministic = !g.empty() && std::all_of(g.begin(), g.end(), modeled);
  for (const auto* r : g) {
    auto it = r->metrics.find(metric);
    if (it == r->metrics.end()) continue;
    // A model gives one value per config, however often it was stored.
    if (s->deterministic && !v.empty()) continue;
    v.push_back(it->second);
    s->ids.push_back(r->id);
    hosts.push_back(r->host);
    targets.push_back(r->target);
    if (!r->cpu_isa.empty()) isas.push_back(r->cpu_isa);
    if (modeled(r))
      for (const auto& p : engine::v5p::UncalibratedPaths(r->config))
        if (std::find(s->unvalidated.begin(), s->unvalidated.end(), p) == s->unvalidated.end())
          s->unvalidated.push_back(p);
  }
  if (v.empty()) return false;
  s->median = Median(v);
  s->min = *std::min_element(v.begin(), v.end());
  s->max = *std::max_element(v.begin(), v.end());
  s->hosts = JoinDistinct(hosts);
  s->targets = JoinDistinct(targets);
  s->isas = JoinDistinct(isas);
  return true;
}

// The delta, the noise and model marks and the warnings of a filled row.
void JudgeRow(const CompareOptions& o, ComparisonRow* row) {
  row->delta_pct = row->a.median != 0 ? DeltaPercent(row->b.median, row->a.median) : 0;
  row->deterministic = row->a.deterministic && row->b.deterministic;
  row->model_indistinct = row->deterministic && o.ratio_band >= 0 && row->a.unvalidated.empty() &&
                          row->b.unvalidated.empty() && row->a.median > 0 && row->b.median > 0 &&
                          std::fabs(std::log(row->b.median / row->a.median)) <= o.ratio_band;
  // Repeats are runs of one configuration on one machine: figures pooled
  // from several hosts or CPU paths give a spread, never a noise verdict.
  auto one_machine = [](const SideStats& s) {
    return s.hosts.find('/') == std::string::npos && s.isas.find('/') == std::string::npos;
  };
  row->has_repeats = (row->a.ids.size() > 1 && one_machine(row->a)) || (row->b.ids.size() > 1 && one_machine(row->b));
  row->within_noise = row->has_repeats && row->a.min <= row->b.max && row->b.min <= row->a.max;
  auto differ = [](const std::string& a, const std::string& b) { return a != b || a.find('/') != std::string::npos; };
  if (differ(row->a.targets, row->b.targets))
    row->warnings.push_back("targets differ (" + row->a.targets + " vs " + row->b.targets + ")");
  if (differ(row->a.hosts, row->b.hosts))
    row->warnings.push_back("hosts differ (" + row->a.hosts + " vs " + row->b.hosts + ")");
  if ((!row->a.isas.empty() || !row->b.isas.empty()) && differ(row->a.isas, row->b.isas))
    row->warnings.push_back("cpu ISAs differ (" + row->a.isas + " vs " + row->b.isas + ")");
}

// Keys that give a run's shape and scale: a row of a comparison states
// them, so that figures of different scales are never read as one.
bool IsShapeKey(const std::string& k) {
  static const std::set<std::string> kShape = {"accelerator", "nodes", "devices", "tokens", "hidden",
                                               "mlp_dim",     "experts", "topk"};
  return kShape.count(k) > 0;
}

// The A and B runs grouped by their control signature, in discovery order.
struct Groups {
  std::vector<std::string> order;
  std::map<std::string, std::pair<Group, Group>> by_sig;
  void Add(const Group& runs, const std::vector<std::string>& keys, bool b_side) {
    for (const auto* r : runs) {
      auto sig = ControlSignature(*r, keys);
      if (!by_sig.count(sig)) order.push_back(sig);
      (b_side ? by_sig[sig].second : by_sig[sig].first).push_back(r);
    }
  }
};

}  // namespace

Result<Comparison> CompareRuns(const std::vector<StoredRun>& runs, const CompareOptions& o) {
  Group as, bs;
  for (const auto& r : runs) {
    if (MatchesAll(r, o.a)) as.push_back(&r);
    else if (MatchesAll(r, o.b)) bs.push_back(&r);
  }
  const bool known_metric = std::any_of(runs.begin(), runs.end(), [&](const StoredRun& r) {
    return r.metrics.count(o.metric) > 0;
  });
  if (!runs.empty() && !known_metric)
    return Status::InvalidArgument("--metric " + o.metric + ": no run has this metric (valid: " +
                                   JoinKeys(KnownMetrics()) + ")");
  if (as.empty()) return Status::NotFound("no stored run matches --a " + Describe(o.a));
  if (bs.empty()) return Status::NotFound("no stored run matches --b " + Describe(o.b));
  std::set<std::string> side_keys;
  for (const auto* s : {&o.a, &o.b})
    for (const auto& [k, v] : *s) side_keys.insert(k);
  // Control keys: `same`, or every config key of any A/B run but the side keys.
  Group all = as;
  all.insert(all.end(), bs.begin(), bs.end());
  const std::vector<std::string> keys = ControlKeys(all, o.same, side_keys);
  Groups groups;
  groups.Add(as, keys, false);
  groups.Add(bs, keys, true);
  Comparison c;
  c.metric = o.metric;
  std::map<std::string, std::set<std::string>> values_per_key;
  for (const auto& sig : groups.order) {
    auto& [ga, gb] = groups.by_sig[sig];
    ComparisonRow row;
    if (ga.empty() || gb.empty() || !FillSide(ga, o.metric, &row.a) || !FillSide(gb, o.metric, &row.b)) {
      c.unpaired_a += static_cast<int>(ga.size());
      c.unpaired_b += static_cast<int>(gb.size());
      continue;
    }
    for (const auto& k : keys) {
      row.controls[k] = CanonicalValue(RunValue(*ga.front(), k));
      values_per_key[k].insert(row.controls[k]);
    }
    JudgeRow(o, &row);
    c.rows.push_back(std::move(row));
  }
  for (const auto& k : keys)
    if (values_per_key[k].size() > 1) c.row_keys.push_back(k);
    else if (IsShapeKey(k) && !values_per_key[k].empty() && *values_per_key[k].begin() != "-") c.shape_keys.push_back(k);
  return c;
}

namespace {
// Whether the model can tell a modeled A/B apart: inside the band of its
// past within-entry ratio errors it cannot; an unvalidated path has no band.
std::string ModelBandNote(const ComparisonRow& r, double band) {
  std::vector<std::string> paths = r.a.unvalidated;
  for (const auto& p : r.b.unvalidated)
    if (std::find(paths.begin(), paths.end(), p) == paths.end()) paths.push_back(p);
  if (!paths.empty()) {
    std::string list;
    for (const auto& p : paths) list += (list.empty() ? "" : ", ") + p;
    return "unvalidated (" + list + "): no band, the model is unchecked there";
  }
  const std::string pct = Fixed(100.0 * (std::exp(band) - 1.0), 1) + "%";
  return r.model_indistinct ? "the model cannot tell these apart (inside its ±" + pct + " A/B band)"
                            : "outside the model's ±" + pct + " A/B band";
}
}  // namespace

std::string RenderComparison(const Comparison& c, const CompareOptions& o) {
  std::ostringstream s;
  const std::string unit = c.metric == "tflops" ? "TF/s" : c.metric == "tokens_per_s" ? "tokens/s" : c.metric;
  s << "|";
  for (const auto& k : c.row_keys) s << " " << k << " |";
  if (!c.shape_keys.empty()) s << " shape |";
  s << " A: " << Describe(o.a) << " (" << unit << ") | B: " << Describe(o.b) << " (" << unit
    << ") | delta (B vs A) | n A/B | note |\n|";
  const size_t text_cols = c.row_keys.size() + (c.shape_keys.empty() ? 0 : 1);
  for (size_t i = 0; i < text_cols + 5; ++i) s << (i < text_cols ? "---|" : "---:|");
  s << "\n";
  auto cell = [](const SideStats& st) {
    std::string t = Readable(st.median);
    if (st.ids.size() > 1) t += " (" + Readable(st.min) + ".." + Readable(st.max) + ")";
    return t;
  };
  for (const auto& r : c.rows) {
    s << "|";
    for (const auto& k : c.row_keys) s << " " << r.controls.at(k) << " |";
    if (!c.shape_keys.empty()) {
      std::string shape;
      for (const auto& k : c.shape_keys) shape += (shape.empty() ? "" : " ") + k + "=" + r.controls.at(k);
      s << " " << shape << " |";
    }
    std::string delta = (r.delta_pct >= 0 ? "+" : "") + Fixed(r.delta_pct, 2) + "%";
    std::string note = r.deterministic  ? "model: no noise"
                       : r.within_noise ? "within noise"
                       : r.has_repeats  ? "outside noise"
                       : r.a.ids.size() > 1 || r.b.ids.size() > 1 ? "runs of several machines, noise unknown"
                                                                   : "n=1, noise unknown";
    if (r.deterministic && o.ratio_band >= 0) note += "; " + ModelBandNote(r, o.ratio_band);
    for (const auto& w : r.warnings) note += "; " + w;
    s << " " << cell(r.a) << " | " << cell(r.b) << " | " << delta << " | " << r.a.ids.size() << "/" << r.b.ids.size()
      << " | " << note << " |\n";
  }
  if (c.rows.empty()) s << "\nNo A/B pairs at identical controls.\n";
  if (c.unpaired_a || c.unpaired_b)
    s << "\n" << c.unpaired_a << " A run(s) and " << c.unpaired_b << " B run(s) had no partner at identical controls.\n";
  return s.str();
}

double DeltaPercent(double value, double base) { return (value - base) / base * 100.0; }

namespace {

std::map<std::string, std::string> BulletConfig(const Bullet& b) {
  auto cfg = ConfigWords(b.text);
  // A bare flag word means the flag is on ("... pass=forward_backward shared_fused").
  std::string t;
  for (char ch : b.text) t += (ch == '`' || ch == ',') ? ' ' : ch;
  std::istringstream words(t);
  std::string w;
  while (words >> w)
    if (w == "shared_fused" || w == "use_custom_sort_vjp" || w == "renormalize_real_after_null") cfg[w] = "true";
  return cfg;
}

std::string MetricFromUnit(const std::string& unit) {
  if (unit == "TF/s") return "tflops";
  if (unit == "tokens/s" || unit == "tok/s") return "tokens_per_s";
  return "";
}

void WalkBaseline(const Bullet& b, std::map<std::string, std::string> context, std::vector<BaselineNumber>* out) {
  for (const auto& [k, v] : BulletConfig(b)) context[k] = v;
  // Number-free children (a "shape: ..." line) describe their siblings.
  for (const auto& child : b.children)
    if (child.numbers.empty())
      for (const auto& [k, v] : BulletConfig(child)) context[k] = v;
  const std::string label = [&] {
    size_t colon = b.text.find(':');
    return colon == std::string::npos ? std::string() : Trim(b.text.substr(0, colon));
  }();
  for (const auto& n : b.numbers) {
    std::string metric = MetricFromUnit(n.unit);
    if (metric.empty() && n.unit.empty()) {
      std::string l = label;
      l.erase(std::remove(l.begin(), l.end(), '`'), l.end());
      metric = MetricFromUnit(Trim(l));
      if (metric.empty() && l.size() >= 4 && l.substr(l.size() - 4) == "TF/s") metric = "tflops";
    }
    if (metric.empty()) continue;
    BaselineNumber bn;
    bn.config = context;
    bn.metric = metric;
    bn.value = n.value;
    bn.line = b.line;
    out->push_back(std::move(bn));
  }
  for (const auto& child : b.children) WalkBaseline(child, context, out);
}

}  // namespace

std::vector<BaselineNumber> ParseBaseline(const Logbook& logbook) {
  std::vector<BaselineNumber> out;
  const Section* s = logbook.FindSection(SectionKind::kBaseline);
  if (!s) return out;
  for (const auto& b : s->bullets) WalkBaseline(b, {}, &out);
  return out;
}

std::optional<BaselineNumber> MatchBaseline(const std::vector<BaselineNumber>& baseline, const StoredRun& run,
                                            const std::string& metric) {
  std::optional<BaselineNumber> best;
  for (const auto& bn : baseline) {
    if (bn.metric != metric) continue;
    bool agree = true;
    for (const auto& [k, v] : bn.config) {
      auto rv = RunValue(run, k);
      if (!rv || !ValuesEqual(*rv, v)) { agree = false; break; }
    }
    if (agree && (!best || bn.config.size() > best->config.size())) best = bn;
  }
  return best;
}

}  // namespace moelog::logbook
