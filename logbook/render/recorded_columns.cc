// The columns of a table of recorded figures (render_table.h,
// RenderRecordedTable): one per metric, in the unit most of its figures were
// written in, and each figure's cell as its author wrote it.
#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "logbook/numbers.h"
#include "logbook/reader/vocabulary.h"
#include "logbook/render/table_parts.h"
#include "logbook/render/units.h"

namespace moelog::logbook::table_parts {
namespace {

// The unit most figures of `metric` were written in.
std::string CommonUnit(const std::vector<RecordedFigure>& figures, const std::string& metric) {
  std::map<std::string, int> n;
  for (const auto& f : figures)
    if (auto it = f.run.units.find(metric); it != f.run.units.end()) ++n[it->second];
  std::string best;
  int most = 0;
  for (const auto& [u, c] : n)
    if (c > most) best = u, most = c;
  return best;
}

// Whether `digits` stand in `text` as one number of their own (not part of
// a longer one: "1,412" in "| 1,412 |", not in "21,412").
bool NumberIn(const std::string& text, const std::string& digits) {
  auto part = [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)) || ch == ',' || ch == '.'; };
  for (size_t at = text.find(digits); at != std::string::npos; at = text.find(digits, at + 1)) {
    const size_t end = at + digits.size();
    const bool before = at > 0 && part(text[at - 1]);
    const bool after = end < text.size() && (std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == ',' ||
                                             (text[end] == '.' && end + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[end + 1]))));
    if (!before && !after) return true;
  }
  return false;
}

}  // namespace

// A figure's digits grouped as its author wrote them: "9,118,240" when its
// line writes them so, "1306.66" when it writes them plain; as shown otherwise.
std::string AsWrittenGrouping(const std::string& written, const std::string& shown) {
  if (shown.empty() || shown.find_first_not_of("0123456789,.-") != std::string::npos) return shown;
  std::string plain = shown;
  plain.erase(std::remove(plain.begin(), plain.end(), ','), plain.end());
  const std::string grouped = GroupThousands(plain);
  if (grouped == plain) return shown;
  if (NumberIn(written, grouped)) return grouped;
  if (NumberIn(written, plain)) return plain;
  return shown;
}

