#include "logbook/research/next_gpu.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "logbook/update/gpu_session.h"

namespace moelog::logbook {
namespace {

namespace gpu = engine::gpu;

void AddOnce(std::vector<std::string>* v, const std::string& x) {
  if (std::find(v->begin(), v->end(), x) == v->end()) v->push_back(x);
}
void AddOnce(std::vector<int64_t>* v, int64_t x) {
  if (std::find(v->begin(), v->end(), x) == v->end()) v->push_back(x);
}

bool IsDispatchOrCombine(const std::string& kernel) { return kernel.rfind("ep_", 0) == 0; }

// The kernel of `base` (ep_dispatch or ep_combine, normal or low-latency).
std::string KernelVariant(const std::string& base, bool low_latency) {
  std::string k = base.size() > 3 && base.compare(base.size() - 3, 3, "_ll") == 0 ? base.substr(0, base.size() - 3)
                                                                                  : base;
  return low_latency ? k + "_ll" : k;
}

GpuCandidate Candidate(const gpu::Case& c, const gpu::Prediction& pr) {
  GpuCandidate out{c, pr.time_s, pr.bytes, "", ""};
  double longest = -1;
  for (const gpu::Stage& s : pr.stages)
    if (s.time_s > longest) longest = s.time_s, out.dominant = s.name, out.bound = s.bound;
  return out;
}

std::string Us(double s) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f", s * 1e6);
  return b;
}

std::string Describe(const gpu::Case& c) {
  const bool combine = c.kernel.find("combine") != std::string::npos;
  std::string d = std::to_string(c.ep) + " (" + std::to_string(c.nodes) + "x" + std::to_string(c.gpus_per_node) +
                  ") | " + c.kernel + " | " + c.library + " | " + (combine ? c.combine_dtype : c.dtype) + " | " +
                  (c.sms > 0 ? std::to_string(c.sms) : std::string("default"));
  return d;
}

}  // namespace

GpuAxes DefaultGpuAxes(const gpu::Hardware& hw, const gpu::Case& anchor) {
  GpuAxes a;
  for (int64_t ep = 8; ep <= 256; ep *= 2) AddOnce(&a.ep, ep);
  AddOnce(&a.ep, anchor.ep);
  for (int64_t g = 1; g <= hw.scaleup_domain; g *= 2) AddOnce(&a.gpus_per_node, g);
  AddOnce(&a.gpus_per_node, hw.scaleup_domain);
  AddOnce(&a.gpus_per_node, anchor.gpus_per_node);
  for (const char* lib : {"deepep", "hybrid_ep", "nccl"}) AddOnce(&a.libraries, lib);
  AddOnce(&a.libraries, anchor.library);
  if (IsDispatchOrCombine(anchor.kernel)) a.low_latency = {false, true};
  if (anchor.kernel.find("combine") != std::string::npos) a.dtypes = {"bf16"};  // combines reduce in bf16
  else a.dtypes = {"fp8", "bf16"};
  AddOnce(&a.dtypes, anchor.kernel.find("combine") != std::string::npos ? anchor.combine_dtype : anchor.dtype);
  a.sms = {0};
  if (anchor.sms > 0) AddOnce(&a.sms, anchor.sms);
  return a;
}

std::vector<GpuCandidate> SearchGpuConfigs(const gpu::Hardware& hw, const gpu::Params& params, const gpu::Case& anchor,
                                           const GpuAxes& axes, int* tried) {
  std::vector<GpuCandidate> out;
  gpu::RouteCounter routes;
  int n = 0;
  const bool combine = anchor.kernel.find("combine") != std::string::npos;
  for (int64_t ep : axes.ep)
    for (int64_t gpn : axes.gpus_per_node) {
      if (ep <= 0 || gpn <= 0 || ep % gpn != 0 || anchor.experts % ep != 0 || gpn > hw.scaleup_domain) continue;
      for (const std::string& lib : axes.libraries)
        for (bool ll : axes.low_latency)
          for (const std::string& dt : axes.dtypes)
            for (int64_t sms : axes.sms) {
              gpu::Case c = anchor;
              c.ep = ep, c.gpus_per_node = gpn, c.nodes = ep / gpn, c.library = lib, c.sms = sms;
              c.topk_groups = -1;
              if (IsDispatchOrCombine(anchor.kernel)) c.kernel = KernelVariant(anchor.kernel, ll);
              else if (ll) continue;
              (combine ? c.combine_dtype : c.dtype) = dt;
              if (!gpu::CheckCase(hw, c).ok()) continue;
              auto pr = gpu::Predict(hw, params, c, routes.For(c));
              ++n;
              if (pr.ok() && pr->time_s > 0) out.push_back(Candidate(c, *pr));
            }
    }
  std::stable_sort(out.begin(), out.end(),
                   [](const GpuCandidate& a, const GpuCandidate& b) { return a.time_s < b.time_s; });
  if (tried != nullptr) *tried = n;
  return out;
}

