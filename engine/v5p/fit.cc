#include "engine/v5p/fit.h"

#include "engine/format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include <Eigen/Dense>
#include <nlohmann/json.hpp>

#include "engine/bench.h"
#include "engine/metrics.h"
#include "engine/routing.h"

namespace moelog::engine::v5p {
namespace {

bool ToInt(const std::string& s, int64_t* v) {
  if (s.empty()) return false;
  char* end = nullptr;
  long long x = std::strtoll(s.c_str(), &end, 10);
  if (end == s.c_str() || *end != '\0') return false;
  *v = x;
  return true;
}
bool ToDouble(const std::string& s, double* v) {
  if (s.empty()) return false;
  char* end = nullptr;
  double x = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0') return false;
  *v = x;
  return true;
}

struct RoutingCache {
  std::map<std::string, Logits> logits;
  std::map<std::string, std::pair<std::vector<int64_t>, int64_t>> groups;

  const std::pair<std::vector<int64_t>, int64_t>& Get(const BenchConfig& c, const RunPoint& p) {
    const std::string lk = p.distribution + "/" + std::to_string(c.tokens) + "/" + std::to_string(c.experts) + "/" +
                           std::to_string(c.seed);
    const std::string gk = lk + "/" + std::to_string(p.topk) + "/" + std::to_string(p.null_frac);
    auto g = groups.find(gk);
    if (g != groups.end()) return g->second;
    auto it = logits.find(lk);
    if (it == logits.end())
      it = logits.emplace(lk, GenerateLogits(p.distribution, c.tokens, c.experts, static_cast<uint64_t>(c.seed),
                                             c.run_alpha, c.run_noise_scale)).first;
    Routing r = RoutingForPoint(c, it->second, p);
    return groups.emplace(gk, std::make_pair(GroupSizes(r), r.real_assignments)).first->second;
  }
};

double LogPred(const Hardware& hw, const ModelParams& p, const Measurement& m) {
  return std::log(std::max(1e-12, Predict(hw, p, m.model_case).time_s));
}


}  // namespace

namespace {

// A bench_moe_mlp_profile.py row (the CSV's impl column names the path) as
// the engine configuration its adapter (data/adapters/mlp_profile.json)
// makes: forward only, random Gaussian logits, the path's parallel mode and
// the engine impl that computes it on cpu. False for rows that are not one
// path (ratios such as "fused_ep/staged_dp").
bool MlpProfilePath(const std::string& path, const std::string& notes, BenchConfig* c) {
  if (path != "ref_dp" && path != "staged_dp" && path != "fused_ep") return false;
  c->mlp_path = path;
  c->parallel_mode = path == "fused_ep" ? "ep" : "dp";
  c->impl = path == "ref_dp" ? "baseline" : path == "staged_dp" ? "fused_w13" : "fast";
  c->staged_parallel = path == "staged_dp" && notes.find("--staged-parallel") != std::string::npos;
  c->bench_pass = "forward";
  c->distribution = "random";
  c->queue_mode = "full";
  c->shared_expert_dim = 0;
  return true;
}

// The scoped VMEM limit a row's notes record as its launcher's
// LIBTPU_INIT_ARGS (--xla_tpu_scoped_vmem_limit_kib=N); 0 when they record none.
int64_t ScopedVmemKib(const std::string& notes) {
  const std::string flag = "xla_tpu_scoped_vmem_limit_kib=";
  const size_t at = notes.find(flag);
  if (at == std::string::npos) return 0;
  return std::strtoll(notes.c_str() + at + flag.size(), nullptr, 10);
}

// "2026-02-09 13:40" from a heading "2026-02-09 13:40 - ...", "" otherwise.
std::string EntryTime(const std::string& heading) {
  if (heading.size() < 16) return "";
  for (size_t i = 0; i < 16; ++i) {
    const char c = heading[i];
    const bool digit = c >= '0' && c <= '9';
    if ((i == 4 || i == 7) ? c != '-' : i == 10 ? c != ' ' : i == 13 ? c != ':' : !digit) return "";
  }
  return heading.substr(0, 16);
}

// What a logbook's calibration would group the row by: its harness and the
// harness revision its adapter applies (the hillclimb EP path before the
// compact dispatch), else its day.
std::string CalibrationKey(const std::string& harness, const std::string& when, const BenchConfig& c) {
  // Each of mlp_profile's paths is its own program.
  const std::string h = c.mlp_path.empty() ? harness : harness + " " + c.mlp_path;
  if (c.parallel_mode == "ep" && c.ep_dispatch == "dense_masked") return h + ": dense-masked EP dispatch";
  if (c.quant_mode == "int8" && c.int8_impl == "fake_quant") return h + ": int8 fake quantization";
  return h + ": " + (when.empty() ? std::string("(undated)") : when.substr(0, 10));
}

// One row of the measurements CSV, its fields by column name ("" when the
// row lacks one).
struct CsvRow {
  const std::map<std::string, size_t>& col;
  std::vector<std::string> f;
  std::string Get(const char* name) const {
    auto it = col.find(name);
    return it == col.end() || it->second >= f.size() ? std::string() : f[it->second];
  }
};

// The harness flags a row records (the harness's defaults for empty fields),
// as a v5p config; `where` prefixes an error.
Status ReadConfig(const CsvRow& row, const std::string& where, BenchConfig* out) {
  BenchConfig& c = *out;
  auto get = [&](const char* name) { return row.Get(name); };
  if (!ToInt(get("tokens"), &c.tokens) || !ToInt(get("hidden"), &c.hidden) || !ToInt(get("mlp_dim"), &c.mlp_dim) ||
      !ToInt(get("experts"), &c.experts) || !ToInt(get("topk"), &c.topk))
    return Status::InvalidArgument(where + "shape fields must be integers");
  if (!ToInt(get("shared_expert_dim"), &c.shared_expert_dim)) c.shared_expert_dim = 0;
  c.target = "v5p";
  c.shared_fused = get("shared_fused") == "true";
  c.backend = get("backend").empty() ? "gmm" : get("backend");
  c.impl = get("impl").empty() ? "fused_w13" : get("impl");
  c.parallel_mode = get("parallel_mode").empty() ? "none" : get("parallel_mode");
  const std::string variant = get("ep_variant");
  c.ep_dispatch = variant == "dense_masked" ? "dense_masked" : "compact";
  if (variant == "ring_ag_rs" || variant == "ring") c.ep_comm_path = "ring_ag_rs";
  c.routing_pack_strategy = get("routing_pack").empty() ? "argsort" : get("routing_pack");
  c.queue_mode = get("queue_mode").empty() ? "full" : get("queue_mode");
  c.bench_pass = get("bench_pass").empty() ? "forward" : get("bench_pass");
  c.quant_mode = get("quant_mode").empty() ? "none" : get("quant_mode");
  if (get("int8_impl") == "fake_quant") c.int8_impl = "fake_quant";  // an optional column
  c.remat_mode = get("remat_mode").empty() ? "none" : get("remat_mode");
  std::string dist = get("distribution");
  c.distribution = dist == "runs" ? "runs" : "random";
  double nf = 0;
  if (ToDouble(get("null_route_frac"), &nf)) c.null_route_frac = nf;
  if (c.bench_pass == "forward_backward") c.queue_mode = "full";  // the harness forces full
  return Status::Ok();
}

}  // namespace

Result<std::vector<Measurement>> LoadMeasurements(const std::string& csv_path, const Hardware& hw) {
  std::ifstream in(csv_path);
  if (!in) return Status::NotFound("cannot open measurements CSV " + csv_path);
  std::string line;
  if (!std::getline(in, line)) return Status::InvalidArgument(csv_path + ": empty file");
  std::vector<std::string> header = SplitCsvRecord(line);
  std::map<std::string, size_t> col;
  for (size_t i = 0; i < header.size(); ++i) col[header[i]] = i;
  for (const char* need : {"id", "entry_heading", "harness", "tokens", "hidden", "mlp_dim", "experts", "topk",
                           "shared_expert_dim", "bench_pass", "metric", "value"})
    if (!col.count(need)) return Status::InvalidArgument(csv_path + ": missing column '" + need + "'");
  RoutingCache cache;
  std::vector<Measurement> out;
  std::set<std::string> seen;
  int line_no = 1;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty()) continue;
    const CsvRow row{col, SplitCsvRecord(line)};
    auto get = [&](const char* name) { return row.Get(name); };
    const std::string harness = get("harness");
    if (harness != "hillclimb" && harness != "mlp_profile") continue;
    const std::string metric = get("metric");
    if (metric != "tflops" && metric != "tokens_per_s" && metric != "time_s") continue;
    if (get("notes").find("dup_of=") != std::string::npos) continue;
    Measurement m;
    m.id = get("id");
    m.entry = get("entry_heading");
    m.logbook = get("seed_file");
    m.harness = harness;
    m.when = EntryTime(m.entry);
    m.metric = metric;
    BenchConfig& c = m.config;
    const std::string where = csv_path + ":" + std::to_string(line_no) + ": ";
    MOELOG_RETURN_IF_ERROR(ReadConfig(row, where, &c));
    if (!ToDouble(get("value"), &m.value) || m.value <= 0) return Status::InvalidArgument(where + "bad value");
    c.topk_list.clear();
    if (harness == "mlp_profile" && !MlpProfilePath(get("impl"), get("notes"), &c)) continue;
    c.xla_scoped_vmem_kib = ScopedVmemKib(get("notes"));
    Status st = c.Validate();
    if (!st.ok()) return Status::InvalidArgument(where + st.message());
    m.point = RunPoint{c.distribution, c.topk, c.impl, c.null_route_frac, c.queue_mode};
    const std::string key = m.entry + "|" + CanonicalConfigJson(c) + "|" + m.point.queue_mode;
    if (!seen.insert(key).second) continue;  // tokens_per_s of a run already read as tflops
    const auto& g = cache.Get(c, m.point);
    auto mc = MakeCase(c, m.point, g.first, g.second, hw.chips);
    if (!mc.ok()) return Status::InvalidArgument(where + mc.status().message());
    m.model_case = std::move(mc).value();
    m.time_s = metric == "tflops"         ? HarnessFlops(c, g.second, 0) / (m.value * 1e12)
               : metric == "tokens_per_s" ? static_cast<double>(c.tokens) / m.value
                                          : m.value;  // time_s
    m.cal_key = CalibrationKey(harness, m.when, c);
    m.family = "T=" + std::to_string(c.tokens) + ",D=" + std::to_string(c.hidden) + ",E=" + std::to_string(c.experts);
    out.push_back(std::move(m));
  }
  if (out.empty())
    return Status::InvalidArgument(csv_path + ": no hillclimb or mlp_profile time/tflops/tokens_per_s rows");
  return out;
}

