// The GPU model's fit (a coordinate search) and its validation report.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "engine/gpu/fit.h"

namespace moelog::engine::gpu {
namespace {

double Objective(const std::map<std::string, Hardware>& hws, const FitSet& set, const Params& p) {
  double sum = 0;
  for (const FitRow& r : set.rows()) {
    auto e = RowError(hws.at(r.hardware), p, r);
    if (e.ok()) sum += std::fabs(std::log1p(*e));
  }
  return sum;
}

std::string Fmt(const char* fmt, double a, double b = 0, double c = 0, double d = 0) {
  char buf[160];
  std::snprintf(buf, sizeof buf, fmt, a, b, c, d);
  return buf;
}

std::string SummaryLine(const std::string& label, const Summary& s) {
  char buf[240];
  std::snprintf(buf, sizeof buf, "  %-44s n=%-3d median_abs=%6.2f%% p90_abs=%6.2f%% mean_abs=%6.2f%%%s\n",
                label.c_str(), s.n, 100 * s.median_abs, 100 * s.p90_abs, 100 * s.mean_abs,
                s.unsupported ? (" unsupported=" + std::to_string(s.unsupported)).c_str() : "");
  return buf;
}

}  // namespace

std::string SourceVersion(const FitRow& r) { return r.source + "@" + r.version; }

FitOutcome Fit(const std::map<std::string, Hardware>& hws, const FitSet& set, const Params& start) {
  FitOutcome out{start, Objective(hws, set, start), 0};
  for (double step = 0.4; step > 0.002; step *= 0.5) {
    for (int sweep = 0; sweep < 6; ++sweep) {
      bool moved = false;
      ++out.sweeps;
      for (int i = 0; i < kNumParams; ++i) {
        if (!Info(i).fitted) continue;
        for (double dir : {1.0, -1.0}) {
          Params q = out.params;
          const double scale = std::max(std::fabs(q[i]), 1e-3 * (Info(i).max - Info(i).min));
          q[i] = std::clamp(q[i] + dir * step * scale, Info(i).min, Info(i).max);
          const double obj = Objective(hws, set, q);
          if (obj < out.objective - 1e-12) {
            out.params = q, out.objective = obj, moved = true;
            break;
          }
        }
      }
      if (!moved) break;
    }
  }
  return out;
}

std::map<std::string, Summary> FamilySummaries(const std::map<std::string, Hardware>& hws,
                                               const std::vector<FitRow>& rows, const Params& p) {
  std::map<std::string, std::vector<double>> errs;
  std::map<std::string, int> unsupported;
  for (const FitRow& r : rows) {
    auto e = RowError(hws.at(r.hardware), p, r);
    if (e.ok()) errs[Family(r.c.kernel)].push_back(*e);
    else ++unsupported[Family(r.c.kernel)];
  }
  std::map<std::string, Summary> out;
  for (auto& [fam, v] : errs) out[fam] = Summarize(v, unsupported[fam]);
  for (auto& [fam, n] : unsupported) if (!out.count(fam)) out[fam] = Summarize({}, n);
  return out;
}

namespace {

// Errors of the rows, grouped by what the report summarizes them by.
struct Tally {
  std::map<std::string, std::vector<double>> by_src, by_fam, by_hw, naive_fam;
  std::map<std::string, int> unsup_src, unsup_fam, unsup_hw;
  std::vector<double> all, naive_all;
  int unsupported = 0;
};

// One row's line of the report, its errors added to `t`.
std::string RowLine(const std::map<std::string, Hardware>& hws, const FitRow& r, size_t i, const Params& p,
                    Tally* t) {
  const Hardware& hw = hws.at(r.hardware);
  auto e = RowError(hw, p, r);
  char buf[320];
  if (!e.ok()) {
    ++t->unsupported, ++t->unsup_src[SourceVersion(r)], ++t->unsup_fam[Family(r.c.kernel)], ++t->unsup_hw[r.hardware];
    std::snprintf(buf, sizeof buf, "%-4zu %-5d %-8s %-15s %-38s unsupported: %s\n", i + 1, r.line, r.hardware.c_str(),
                  r.c.kernel.c_str(), SourceVersion(r).substr(0, 38).c_str(), e.status().message().c_str());
    return buf;
  }
  const double naive = NaiveRowError(hw, r);
  auto pr = Predict(hw, p, r.c, r.counts);
  std::snprintf(buf, sizeof buf, "%-4zu %-5d %-8s %-15s %-38s %8.1f %-6s %+6.1f%% %+6.1f%% %s\n", i + 1, r.line,
                r.hardware.c_str(), r.c.kernel.c_str(), SourceVersion(r).substr(0, 38).c_str(), r.value,
                r.metric == "time_us" ? "us" : r.metric == "tflops" ? "TF/s" : "GB/s", 100 * *e, 100 * naive,
                pr.ok() && !pr->stages.empty() ? pr->stages[0].bound.c_str() : "");
  t->all.push_back(*e);
  t->naive_all.push_back(naive);
  t->by_src[SourceVersion(r)].push_back(*e);
  t->by_fam[Family(r.c.kernel)].push_back(*e);
  t->naive_fam[Family(r.c.kernel)].push_back(naive);
  t->by_hw[r.hardware].push_back(*e);
  return buf;
}

}  // namespace

std::string LeaveOneVersionOut(const std::map<std::string, Hardware>& hws, const FitSet& set, const Params& p) {
  std::string out = "leave-one-source-version-out (refit without the version, predict its rows)\n";
  std::set<std::string> versions;
  for (const FitRow& r : set.rows()) versions.insert(SourceVersion(r));
  std::vector<double> cv_all;
  for (const std::string& v : versions) {
    const Params q = Fit(hws, set.Without(v), p).params;
    std::vector<double> errs;
    for (const FitRow& r : set.rows())
      if (SourceVersion(r) == v)
        if (auto e = RowError(hws.at(r.hardware), q, r); e.ok()) errs.push_back(*e), cv_all.push_back(*e);
    out += SummaryLine(v, Summarize(errs, 0));
  }
  return out + SummaryLine("all (held out by version)", Summarize(cv_all, 0));
}

std::string ValidationReport(const std::map<std::string, Hardware>& hws, const std::vector<FitRow>& rows,
                             const Params& p) {
  std::string out = "row  line  hardware kernel          source@version                         measured   error  naive  bound\n";
  Tally t;
  for (size_t i = 0; i < rows.size(); ++i) out += RowLine(hws, rows[i], i, p, &t);
  const double coverage = rows.empty() ? 0 : 1.0 - static_cast<double>(t.unsupported) / static_cast<double>(rows.size());
  out += Fmt("coverage: %.0f%% of %.0f rows\n", 100 * coverage, static_cast<double>(rows.size()));
  out += "in-sample (the parameters given)\n" + SummaryLine("all", Summarize(t.all, t.unsupported));
  out += SummaryLine("naive peak-spec roofline, all", Summarize(t.naive_all, t.unsupported));
  out += "by source version\n";
  for (auto& [k, v] : t.by_src) out += SummaryLine(k, Summarize(v, t.unsup_src[k]));
  out += "by kernel family (model | naive roofline)\n";
  for (auto& [k, v] : t.by_fam) {
    out += SummaryLine(k, Summarize(v, t.unsup_fam[k]));
    out += SummaryLine(k + " (naive)", Summarize(t.naive_fam[k], 0));
  }
  out += "by hardware\n";
  for (auto& [k, v] : t.by_hw) out += SummaryLine(k, Summarize(v, t.unsup_hw[k]));
  return out;
}

}  // namespace moelog::engine::gpu