// A recorded figure as its author wrote it ("0.027212", "21.050"), when it
// was written in the unit its column shows; else at the column's decimals.
std::string RecordedCell(const RecordedFigure& f, const RecordedColumn& c) {
  auto it = f.run.metrics.find(c.metric);
  if (it == f.run.metrics.end()) return "-";
  auto d = f.run.decimals.find(c.metric);
  auto u = f.run.units.find(c.metric);
  auto canon = [](const std::string& w) -> std::string {
    if (w == "seconds" || w == "second" || w == "sec" || w == "secs" || w == "s/step") return "s";
    if (w == "ms/step" || w == "ms/iter") return "ms";
    return w == "\xC2\xB5s" ? "us" : w;
  };
  // "221k" written in a column of tokens/s: shown as written, "221k".
  std::string plain;
  const double magnitude =
      u == f.run.units.end() ? 1 : reader::MagnitudeOf(reader::ReaderLexicon(), u->second, &plain);
  if (magnitude != 1 && d != f.run.decimals.end() &&
      (c.unit.empty() ? c.scale == 1 : SameWrittenUnit(plain, c.unit)) && !f.run.repeats.count(c.metric)) {
    std::string out = AsWrittenGrouping(f.text + "\n" + f.written,
                                        GroupThousands(Fixed(it->second * c.scale / magnitude, std::min(d->second, 16))));
    if (f.run.approximate.count(c.metric)) out.insert(0, 1, '~');
    return out + u->second.substr(0, u->second.find(' '));
  }
  const bool as_written =
      d != f.run.decimals.end() &&
      (c.unit.empty()
           ? c.scale == 1 && (u == f.run.units.end() || WrittenUnitFactor(u->second) <= 0 ||
                              WrittenUnitFactor(u->second) == 1)
           : u != f.run.units.end() && (canon(u->second) == canon(c.unit) || SameWrittenUnit(u->second, c.unit)));
  // "12.4 TFLOP/s" in a column of GFLOPS: as written, unit and all.
  if (const std::string other = as_written ? "" : OtherUnitText(f.run, c.metric); !other.empty()) {
    const size_t sp = other.find(' ');  // "11,020 MB/s": its digits grouped as written too
    const std::string shown = sp == std::string::npos ? other : AsWrittenGrouping(f.text + "\n" + f.written, other.substr(0, sp)) + other.substr(sp);
    return (f.run.approximate.count(c.metric) ? "~" : "") + shown;
  }
  // A time written in another unit than its column's ("1675.56 usec" in a
  // column of msec): its digits and its unit as written, never converted.
  if (const double secs = !as_written && u != f.run.units.end() && d != f.run.decimals.end() && d->second >= 0 &&
                                  !f.run.repeats.count(c.metric) && c.metric.find("time_s") != std::string::npos
                              ? TimeUnitSeconds(u->second)
                              : 0;
      secs > 0) {
    std::string plain;  // "4655.6k nsec": the magnitude on the digits
    const bool magnitude = reader::MagnitudeOf(reader::ReaderLexicon(), u->second, &plain) != 1;
    return (f.run.approximate.count(c.metric) ? "~" : "") +
           AsWrittenGrouping(f.text + "\n" + f.written, Fixed(it->second / secs, std::min(d->second, 16))) +
           (magnitude ? u->second.substr(0, u->second.find(' ')) + " " + plain : " " + u->second);
  }
  // "~17.5": the author's approximation stays one. A time written in
  // another unit keeps its significant digits (0.406 s -> 406 ms).
  int decimals = as_written ? std::min(d->second, 16) : c.decimals;
  if (!as_written && u != f.run.units.end() && TimeUnitSeconds(u->second) > 0 &&
      (c.metric == "time_s" || c.metric.find("time_s") != std::string::npos))
    decimals = ShownDecimals(f.run, c.metric, c.scale, c.decimals);
  // Throughputs and cycle counts are grouped by thousands ("14,410 cycles").
  if (c.metric == "tokens_per_s" || c.metric.rfind("tokens_per_s", 0) == 0 || c.metric == "cycles" ||
      (c.metric.size() > 6 && c.metric.compare(c.metric.size() - 6, 6, "_per_s") == 0 && c.metric != "gb_per_s")) {
    std::string out = AsWrittenGrouping(f.text + "\n" + f.written, GroupThousands(MedianText(f.run, c.metric, it->second * c.scale, decimals)));
    if (f.run.approximate.count(c.metric)) out.insert(0, 1, '~');
    return out + RepeatsText(f.run, c.metric, c.scale, decimals);
  }
  std::string out = AsWrittenGrouping(f.text + "\n" + f.written, MedianText(f.run, c.metric, it->second * c.scale, decimals));
  if (f.run.approximate.count(c.metric)) out.insert(0, 1, '~');
  return out + RepeatsText(f.run, c.metric, c.scale, decimals);
}