namespace {

using Vec = Eigen::VectorXd;
using Mat = Eigen::MatrixXd;

// The least-squares problem in log-parameter space: one residual per row
// (log predicted time - log measured time) and one prior pull per parameter.
class FitProblem {
 public:
  FitProblem(const Hardware& hw, std::vector<const Measurement*> rows, const ModelParams& start, double prior_weight)
      : hw_(hw), rows_(std::move(rows)), start_(start), pw_(std::sqrt(prior_weight)),
        lo_(kNumParams), hi_(kNumParams), prior_(kNumParams) {
    for (int j = 0; j < kNumParams; ++j) {
      lo_[j] = std::log(Info(j).min);
      hi_[j] = std::log(Info(j).max);
      prior_[j] = std::log(Info(j).prior);
    }
  }
  int rows() const { return static_cast<int>(rows_.size()); }
  Vec Start() const {
    Vec th(kNumParams);
    for (int j = 0; j < kNumParams; ++j) th[j] = std::log(start_[j]);
    return th;
  }
  ModelParams ParamsOf(const Vec& th) const {
    ModelParams p = start_;
    for (int j = 0; j < kNumParams; ++j) p[j] = std::exp(th[j]);
    return p;
  }
  Vec Residuals(const Vec& th) const {
    const ModelParams p = ParamsOf(th);
    const int n = rows();
    Vec r(n + kNumParams);
    for (int i = 0; i < n; ++i) r[i] = LogPred(hw_, p, *rows_[i]) - std::log(rows_[i]->time_s);
    r.tail(kNumParams) = pw_ * (th - prior_);
    return r;
  }
  // Forward differences, step 1e-5 in log space.
  Mat Jacobian(const Vec& th, const Vec& r) const {
    Mat jac(r.size(), kNumParams);
    for (int j = 0; j < kNumParams; ++j) {
      Vec t = th;
      t[j] += 1e-5;
      jac.col(j) = (Residuals(t) - r) / 1e-5;
    }
    return jac;
  }
  Vec Clamp(const Vec& th) const { return th.cwiseMax(lo_).cwiseMin(hi_); }

