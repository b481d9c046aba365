#include "logbook/run/output_parse.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <set>

#include "logbook/doc/markdown.h"
#include "logbook/numbers.h"

namespace moelog::logbook {
namespace {

std::vector<std::string> SplitWords(std::string_view line) {
  std::vector<std::string> words;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '\r') ++j;
    if (j > i) words.emplace_back(line.substr(i, j - i));
    i = j;
  }
  return words;
}

struct Kv {
  std::string key, value;
};

// Words of the form key=value, and the bare words (markers such as "timing").
void SplitKv(const std::vector<std::string>& words, size_t from, std::vector<Kv>* kvs,
             std::vector<std::string>* bare) {
  for (size_t i = from; i < words.size(); ++i) {
    auto eq = words[i].find('=');
    if (eq == std::string::npos || eq == 0) {
      bare->push_back(words[i]);
    } else {
      kvs->push_back({words[i].substr(0, eq), words[i].substr(eq + 1)});
    }
  }
}

bool Has(const std::vector<std::string>& bare, const char* w) {
  for (const auto& b : bare)
    if (b == w) return true;
  return false;
}

// Keys of the per-mode line and the RESULT line that identify the run.
const std::set<std::string>& PointKeys() {
  static const std::set<std::string> k = {"distribution", "mode", "pass", "impl", "backend", "topk",
                                          "remat_mode", "quant_mode", "parallel_mode", "ep_comm_path",
                                          "null_target", "null_mode", "source", "devices"};
  return k;
}

void Put(ParsedRun* run, const std::string& key, const std::string& value, const std::string& metric_prefix) {
  const std::optional<double> v = ParseNumber(value);
  if (metric_prefix.empty() && PointKeys().count(key)) {
    run->point[key] = value;
    // null_target is also a number worth filtering on.
    if (key == "null_target" && v) run->metrics[key] = *v;
    return;
  }
  if (v) {
    run->metrics[metric_prefix + key] = *v;
  } else {
    run->point[metric_prefix + key] = value;
  }
}

bool SameRun(const ParsedRun& run, const std::vector<Kv>& kvs) {
  for (const auto& kv : kvs) {
    if (kv.key != "distribution" && kv.key != "mode" && kv.key != "impl" && kv.key != "topk") continue;
    auto it = run.point.find(kv.key);
    if (it != run.point.end() && it->second != kv.value) return false;
  }
  return true;
}

// Reads the harness's lines one at a time into runs: a `devices=` line opens
// a section, the per-mode line (`[dist] mode=...`) or a RESULT line opens a
// run, and the detail lines after it (timing, stages, comm, run/load stats,
// capacity, null routing) fill the open run.
class OutputParser {
 public:
  explicit OutputParser(size_t max_runs) : max_runs_(max_runs) {}
  void Line(std::string_view line) {
    if (out_.over_budget) return;
    const std::vector<std::string> words = SplitWords(line);
    if (words.empty()) return;
    const std::string& w0 = words[0];
    if (w0.rfind("devices=", 0) == 0) return OpenSection();
    if (w0 == "shape") return Shape(words);
    if (w0 == "Traceback" || w0.rfind("Error", 0) == 0 || line.find("error:") != std::string_view::npos ||
        line.find("Error:") != std::string_view::npos) {
      out_.errors.emplace_back(line);
      return;
    }
    if (w0 == "RESULT") return Result(words);
    std::string dist;
    size_t first = 0;
    if (w0.size() > 2 && w0.front() == '[' && w0.back() == ']') {
      dist = w0.substr(1, w0.size() - 2);
      first = 1;
    }
    std::vector<Kv> kvs;
    std::vector<std::string> bare;
    SplitKv(words, first, &kvs, &bare);
    if (kvs.empty()) return;
    if (!dist.empty() && kvs.front().key == "mode" && first == 1 && words[1].rfind("mode=", 0) == 0)
      return ModeLine(dist, kvs, bare);
    if (current_ == nullptr) return;
    if (!dist.empty()) DistLine(kvs, bare);
    else StatsLine(kvs, bare);
  }

  ParsedOutput Take() { return std::move(out_); }