namespace {

// How a time metric shows in the unit most of its figures were written in:
// "time (ms)" at 1e3, "time (us)" at 1e6, else "time (s)".
RecordedColumn TimeColumn(const std::vector<RecordedFigure>& figures, const std::string& metric) {
  std::string tu;  // "4655.6k" of nsec: a column of nsec, not of "k nsec"
  reader::MagnitudeOf(reader::ReaderLexicon(), CommonUnit(figures, metric), &tu);
  RecordedColumn c{metric, "time (s)", 1, 6, tu.empty() ? "s" : tu};
  if (tu == "ms" || tu == "ms/step" || tu == "ms/iter") c.header = "time (ms)", c.scale = 1e3, c.decimals = 3;
  if (tu == "us" || tu == "\xC2\xB5s") c.header = "time (us)", c.scale = 1e6, c.decimals = 3;
  // "ns", "microseconds", "μs", "msec": another spelling of a shorter time, as written.
  if (const double f = TimeUnitSeconds(tu); f > 0 && f < 1 && c.scale == 1)
    c.header = "time (" + tu + ")", c.scale = 1 / f, c.decimals = 3;
  // "16 minutes", "4.26 hours": a longer unit the vocabulary knows is shown as written.
  reader::UnitInfo info{};
  if (reader::UnitIn(reader::ReaderLexicon(), tu, &info) && info.metric.find("time_s") != std::string::npos &&
      info.factor > 1)
    c.header = "time (" + tu + ")", c.scale = 1 / info.factor;
  return c;
}

// "ci_high_elements_per_s" of elements_per_s in Melem/s: "ci high Melem/s",
// told apart from the plain rate's column.
std::string QualifiedRateHeader(const std::string& metric, const std::string& base, const std::string& unit) {
  const size_t n = base.size();
  std::string q = metric.compare(metric.size() - n, n, base) == 0 ? metric.substr(0, metric.size() - n - 1)
                                                                  : metric.substr(n + 1);
  std::replace(q.begin(), q.end(), '_', ' ');
  q.append(" ").append(unit);
  return q;
}

// A column of a metric moelog has no header of its own for ("memory_mib",
// "val_loss"): headed by its name and, when its figures were written in one
// unit of the vocabulary ("31,745 MiB", "12.3 GB"), shown in that unit.
RecordedColumn OwnColumn(const std::vector<RecordedFigure>& figures, const std::string& metric) {
  RecordedColumn c{metric, MetricWords(metric), 1, 3, ""};  // "iops avg", not iops_avg
  std::string u;
  reader::MagnitudeOf(reader::ReaderLexicon(), CommonUnit(figures, metric), &u);  // "6.44B" is in the column's unit
  if (u == "%") {
    c.header = UnitColumnHeader(metric, u), c.unit = u;  // u is "%"
    return c;
  }
  reader::UnitInfo info{};
  // A tool's own rate ("bw (KiB/s): avg=5921.40", read as bw_avg_kib_per_s):
  // headed "bw avg KiB/s", its figures as written.
  if (const std::string named = MetricWithoutUnit(metric, u);
      !u.empty() && named != metric && !reader::UnitIn(reader::ReaderLexicon(), u, &info)) {
    c.header = MetricWords(named) + " " + u, c.unit = u;
    return c;
  }
  if (u.empty() || !reader::UnitIn(reader::ReaderLexicon(), u, &info) || info.derived || info.factor <= 0) return c;
  c.scale = 1 / info.factor, c.unit = u, c.header = UnitColumnHeader(metric, u);
  if (info.metric != metric && !MetricOfUnit(metric, info.metric)) c.scale = 1;  // before_mb: stored as written
  if (u.find('/') != std::string::npos && info.metric != metric && MetricOfUnit(metric, info.metric))
    c.header = QualifiedRateHeader(metric, info.metric, u);
  return c;
}

// A column of one of moelog's own metrics (TF/s, tokens/s, GB/s) shown in
// the unit its figures were written in when that is another of the
// vocabulary ("GFLOPS" at 1e3, "MB/s" at 1e3); else `header` at `scale`.
RecordedColumn BaseColumn(const std::vector<RecordedFigure>& figures, const std::string& metric,
                          const std::string& header, double scale, int decimals) {
  RecordedColumn c{metric, header, scale, decimals, ""};
  std::string u;
  reader::MagnitudeOf(reader::ReaderLexicon(), CommonUnit(figures, metric), &u);
  reader::UnitInfo info{};
  if (u.empty() || !reader::UnitIn(reader::ReaderLexicon(), u, &info) ||
      (info.metric != metric && !MetricOfUnit(metric, info.metric)) || info.derived || info.factor <= 0 ||
      info.factor == 1)
    return c;
  c.header = u, c.scale = 1 / info.factor, c.unit = u;
  return c;
}

// Columns of metrics named beside a base one ("exposed_collective_time_s",
// "mfu_p50", "p90_time_s", "useful_tflops_per_rank"): the base's header and
// scale with the name; what is left, under its own name.
void NamedColumns(const std::vector<RecordedFigure>& figures, std::set<std::string>* left,
                  std::vector<RecordedColumn>* cols) {
  std::set<std::string>& metrics = *left;
  auto add = [&](const std::string& m, const std::string& header, double scale, int decimals) {
    if (metrics.erase(m)) cols->push_back({m, header, scale, decimals, ""});
  };
  struct Base {
    const char* metric;
    const char* header;
    double scale;
    int decimals;
  };
  const Base kBases[] = {{"time_s", "time (ms)", 1e3, 3},  {"tflops", "TF/s", 1, 3}, {"tokens_per_s", "tokens/s", 1, 0},
                         {"gb_per_s", "GB/s", 1, 1},       {"mfu", "MFU %", 1, 2}};
  auto words = [](std::string q) {
    std::replace(q.begin(), q.end(), '_', ' ');
    return q;
  };
  for (const auto& m : std::vector<std::string>(metrics.begin(), metrics.end())) {
    for (const Base& b : kBases) {
      const std::string base = b.metric;
      if (m.size() > base.size() + 1 && m.compare(m.size() - base.size() - 1, base.size() + 1, "_" + base) == 0) {
        const std::string q = words(m.substr(0, m.size() - base.size() - 1));
        if (base == "time_s" && metrics.erase(m)) {  // "p90 time (ms)": in the unit its figures were written in
          RecordedColumn t = TimeColumn(figures, m);
          // "p95 latency (ms)", "train/step time avg (s)": a name that says time is not told it again.
          if (reader::NamesATime(q) && t.header.rfind("time ", 0) == 0) t.header.erase(0, 5);
          t.header.insert(0, q + " ");
          cols->push_back(std::move(t));
        }
        // "avg rkb kB/s": figures written in another unit of the base are headed in it.
        if (RecordedColumn c = BaseColumn(figures, m, q + " " + b.header, b.scale, b.decimals);
            !c.unit.empty() && metrics.erase(m))
          c.header = q + " " + c.unit, cols->push_back(std::move(c));
        add(m, q + " " + b.header, b.scale, b.decimals);
        break;
      }
      if (m.size() > base.size() + 1 && m.compare(0, base.size() + 1, base + "_") == 0) {
        add(m, std::string(b.header) + " (" + words(m.substr(base.size() + 1)) + ")", b.scale, b.decimals);
        break;
      }
    }
  }
  for (const auto& m : std::vector<std::string>(metrics.begin(), metrics.end())) {
    // "useful_tflops_per_rank": a per-device figure, headed by its base's words.
    const size_t per = m.rfind("_per_");
    bool named = false;
    for (const Base& b : kBases) {
      const std::string base = b.metric;
      if (per == std::string::npos || per < base.size() || m.compare(per - base.size(), base.size(), base) != 0) continue;
      const std::string q = per == base.size() ? "" : words(m.substr(0, per - base.size() - 1)) + " ";
      add(m, q + b.header + " per " + m.substr(per + 5), b.scale, b.decimals);
      named = true;
      break;
    }
    if (!named && metrics.erase(m)) cols->push_back(OwnColumn(figures, m));
  }
}

}  // namespace