 private:
  const Hardware& hw_;
  std::vector<const Measurement*> rows_;
  ModelParams start_;
  double pw_;
  Vec lo_, hi_, prior_;
};

// A Levenberg-Marquardt step: (JtJ + lambda diag(JtJ)) step = -Jtr, solved
// by LDLt (the damped normal matrix is symmetric positive definite).
std::optional<Vec> LmStep(const Mat& jtj, const Vec& jtr, double lambda) {
  Mat a = jtj;
  a.diagonal() += lambda * (jtj.diagonal().array() + 1e-9).matrix();
  Eigen::LDLT<Mat> ldlt(a);
  if (ldlt.info() != Eigen::Success) return std::nullopt;
  Vec step = ldlt.solve(-jtr);
  if (!step.allFinite()) return std::nullopt;
  return step;
}

}  // namespace

FitResult Fit(const Hardware& hw, const std::vector<Measurement>& rows, const ModelParams& start,
              const FitOptions& options, const std::vector<bool>& include) {
  std::vector<const Measurement*> use;
  for (size_t i = 0; i < rows.size(); ++i)
    if (include.empty() || include[i]) use.push_back(&rows[i]);
  const FitProblem problem(hw, std::move(use), start, options.prior_weight);
  Vec theta = problem.Start();
  Vec r = problem.Residuals(theta);
  double c0 = r.squaredNorm();
  double lambda = 1e-2;
  FitResult res;
  for (int it = 0; it < options.max_iters; ++it) {
    res.iterations = it + 1;
    const Mat jac = problem.Jacobian(theta, r);
    const Mat jtj = jac.transpose() * jac;
    const Vec jtr = jac.transpose() * r;
    bool improved = false;
    for (int tries = 0; tries < 12 && !improved; ++tries) {
      auto step = LmStep(jtj, jtr, lambda);
      if (!step) {
        lambda *= 10;
        continue;
      }
      const Vec th = problem.Clamp(theta + *step);
      const Vec r_try = problem.Residuals(th);
      const double c1 = r_try.squaredNorm();
      if (c1 >= c0) {
        lambda *= 4;
        continue;
      }
      improved = true;
      const double gain = c0 - c1;
      theta = th;
      r = r_try;
      c0 = c1;
      lambda = std::max(1e-7, lambda / 3);
      if (gain < 1e-10 * (1 + c0)) it = options.max_iters;
    }
    if (!improved) break;
  }
  res.params = problem.ParamsOf(theta);
  res.params.source = "fit";
  const int n = problem.rows();
  res.rms_log_error = n > 0 ? std::sqrt(r.head(n).squaredNorm() / n) : 0.0;
  res.rows = n;
  return res;
}

