#include "logbook/render/chart.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>

#include <gnuplot-iostream.h>

#include "logbook/file_util.h"
#include "logbook/store/sha256.h"

namespace moelog::logbook {
namespace {

// gnuplot draws one chart in well under a second; one that runs this long is
// stuck (a hung terminal driver, an exhausted machine) and is stopped.
constexpr int kGnuplotSeconds = 60;

const std::vector<std::string>& NumericAxes() {
  static const std::vector<std::string> k = {"topk", "null_route_frac", "mlp_dim", "tokens", "experts",
                                             "devices", "hidden", "shared_expert_dim"};
  return k;
}

const std::vector<std::string>& CategoricalAxes() {
  static const std::vector<std::string> k = {"backend", "impl", "remat_mode", "parallel_mode", "quant_mode",
                                             "routing_pack_strategy", "distribution", "queue_mode", "bench_pass",
                                             "target", "ep_comm_path", "shared_fused"};
  return k;
}

std::string MetricLabel(const std::string& m) {
  if (m == "tflops") return "TF/s";
  if (m == "tflops_per_device") return "TF/s per device";
  if (m == "tokens_per_s") return "tokens/s";
  if (m == "mean_s" || m == "time_s") return "time (s)";
  return GnuplotLabel(m);
}

std::string AxisLabel(const std::string& k) {
  if (k == "topk") return "top-k";
  if (k == "null_route_frac") return "null route fraction";
  if (k == "mlp_dim") return "MLP width (mlp_dim)";
  return GnuplotLabel(k);
}

std::string Join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

std::string Num(double v) {
  char buf[40];
  std::snprintf(buf, sizeof(buf), "%.9g", v);
  return buf;
}

// Distinct values of a key over the points, in first-seen order, numerically
// equal strings merged.
std::vector<std::string> Distinct(const std::vector<ChartPoint>& points, const std::string& key) {
  std::vector<std::string> out;
  for (const auto& p : points) {
    auto it = p.config.find(key);
    if (it == p.config.end()) continue;
    if (std::none_of(out.begin(), out.end(), [&](const std::string& v) { return ValuesEqual(v, it->second); }))
      out.push_back(it->second);
  }
  return out;
}

std::string ValueOf(const ChartPoint& p, const std::string& key) {
  auto it = p.config.find(key);
  return it == p.config.end() ? std::string("-") : it->second;
}

// Canonical text of a value for grouping ("2.0" and "2" agree).
std::string Canon(const std::string& v) {
  if (auto n = ParseNumber(v)) return FormatValue(*n);
  return v;
}

// What a reader calls a config value in a legend or under a cluster: "EP",
// "no EP", "k=8", "shared 5632", "H=2048", or the value itself for the
// categorical keys whose values name themselves (gmm, random, fused_w13).
std::string ValueLabel(const std::string& key, const std::string& raw) {
  const std::string v = Canon(raw);
  if (key == "parallel_mode") return v == "none" ? "no EP" : v == "ep" ? "EP" : v == "dp" ? "DP" : v;
  if (key == "topk") return "k=" + v;
  if (key == "shared_expert_dim") return v == "0" ? "no shared" : "shared " + v;
  if (key == "shared_fused") return v == "true" || v == "1" ? "shared fused" : "shared unfused";
  static const std::map<std::string, std::string> kPrefix = {
      {"hidden", "H="}, {"mlp_dim", "M="}, {"tokens", "T="}, {"experts", "E="}, {"null_route_frac", "null "},
      {"quant_mode", "quant "}, {"remat_mode", "remat "}, {"capacity_factor", "cf "}, {"ep_comm_path", ""},
      {"ep_dispatch", ""}, {"backend", ""}, {"impl", ""}, {"distribution", ""}, {"routing_pack_strategy", ""},
      {"queue_mode", ""}, {"bench_pass", ""}, {"target", ""}, {"dtype", ""}};
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

bool PathIsSafe(const std::string& p) {
  if (p.empty()) return false;
  for (unsigned char c : p)
    if (!(std::isalnum(c) || c == '/' || c == '.' || c == '_' || c == '-' || c == '+' || c == ',' || c == '@' ||
          c == '=' || c == '~' || c == ':' || c == ' '))
      return false;
  return true;
}

std::string DirOf(const std::string& path) {
  auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// A drawn chart is whole: an SVG's root element is closed, a PNG ends with
// its IEND chunk.
bool ChartComplete(const std::string& text, bool png) {
  if (png) {
    static const std::string kSig("\x89PNG\r\n\x1a\n", 8);
    static const std::string kEnd("IEND\xae\x42\x60\x82", 8);
    return text.size() > 16 && text.compare(0, 8, kSig) == 0 &&
           text.compare(text.size() - kEnd.size(), kEnd.size(), kEnd) == 0;
  }
  const size_t open = text.find("<svg");
  const size_t close = text.rfind("</svg>");
  if (open == std::string::npos || close == std::string::npos || close < open) return false;
  for (size_t i = close + 6; i < text.size(); ++i)
    if (!std::isspace(static_cast<unsigned char>(text[i]))) return false;
  return true;
}

}  // namespace

std::vector<ChartPoint> PointsFromRuns(const std::vector<StoredRun>& runs) {
  std::vector<ChartPoint> out;
  for (const auto& r : runs) {
    ChartPoint p;
    p.config = r.config;
    if (!r.target.empty()) p.config["target"] = r.target;
    p.metrics = r.metrics;
    p.source = r.source.empty() ? (r.target == "v5p" ? "modeled" : "measured") : r.source;
    if (p.source == "measured" && r.target == "v5p") p.source = "modeled";
    out.push_back(std::move(p));
  }
  return out;
}

bool IsNumericAxis(const std::string& key) {
  const auto& k = NumericAxes();
  return std::find(k.begin(), k.end(), key) != k.end();
}

bool IsCategoricalAxis(const std::string& key) {
  const auto& k = CategoricalAxes();
  return std::find(k.begin(), k.end(), key) != k.end();
}

std::string GnuplotLabel(const std::string& text) {
  std::string out;
  bool space = false;
  for (unsigned char c : text) {
    if (std::isspace(c)) {
      space = true;
      continue;
    }
    if (c == '`') continue;  // Markdown code marks carry no meaning in a label
    if (space && !out.empty()) out += ' ';
    space = false;
    bool ok = std::isalnum(c) || std::string("_.,:;=+-/()%[]").find(static_cast<char>(c)) != std::string::npos;
    out += ok ? static_cast<char>(c) : '_';
  }
  if (out.size() > 80) out.resize(80);
  return out;
}

std::string ChartStem(const std::string& entry_id) {
  std::string out;
  for (unsigned char c : entry_id) {
    if (std::isalnum(c) || c == '_' || c == '-') out += static_cast<char>(c);
    else if (!out.empty() && out.back() != '-') out += '-';
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  if (out == entry_id && out.size() <= 60) return out;
  // Changed or cut: a hash of the whole ID keeps two entries' files apart.
  uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (unsigned char c : entry_id) h = (h ^ c) * 1099511628211ull;
  char hex[17];
  std::snprintf(hex, sizeof(hex), "%016llx", static_cast<unsigned long long>(h));
  if (out.size() > 51) out.resize(51);
  while (!out.empty() && out.back() == '-') out.pop_back();
  return (out.empty() ? std::string("chart") : out) + "-" + std::string(hex, 8);
}

namespace {

// The config keys whose values differ between the points.
std::vector<std::string> VariedKeys(const std::vector<ChartPoint>& points) {
  std::set<std::string> keys;
  for (const auto& p : points)
    for (const auto& [k, v] : p.config)
      if (!IsIgnoredForPairing(k)) keys.insert(k);
  std::vector<std::string> varied;
  for (const auto& k : keys)
    if (Distinct(points, k).size() > 1) varied.push_back(k);
  // The device count and mesh follow the parallel mode: one key, not two.
  if (std::find(varied.begin(), varied.end(), "parallel_mode") != varied.end())
    varied.erase(std::remove_if(varied.begin(), varied.end(),
                                [](const std::string& k) { return k == "devices" || k == "mesh"; }),
                 varied.end());
  return varied;
}

// The x axis: --x, else the numeric axis with the most values (3 or more,
// or any when no categorical key varies), else the first categorical axis
// that varies, else any varied key. Exactly one of *numeric, *categorical.
Status ChooseAxis(const std::vector<ChartPoint>& points, const std::vector<std::string>& varied,
                  const std::string& x_option, std::string* numeric, std::string* categorical) {
  auto is_varied = [&](const std::string& k) { return std::find(varied.begin(), varied.end(), k) != varied.end(); };
  const std::string x_opt = x_option.empty() ? "" : NormalizeKey(x_option);
  if (!x_opt.empty()) {
    if (!IsNumericAxis(x_opt) && !IsCategoricalAxis(x_opt))
      return Status::InvalidArgument("--x " + x_option + " is not a chart axis (numeric: topk, null_route_frac, "
                                     "mlp_dim, tokens, experts, devices; categorical: backend, impl, remat_mode, "
                                     "parallel_mode, quant_mode, routing_pack_strategy, ...)");
    if (!is_varied(x_opt)) return Status::NotFound("the runs do not vary " + x_opt);
    (IsNumericAxis(x_opt) ? *numeric : *categorical) = x_opt;
    return Status::Ok();
  }
  size_t best = 0;
  for (const auto& k : NumericAxes()) {
    const size_t n = Distinct(points, k).size();
    if (n > 1 && n > best) best = n, *numeric = k;
  }
  for (const auto& k : CategoricalAxes())
    if (is_varied(k)) {
      *categorical = k;
      break;
    }
  if (!numeric->empty() && best < 3 && !categorical->empty()) numeric->clear();  // a categorical A/B
  if (!numeric->empty()) categorical->clear();
  if (numeric->empty() && categorical->empty()) {
    if (varied.empty()) return Status::NotFound("the runs do not vary along any axis");
    *categorical = varied.front();  // some other key varies: bars by it
  }
  return Status::Ok();
}

// The y metrics: --y, else TF/s (and tokens/s on a line chart), those the
// points record.
Result<std::vector<std::string>> ChooseMetrics(const std::vector<ChartPoint>& points, const ChartOptions& options,
                                               ChartPlan::Kind kind) {
  std::vector<std::string> metrics;
  for (const auto& m : options.y_metrics) metrics.push_back(NormalizeKey(m));
  if (metrics.empty()) {
    metrics = {"tflops"};
    if (kind == ChartPlan::Kind::kLine) metrics.push_back("tokens_per_s");
  }
  std::vector<std::string> present;
  for (const auto& m : metrics)
    if (std::any_of(points.begin(), points.end(), [&](const ChartPoint& p) { return p.metrics.count(m) > 0; }))
      present.push_back(m);
  if (present.empty()) return Status::InvalidArgument("no run records " + metrics.front());
  if (!options.y_metrics.empty() && present.size() != metrics.size())
    return Status::InvalidArgument("no run records some of the --y metrics");
  return present;
}

bool MultiSource(const std::vector<ChartPoint>& points) {
  std::set<std::string> sources;
  for (const auto& p : points) sources.insert(p.source);
  return sources.size() > 1;  // recorded vs measured/modeled: separate series
}

std::vector<std::string> Others(const std::vector<std::string>& varied, const std::string& axis) {
  std::vector<std::string> out;
  for (const auto& k : varied)
    if (k != axis) out.push_back(k);
  return out;
}

// Lines over the numeric axis: one series per (other varied keys, source,
// metric), the first metric on y1 and the second on y2.
void PlanLines(const std::vector<ChartPoint>& points, const std::vector<std::string>& varied,
               const std::string& numeric, const std::vector<std::string>& metrics, ChartPlan* plan) {
  plan->x_key = numeric;
  std::vector<std::pair<double, std::string>> xs;
  for (const auto& v : Distinct(points, numeric))
    if (auto n = ParseNumber(v)) xs.push_back({*n, FormatValue(*n)});
  std::sort(xs.begin(), xs.end());
  for (const auto& [n, s] : xs) plan->x_values.push_back(s);
  const std::vector<std::string> others = Others(varied, numeric);
  const bool multi_source = MultiSource(points);
  std::vector<std::string> order;
  std::map<std::string, ChartSeries> by_name;
  for (size_t mi = 0; mi < metrics.size(); ++mi) {
    for (const auto& p : points) {
      auto mv = p.metrics.find(metrics[mi]);
      if (mv == p.metrics.end()) continue;
      auto xv = ParseNumber(ValueOf(p, numeric));
      if (!xv) continue;
      std::string name;
      for (const auto& k : others)
        if (p.config.count(k)) name += (name.empty() ? "" : ", ") + ValueLabel(k, ValueOf(p, k));
      if (multi_source) name += (name.empty() ? "" : " ") + std::string("(") + SourceLabel(p.source) + ")";
      if (metrics.size() > 1) name += (name.empty() ? "" : " ") + MetricLabel(metrics[mi]);
      if (name.empty()) name = SourceLabel(p.source);
      // Grouped by the full name; the label may be shortened by escaping.
      auto [it, fresh] = by_name.try_emplace(std::to_string(mi) + "|" + name);
      if (fresh) {
        order.push_back(it->first);
        it->second.name = GnuplotLabel(name);
        it->second.metric = metrics[mi];
        it->second.axis = mi == 0 ? 1 : 2;
        it->second.y.assign(plan->x_values.size(), std::nullopt);
      }
      size_t xi = std::find(plan->x_values.begin(), plan->x_values.end(), FormatValue(*xv)) - plan->x_values.begin();
      if (xi < plan->x_values.size() && !it->second.y[xi]) it->second.y[xi] = mv->second;
    }
  }
  for (const auto& k : order) plan->series.push_back(by_name[k]);
  plan->x_label = AxisLabel(numeric);
}

// Grouped bars: clusters = the other varied keys (and source), bars = the
// values of the categorical key.
void PlanBars(const std::vector<ChartPoint>& points, const std::vector<std::string>& varied,
              const std::string& categorical, const std::string& metric, ChartPlan* plan) {
  plan->bar_key = categorical;
  plan->x_key = categorical;
  const std::vector<std::string> others = Others(varied, categorical);
  const bool multi_source = MultiSource(points);
  const std::vector<std::string> bar_values = Distinct(points, categorical);
  std::vector<std::string> clusters;
  std::map<std::string, std::map<std::string, double>> cell;  // cluster -> bar value -> y
  for (const auto& p : points) {
    auto mv = p.metrics.find(metric);
    if (mv == p.metrics.end()) continue;
    std::string cl;
    for (const auto& k : others)
      if (p.config.count(k)) cl += (cl.empty() ? "" : ", ") + ValueLabel(k, ValueOf(p, k));
    if (multi_source) cl += (cl.empty() ? "" : " ") + std::string("(") + SourceLabel(p.source) + ")";
    if (cl.empty()) cl = "all";
    if (std::find(clusters.begin(), clusters.end(), cl) == clusters.end()) clusters.push_back(cl);
    std::string bv = ValueOf(p, categorical);
    for (const auto& b : bar_values)
      if (ValuesEqual(b, bv)) bv = b;
    cell[cl].try_emplace(bv, mv->second);
  }
  for (const auto& cl : clusters) plan->x_values.push_back(GnuplotLabel(cl));
  for (const auto& b : bar_values) {
    ChartSeries s;
    s.name = GnuplotLabel(ValueLabel(categorical, b));
    s.metric = metric;
    for (const auto& cl : clusters) {
      auto it = cell[cl].find(b);
      s.y.push_back(it == cell[cl].end() ? std::nullopt : std::optional<double>(it->second));
    }
    plan->series.push_back(s);
  }
  plan->x_label = others.empty() ? AxisLabel(categorical) : GnuplotLabel(Join(others));
}

}  // namespace

Result<ChartPlan> PlanChart(const std::vector<ChartPoint>& points, const ChartOptions& options) {
  if (points.empty()) return Status::NotFound("no runs to chart");
  const std::vector<std::string> varied = VariedKeys(points);
  std::string numeric, categorical;
  MOELOG_RETURN_IF_ERROR(ChooseAxis(points, varied, options.x_key, &numeric, &categorical));
  ChartPlan plan;
  plan.kind = numeric.empty() ? ChartPlan::Kind::kBars : ChartPlan::Kind::kLine;
  auto metrics = ChooseMetrics(points, options, plan.kind);
  if (!metrics.ok()) return metrics.status();
  if (plan.kind == ChartPlan::Kind::kLine) PlanLines(points, varied, numeric, *metrics, &plan);
  else PlanBars(points, varied, categorical, metrics->front(), &plan);
  plan.y1_label = MetricLabel(metrics->front());
  if (plan.kind == ChartPlan::Kind::kLine && metrics->size() > 1) plan.y2_label = MetricLabel((*metrics)[1]);
  const std::string title = options.title.empty()
                                ? MetricLabel(metrics->front()) + (plan.y2_label.empty() ? "" : " and " + plan.y2_label) +
                                      " vs " + plan.x_key
                                : options.title;
  plan.title = GnuplotLabel(title);
  return plan;
}

std::string ChartData(const ChartPlan& plan) {
  std::ostringstream s;
  s << "# moelog chart data: " << (plan.kind == ChartPlan::Kind::kLine ? "line" : "bars") << ", x = " << plan.x_key
    << "\n";
  if (plan.kind == ChartPlan::Kind::kLine) {
    // One block per series (gnuplot `index`), "x y" rows, missing points skipped.
    for (size_t si = 0; si < plan.series.size(); ++si) {
      const auto& se = plan.series[si];
      s << "# series " << si << ": " << se.name << " (" << se.metric << ", y axis " << se.axis << ")\n";
      for (size_t xi = 0; xi < plan.x_values.size(); ++xi)
        if (se.y[xi]) s << plan.x_values[xi] << " " << Num(*se.y[xi]) << "\n";
      s << "\n\n";
    }
    return s.str();
  }
  // Bars: one row per cluster: "label" y(bar 1) y(bar 2) ...; '?' = missing.
  s << "# cluster";
  for (const auto& se : plan.series) s << " | " << se.name;
  s << "\n";
  for (size_t xi = 0; xi < plan.x_values.size(); ++xi) {
    s << "\"" << plan.x_values[xi] << "\"";
    for (const auto& se : plan.series) s << " " << (se.y[xi] ? Num(*se.y[xi]) : std::string("?"));
    s << "\n";
  }
  return s.str();
}

std::string ChartScript(const ChartPlan& plan, const std::string& data_file, const std::string& output_file, bool png) {
  std::ostringstream s;
  s << "# moelog chart script: run gnuplot on this file in its directory to redraw the chart.\n";
  if (png) s << "set terminal pngcairo size 900,540 noenhanced font 'sans,10' background rgb 'white'\n";
  else s << "set terminal svg size 900,540 noenhanced font 'sans,11' background rgb 'white'\n";
  s << "set output '" << output_file << "'\n"
    << "set title '" << plan.title << "'\n"
    << "set xlabel '" << plan.x_label << "'\n"
    << "set ylabel '" << plan.y1_label << "'\n"
    << "set key outside bottom center horizontal maxcols 2\n"
    << "set grid ytics\n"
    << "set datafile missing '?'\n"
    << "set yrange [0:*]\n";
  if (plan.kind == ChartPlan::Kind::kLine) {
    if (!plan.y2_label.empty()) {
      s << "set y2label '" << plan.y2_label << "'\n"
        << "set y2tics\n"
        << "set ytics nomirror\n"
        << "set y2range [0:*]\n";
    }
    s << "set xtics (";
    for (size_t i = 0; i < plan.x_values.size(); ++i) s << (i ? ", " : "") << plan.x_values[i];
    s << ")\n";
    s << "plot";
    for (size_t i = 0; i < plan.series.size(); ++i) {
      const auto& se = plan.series[i];
      s << (i ? ", \\\n     " : " ") << "'" << data_file << "' index " << i << " using 1:2 axes x1y" << se.axis
        << " with linespoints lw 2 pt " << (se.axis == 1 ? 7 : 5) << " dt " << (se.axis == 1 ? 1 : 2) << " title '"
        << se.name << "'";
    }
    s << "\n";
  } else {
    s << "set style data histogram\n"
      << "set style histogram clustered gap 1\n"
      << "set style fill solid 0.8 border -1\n"
      << "set boxwidth 0.9\n"
      << "set xtics rotate by -20\n"
      << "plot";
    for (size_t i = 0; i < plan.series.size(); ++i) {
      s << (i ? ", \\\n     " : " ") << "'" << data_file << "' using " << i + 2 << (i == 0 ? ":xtic(1)" : "")
        << " title '" << plan.series[i].name << "'";
    }
    s << "\n";
  }
  s << "unset output\n";
  return s.str();
}

std::string FormatChartStamp(const ChartStamp& stamp) {
  return "<!-- moelog:chart inputs=" + stamp.inputs + " chart=" + stamp.chart + " -->\n";
}

std::optional<ChartStamp> FindChartStamp(std::string_view region_text) {
  static constexpr std::string_view kOpen = "<!-- moelog:chart inputs=";
  const size_t at = region_text.find(kOpen);
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view rest = region_text.substr(at + kOpen.size());
  auto hex = [](std::string_view v) {
    return v.size() == 16 && std::all_of(v.begin(), v.end(), [](char c) {
             return std::isdigit(static_cast<unsigned char>(c)) || (c >= 'a' && c <= 'f');
           });
  };
  static constexpr std::string_view kChart = " chart=", kClose = " -->";
  if (rest.size() < 16 + kChart.size() + 16 + kClose.size()) return std::nullopt;
  ChartStamp st{std::string(rest.substr(0, 16)), std::string(rest.substr(16 + kChart.size(), 16))};
  if (!hex(st.inputs) || !hex(st.chart) || rest.substr(16, kChart.size()) != kChart ||
      rest.substr(32 + kChart.size(), kClose.size()) != kClose)
    return std::nullopt;
  return st;
}

namespace {

std::string ShortHash(std::string_view bytes) { return Sha256Hex(bytes).substr(0, 16); }

// The hash of the chart file at `path`, "" when it is missing or not whole.
std::string InstalledChartHash(const std::string& path, bool png) {
  auto text = ReadFile(path);
  return text.ok() && ChartComplete(*text, png) ? ShortHash(*text) : std::string();
}

// Runs gnuplot on `script` in `dir`, its messages into a mkstemps file beside
// the chart (a killed moelog leaves nothing in /tmp: RemoveStaleTemporaries
// clears it later), under a time limit. Returns gnuplot's messages.
Result<std::string> RunGnuplot(const std::string& dir, const std::string& base, const std::string& script) {
  std::string err_buf = dir + "/." + base + ".moelog-tmp-XXXXXX.err";
  const int err_fd = ::mkstemps(err_buf.data(), 4);
  if (err_fd < 0) return Status::IOError("cannot create a temporary file for gnuplot's messages");
  ::close(err_fd);
  const std::string err_path = err_buf;
  try {
    // The command line holds only moelog's paths (the time limit, gnuplot)
    // and a mkstemps name in the chart folder (PathIsSafe: no quote),
    // single-quoted. `timeout` ends a gnuplot that hangs; the chart it was
    // drawing is then incomplete and never installed.
    Gnuplot gp(std::string(MOELOG_TIMEOUT) + " -k 5 " + std::to_string(kGnuplotSeconds) + " " +
               MOELOG_GNUPLOT + " 2>'" + err_path + "'");
    gp << "cd '" << dir << "'\n" << script << "exit\n";
  } catch (const std::exception& e) {
    ::unlink(err_path.c_str());
    return Status::IOError(std::string("cannot run gnuplot: ") + e.what());
  }
  auto messages = ReadFile(err_path);
  ::unlink(err_path.c_str());
  std::string why = messages.ok() ? *messages : std::string();
  while (!why.empty() && std::isspace(static_cast<unsigned char>(why.back()))) why.pop_back();
  return why;
}

// Draws the chart into a fresh file of moelog's (mkstemps: created here,
// never an existing name or link) and installs it only when it is complete:
// an SVG that ends its root element, a PNG that ends with its IEND chunk (a
// full disk or a killed gnuplot leaves a truncated file, which never
// replaces the chart). Returns the installed chart's hash.
Result<std::string> DrawAndInstall(const ChartPlan& plan, const ChartFiles& files, const std::string& dir,
                                   const std::string& base, bool png) {
  const std::string ext = png ? ".png" : ".svg";
  std::string tmp_buf = dir + "/." + base + ".moelog-tmp-XXXXXX" + ext;
  const int tmp_fd = ::mkstemps(tmp_buf.data(), static_cast<int>(ext.size()));
  if (tmp_fd < 0) return Status::IOError(dir + ": cannot create a temporary chart file");
  // Readable by everyone who can read the logbook (a chart drawn by an older
  // moelog as 0600 is opened up), otherwise the old chart's mode.
  ::fchmod(tmp_fd, ReplacementMode(files.chart) | 0644);
  ::close(tmp_fd);
  const std::string tmp_path = tmp_buf;
  auto why = RunGnuplot(dir, base, ChartScript(plan, base + ".dat", tmp_path.substr(dir.size() + 1), png));
  auto drawn = ReadFile(tmp_path);
  if (!why.ok() || !drawn.ok() || !ChartComplete(*drawn, png)) {
    ::unlink(tmp_path.c_str());
    if (!why.ok()) return why.status();
    return Status::IOError("gnuplot produced an incomplete chart " + files.chart + (why->empty() ? "" : ": " + *why));
  }
  if (std::rename(tmp_path.c_str(), files.chart.c_str()) != 0) {
    ::unlink(tmp_path.c_str());
    return Status::IOError("cannot rename the chart to " + files.chart);
  }
  return ShortHash(*drawn);
}

}  // namespace

Result<ChartFiles> DrawChart(const ChartPlan& plan, const std::string& dir, const std::string& base, bool png,
                             const ChartDraw& how) {
  const bool base_ok = !base.empty() && base.size() <= 200 && std::all_of(base.begin(), base.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
  if (!PathIsSafe(dir) || !base_ok)
    return Status::InvalidArgument("chart path '" + dir + "/" + base +
                                   "' has characters moelog does not pass to gnuplot (allowed: letters, digits, "
                                   "space and /._-+,@=~:)");
  ChartFiles files;
  const std::string ext = png ? ".png" : ".svg";
  files.chart = dir + "/" + base + ext;
  files.data = dir + "/" + base + ".dat";
  files.script = dir + "/" + base + ".gp";
  const std::string data = ChartData(plan);
  const std::string saved_script = ChartScript(plan, base + ".dat", base + ext, png);
  files.stamp.inputs = ShortHash(data + "\n" + saved_script);
  files.stamp.chart = InstalledChartHash(files.chart, png);
  auto same = [](const std::string& path, const std::string& text) {
    auto old = ReadFile(path);
    return old.ok() && *old == text;
  };
  // The chart on disk is the one the region recorded, drawn from these very
  // inputs, and the inputs beside it are whole: nothing to redraw (a warm
  // update must not run gnuplot for every entry).
  files.current = how.recorded && *how.recorded == files.stamp && same(files.data, data) &&
                  same(files.script, saved_script);
  if (files.current || !how.write) return files;
  MOELOG_RETURN_IF_ERROR(MakeRealDir(dir));
  MOELOG_RETURN_IF_ERROR(AtomicWriteFile(files.data, data));
  MOELOG_RETURN_IF_ERROR(AtomicWriteFile(files.script, saved_script));
  auto hash = DrawAndInstall(plan, files, dir, base, png);
  if (!hash.ok()) return hash.status();
  files.stamp.chart = *hash;
  files.current = true;
  return files;
}

bool ChartFileComplete(const std::string& path) {
  auto text = ReadFile(path);
  return text.ok() && ChartComplete(*text, path.size() > 4 && path.compare(path.size() - 4, 4, ".png") == 0);
}

std::string FigureFolder(const std::string& logbook_path) {
  std::string name = logbook_path.substr(logbook_path.rfind('/') + 1);  // npos + 1 == 0
  if (name.size() > 3 && name.compare(name.size() - 3, 3, ".md") == 0) name.resize(name.size() - 3);
  return ChartStem(name.empty() ? "logbook" : name);
}

Result<EntryChart> DrawEntryChart(const std::string& logbook_path, const std::string& entry_id,
                                  const std::vector<ChartPoint>& points, const ChartOptions& options,
                                  const std::string& suffix, const ChartDraw& how) {
  ChartOptions opts = options;
  if (opts.title.empty()) {
    auto probe = PlanChart(points, options);
    if (!probe.ok()) return probe.status();
    opts.title = entry_id + ": " + probe->title;
  }
  auto plan = PlanChart(points, opts);
  if (!plan.ok()) return plan.status();
  std::string base = ChartStem(entry_id) + (suffix.empty() ? "" : "-" + ChartStem(suffix));
  EntryChart out;
  const std::string folder = FigureFolder(logbook_path);
  const std::string dir = DirOf(logbook_path) + "/figures/" + folder;
  if (how.write) MOELOG_RETURN_IF_ERROR(MakeRealDir(DirOf(logbook_path) + "/figures"));
  auto files = DrawChart(*plan, dir, base, opts.png, how);
  if (!files.ok()) return files.status();
  out.files = *files;
  std::string alt = plan->title;
  for (char& c : alt)
    if (c == '[' || c == ']') c = ' ';
  out.markdown = "![" + alt + "](figures/" + folder + "/" + base + (opts.png ? ".png" : ".svg") + ")\n" + FormatChartStamp(files->stamp);
  return out;
}

}  // namespace moelog::logbook