std::vector<RecordedColumn> RecordedColumns(const std::vector<RecordedFigure>& figures) {
  std::set<std::string> metrics;
  for (const auto& f : figures)
    for (const auto& [m, v] : f.run.metrics) metrics.insert(m);
  std::vector<RecordedColumn> cols;
  auto add = [&](const std::string& m, const std::string& header, double scale, int decimals) {
    if (metrics.erase(m)) cols.push_back({m, header, scale, decimals, ""});
  };
  if (metrics.erase("time_s")) cols.push_back(TimeColumn(figures, "time_s"));
  for (const auto& [m, header, decimals] : {std::tuple<const char*, const char*, int>{"tflops", "TF/s", 3},
                                            {"tokens_per_s", "tokens/s", 0}, {"gb_per_s", "GB/s", 1}})
    if (metrics.erase(m)) cols.push_back(BaseColumn(figures, m, header, 1, decimals));
  add("mfu", "MFU %", 1, 2);  // as written: 12.61 %
  // A speedup is derived from two runs, unless the logbook's harness scores
  // runs by one ("tr 2.7x -> 7.3x" against a fixed reference): then measured.
  const bool derived_speedup = std::any_of(figures.begin(), figures.end(), [](const RecordedFigure& f) {
    return f.run.metrics.count("speedup") && f.run.derived.count("speedup");
  });
  add("speedup", derived_speedup ? "speedup (derived)" : "speedup", 1, 3);
  for (const auto& m : std::vector<std::string>(metrics.begin(), metrics.end())) {
    if (m.size() < 9 || m.compare(m.size() - 9, 9, "delta_pct") != 0) continue;
    std::string base = m == "delta_pct" ? "" : m.substr(0, m.size() - 10);
    base = base == "tflops" ? "TF/s " : base == "tokens_per_s" ? "tokens/s " : base == "time_s" ? "time " : base.empty() ? "" : base + " ";
    // "delta %" only over percentages: a change written without one is shown so.
    const bool percent = std::all_of(figures.begin(), figures.end(), [&](const RecordedFigure& f) {
      const auto u = f.run.units.find(m);
      return !f.run.metrics.count(m) || u == f.run.units.end() || u->second == "%";
    });
    add(m, base + (percent ? "delta % (derived)" : "delta (derived)"), 1, 2);
  }
  NamedColumns(figures, &metrics, &cols);
  return cols;
}

}  // namespace moelog::logbook::table_parts