ErrorSummary Summarize(const std::vector<double>& rel) {
  ErrorSummary s;
  s.n = static_cast<int>(rel.size());
  if (rel.empty()) return s;
  std::vector<double> a;
  for (double e : rel) a.push_back(std::fabs(e));
  std::sort(a.begin(), a.end());
  double sum = 0;
  for (double v : a) sum += v;
  s.mape = sum / a.size();
  auto pct = [&](double q) {  // numpy-style linear interpolation
    double pos = q * (a.size() - 1);
    size_t i = static_cast<size_t>(pos);
    double frac = pos - i;
    return i + 1 < a.size() ? a[i] * (1 - frac) + a[i + 1] * frac : a[i];
  };
  s.median_abs = pct(0.5);
  s.p90_abs = pct(0.9);
  s.max_abs = a.back();
  return s;
}

ValidationReport Validate(const Hardware& hw, const std::vector<Measurement>& rows, const ModelParams& params,
                          const FitOptions& options) {
  ValidationReport rep;
  const size_t n = rows.size();
  rep.predicted_s.resize(n);
  rep.cv_entry_s.resize(n);
  rep.cv_family_s.resize(n);
  rep.cv_path_s.resize(n);
  std::vector<double> e_in, e_entry, e_family, e_path;
  for (size_t i = 0; i < n; ++i) {
    rep.predicted_s[i] = Predict(hw, params, rows[i].model_case).time_s;
    e_in.push_back(rep.predicted_s[i] / rows[i].time_s - 1);
  }
  auto cv = [&](auto group_of, std::vector<double>* pred, std::vector<double>* err) {
    std::set<std::string> groups;
    for (const auto& r : rows) groups.insert(group_of(r));
    for (const auto& g : groups) {
      std::vector<bool> include(n);
      for (size_t i = 0; i < n; ++i) include[i] = group_of(rows[i]) != g;
      FitResult f = Fit(hw, rows, ModelParams::Priors(), options, include);
      for (size_t i = 0; i < n; ++i)
        if (!include[i]) (*pred)[i] = Predict(hw, f.params, rows[i].model_case).time_s;
    }
    for (size_t i = 0; i < n; ++i) err->push_back((*pred)[i] / rows[i].time_s - 1);
  };
  cv([](const Measurement& m) { return m.entry; }, &rep.cv_entry_s, &e_entry);
  cv([](const Measurement& m) { return m.family; }, &rep.cv_family_s, &e_family);
  cv([](const Measurement& m) { return BandPath(ConfigMap(m.config)); }, &rep.cv_path_s, &e_path);
  rep.in_sample = Summarize(e_in);
  rep.cv_entry = Summarize(e_entry);
  rep.cv_family = Summarize(e_family);
  rep.cv_chrono_s = ChronologicalCv(hw, rows, options);
  rep.cv_chrono = SummarizeFinite(rows, rep.cv_chrono_s);
  std::set<std::string> logbooks;
  for (const auto& r : rows) logbooks.insert(r.logbook);
  rep.logbooks = static_cast<int>(logbooks.size());
  rep.cv_logbook_s.assign(n, std::nan(""));
  if (rep.logbooks > 1) {
    std::vector<double> e_logbook;
    cv([](const Measurement& m) { return m.logbook; }, &rep.cv_logbook_s, &e_logbook);
    rep.cv_logbook = Summarize(e_logbook);
  }
  const ShrinkagePrior prior = EstimatePrior(rows, rep.cv_entry_s, options.calibration_tau);
  rep.cal_entry_s = CalibrateChronologically(rows, rep.cv_entry_s, prior);
  rep.cal_entry = SummarizeFinite(rows, rep.cal_entry_s);
  rep.cal_chrono_s = CalibrateChronologically(rows, rep.cv_chrono_s, prior);
  rep.cal_chrono = SummarizeFinite(rows, rep.cal_chrono_s);
  return rep;
}

std::vector<double> ChronologicalCv(const Hardware& hw, const std::vector<Measurement>& rows,
                                    const FitOptions& options) {
  const size_t n = rows.size();
  std::vector<double> pred(n, std::nan(""));
  std::set<std::string> times;
  for (const auto& r : rows)
    if (!r.when.empty()) times.insert(r.when);
  for (const std::string& t : times) {
    std::vector<bool> include(n);
    int train = 0;
    for (size_t i = 0; i < n; ++i) train += include[i] = rows[i].when < t;  // undated rows come first
    if (train < kMinChronoTrainRows) continue;
    const FitResult f = Fit(hw, rows, ModelParams::Priors(), options, include);
    for (size_t i = 0; i < n; ++i)
      if (rows[i].when == t) pred[i] = Predict(hw, f.params, rows[i].model_case).time_s;
  }
  return pred;
}

