// A chart plan as gnuplot input: the .dat file and the .gp script that draws
// it. Every panel is placed by hand (multiplot with fixed origins), so the
// legend has a strip of its own under the panels and never covers data.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>

#include "logbook/numbers.h"
#include "logbook/render/chart.h"

namespace moelog::logbook {
namespace {

// Distinguishable colours (the first six are what a panel uses).
const char* Colour(int i) {
  static const char* const k[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                  "#9467bd", "#8c564b", "#e377c2", "#17becf"};
  return k[static_cast<size_t>(i) % (sizeof(k) / sizeof(k[0]))];
}

std::string Num(double v) { return engine::General(v, 9); }

std::string Frac(double v) { return Fixed(v, 4); }

bool Any(const std::vector<std::optional<double>>& v) {
  return std::any_of(v.begin(), v.end(), [](const std::optional<double>& x) { return x.has_value(); });
}

// One data block of a line chart (gnuplot `index`): a series' figures, moelog's or the logbook's.
struct Block {
  size_t panel, series;
  bool recorded;
};

std::vector<Block> LineBlocks(const ChartPlan& plan) {
  std::vector<Block> out;
  for (size_t p = 0; p < plan.panels.size(); ++p)
    for (size_t s = 0; s < plan.panels[p].series.size(); ++s) {
      const auto& se = plan.panels[p].series[s];
      if (Any(se.y)) out.push_back({p, s, false});
      if (Any(se.recorded)) out.push_back({p, s, true});
    }
  return out;
}

// Bars: the data columns of each series (moelog's, then the logbook's when
// any panel has a logbook figure for it), in the order bars stand in a cluster.
struct BarColumn {
  size_t series;
  bool recorded;
};

// The bar columns of panel `p` (a panel cut from a long series list may
// hold fewer series than the first); a recorded column beside a series
// when any panel records that series.
std::vector<BarColumn> BarColumns(const ChartPlan& plan, size_t p) {
  std::vector<BarColumn> out;
  const size_t n = p < plan.panels.size() ? plan.panels[p].series.size() : 0;
  for (size_t s = 0; s < n; ++s) {
    out.push_back({s, false});
    bool rec = false;
    for (const auto& q : plan.panels) rec = rec || (s < q.series.size() && Any(q.series[s].recorded));
    if (rec) out.push_back({s, true});
  }
  return out;
}

// The x position of each bar column of cluster `xi` in panel `p`: the
// bars that cluster has, side by side and centred on it (a cluster missing
// a bar closes up); nullopt for a missing bar.
std::vector<std::optional<double>> BarPositions(const ChartPlan& plan, size_t p, size_t xi) {
  const std::vector<BarColumn> cols = BarColumns(plan, p);
  const double w = 0.8 / static_cast<double>(std::max<size_t>(1, cols.size()));
  std::vector<std::optional<double>> out(cols.size());
  size_t present = 0;
  auto value = [&](const BarColumn& c) {
    const ChartSeries& se = plan.panels[p].series[c.series];
    return c.recorded ? se.recorded[xi] : se.y[xi];
  };
  for (const auto& c : cols) present += value(c).has_value();
  size_t k = 0;
  for (size_t j = 0; j < cols.size(); ++j)
    if (value(cols[j]))
      out[j] = static_cast<double>(xi) + w * (static_cast<double>(k++) + 0.5 - static_cast<double>(present) / 2.0);
  return out;
}

// Bars of one cluster in one panel are each named under their own bar: a
// legend of the same names would only repeat them.
bool BarsNamedByTicks(const ChartPlan& plan) {
  return plan.kind == ChartPlan::Kind::kBars && plan.panels.size() == 1 && plan.x_values.size() == 1 &&
         plan.x_values[0].empty() &&
         std::none_of(plan.panels[0].series.begin(), plan.panels[0].series.end(),
                      [](const ChartSeries& x) { return x.axis == 2; });
}

// Where the panels and the legend go on the canvas.
struct Canvas {
  int width = 900, height = 0, cols = 1, rows = 1;
  int title_px = 0, panel_px = 0, legend_px = 0, legend_cols = 4;
};

Canvas Arrange(const ChartPlan& plan, size_t subtitles) {
  Canvas c;
  const int n = static_cast<int>(plan.panels.size());
  c.cols = n <= 1 ? 1 : n <= 4 ? 2 : 3;
  c.rows = (n + c.cols - 1) / c.cols;
  c.width = c.cols == 3 ? 1200 : 900;
  c.title_px = 44 + 18 * static_cast<int>(subtitles);
  c.panel_px = n <= 1 ? 400 : 300;
  // Series swatches only (what the marks' styles mean is a line of text):
  // as many columns as the longest name lets fit, never a cut name.
  std::set<std::string> names;
  size_t longest = 0;
  for (const auto& p : plan.panels)
    for (const auto& se : p.series) names.insert(se.name), longest = std::max(longest, se.name.size());
  const int entries = std::max<int>(1, static_cast<int>(names.size()));
  // gnuplot sets a key's columns about 7.5 px a character plus the swatch,
  // inside the strip's margins; it falls back to one column when asked for
  // more than fit, so the estimate errs wide.
  const int fit = std::max(1, static_cast<int>((c.width - 120) / (7.5 * static_cast<double>(longest) + 80)));
  c.legend_cols = std::min({entries, c.cols == 3 ? 5 : 4, fit});
  c.legend_px = BarsNamedByTicks(plan) ? 44 : 44 + 20 * ((entries + c.legend_cols - 1) / std::max(1, c.legend_cols));
  c.height = c.title_px + c.rows * c.panel_px + c.legend_px;
  return c;
}

// The y range of each metric, shared by every panel that shows it.
std::map<std::string, double> YMax(const ChartPlan& plan) {
  std::map<std::string, double> out;
  for (const auto& p : plan.panels)
    for (const auto& s : p.series)
      for (const auto* v : {&s.y, &s.recorded, &s.hi})
        for (const auto& y : *v)
          if (y && std::isfinite(*y)) out[s.metric] = std::max(out[s.metric], *y);
  return out;
}

// The smallest figure of each metric (moelog's, the logbook's, the low
// ends of error bars).
std::map<std::string, double> YMin(const ChartPlan& plan) {
  std::map<std::string, double> out;
  for (const auto& p : plan.panels)
    for (const auto& s : p.series)
      for (const auto* v : {&s.y, &s.recorded, &s.lo})
        for (const auto& y : *v)
          if (y && std::isfinite(*y)) out[s.metric] = out.count(s.metric) ? std::min(out[s.metric], *y) : *y;
  return out;
}

// Where each metric's y axis starts: 0, unless every figure lies within the
// top quarter of the range from 0, where an axis from 0 flattens the
// differences the chart is about; then a round value below the smallest,
// leaving the figures' spread (at least a tenth of the largest) in view.
std::map<std::string, double> YFloor(const ChartPlan& plan) {
  std::map<std::string, double> out;
  const auto lo = YMin(plan), hi = YMax(plan);
  for (const auto& [m, top] : hi) {
    auto l = lo.find(m);
    if (l == lo.end() || !(l->second > 0) || !(top > 0) || l->second < 0.75 * top) continue;
    const double spread = std::max(top - l->second, 0.1 * top);
    const double raw = l->second - 0.5 * spread;
    const double step = std::pow(10.0, std::floor(std::log10(std::max(spread, 1e-12))));
    const double floor = std::floor(raw / step) * step;
    if (floor > 0) out[m] = floor;
  }
  return out;
}

// The metrics drawn on a logarithmic y axis: every figure positive and the
// largest 100 times the smallest or more (a YCSB report's 11 ops/s beside
// 7562 ops/s), where an axis from 0 leaves the small bars a hairline.
std::set<std::string> LogY(const ChartPlan& plan) {
  std::set<std::string> out;
  const auto lo = YMin(plan), hi = YMax(plan);
  for (const auto& [m, top] : hi)
    if (auto l = lo.find(m); l != lo.end() && l->second > 0 && top >= 100 * l->second) out.insert(m);
  return out;
}

bool IsTimeMetric(const std::string& m) {
  const std::string tail = "_time_s";
  return m == "time_s" || m == "mean_s" ||
         (m.size() > tail.size() && m.compare(m.size() - tail.size(), tail.size(), tail) == 0);
}

// The factor a metric's values are divided by on the axis. Large figures
// (tokens/s) are plotted in thousands or millions, so every tick of an axis
// has one format ("0.5", "1", "1.5" with "(millions)" on the axis label, not
// "0.0", "500.0k" and "1.5M"); times under a second in ms or us, as the
// logbook's tables show them ("time (ms)", not "0.0235").
double YScale(const std::map<std::string, double>& ymax, const std::string& metric) {
  auto it = ymax.find(metric);
  if (it == ymax.end() || it->second <= 0) return 1;
  if (IsTimeMetric(metric) && it->second < 1) return it->second < 1e-3 ? 1e-6 : 1e-3;
  if (it->second < 1e5) return 1;
  return it->second >= 2e6 ? 1e6 : 1e3;
}

// The axis label of a metric shown at `scale`.
std::string YAxisLabel(const std::string& metric, double scale) {
  std::string label = MetricLabel(metric);
  if (scale == 1e6) return label + " (millions)";
  if (scale == 1e3) return label + " (thousands)";
  if (scale < 1) {
    const std::string unit = scale == 1e-3 ? "ms" : "us";
    if (label.size() > 4 && label.compare(label.size() - 4, 4, " (s)") == 0) return label.substr(0, label.size() - 2) + unit + ")";
    return label + " (" + unit + ")";
  }
  return label;
}

std::string ScaleText(double scale) {
  return scale == 1e6 ? "1e6" : scale == 1e3 ? "1e3" : scale == 1e-3 ? "1e-3" : "1e-6";
}

// A data column as plotted: "3" or "($3/1e6)".
std::string Col(size_t column, double scale) {
  if (scale == 1) return std::to_string(column);
  return "($" + std::to_string(column) + "/" + ScaleText(scale) + ")";
}

std::string YRange(const std::map<std::string, double>& ymax, const std::string& metric,
                   const std::map<std::string, double>& floors = {}) {
  auto it = ymax.find(metric);
  auto f = floors.find(metric);
  const double k = YScale(ymax, metric);
  const double from = f == floors.end() ? 0 : f->second;
  if (it == ymax.end() || it->second <= 0) return "[0:*]";
  std::string r = "[";
  r.append(Num(from / k)).append(":").append(Num((from + (it->second - from) * 1.12) / k)).append("]");
  return r;
}

std::string TickFormat(const std::map<std::string, double>&, const std::string&) { return "'%g'"; }

// A cluster label of bars fits horizontally when the clusters' labels fit
// the panel's width at about 7 px a character.
bool TicksFit(const ChartPlan& plan, const Canvas& c) {
  size_t longest = 0;
  for (const auto& x : plan.x_values) longest = std::max(longest, x.size());
  const double per_cluster = (c.width / c.cols - 90.0) / std::max<size_t>(1, plan.x_values.size());
  return longest * 7.0 + 8 <= per_cluster;
}

void PanelFrame(const ChartPlan& plan, const ChartPanel& panel, const Canvas& c, size_t i,
                const std::map<std::string, double>& ymax, const std::map<std::string, double>& floors,
                std::ostringstream& s) {
  const int col = static_cast<int>(i) % c.cols, row = static_cast<int>(i) / c.cols;
  const double h = static_cast<double>(c.height);
  s << "set origin " << Frac(static_cast<double>(col) / c.cols) << ","
    << Frac((c.legend_px + (c.rows - 1 - row) * c.panel_px) / h) << "\n"
    << "set size " << Frac(1.0 / c.cols) << "," << Frac(c.panel_px / h) << "\n";
  if (panel.label.empty()) s << "unset title\n";
  else s << "set title '" << panel.label << "'\n";
  s << "set xlabel '" << plan.x_label << "'\n"
    << "set ylabel '" << YAxisLabel(panel.metric, YScale(ymax, panel.metric)) << "'\n";
  const auto logs = LogY(plan);
  if (logs.count(panel.metric)) {  // a decade below the smallest figure, a fifth above the largest
    const double k = YScale(ymax, panel.metric);
    s << "set logscale y 10\nset yrange [" << Num(std::pow(10.0, std::floor(std::log10(YMin(plan).at(panel.metric) / k)) - 1))
      << ":" << Num(ymax.at(panel.metric) * 1.2 / k) << "]\n";
  } else {
    s << (logs.empty() ? "" : "unset logscale y\n") << "set yrange " << YRange(ymax, panel.metric, floors) << "\n";
  }
  s << "set format y " << TickFormat(ymax, panel.metric) << "\n";
  // An axis that does not start at 0 shows a break mark at its foot.
  s << "unset arrow\n";
  if (floors.count(panel.metric))
    s << "set arrow 1 from graph -0.012, graph 0.012 to graph 0.012, graph 0.036 nohead lw 1.5 front\n"
      << "set arrow 2 from graph -0.012, graph 0.036 to graph 0.012, graph 0.060 nohead lw 1.5 front\n";
  const bool y2 = std::any_of(panel.series.begin(), panel.series.end(), [](const ChartSeries& x) { return x.axis == 2; });
  if (y2) {
    std::string m;
    for (const auto& se : panel.series)
      if (se.axis == 2) m = se.metric;
    s << "set y2label '" << YAxisLabel(m, YScale(ymax, m)) << "'\n"
      << "set y2tics\nset ytics nomirror\nset y2range " << YRange(ymax, m) << "\n"
      << "set format y2 " << TickFormat(ymax, m) << "\n";
  } else {
    s << "unset y2label\nunset y2tics\nset ytics mirror\n";
  }
}

// A tic label is a format string to gnuplot ('93.9%...' stops it with "Bad
// format character"): each '%' is doubled to stand for itself.
std::string TickLabel(const std::string& label) {
  std::string out;
  for (char c : label) out += c == '%' ? std::string("%%") : std::string(1, c);
  return out;
}

// A bar's own label: its value alone when the axis title names the one key
// compared ("naive" under "variant", not "variant=naive").
std::string BarTick(const ChartPlan& plan, const std::string& name) {
  const std::string prefix = plan.bar_key + "=";
  return !plan.bar_key.empty() && name.size() > prefix.size() && name.rfind(prefix, 0) == 0 ? name.substr(prefix.size())
                                                                                          : name;
}

void LinePanel(const ChartPlan& plan, size_t p, const std::vector<Block>& blocks, const std::string& data_file,
               const std::map<std::string, double>& ymax, std::ostringstream& s) {
  s << "set xtics (";
  for (size_t i = 0; i < plan.x_values.size(); ++i) s << (i ? ", " : "") << plan.x_values[i];
  s << ")\n" << (plan.log_x ? "set logscale x 2\n" : "unset logscale x\n");
  s << "set offsets graph 0.04, graph 0.04, 0, 0\n";
  std::string items;
  for (size_t b = 0; b < blocks.size(); ++b) {
    if (blocks[b].panel != p) continue;
    const ChartSeries& se = plan.panels[p].series[blocks[b].series];
    const double k = YScale(ymax, se.metric);
    const std::string colour = std::string(" lc rgb '") + Colour(se.colour) + "' notitle";
    const std::string src = "'" + data_file + "' index " + std::to_string(b);
    // Error bars first, so the line's markers are drawn over them.
    if (!blocks[b].recorded && Any(se.lo))
      items += std::string(items.empty() ? "" : ", \\\n     ") + src + " using 1:" + Col(2, k) + ":" + Col(3, k) +
               ":" + Col(4, k) + " axes x1y" + std::to_string(se.axis) + " with yerrorbars pt 0 lw 1.2" + colour;
    items += std::string(items.empty() ? "" : ", \\\n     ") + src + " using 1:" + Col(2, k) + " axes x1y" +
             std::to_string(se.axis) +
             (blocks[b].recorded ? " with points pt 6 ps 1.6 lw 2" : " with linespoints lw 2 pt 7 ps 0.9 dt " +
                                                                         std::to_string(se.axis == 2 || plan.prediction ? 2 : 1)) +
             colour;
  }
  s << "plot " << (items.empty() ? "NaN notitle" : items) << "\n";
}

void BarPanel(const ChartPlan& plan, size_t p, const Canvas& c, const std::string& data_file,
              const std::map<std::string, double>& ymax, std::ostringstream& s) {
  const std::vector<BarColumn> cols = BarColumns(plan, p);
  const double w = 0.8 / static_cast<double>(std::max<size_t>(1, cols.size()));
  const double k = YScale(ymax, plan.panels[p].metric);
  // No tick marks on the top border (the cluster ticks are labels only).
  s << "unset logscale x\nset offsets 0, 0, 0, 0\nset boxwidth " << Frac(w) << " absolute\n"
    << "set xrange [-0.6:" << Num(static_cast<double>(plan.x_values.size()) - 0.4) << "]\n"
    << "set xtics nomirror scale 0 (";
  if (plan.x_values.size() == 1 && plan.x_values[0].empty()) {
    // One cluster, nothing else varied: each bar is labelled with its value.
    size_t shown = 0, longest = 0;
    for (size_t j = 0; j < cols.size(); ++j) {
      if (cols[j].recorded) continue;
      const double off = -0.4 + w * (static_cast<double>(j) + 0.5);
      const double centre = cols.size() > j + 1 && cols[j + 1].recorded ? off + w / 2 : off;
      const std::string label = BarTick(plan, plan.panels[p].series[cols[j].series].name);
      longest = std::max(longest, label.size());
      s << (shown++ ? ", " : "") << "'" << TickLabel(label) << "' " << Frac(centre);
    }
    // The x range is 1.2 wide here; a bar (and its hollow twin) is w of it.
    const double per_bar = (c.width / c.cols - 90.0) * w * (cols.size() > shown ? 2.0 : 1.0) / 1.2;
    s << ")" << (static_cast<double>(longest) * 7.0 + 8 <= per_bar ? "" : " rotate by -30") << "\n";
  } else {
    for (size_t i = 0; i < plan.x_values.size(); ++i) s << (i ? ", " : "") << "'" << TickLabel(plan.x_values[i]) << "' " << i;
    s << ")" << (TicksFit(plan, c) ? "" : " rotate by -30") << "\n";
  }
  // Columns: 1 position, 2 label, the bar values, the bands (two per
  // moelog column), then each bar's x position (BarPositions).
  std::string items, bars;
  size_t band_col = 3 + cols.size();
  size_t moelog_cols = 0;
  for (const auto& c : cols) moelog_cols += !c.recorded;
  const size_t pos_col = 3 + cols.size() + (plan.any_band ? 2 * moelog_cols : 0);
  for (size_t j = 0; j < cols.size(); ++j) {
    const ChartSeries& se = plan.panels[p].series[cols[j].series];
    const std::string x = "($" + std::to_string(pos_col + j) + ")";
    const std::string src = "'" + data_file + "' index " + std::to_string(p);
    const std::string fill = cols[j].recorded  ? "fill empty border lw 2"
                             : plan.prediction ? "fill pattern 4 border lw 1"
                                               : "fill solid 0.85 noborder";
    items += std::string(items.empty() ? "" : ", \\\n     ") + src + " using " + x + ":" + Col(j + 3, k) +
             " with boxes " + fill + " lc rgb '" + Colour(se.colour) + "' notitle";
    if (plan.any_band && !cols[j].recorded) {
      bars += ", \\\n     " + src + " using " + x + ":" + Col(j + 3, k) + ":" + Col(band_col, k) + ":" +
              Col(band_col + 1, k) + " with yerrorbars pt 0 lw 1.2 lc rgb '#222222' notitle";
      band_col += 2;
    }
  }
  s << "plot " << (items.empty() ? "NaN notitle" : items + bars) << "\n";
}

// The legend's swatches: one per series name, in the series' colours.
std::string SeriesKeyEntries(const ChartPlan& plan) {
  const bool bars = plan.kind == ChartPlan::Kind::kBars;
  std::string items = "NaN notitle";
  std::set<std::string> seen;
  for (const auto& p : plan.panels)
    for (const auto& se : p.series) {
      if (!seen.insert(se.name).second) continue;
      std::string name = se.name;
      if (se.axis == 2) name += " (right axis)";
      else if (std::any_of(p.series.begin(), p.series.end(), [](const ChartSeries& x) { return x.axis == 2; }))
        name += " (left axis)";
      const std::string fill = plan.prediction ? "boxes fill pattern 4 border lw 1" : "boxes fill solid 0.85 noborder";
      items += std::string(", \\\n     keyentry with ") +
               (bars ? fill : "linespoints lw 2 pt 7 dt " + std::to_string(plan.prediction ? 2 : se.axis)) +
               " lc rgb '" + Colour(se.colour) + "' title '" + name + "'";
    }
  return items;
}

// The legend strip: one entry per series colour, then what a filled and a
// hollow mark mean (moelog's figure, the logbook's).
void Legend(const ChartPlan& plan, const Canvas& c, std::ostringstream& s) {
  const double strip = static_cast<double>(c.legend_px) / c.height;
  s << "set origin 0," << Frac(22.0 / c.height) << "\nset size 1," << Frac(strip - 22.0 / c.height) << "\n"
    << "unset title\nunset xlabel\nunset ylabel\nunset y2label\nunset border\nunset xtics\nunset ytics\n"
    << "unset y2tics\nunset grid\nunset arrow\nunset logscale x\n" << (LogY(plan).empty() ? "" : "unset logscale y\n")
    << "set offsets 0, 0, 0, 0\n"
    << "set xrange [0:1]\nset yrange [0:1]\n"
    << "set key center center horizontal maxcols " << c.legend_cols << " samplen 3 spacing 1.2\n";
  const bool bars = plan.kind == ChartPlan::Kind::kBars;
  const std::string items = BarsNamedByTicks(plan) ? "NaN notitle" : SeriesKeyEntries(plan);
  // What the marks' styles mean, in words under the swatches: a swatch of
  // its own would match no bar or line of the chart.
  const bool recorded_only = plan.source == "logbook" && !plan.any_recorded;
  std::string styles;
  if (!recorded_only) {
    const std::string what = plan.prediction ? "prediction, " + plan.source : plan.source;
    styles = (bars ? (plan.prediction ? "hatched bars: " : "filled bars: ") : (plan.prediction ? "dashed lines: " : "lines: ")) + what;
    if (plan.any_recorded) styles += bars ? "; outlined bars: logbook" : "; open circles: logbook";
  }
  if (!styles.empty())
    s << "set label 1 '" << styles << "' at screen 0.5, screen " << Frac(10.0 / c.height) << " center\n";
  s << "plot " << items << "\n";
  if (!styles.empty()) s << "unset label\n";
}

}  // namespace

std::string ChartData(const ChartPlan& plan) {
  std::ostringstream s;
  const bool line = plan.kind == ChartPlan::Kind::kLine;
  s << "# moelog chart data: " << (line ? "line" : "bars") << ", x = " << plan.x_key << "\n";
  if (line) {
    // One block per series and source (gnuplot `index`), "x y" rows.
    const std::vector<Block> blocks = LineBlocks(plan);
    for (size_t b = 0; b < blocks.size(); ++b) {
      const ChartPanel& panel = plan.panels[blocks[b].panel];
      const ChartSeries& se = panel.series[blocks[b].series];
      s << "# index " << b << ": " << (panel.label.empty() ? "" : panel.label + " | ") << se.name << " | "
        << (blocks[b].recorded ? "logbook" : plan.source) << " | " << se.metric << ", y axis " << se.axis << "\n";
      const auto& ys = blocks[b].recorded ? se.recorded : se.y;
      const bool band = !blocks[b].recorded && Any(se.lo);
      for (size_t xi = 0; xi < plan.x_values.size(); ++xi) {
        if (!ys[xi]) continue;
        s << plan.x_values[xi] << " " << Num(*ys[xi]);
        if (band) s << " " << (se.lo[xi] ? Num(*se.lo[xi]) : "?") << " " << (se.hi[xi] ? Num(*se.hi[xi]) : "?");
        s << "\n";
      }
      s << "\n\n";
    }
    return s.str();
  }
  // Bars: one block per panel, one row per cluster: position, label, then
  // each bar column; '?' = missing.
  for (size_t p = 0; p < plan.panels.size(); ++p) {
    const std::vector<BarColumn> cols = BarColumns(plan, p);
    const ChartPanel& panel = plan.panels[p];
    s << "# index " << p << ": " << (panel.label.empty() ? "all" : panel.label) << " | " << panel.metric
      << "\n# x cluster";
    for (const auto& c : cols) s << " | " << panel.series[c.series].name << " (" << (c.recorded ? "logbook" : plan.source) << ")";
    if (plan.any_band)
      for (const auto& c : cols)
        if (!c.recorded) s << " | " << panel.series[c.series].name << " p10 | p90";
    s << " | bar positions\n";
    for (size_t xi = 0; xi < plan.x_values.size(); ++xi) {
      s << xi << " \"" << plan.x_values[xi] << "\"";
      for (const auto& c : cols) {
        const auto& v = c.recorded ? panel.series[c.series].recorded[xi] : panel.series[c.series].y[xi];
        s << " " << (v ? Num(*v) : std::string("?"));
      }
      if (plan.any_band)
        for (const auto& c : cols) {
          if (c.recorded) continue;
          const auto& lo = panel.series[c.series].lo[xi];
          const auto& hi = panel.series[c.series].hi[xi];
          s << " " << (lo ? Num(*lo) : std::string("?")) << " " << (hi ? Num(*hi) : std::string("?"));
        }
      for (const auto& x : BarPositions(plan, p, xi)) s << " " << (x ? Frac(*x) : std::string("?"));
      s << "\n";
    }
    s << "\n\n";
  }
  return s.str();
}

std::string ChartScript(const ChartPlan& plan, const std::string& data_file, const std::string& output_file, bool png) {
  const auto ymax = YMax(plan);
  const auto floors = YFloor(plan);
  std::vector<std::string> subtitles = plan.subtitles;
  for (const auto& [m, from] : floors) {
    const double k = YScale(ymax, m);
    subtitles.push_back("the " + YAxisLabel(m, k) + " axis starts at " + Num(from / k) + ", not 0 (break mark at its foot)");
  }
  for (const auto& m : LogY(plan))
    subtitles.push_back("the " + YAxisLabel(m, YScale(ymax, m)) + " axis is logarithmic: its figures span " +
                        Num(std::round(ymax.at(m) / YMin(plan).at(m))) + "x");
  const Canvas c = Arrange(plan, subtitles.size());
  std::ostringstream s;
  s << "# moelog chart script: run gnuplot on this file in its directory to redraw the chart.\n";
  s << "set terminal " << (png ? "pngcairo" : "svg") << " size " << c.width << "," << c.height
    << " noenhanced font 'sans," << (png ? 10 : 11) << "' background rgb 'white'\n"
    << "set output '" << output_file << "'\n"
    << "set datafile missing '?'\n"
    << "set grid ytics\nunset key\n"
    << "set multiplot\n";
  // The title and its lines, centred above the panels (labels drawn with the
  // first panel, then removed so no other panel repeats them).
  const double h = static_cast<double>(c.height);
  s << "set label 1 '" << plan.title << "' at screen 0.5, screen " << Frac(1.0 - 20.0 / h) << " center font ',12'\n";
  for (size_t i = 0; i < subtitles.size(); ++i)
    s << "set label " << i + 2 << " '" << subtitles[i] << "' at screen 0.5, screen "
      << Frac(1.0 - (40.0 + 18.0 * static_cast<double>(i)) / h) << " center\n";
  const std::vector<Block> blocks = LineBlocks(plan);
  for (size_t p = 0; p < plan.panels.size(); ++p) {
    PanelFrame(plan, plan.panels[p], c, p, ymax, floors, s);
    if (plan.kind == ChartPlan::Kind::kLine) LinePanel(plan, p, blocks, data_file, ymax, s);
    else BarPanel(plan, p, c, data_file, ymax, s);
    if (p == 0) s << "unset label\n";
  }
  Legend(plan, c, s);
  s << "unset multiplot\nunset output\n";
  return s.str();
}

std::string DrawnAxisLabel(const ChartPlan& plan, const std::string& metric) {
  return YAxisLabel(metric, YScale(YMax(plan), metric));
}

}  // namespace moelog::logbook