 private:
  void OpenSection() {
    section_ = out_.sections++;
    out_.shapes.emplace_back();
    current_ = nullptr;
  }

  void Shape(const std::vector<std::string>& words) {
    std::vector<Kv> kvs;
    std::vector<std::string> bare;
    SplitKv(words, 1, &kvs, &bare);
    if (out_.shapes.empty()) out_.shapes.emplace_back();
    for (const auto& kv : kvs) out_.shapes.back()[kv.key] = kv.value;
  }

  // Opens a run; false (and the output is over budget) past max_runs_.
  bool NewRun() {
    if (out_.runs.size() >= max_runs_) {
      out_.over_budget = true;
      current_ = nullptr;
      return false;
    }
    out_.runs.emplace_back();
    current_ = &out_.runs.back();
    current_->section = section_;
    return true;
  }

  // The RESULT line ends the run it names, or is a run of its own.
  void Result(const std::vector<std::string>& words) {
    std::vector<Kv> kvs;
    std::vector<std::string> bare;
    SplitKv(words, 1, &kvs, &bare);
    if ((current_ == nullptr || current_->has_result_line || !SameRun(*current_, kvs)) && !NewRun()) return;
    current_->has_result_line = true;
    for (const auto& kv : kvs) Put(current_, kv.key, kv.value, "");
  }

  // "[dist] mode=... time_s=... [OOM estimate_bytes=...]": starts a run.
  void ModeLine(const std::string& dist, const std::vector<Kv>& kvs, const std::vector<std::string>& bare) {
    if (!NewRun()) return;
    current_->point["distribution"] = dist;
    current_->oom = Has(bare, "OOM");
    for (const auto& kv : kvs) {
      if (current_->oom && kv.key == "estimate_bytes") {
        if (auto v = ParseNumber(kv.value)) current_->metrics["oom_estimate_bytes"] = *v;
        continue;
      }
      Put(current_, kv.key, kv.value, "");
    }
  }

  // "[dist] ... timing|stage|stage_pct|stage_bound|comm ...".
  void DistLine(const std::vector<Kv>& kvs, const std::vector<std::string>& bare) {
    if (Has(bare, "timing")) {
      for (const auto& kv : kvs) Put(current_, kv.key, kv.value, "");
    } else if (Has(bare, "stage")) {
      for (const auto& kv : kvs)
        if (kv.key != "pass") Put(current_, kv.key, kv.value, "stage_");  // pack_s=0.1 -> stage_pack_s
    } else if (Has(bare, "stage_pct")) {
      for (const auto& kv : kvs) Put(current_, kv.key + "_pct", kv.value, "stage_");
    } else if (Has(bare, "stage_bound")) {
      for (const auto& kv : kvs) current_->point["stage_bound_" + kv.key] = kv.value;
    } else if (Has(bare, "comm")) {
      for (const auto& kv : kvs) Put(current_, kv.key, kv.value, "comm_");
    } else {
      StatsLine(kvs, bare);
    }
  }

  // "... run_stats|load_stats|capacity|null_route ...".
  void StatsLine(const std::vector<Kv>& kvs, const std::vector<std::string>& bare) {
    if (Has(bare, "run_stats") || Has(bare, "load_stats") || Has(bare, "capacity")) {
      const std::string prefix =
          Has(bare, "run_stats") ? "run_stats_" : Has(bare, "load_stats") ? "load_stats_" : "capacity_";
      for (const auto& kv : kvs) {
        if (kv.key == "topk" || kv.key == "impl") continue;
        if (prefix == "capacity_" && kv.key == "policy") current_->point["capacity_policy"] = kv.value;
        else Put(current_, kv.key, kv.value, prefix);
      }
    } else if (Has(bare, "null_route")) {
      for (const auto& kv : kvs) {
        if (kv.key == "topk" || kv.key == "impl") continue;
        if (kv.key == "mode") current_->point["null_mode"] = kv.value;
        else if (kv.key == "target") Put(current_, "null_target", kv.value, "");
        else if (kv.key == "realized") Put(current_, "null_realized", kv.value, "");
        else Put(current_, kv.key, kv.value, "");
      }
    }
  }

  size_t max_runs_;
  ParsedOutput out_;
  int section_ = 0;
  ParsedRun* current_ = nullptr;
};

}  // namespace