std::vector<double> CalibrateChronologically(const std::vector<Measurement>& rows, const std::vector<double>& pred_s,
                                             const ShrinkagePrior& prior) {
  std::vector<double> out(rows.size(), std::nan(""));
  for (size_t i = 0; i < rows.size(); ++i) {
    if (!std::isfinite(pred_s[i])) continue;
    std::vector<FactorSample> samples;
    for (size_t j = 0; j < rows.size(); ++j)
      if (rows[j].cal_key == rows[i].cal_key && rows[j].when < rows[i].when && std::isfinite(pred_s[j]))
        samples.push_back({rows[j].entry, std::log(pred_s[j] / rows[j].time_s)});  // throughput ratio meas/model
    out[i] = pred_s[i] / ShrunkFactor(samples, prior).factor;
  }
  return out;
}

std::map<std::string, std::string> ConfigMap(const BenchConfig& c) {
  std::map<std::string, std::string> out;
  const nlohmann::json j = nlohmann::json::parse(CanonicalConfigJson(c), nullptr, false);
  if (!j.is_object()) return out;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const auto& v = it.value();
    if (v.is_string()) out[it.key()] = v.get<std::string>();
    else if (v.is_boolean()) out[it.key()] = v.get<bool>() ? "true" : "false";
    else if (v.is_number_integer()) out[it.key()] = std::to_string(v.get<int64_t>());
    else if (v.is_number()) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%g", v.get<double>());
      out[it.key()] = buf;
    }
  }
  return out;
}

ErrorSummary SummarizeFinite(const std::vector<Measurement>& rows, const std::vector<double>& pred_s) {
  std::vector<double> e;
  for (size_t i = 0; i < rows.size(); ++i)
    if (std::isfinite(pred_s[i])) e.push_back(pred_s[i] / rows[i].time_s - 1);
  return Summarize(e);
}

ShrinkagePrior EstimatePrior(const std::vector<Measurement>& rows, const std::vector<double>& pred_s, double tau) {
  std::map<std::string, std::vector<double>> by_entry;  // log(pred/meas time) = log(meas/model throughput)
  for (size_t i = 0; i < rows.size(); ++i)
    if (std::isfinite(pred_s[i])) by_entry[rows[i].entry].push_back(std::log(pred_s[i] / rows[i].time_s));
  std::vector<double> within, means;
  for (const auto& [e, v] : by_entry) {
    double mean = 0;
    for (double x : v) mean += x / static_cast<double>(v.size());
    means.push_back(mean);
    for (double x : v) within.push_back(x - mean);
  }
  auto sd = [](const std::vector<double>& v) {
    if (v.size() < 2) return 0.0;
    double m = 0, s = 0;
    for (double x : v) m += x / static_cast<double>(v.size());
    for (double x : v) s += (x - m) * (x - m);
    return std::sqrt(s / static_cast<double>(v.size() - 1));
  };
  ShrinkagePrior p;
  p.tau = tau;
  p.sigma_within = std::max(0.005, sd(within));
  p.sigma_entry = sd(means);
  return p;
}

namespace {
// An A/B pair: two rows whose configurations differ in one key.
bool ConfigsDifferInOne(const Measurement& a, const Measurement& b) {
  std::map<std::string, std::string> ca = ConfigMap(a.config), cb = ConfigMap(b.config);
  ca["queue_mode"] = a.point.queue_mode;
  cb["queue_mode"] = b.point.queue_mode;
  int diff = 0;
  for (const auto& [k, v] : ca) {
    auto it = cb.find(k);
    diff += it == cb.end() || it->second != v;
  }
  for (const auto& [k, v] : cb) diff += !ca.count(k);
  return diff == 1;
}
}  // namespace

