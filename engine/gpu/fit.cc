#include "engine/gpu/fit.h"

#include "engine/format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace moelog::engine::gpu {
namespace {

bool ToInt(const std::string& s, int64_t* v) {
  if (s.empty()) return *v = 0, true;
  char* end = nullptr;
  const long long x = std::strtoll(s.c_str(), &end, 10);
  *v = x;
  return end != nullptr && *end == '\0';
}

Status FillRow(const std::map<std::string, std::string>& f, FitRow* r) {
  auto get = [&](const char* k) { auto it = f.find(k); return it == f.end() ? std::string() : it->second; };
  r->source = get("source");
  r->version = get("version");
  r->table = get("table");
  r->hardware = get("hardware");
  r->metric = get("metric");
  r->c.kernel = get("kernel");
  r->c.library = get("library");
  r->c.dtype = get("dtype");
  r->c.combine_dtype = get("combine_dtype").empty() ? "bf16" : get("combine_dtype");
  r->c.layout = get("layout");
  r->c.interconnect = get("interconnect");
  struct IntField { const char* key; int64_t* out; };
  const IntField ints[] = {{"tokens", &r->c.tokens}, {"hidden", &r->c.hidden}, {"experts", &r->c.experts},
                           {"topk", &r->c.topk}, {"topk_groups", &r->c.topk_groups}, {"ep", &r->c.ep},
                           {"nodes", &r->c.nodes}, {"gpus_per_node", &r->c.gpus_per_node}, {"sms", &r->c.sms},
                           {"groups", &r->c.groups}, {"m_per_group", &r->c.m_per_group}, {"n", &r->c.n},
                           {"k", &r->c.k}};
  for (const IntField& it : ints)
    if (!ToInt(get(it.key), it.out)) return Status::InvalidArgument(std::string("column ") + it.key + " is no integer");
  char* end = nullptr;
  const std::string v = get("value");
  r->value = std::strtod(v.c_str(), &end);
  if (v.empty() || *end != '\0' || !(r->value > 0)) return Status::InvalidArgument("value must be a number > 0");
  if (r->metric != "bandwidth_gbs" && r->metric != "time_us" && r->metric != "tflops")
    return Status::InvalidArgument("metric must be bandwidth_gbs, time_us or tflops");
  if (r->source.empty() || r->hardware.empty()) return Status::InvalidArgument("source and hardware are required");
  return Status::Ok();
}

double Quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double pos = q * static_cast<double>(v.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(pos));
  const size_t hi = std::min(v.size() - 1, lo + 1);
  return v[lo] + (pos - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

}  // namespace

std::string Family(const std::string& kernel) {
  if (kernel == "ep_dispatch" || kernel == "ep_combine") return "ep_normal";
  if (kernel == "ep_dispatch_ll" || kernel == "ep_combine_ll") return "ep_low_latency";
  return kernel;
}

Result<Role> CsvRole(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::NotFound("cannot open " + path);
  std::string line;
  while (std::getline(in, line) && (line.empty() || line[0] == '#')) {
    if (line == "# role: fit") return Role::kFit;
    if (line == "# role: held-out") return Role::kHeldOut;
  }
  return Status::InvalidArgument(path + ": no \"# role: fit\" or \"# role: held-out\" line before the header "
                                 "(a measurements file says whether the model may be fitted on it)");
}

Result<FitSet> FitSet::Load(const std::string& path) {
  auto role = CsvRole(path);
  if (!role.ok()) return role.status();
  if (*role != Role::kFit)
    return Status::InvalidArgument(path + ": a held-out set (\"# role: held-out\"): the model is never fitted on it");
  auto rows = LoadRows(path);
  if (!rows.ok()) return rows.status();
  FitSet set;
  set.rows_ = std::move(*rows);
  return set;
}

FitSet FitSet::Without(const std::string& source_version) const {
  FitSet out;
  for (const FitRow& r : rows_)
    if (SourceVersion(r) != source_version) out.rows_.push_back(r);
  return out;
}

Result<std::vector<FitRow>> LoadRows(const std::string& path) {
  if (auto role = CsvRole(path); !role.ok()) return role.status();
  std::ifstream in(path);
  if (!in) return Status::NotFound("cannot open " + path);
  std::vector<std::string> header;
  std::vector<FitRow> rows;
  std::string line;
  for (int no = 1; std::getline(in, line); ++no) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cells = SplitCsvRecord(line);
    if (header.empty()) {
      header = cells;
      continue;
    }
    if (cells.size() != header.size())
      return Status::InvalidArgument(path + ":" + std::to_string(no) + ": " + std::to_string(cells.size()) +
                                     " cells, the header has " + std::to_string(header.size()));
    std::map<std::string, std::string> f;
    for (size_t i = 0; i < cells.size(); ++i) f[header[i]] = cells[i];
    FitRow r;
    r.line = no;
    if (Status st = FillRow(f, &r); !st.ok())
      return Status::InvalidArgument(path + ":" + std::to_string(no) + ": " + st.message());
    rows.push_back(std::move(r));
  }
  if (rows.empty()) return Status::InvalidArgument(path + ": no rows");
  return rows;
}