ParsedOutput ParseHarnessOutput(std::string_view text, size_t max_runs) {
  OutputParser parser(max_runs);
  for (std::string_view line : SplitLines(text)) parser.Line(line);
  return parser.Take();
}

ParsedRun RunFromResult(const engine::RunResult& r) {
  ParsedRun p;
  p.point["distribution"] = r.point.distribution;
  p.point["mode"] = r.point.queue_mode;
  p.point["pass"] = r.pass;
  p.point["impl"] = r.point.impl;
  p.point["backend"] = r.backend;
  p.point["topk"] = std::to_string(r.point.topk);
  p.point["remat_mode"] = r.remat_mode;
  p.point["quant_mode"] = r.quant_mode;
  p.point["parallel_mode"] = r.parallel_mode;
  p.point["ep_comm_path"] = r.ep_comm_path;
  p.point["null_mode"] = r.null_mode;
  p.point["source"] = r.source;
  p.point["devices"] = std::to_string(r.devices);
  p.point["null_target"] = Fixed(r.null_target, 3);
  p.oom = r.oom;
  p.has_result_line = !r.oom;
  auto& m = p.metrics;
  if (r.oom) {
    m["oom_estimate_bytes"] = r.memory_bytes;
    return p;
  }
  m = engine::HeadlineFigures(r);
  m["null_target"] = r.null_target;
  m["null_realized"] = r.null_realized;
  m["null_experts"] = static_cast<double>(r.null_experts);
  m["null_assignments"] = static_cast<double>(r.null_assignments);
  m["real_assignments"] = static_cast<double>(r.real_assignments);
  m["run_stats_runs"] = static_cast<double>(r.run_stats.runs);
  m["run_stats_mean"] = r.run_stats.mean;
  m["run_stats_p95"] = r.run_stats.p95;
  m["run_stats_max"] = static_cast<double>(r.run_stats.max);
  m["load_stats_min"] = static_cast<double>(r.load_stats.min);
  m["load_stats_max"] = static_cast<double>(r.load_stats.max);
  m["load_stats_std"] = r.load_stats.std;
  m["load_stats_cv"] = r.load_stats.cv;
  if (r.capacity.cap > 0) {
    m["capacity_cap"] = static_cast<double>(r.capacity.cap);
    m["capacity_dropped"] = static_cast<double>(r.capacity.dropped);
    m["capacity_drop_frac"] = r.capacity.drop_frac;
  }
  if (r.comm.bytes_sent_per_device > 0 || r.comm.bytes_recv_per_device > 0) {
    m["comm_bytes_sent_per_device"] = static_cast<double>(r.comm.bytes_sent_per_device);
    m["comm_bytes_recv_per_device"] = static_cast<double>(r.comm.bytes_recv_per_device);
    m["comm_comm_s"] = r.comm.comm_s;
    m["comm_compute_s"] = r.comm.compute_s;
  }
  double sum = 0;
  for (const auto& st : r.stages) sum += st.seconds;
  for (const auto& st : r.stages) {
    m["stage_" + st.name + "_s"] = st.seconds;
    m["stage_" + st.name + "_pct"] = sum > 0 ? 100.0 * st.seconds / sum : 0.0;
    if (!st.bound.empty()) p.point["stage_bound_" + st.name] = st.bound;
  }
  for (const auto& [k, v] : r.extra) m["extra_" + k] = v;
  return p;
}

std::string CpuIsaOf(std::string_view text) {
  const size_t at = text.rfind("devices=", 0) == 0 ? 0 : text.find("\ndevices=");
  if (at == std::string_view::npos) return "";
  std::string_view line = text.substr(at == 0 ? 0 : at + 1);
  line = line.substr(0, line.find('\n'));
  std::string out;
  for (const char* key : {"isa=", "bf16=", "kernels=", "int8="}) {
    size_t k = line.find(std::string(", ") + key);
    if (k == std::string_view::npos) continue;
    k += 2;
    const size_t end = line.find_first_of(",)", k);
    if (!out.empty()) out += ' ';
    out += line.substr(k, end == std::string_view::npos ? end : end - k);
  }
  return out;
}

}  // namespace moelog::logbook
