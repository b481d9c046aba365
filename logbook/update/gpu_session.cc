#include "logbook/update/gpu_session.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/gpu/bench_flags.h"
#include "engine/gpu/hardware.h"
#include "engine/gpu/model.h"
#include "engine/gpu/params.h"
#include "engine/target.h"
#include "engine/v5p/hardware.h"
#include "logbook/exit_codes.h"
#include "logbook/render/chart.h"
#include "logbook/update/entry_plans.h"
#include "logbook/update/steps.h"

namespace moelog::logbook {
namespace {

namespace gpu = engine::gpu;

struct GpuModel {
  gpu::Hardware hw;
  gpu::Params params;
};

// A file's name without its folder: regions name the files, not where this
// machine keeps them.
std::string BaseName(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string Num(double v, const char* fmt) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

// The recorded figure of run `label`: the bandwidth the library reports for
// the case's path (RDMA across nodes, NVLink within one), else its time.
// Returns the metric's name ("" when the output states none).
std::string RecordedFigure(const std::map<std::string, std::map<std::string, double>>& recorded,
                           const std::string& label, const gpu::Case& c, double* value) {
  auto it = recorded.find(label);
  if (it == recorded.end()) return "";
  const char* order[] = {"bandwidth_gbs", c.nodes > 1 ? "rdma_bandwidth_gbs" : "nvl_bandwidth_gbs", "time_us"};
  for (const char* m : order)
    if (auto v = it->second.find(m); v != it->second.end()) {
      *value = v->second;
      return m;
    }
  return "";
}

// The harness output the entry records (its fenced blocks that are no
// shell), read by the adapter's output rules, by run label.
std::map<std::string, std::map<std::string, double>> RecordedOutput(const Entry& e, const Adapter* a) {
  if (a == nullptr) return {};
  std::string text;
  for (const FencedBlock& b : e.outputs) text += b.text + "\n";
  return ParseAdapterOutput(*a, text);
}

const Adapter* HarnessNamed(const LauncherTable& table, const std::string& name) {
  for (const Adapter& a : table.harnesses)
    if (a.name == name) return &a;
  return nullptr;
}

// A chart point of one invocation: the model's figure or the recorded one,
// as bandwidth (GB/s as the library counts it).
ChartPoint GpuPoint(const std::string& source, const std::string& id, const std::string& run, const gpu::Case& c,
                    double gbs) {
  ChartPoint p;
  p.source = source;
  p.id = id;
  p.config = {{"run", run}, {"kernel", c.kernel}};
  p.metrics["bandwidth_gbs"] = gbs;
  return p;
}

// The entry's chart: the model's bandwidth per run (dashed: a prediction)
// beside the recorded figures, captioned with the hardware file, the
// parameter file and the model version. "" when nothing varies.
std::string ChartOf(const std::string& path, const Entry& e, const std::vector<ChartPoint>& points,
                    const GpuModel& m, bool write) {
  ChartOptions o;
  o.primary_metric = "bandwidth_gbs";
  o.y_metrics = {"bandwidth_gbs"};
  o.title = e.label;
  o.id = e.id;
  o.prediction = true;
  o.model_label = "model (" + m.hw.name + ", " + gpu::kModelVersion + ")";
  o.modeled_note = "Model figures: hardware file " + BaseName(m.hw.path) + ", parameters " +
                   BaseName(m.params.source) + ", model " + gpu::kModelVersion +
                   "; not calibrated to the logbook figures beside them";
  ChartDraw how;
  how.write = write;
  auto chart = DrawEntryChart(path, e.id, points, o, "", how);
  return chart.ok() ? chart->markdown + "\n" : "";
}

// One table row of a modeled invocation.
std::string Row(const BenchInvocation& inv, const GpuModel& m, const Entry& e, const LauncherTable& table,
                std::vector<ChartPoint>* points) {
  auto b = gpu::ParseGpuBenchArgs(inv.args, m.hw.scaleup_domain);
  if (!b.ok()) return "| " + NoteText(inv.label) + " | " + NoteText(b.status().message()) + " |||||||\n";
  const gpu::Case& c = b->c;
  auto pr = gpu::Predict(m.hw, m.params, c, gpu::CountRoutes(c));
  std::string row = "| " + NoteText(inv.label.empty() ? c.kernel : inv.label) + " | " + c.kernel + " | " +
                    std::to_string(c.ep) + " (" + std::to_string(c.nodes) + "x" + std::to_string(c.gpus_per_node) +
                    ") | " + std::to_string(c.tokens) + " | ";
  if (!pr.ok()) return row + "unsupported: " + NoteText(pr.status().message()) + " |||||\n";
  std::string dominant, bound;
  double longest = -1;
  for (const gpu::Stage& s : pr->stages)
    if (s.time_s > longest) longest = s.time_s, dominant = s.name, bound = s.bound;
  const double bw = pr->time_s > 0 ? pr->bytes / pr->time_s / 1e9 : 0;
  row += Num(pr->time_s * 1e6, "%.1f") + " | " + (pr->bytes > 0 ? Num(bw, "%.1f") : "-") + " | " + dominant +
         " (" + bound + ") | ";
  double rec = 0;
  const std::string metric = RecordedFigure(RecordedOutput(e, HarnessNamed(table, inv.harness)),
                                            inv.label, c, &rec);
  const std::string run = inv.label.empty() ? c.kernel : inv.label;
  if (pr->bytes > 0) points->push_back(GpuPoint("modeled", e.id + "#model-" + run, run, c, bw));
  if (metric.empty() || !(rec > 0)) return row + "- | - |\n";
  const bool time = metric == "time_us";
  if (pr->bytes > 0)  // the recorded figure as bandwidth: a time is the model's bytes over it, as validation counts
    points->push_back(GpuPoint("recorded", e.id + "#" + run, run, c, time ? pr->bytes / (rec * 1e-6) / 1e9 : rec));
  const double pct = time ? 100 * pr->time_s * 1e6 / rec : 100 * rec / bw;
  return row + Num(rec, "%.1f") + (time ? " us" : " GB/s") + " | " + Num(pct, "%.0f") + "% |\n";
}

// The region of one entry: the model's provenance, a table of its
// invocations, and a note per command that does not plan.
std::string RenderEntry(const std::string& path, const Entry& e, const std::vector<Plan>& plans, const GpuModel& m,
                        const LauncherTable& table, const std::string& pin, bool write) {
  std::string rows, notes;
  std::vector<ChartPoint> points;
  for (const Plan& p : plans) {
    if (p.verdict != PlanVerdict::kRunnable && p.verdict != PlanVerdict::kNeedsConsent) {
      if (p.verdict != PlanVerdict::kNotApplicable) notes += "- not modeled: " + NoteText(p.Summary()) + "\n";
      continue;
    }
    for (const BenchInvocation& inv : p.invocations) rows += Row(inv, m, e, table, &points);
  }
  if (rows.empty()) return "";  // nothing modeled: the region (another target's, or none) stays as it is
  std::string out = "Modeled on `" + m.hw.name + "` (hardware file " + NoteText(BaseName(m.hw.path)) +
                    ", parameters " + NoteText(BaseName(m.params.source)) + ", model " + gpu::kModelVersion +
                    (pin.empty() ? std::string() : "; the target this logbook pins: " + NoteText(pin)) +
                    "); not calibrated to this logbook's record: the % is the recorded figure over the model's "
                    "(bandwidth), or the model's time over the recorded time.\n\n";
  if (!rows.empty())
    out += "| run | kernel | EP (nodes x GPUs) | tokens/rank | modeled us | modeled GB/s | dominant stage (bound) | "
           "recorded | % of model |\n|---|---|---|---:|---:|---:|---|---:|---:|\n" + rows;
  if (!notes.empty()) out += (rows.empty() ? "" : "\n") + notes;
  if (std::string chart = ChartOf(path, e, points, m, write); !chart.empty()) out += "\n" + chart;
  return out;
}

Stop LoadModel(const SessionOptions& opt, GpuModel* m, std::ostream& err) {
  auto hw = gpu::LoadHardwareByName(opt.target);
  auto params = gpu::LoadParamsByName("");
  if (!hw.ok() || !params.ok()) {
    err << "moelog: error: " << (!hw.ok() ? hw.status().message() : params.status().message()) << "\n";
    return kExitUsage;
  }
  m->hw = std::move(*hw);
  m->params = std::move(*params);
  return std::nullopt;
}

bool Selected(const Unit& u, const SessionOptions& opt) {
  return opt.entries.empty() || std::find(opt.entries.begin(), opt.entries.end(), u.id) != opt.entries.end();
}

}  // namespace

bool IsGpuTarget(const std::string& target) {
  if (target.empty() || engine::FindTarget(target) != nullptr) return false;
  auto path = engine::v5p::ResolveDataFile(target, "hardware");
  if (!path.ok()) return false;
  auto cls = gpu::HardwareClass(*path);
  return cls.ok() && *cls == "gpu";
}

std::vector<GpuEntryCase> GpuCasesOf(const std::string& path, int64_t scaleup_domain, std::ostream& err,
                                     int* exit_code) {
  *exit_code = kExitOk;
  LoadedDocument doc;
  LauncherTable table;
  PlanOptions popt;
  SessionOptions opt;
  Stop stop = LoadDocument(path, DocumentKind::kLogbook, &doc, err);
  if (!stop) stop = MakePlanOptions(opt, &table, &popt, err);
  if (stop) {
    *exit_code = *stop;
    return {};
  }
  popt.gpu = true;
  std::vector<GpuEntryCase> out;
  for (const Unit& u : doc.units) {
    if (u.entry < 0 || u.commands.empty()) continue;
    PlanOptions o = popt;
    o.context = ContextOf(doc.logbook.entries[static_cast<size_t>(u.entry)]);
    for (const CommandText& c : u.commands) {
      const Plan p = PlanCommand(c.joined, o);
      if (p.verdict != PlanVerdict::kRunnable && p.verdict != PlanVerdict::kNeedsConsent) continue;
      for (const BenchInvocation& inv : p.invocations)
        if (auto b = gpu::ParseGpuBenchArgs(inv.args, scaleup_domain); b.ok())
          out.push_back({u.id, inv.label, b->c});
    }
  }
  return out;
}

SessionSummary RunGpuSession(const std::string& path, const SessionOptions& opt, std::ostream& out,
                             std::ostream& err) {
  SessionSummary sum;
  auto end = [&sum](int code) {
    sum.exit_code = code;
    return sum;
  };
  const bool writes = opt.write && !opt.check && !opt.dry_run;
  FileLock lock;
  LoadedDocument doc;
  LauncherTable table;
  PlanOptions popt;
  GpuModel model;
  Stop stop = LoadModel(opt, &model, err);
  if (!stop && writes)
    if (Status st = lock.Acquire(path); !st.ok()) err << path << ": " << st.ToString() << "\n", stop = st.ExitCode();
  if (!stop) stop = LoadDocument(path, DocumentKind::kLogbook, &doc, err);
  if (!stop) stop = CheckUnitIds(doc, opt.entries, err);
  if (!stop) stop = MakePlanOptions(opt, &table, &popt, err);
  if (stop) return end(*stop);
  popt.gpu = true;
  const LauncherTable& t = popt.launchers ? *popt.launchers : DefaultLauncherTable();
  std::vector<RegionEdit> edits;
  for (const Unit& u : doc.units) {
    if (!Selected(u, opt) || u.entry < 0 || u.commands.empty()) continue;
    const Entry& e = doc.logbook.entries[static_cast<size_t>(u.entry)];
    PlanOptions o = popt;
    o.context = ContextOf(e);
    std::vector<Plan> plans;
    for (const CommandText& c : u.commands) plans.push_back(PlanCommand(c.joined, o));
    ++sum.units;
    for (const Plan& p : plans) sum.invocations += static_cast<int>(p.invocations.size());
    if (opt.dry_run) {
      out << u.id << ":\n";
      for (const Plan& p : plans) out << "  " << p.Summary() << "\n";
      continue;
    }
    std::string content = RenderEntry(path, e, plans, model, t, opt.target_pin, writes);
    if (content.empty()) {  // nothing to model (N/A, a CPU harness): its region is left alone
      for (const Plan& p : plans)
        if (p.verdict != PlanVerdict::kNotApplicable)
          out << u.id << ": not modeled on " << opt.target << ": " << p.Summary() << "\n";
      continue;
    }
    if (std::any_of(plans.begin(), plans.end(), [](const Plan& p) { return !p.invocations.empty(); })) ++sum.runnable;
    edits.push_back(EditOf(u, std::move(content)));
  }
  if (opt.dry_run) return end(kExitOk);
  const SpliceResult res = SpliceEdits(doc, edits, opt, &sum, err);
  if (opt.check) return end(ReportCheck(doc, res, &sum, out));
  if (writes && sum.changed)
    if (Stop s = WriteDocument(doc, res, err)) return end(*s);
  return end(ReportUpdate(doc, res, writes, &sum, out));
}

}  // namespace moelog::logbook