Uncertainty MakeUncertainty(const std::vector<Measurement>& rows, const ValidationReport& rep, double tau) {
  // measured/modeled throughput = predicted/measured time.
  std::map<std::string, std::vector<double>> chrono, entry;
  std::vector<double> all_chrono, all_entry;
  for (size_t i = 0; i < rows.size(); ++i) {
    const std::string path = BandPath(ConfigMap(rows[i].config));
    if (std::isfinite(rep.cv_chrono_s[i])) {
      chrono[path].push_back(rep.cv_chrono_s[i] / rows[i].time_s);
      all_chrono.push_back(chrono[path].back());
    }
    entry[path].push_back(rep.cv_entry_s[i] / rows[i].time_s);
    all_entry.push_back(entry[path].back());
  }
  auto band = [](const std::string& path, const std::vector<double>& v, const char* method) {
    ErrorBand b;
    b.validated = true;
    b.path = path;
    b.n = static_cast<int>(v.size());
    b.lo = std::min(1.0, Quantile(v, 0.1));
    b.hi = std::max(1.0, Quantile(v, 0.9));
    b.method = method;
    return b;
  };
  constexpr size_t kMinBandRows = 8;
  Uncertainty u;
  for (const auto& [path, v] : entry) {
    const auto c = chrono.find(path);
    if (c != chrono.end() && c->second.size() >= kMinBandRows) u.paths.push_back(band(path, c->second, "chronological"));
    else if (v.size() >= kMinBandRows) u.paths.push_back(band(path, v, "leave-one-entry-out"));
  }
  u.all = all_chrono.size() >= kMinBandRows ? band("all", all_chrono, "chronological")
                                            : band("all", all_entry, "leave-one-entry-out");
  // A path no row took: the error on each path when the fit leaves that
  // path's rows out; the prior spans the widest of them (the lowest p10 and
  // the highest p90 over the paths), since which path a new one resembles
  // is unknown.
  if (rep.cv_path_s.size() == rows.size()) {
    std::map<std::string, std::vector<double>> off_path;
    for (size_t i = 0; i < rows.size(); ++i)
      if (std::isfinite(rep.cv_path_s[i]) && rep.cv_path_s[i] > 0)
        off_path[BandPath(ConfigMap(rows[i].config))].push_back(rep.cv_path_s[i] / rows[i].time_s);
    ErrorBand wide = band("unvalidated", {1.0}, "leave-one-path-out");
    wide.n = 0;
    for (const auto& [path, v] : off_path) {
      if (v.size() < kMinBandRows) continue;
      const ErrorBand b = band("unvalidated", v, "leave-one-path-out");
      wide.lo = std::min(wide.lo, b.lo);
      wide.hi = std::max(wide.hi, b.hi);
      wide.n += b.n;
    }
    if (wide.n > 0) u.unvalidated = wide;
  }
  // Within-entry ratios: every A/B pair of one entry's rows.
  std::map<std::string, std::vector<size_t>> by_entry;
  for (size_t i = 0; i < rows.size(); ++i) by_entry[rows[i].entry].push_back(i);
  std::vector<double> pair_err;
  for (const auto& [e, idx] : by_entry)
    for (size_t a : idx)
      for (size_t b : idx)
        if (a < b && ConfigsDifferInOne(rows[a], rows[b]))
          pair_err.push_back(std::fabs(std::log((rep.cv_entry_s[a] / rep.cv_entry_s[b]) / (rows[a].time_s / rows[b].time_s))));
  u.within_entry = Quantile(pair_err, 0.8);
  u.within_entry_pairs = static_cast<int>(pair_err.size());
  u.prior = EstimatePrior(rows, rep.cv_entry_s, tau);
  return u;
}

namespace {
std::string Fmt(const char* fmt, double v) {
  char buf[160];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}
std::string PadRight(std::string s, size_t n) {
  if (s.size() < n) s.append(n - s.size(), ' ');
  return s;
}
std::string SummaryLine(const char* label, const ErrorSummary& s) {
  return std::string(label) + " n=" + std::to_string(s.n) + " mape=" + Fmt("%.2f%%", 100 * s.mape) +
         " median_abs=" + Fmt("%.2f%%", 100 * s.median_abs) + " p90_abs=" + Fmt("%.2f%%", 100 * s.p90_abs) +
         " max_abs=" + Fmt("%.2f%%", 100 * s.max_abs) + "\n";
}
}  // namespace

std::vector<PathError> ErrorsByPath(const std::vector<Measurement>& rows, const ValidationReport& rep) {
  std::map<std::pair<std::string, std::string>, std::pair<std::vector<double>, std::vector<double>>> by;
  std::map<std::pair<std::string, std::string>, std::vector<double>> chrono, cal;
  for (size_t i = 0; i < rows.size(); ++i) {
    const BenchConfig& c = rows[i].config;
    const std::vector<std::pair<std::string, std::string>> path = {
        {"backend", c.backend},
        {"impl", rows[i].point.impl},
        {"ep_comm_path", c.parallel_mode == "ep" ? c.ep_comm_path : "(no EP)"},
        {"ep_dispatch", c.parallel_mode == "ep" ? c.ep_dispatch : "(no EP)"},
        {"quant_mode", c.quant_mode},
        {"capacity_policy", c.capacity_policy},
        {"bench_pass", c.bench_pass},
        {"parallel_mode", c.parallel_mode},
        {"mlp_path", c.mlp_path.empty() ? "(hillclimb)" : c.mlp_path},
        {"xla_scoped_vmem_kib", c.xla_scoped_vmem_kib > 0 ? std::to_string(c.xla_scoped_vmem_kib) : "(default)"}};
    for (const auto& kv : path) {
      by[kv].first.push_back(rep.predicted_s[i] / rows[i].time_s - 1);
      by[kv].second.push_back(rep.cv_entry_s[i] / rows[i].time_s - 1);
      if (i < rep.cv_chrono_s.size() && std::isfinite(rep.cv_chrono_s[i]))
        chrono[kv].push_back(rep.cv_chrono_s[i] / rows[i].time_s - 1);
      if (i < rep.cal_chrono_s.size() && std::isfinite(rep.cal_chrono_s[i]))
        cal[kv].push_back(rep.cal_chrono_s[i] / rows[i].time_s - 1);
    }
  }
  std::vector<PathError> out;
  for (const auto& [kv, errs] : by) {
    PathError pe{kv.first, kv.second, static_cast<int>(errs.first.size()), Summarize(errs.first).median_abs,
                 Summarize(errs.second).median_abs};
    pe.n_chrono = static_cast<int>(chrono[kv].size());
    pe.median_chrono = Summarize(chrono[kv]).median_abs;
    pe.median_cal = Summarize(cal[kv]).median_abs;
    out.push_back(pe);
  }
  return out;
}