Result<std::map<std::string, Hardware>> PrepareRows(std::vector<FitRow>* rows) {
  std::map<std::string, Hardware> hws;
  std::map<std::string, RouteCounts> routed;
  for (FitRow& r : *rows) {
    if (!hws.count(r.hardware)) {
      auto hw = LoadHardwareByName(r.hardware);
      if (!hw.ok()) return Status::InvalidArgument("row at line " + std::to_string(r.line) + ": " + hw.status().message());
      hws[r.hardware] = *hw;
    }
    if (Family(r.c.kernel) != "ep_normal" && Family(r.c.kernel) != "ep_low_latency" && r.c.kernel != "moe_layer")
      continue;
    char key[256];
    std::snprintf(key, sizeof key, "%lld/%lld/%lld/%lld/%lld/%lld/%lld/%s", static_cast<long long>(r.c.tokens),
                  static_cast<long long>(r.c.experts), static_cast<long long>(r.c.topk),
                  static_cast<long long>(r.c.topk_groups), static_cast<long long>(r.c.ep),
                  static_cast<long long>(r.c.nodes), static_cast<long long>(r.c.gpus_per_node), r.c.library.c_str());
    if (!routed.count(key)) routed[key] = CountRoutes(r.c);
    r.counts = routed[key];
  }
  return hws;
}

Result<double> RowError(const Hardware& hw, const Params& p, const FitRow& row) {
  auto pr = Predict(hw, p, row.c, row.counts);
  if (!pr.ok()) return pr.status();
  if (!(pr->time_s > 0)) return Status::NotSupported("no time predicted");
  double measured = 0;
  if (row.metric == "time_us") measured = row.value * 1e-6;
  if (row.metric == "bandwidth_gbs") measured = pr->bytes / (row.value * 1e9);
  if (row.metric == "tflops") measured = pr->flops / (row.value * 1e12);
  if (!(measured > 0)) return Status::NotSupported("the measurement's metric does not apply to this kernel");
  return pr->time_s / measured - 1;
}

double NaiveRowError(const Hardware& hw, const FitRow& row) {
  const Params ideal = [] {
    Params q = Params::Priors();
    for (int i = 0; i < kNumParams; ++i) q[i] = Info(i).max;  // every efficiency at its best
    q[kKEpilogue] = q[kNotifyS] = q[kLlFixedS] = q[kLlLogS] = 0;
    q[kSmMemFrac] = Info(kSmMemFrac).min;
    q[kSmCopyBw] = 1e15;
    q[kSmTokenS] = 0;
    q[kProxyMsgS] = 0;
    return q;
  }();
  auto pr = Predict(hw, ideal, row.c, row.counts);
  if (!pr.ok() || !(pr->time_s > 0)) return 0;
  // Peak rates alone: the binding link or unit at its spec, no latency.
  double t = 0;
  for (const Stage& s : pr->stages) t += s.time_s - hw.launch_latency_s;
  double measured = row.metric == "time_us" ? row.value * 1e-6
                    : row.metric == "bandwidth_gbs" ? pr->bytes / (row.value * 1e9)
                                                    : pr->flops / (row.value * 1e12);
  return t / measured - 1;
}

Summary Summarize(std::vector<double> errors, int unsupported) {
  Summary s;
  s.n = static_cast<int>(errors.size());
  s.unsupported = unsupported;
  for (double& e : errors) e = std::fabs(e);
  s.median_abs = Quantile(errors, 0.5);
  s.p90_abs = Quantile(errors, 0.9);
  double sum = 0;
  for (double e : errors) sum += e;
  s.mean_abs = errors.empty() ? 0 : sum / static_cast<double>(errors.size());
  return s;
}

}  // namespace moelog::engine::gpu