Result<GpuNextReport> ProposeGpuNext(const std::string& path, const std::string& target, const std::string& pin,
                                     const std::string& entry, std::ostream& err) {
  auto hw = gpu::LoadHardwareByName(target);
  if (!hw.ok()) return hw.status();
  auto params = gpu::LoadParamsByName("");
  if (!params.ok()) return params.status();
  int code = 0;
  const std::vector<GpuEntryCase> cases = GpuCasesOf(path, hw->scaleup_domain, err, &code);
  if (code != 0) return Status::InvalidArgument(path + ": the logbook does not load");
  const GpuEntryCase* anchor = nullptr;
  for (const GpuEntryCase& g : cases)
    if (entry.empty() || g.entry == entry) anchor = &g;
  if (anchor == nullptr)
    return Status::NotFound(path + ": no GPU harness invocation" + (entry.empty() ? "" : " in entry " + entry) +
                            " to search around (DeepEP-style test scripts, data/adapters)");
  GpuNextReport rep;
  rep.target = hw->name, rep.pin = pin, rep.hardware_file = hw->path, rep.params_file = params->source;
  rep.anchor_entry = anchor->entry, rep.anchor_label = anchor->label, rep.anchor = anchor->c;
  if (auto pr = gpu::Predict(*hw, *params, anchor->c, gpu::CountRoutes(anchor->c)); pr.ok()) rep.anchor_time_s = pr->time_s;
  const auto t0 = std::chrono::steady_clock::now();
  rep.ranked = SearchGpuConfigs(*hw, *params, anchor->c, DefaultGpuAxes(*hw, anchor->c), &rep.searched);
  rep.search_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return rep;
}

std::string FormatGpuNextReport(const GpuNextReport& r, int count) {
  auto base = [](const std::string& p) { return p.substr(p.find_last_of('/') + 1); };
  std::string out = "GPU target " + r.target + (r.pin.empty() ? std::string(" (--target)") : " (pinned by the logbook, " + r.pin + ")") +
                    ": hardware file " + base(r.hardware_file) + ", parameters " + base(r.params_file) + ", model " +
                    engine::gpu::kModelVersion + "\n";
  out += "around " + r.anchor_entry + (r.anchor_label.empty() ? "" : " (" + r.anchor_label + ")") + ": " +
         Describe(r.anchor) + ", " + std::to_string(r.anchor.tokens) + " tokens/rank, modeled " + Us(r.anchor_time_s) +
         " us\n";
  char buf[160];
  std::snprintf(buf, sizeof buf, "%d configurations predicted in %.1f ms; ranked by modeled time at %lld tokens per rank "
                "(per-GPU throughput)\n", r.searched, r.search_s * 1e3, static_cast<long long>(r.anchor.tokens));
  out += buf;
  out += "\n| # | EP (nodes x GPUs) | kernel | library | dtype | SMs | modeled us | GB/s | dominant (bound) | vs the entry |\n"
         "|---:|---|---|---|---|---|---:|---:|---|---:|\n";
  for (int i = 0; i < count && i < static_cast<int>(r.ranked.size()); ++i) {
    const GpuCandidate& g = r.ranked[static_cast<size_t>(i)];
    std::snprintf(buf, sizeof buf, " | %s | %.1f | %s (%s) | %+.0f%% |\n", Us(g.time_s).c_str(),
                  g.time_s > 0 ? g.bytes / g.time_s / 1e9 : 0.0, g.dominant.c_str(), g.bound.c_str(),
                  r.anchor_time_s > 0 ? 100 * (g.time_s / r.anchor_time_s - 1) : 0.0);
    out += "| " + std::to_string(i + 1) + " | " + Describe(g.c) + buf;
  }
  if (r.ranked.empty()) out += "(no configuration the model covers)\n";
  return out;
}

}  // namespace moelog::logbook