namespace {
std::vector<double> MeanRanks(const std::vector<double>& v) {
  std::vector<size_t> idx(v.size());
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  std::sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return v[a] < v[b]; });
  std::vector<double> r(v.size());
  for (size_t i = 0; i < idx.size();) {
    size_t j = i;
    while (j + 1 < idx.size() && v[idx[j + 1]] == v[idx[i]]) ++j;
    for (size_t k = i; k <= j; ++k) r[idx[k]] = (static_cast<double>(i) + static_cast<double>(j)) / 2.0;
    i = j + 1;
  }
  return r;
}
}  // namespace

double SpearmanRho(const std::vector<double>& a, const std::vector<double>& b) {
  const std::vector<double> ra = MeanRanks(a), rb = MeanRanks(b);
  const double n = static_cast<double>(a.size());
  double ma = 0, mb = 0;
  for (size_t i = 0; i < a.size(); ++i) ma += ra[i] / n, mb += rb[i] / n;
  double sab = 0, saa = 0, sbb = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    sab += (ra[i] - ma) * (rb[i] - mb);
    saa += (ra[i] - ma) * (ra[i] - ma);
    sbb += (rb[i] - mb) * (rb[i] - mb);
  }
  if (saa == 0 || sbb == 0) return saa == sbb ? 1.0 : 0.0;
  return sab / std::sqrt(saa * sbb);
}

double ReplicateSpread(const std::vector<Measurement>& rows) {
  std::map<std::string, std::vector<double>> times;  // config -> its measured times
  for (const Measurement& m : rows) times[CanonicalConfigJson(m.config) + "|" + m.point.queue_mode].push_back(m.time_s);
  std::vector<double> spreads;
  for (const auto& [key, t] : times)
    if (t.size() > 1) spreads.push_back(*std::max_element(t.begin(), t.end()) / *std::min_element(t.begin(), t.end()) - 1.0);
  if (spreads.empty()) return 0.0;
  std::sort(spreads.begin(), spreads.end());
  const size_t rank = static_cast<size_t>(std::ceil(0.9 * static_cast<double>(spreads.size())));
  return spreads[std::max<size_t>(rank, 1) - 1];  // nearest rank
}

std::vector<EntryRanking> RankByEntry(const std::vector<Measurement>& rows, const std::vector<double>& predicted_s,
                                      double tolerance) {
  std::map<std::string, std::vector<size_t>> by_entry;
  std::vector<std::string> order;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (!by_entry.count(rows[i].entry)) order.push_back(rows[i].entry);
    by_entry[rows[i].entry].push_back(i);
  }
  std::vector<EntryRanking> out;
  for (const auto& entry : order) {
    const auto& idx = by_entry[entry];
    if (idx.size() < 3) continue;
    // A throughput scales as 1/time for a fixed config: the model's figure
    // is the measured one times measured/predicted time.
    std::vector<double> measured, modeled;
    for (size_t i : idx) {
      const Measurement& m = rows[i];
      const bool time = m.metric == "time_s";
      measured.push_back(time ? 1.0 / m.time_s : m.value);
      modeled.push_back(time ? 1.0 / predicted_s[i] : m.value * m.time_s / predicted_s[i]);
    }
    EntryRanking r;
    r.entry = entry;
    r.n = static_cast<int>(idx.size());
    r.rho = SpearmanRho(measured, modeled);
    // The model's pick: its best figure; configurations it models equal to
    // it (remat combine and none, argsort and tuple_sort under compact EP)
    // are its pick too, the one measured highest standing for them.
    const size_t best = static_cast<size_t>(std::max_element(measured.begin(), measured.end()) - measured.begin());
    size_t pick = static_cast<size_t>(std::max_element(modeled.begin(), modeled.end()) - modeled.begin());
    const double top = modeled[pick];
    for (size_t i = 0; i < modeled.size(); ++i)
      if (modeled[i] >= top * (1.0 - 1e-9) && measured[i] > measured[pick]) pick = i;
    r.best_matches = best == pick;
    r.best_gap = 1.0 - measured[pick] / measured[best];
    r.best_tie = !r.best_matches && r.best_gap <= tolerance;
    out.push_back(r);
  }
  return out;
}

std::string FormatValidation(const std::vector<Measurement>& rows, const ValidationReport& rep) {
  std::string s = "id        metric        measured_s  predicted_s  err     cv_entry  cv_family  config\n";
  for (size_t i = 0; i < rows.size(); ++i) {
    const Measurement& m = rows[i];
    const BenchConfig& c = m.config;
    char buf[512];
    std::snprintf(buf, sizeof buf, "%-9s %-13s %10.6f  %11.6f  %+6.1f%%  %+6.1f%%   %+6.1f%%    ", m.id.c_str(),
                  m.metric.c_str(), m.time_s, rep.predicted_s[i], 100 * (rep.predicted_s[i] / m.time_s - 1),
                  100 * (rep.cv_entry_s[i] / m.time_s - 1), 100 * (rep.cv_family_s[i] / m.time_s - 1));
    s += buf;
    s += m.family + ",F=" + std::to_string(c.mlp_dim) + ",K=" + std::to_string(c.topk) +
         ",S=" + std::to_string(c.shared_expert_dim) + (c.shared_fused ? "f" : "") + " " + c.parallel_mode +
         (c.parallel_mode == "ep" ? "/" + c.ep_dispatch : "") + " " + c.bench_pass + " " + c.backend + " " +
         c.routing_pack_strategy + " remat=" + c.remat_mode + " " + m.point.queue_mode + " " + c.distribution + "\n";
  }
  s += SummaryLine("in_sample          ", rep.in_sample);
  s += SummaryLine("cv_leave_entry_out ", rep.cv_entry);
  s += SummaryLine("cv_leave_family_out", rep.cv_family);
  if (!rep.cv_chrono_s.empty()) {
    s += SummaryLine("cv_chronological   ", rep.cv_chrono);
    s += SummaryLine("cv_entry_calibrated", rep.cal_entry);
    s += SummaryLine("cv_chrono_calibrated", rep.cal_chrono);
    s += rep.logbooks > 1 ? SummaryLine("cv_leave_logbook_out", rep.cv_logbook)
                          : "cv_leave_logbook_out n/a: " + std::to_string(rep.logbooks) + " logbook has data\n";
    s += "(chronological: each entry predicted by the fit on the entries before it, from the first with " +
         std::to_string(kMinChronoTrainRows) +
         " rows before it; *_calibrated: each row's prediction divided by the factor the earlier entries of its harness revision or day teach, from their own predictions of the same kind)\n";
  }
  s += "\nby path (median |error|)       rows  in-sample  leave-entry-out  chrono_rows  chronological  chrono_calibrated\n";
  for (const auto& pe : ErrorsByPath(rows, rep))
    s += PadRight(pe.key + "=" + (pe.value.empty() ? "-" : pe.value), 31) +
         Fmt("%4.0f", pe.n) + Fmt("  %8.2f%%", 100 * pe.median_in) + Fmt("  %14.2f%%", 100 * pe.median_cv) +
         Fmt("  %11.0f", pe.n_chrono) + Fmt("  %12.2f%%", 100 * pe.median_chrono) +
         Fmt("  %16.2f%%", 100 * pe.median_cal) + "\n";
  const double spread = ReplicateSpread(rows);
  const std::vector<EntryRanking> ranks = RankByEntry(rows, rep.cv_entry_s, spread);
  s += "\nby entry (3+ rows; leave-entry-out)   rows  rank_rho  best_config\n";
  std::vector<double> rhos;
  int best = 0, ties = 0;
  for (const auto& r : ranks) {
    s += PadRight(r.entry.substr(0, 36), 37) + Fmt("%4.0f", r.n) + Fmt("  %8.3f", r.rho) +
         (r.best_matches ? "  same\n"
          : r.best_tie   ? Fmt("  tie (model's pick measured %.2f%% below the best)\n", 100 * r.best_gap)
                         : Fmt("  differs (model's pick measured %.2f%% below the best)\n", 100 * r.best_gap));
    rhos.push_back(r.rho);
    best += r.best_matches;
    ties += r.best_tie;
  }
  if (!ranks.empty()) {
    std::sort(rhos.begin(), rhos.end());
    const double median = rhos.size() % 2 ? rhos[rhos.size() / 2] : (rhos[rhos.size() / 2 - 1] + rhos[rhos.size() / 2]) / 2;
    s += "entries=" + std::to_string(ranks.size()) + " rank_rho_median=" + Fmt("%.3f", median) +
         " best_config_same=" + std::to_string(best) + "/" + std::to_string(ranks.size()) +
         " same_or_tie=" + std::to_string(best + ties) + "/" + std::to_string(ranks.size()) +
         Fmt(" (tie: within the replicate spread %.2f%%)", 100 * spread) + "\n";
  }
  return s;
}

std::string FitInfoJson(const std::string& csv_path, const FitResult& fit, const ErrorSummary& in_sample) {
  nlohmann::ordered_json j;
  j["csv"] = csv_path;
  j["rows"] = fit.rows;
  j["iterations"] = fit.iterations;
  j["method"] = "Levenberg-Marquardt on log(predicted/measured) time, ridge toward the priors in log space, box bounds";
  j["rms_log_error"] = fit.rms_log_error;
  j["in_sample_mape"] = in_sample.mape;
  j["in_sample_median_abs_error"] = in_sample.median_abs;
  j["in_sample_p90_abs_error"] = in_sample.p90_abs;
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace moelog::engine::v5p
