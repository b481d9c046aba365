
#include "logbook/reader/figures_cells.h"
#include "logbook/reader/figures_output_words.h"
#include "logbook/reader/figures_values.h"
#include "logbook/reader/figures_vertical.h"
#include "logbook/reader/table_derived.h"
#include "logbook/reader/data_words.h"
#include "logbook/reader/internal.h"
#include "logbook/reader/table_cross.h"
#include "logbook/reader/table_slashcols.h"
#include "logbook/reader/table_ledger.h"
#include "logbook/reader/table_stacked.h"
#include "logbook/reader/table_pairs.h"
#include "logbook/reader/table_guesses.h"
#include "logbook/reader/table_repeats.h"
#include "logbook/reader/table_statcells.h"

namespace moelog::logbook {

namespace reader {

namespace {

// The words of data/reader/table.json, read once.
struct TableWords {
  std::set<std::string> quality, no_run, measured, remarks, paren_statistics, status, ledger_times;
  std::map<std::string, std::string> aliases, devices;
};

const TableWords& Vocab() {
  static const TableWords words = [] {
    TableWords w;
    const char* file = "data/reader/table.json";
    for (const auto& [key, into] : {std::pair{"quality_words", &w.quality}, std::pair{"no_run_cells", &w.no_run},
                                    std::pair{"measured_words", &w.measured}, std::pair{"remark_headers", &w.remarks},
                                    std::pair{"paren_statistics", &w.paren_statistics},
                                    std::pair{"status_headers", &w.status}, std::pair{"ledger_time_headers", &w.ledger_times}})
      *into = DataWords(file, key);
    for (const auto& [key, into] : {std::pair{"header_key_aliases", &w.aliases}, std::pair{"device_words", &w.devices}})
      *into = DataWordMap(file, key);
    return w;
  }();
  return words;
}

// "(seq=1024)", "B=128", "Batch-8": a header's key=value, its key by the aliases.
bool HeaderPair(std::string w, std::string* key, std::string* value) {
  while (!w.empty() && std::strchr("(),;:", w.back())) w.pop_back();
  while (!w.empty() && std::strchr("(", w.front())) w.erase(w.begin());
  size_t eq = w.find('=');
  // "Batch-8", "bs-16": a setting's word, a dash and its whole-number value.
  if (const size_t dash = w.rfind('-'); eq == std::string::npos && dash != std::string::npos && dash > 0 &&
                                        dash + 1 < w.size() && ParameterHeader(w.substr(0, dash)) &&
                                        w.find_first_not_of("0123456789", dash + 1) == std::string::npos)
    eq = dash;
  if (eq == std::string::npos || eq == 0 || eq + 1 >= w.size() || !IsIdentStart(w[0])) return false;
  std::string k = SnakeKey(w.substr(0, eq));
  if (!std::all_of(k.begin(), k.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }))
    return false;
  if (auto it = Vocab().aliases.find(k); it != Vocab().aliases.end()) k = it->second;
  *key = k, *value = w.substr(eq + 1);
  return !value->empty() && value->size() <= 24;
}

// The scale a header holds for every value of its column, taken out of
// it: its key=value words ("Latency (seq=1024)", "Time (B=128) us") and a
// count of devices after '@' ("Throughput @ 8 GPUs", "tok/s @8xH100").
Config HeaderScale(std::string* h) {
  Config out;
  std::string kept;
  const auto words = Words(*h);
  for (size_t i = 0; i < words.size(); ++i) {
    std::string key, value;
    if (HeaderPair(words[i], &key, &value)) {
      out[key] = value;
      continue;
    }
    if (words[i] == "@" || words[i].rfind('@', 0) == 0) {
      std::string count = words[i] == "@" ? (i + 1 < words.size() ? words[i + 1] : "") : words[i].substr(1);
      const std::string next = words[i] == "@" ? (i + 2 < words.size() ? words[i + 2] : "") : (i + 1 < words.size() ? words[i + 1] : "");
      std::string dev = Lower(next);
      while (!dev.empty() && std::strchr("),;:", dev.back())) dev.pop_back();
      const bool digits = !count.empty() && std::all_of(count.begin(), count.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
      if (auto it = Vocab().devices.find(dev); digits && it != Vocab().devices.end()) {
        out[it->second] = count;
        i += words[i] == "@" ? 2 : 1;
        continue;
      }
      if (const std::string a = AcceleratorIn(count); digits == false && AcceleratorCount(a) > 0) {
        out["gpus"] = std::to_string(AcceleratorCount(a));  // "@8xH100"
        if (words[i] == "@") ++i;
        continue;
      }
    }
    kept += (kept.empty() ? "" : " ") + words[i];
  }
  if (!out.empty()) *h = kept;
  return out;
}

// "(peak 15)", "(max 14.5 ms)" after a cell's figure: a statistic of the
// same measurement (paren_statistics of table.json), kept under its name
// ("peak_tokens_per_s") in the column's unit. False for any other aside.
bool StatisticAside(const std::string& inner, const ColumnInfo& col, StoredRun* run) {
  const size_t sp = inner.find(' ');
  if (sp == std::string::npos || col.metric.empty() || !Vocab().paren_statistics.count(Lower(inner.substr(0, sp))))
    return false;
  ColumnInfo side = col;
  side.metric = Lower(inner.substr(0, sp)) + "_" + col.metric;
  const auto v = CellNumber(parse_detail::Trim(inner.substr(sp + 1)), side);
  if (!v || run->metrics.count(side.metric)) return false;
  run->metrics[side.metric] = v->value;
  run->units[side.metric] = col.unit;
  if (v->decimals >= 0) run->decimals[side.metric] = v->decimals;
  return true;
}

// A table cell's figure in parentheses of another metric than its column's
// ("11.17s (45.8 tok/s)": a time and its throughput), named as the column's
// figure is ("chunked_time_s" -> "chunked_tokens_per_s").
void ParenFigure(const std::string& cell, const ColumnInfo& col, StoredRun* run) {
  const size_t open = cell.find(" (");
  if (open == std::string::npos || cell.back() != ')') return;
  const std::string inner = parse_detail::Trim(cell.substr(open + 2, cell.size() - open - 3));
  size_t n = 0;
  while (n < inner.size() && (std::isdigit(static_cast<unsigned char>(inner[n])) || inner[n] == '.' || inner[n] == ','))
    ++n;
  const std::string unit = parse_detail::Trim(inner.substr(n));
  UnitInfo info{}, own{};
  if (n == 0 && StatisticAside(inner, col, run)) return;  // "14.50 (peak 15)"
  if (n == 0 || unit.empty() || !UnitOf(unit, &info) || info.derived) return;
  if (!UnitOf(col.unit, &own) || own.metric == info.metric) return;
  std::string prefix;
  if (col.metric.size() > own.metric.size() && col.metric.compare(col.metric.size() - own.metric.size(), own.metric.size(), own.metric) == 0)
    prefix = col.metric.substr(0, col.metric.size() - own.metric.size());
  ColumnInfo side;
  side.metric = prefix + info.metric, side.unit = unit, side.factor = info.factor;
  auto v = CellNumber(inner, side);
  if (!v || run->metrics.count(side.metric)) return;
  run->metrics[side.metric] = v->value;
  run->units[side.metric] = unit;
  if (v->decimals >= 0) run->decimals[side.metric] = v->decimals;
}

}  // namespace

bool HasWord(const std::string& h, const std::string& w) {
  for (size_t p = h.find(w); p != std::string::npos; p = h.find(w, p + 1)) {
    const bool left = p == 0 || !std::isalnum(static_cast<unsigned char>(h[p - 1]));
    const size_t e = p + w.size();
    const bool right = e >= h.size() || !std::isalnum(static_cast<unsigned char>(h[e]));
    if (left && right) return true;
  }
  return false;
}

// A header's words joined by `sep` ("GPU/CPU bits" -> gpu... as written):
// letters and digits kept (any script's: "大小", "размер"), anything else
// one separator.
std::string ColumnWordOf(const std::string& key, char sep) {
  std::string out;
  for (char ch : key) {
    if (std::isalnum(static_cast<unsigned char>(ch)) || static_cast<unsigned char>(ch) >= 0x80) out += ch;
    else if (!out.empty() && out.back() != sep) out += sep;
  }
  while (!out.empty() && out.back() == sep) out.pop_back();
  return out;
}

namespace {

// A word of three letters or more that is a unit of a rate ("fps", "rps",
// "qps": its metric per second).
bool RateWord(const std::string& w, const std::string& h) {
  UnitInfo info{};
  const std::string per = "_per_s";
  return w.size() >= 3 && UnitOfIn(w, h, &info) && info.metric.size() > per.size() &&
         info.metric.compare(info.metric.size() - per.size(), per.size(), per) == 0;
}

// A header that names a ratio by a word and the unit "x" after it
// ("realtime-x", "realtime (x)", "vs native x"): the word, as a metric's
// name; "" for any other header.
std::string RatioHeader(const std::string& lower) {
  std::string w = lower;
  for (const char* end : {"(x)", "-x", " x", "\xC3\x97"})
    if (const std::string e = end; w.size() > e.size() && w.compare(w.size() - e.size(), e.size(), e) == 0) {
      w = parse_detail::Trim(w.substr(0, w.size() - e.size()));
      return !w.empty() && std::all_of(w.begin(), w.end(), [](char ch) { return std::isalpha(static_cast<unsigned char>(ch)) || ch == ' '; })
                 ? SnakeKey(w)
                 : "";
    }
  return "";
}

}  // namespace

// The unit a header names in the reader's vocabulary when no unit it knows
// by name does: a word in parentheses ("TTFT (s)", "peak mem (MiB)", "total
// time (min)") or the header's last word ("Step Avg ms"). False for none or a
// derived unit.
bool HeaderUnit(const std::string& h, ColumnInfo* c, std::string* metric) {
  const auto words = Words(h);
  for (size_t i = words.size(); i-- > 0;) {
    std::string w = words[i];
    while (!w.empty() && (w.back() == ':' || w.back() == '*')) w.pop_back();
    // "(s)", "(tail50 tok/sec)", hyperfine's "[s]": the last word inside parentheses or brackets.
    const bool paren = w.size() > 1 && (w.back() == ')' || w.back() == ']');
    if (paren) w.pop_back();
    if (!w.empty() && (w.front() == '(' || w.front() == '[')) w.erase(w.begin());
    UnitInfo info{};
    // A header that is a unit alone ("T/s", "TPS", "fps"): a rate, or an
    // upper-case unit, never a statistic ("min", "max").
    const bool alone = words.size() == 1 && (w.find('/') != std::string::npos || RateWord(w, h) ||
                                             (w.size() >= 3 && std::all_of(w.begin(), w.end(), [](char ch) {
                                               return std::isupper(static_cast<unsigned char>(ch));
                                             }))) && !StatisticWord(Lower(w)) && !SpreadStatistic(Lower(w));
    // "Output Token/s": a rate's word capitalized, as headers are.
    const bool known = UnitOfIn(w, h, &info);
    const bool cased = !known && !UnitIn(ReaderLexicon(), w, &info) && WordRateIn(ReaderLexicon(), w, &info);
    // "Cycles", "Seconds": a unit's word of four letters or more, capitalized as a header is.
    const bool word = !known && !cased && words.size() == 1 && w.size() >= 4 && UnitOf(Lower(w), &info);
    // "Data points per second": a rate in words, never the unit after "per".
    if (!paren && i > 0 && Lower(words[i - 1]) == "per") return false;
    if ((paren || i + 1 == words.size()) && (words.size() > 1 || alone || word) && (known || cased || word) && !info.derived) {
      c->unit = cased || word ? Lower(w) : w, c->factor = info.factor, *metric = info.metric;
      return true;
    }
  }
  return false;
}

// A column of the model's quality ("Val Loss", "mean val_loss", "ppl"): a
// figure of the run, without a unit, named by its header's words (a
// statistic word first aside: "mean val_loss" is val_loss).
bool QualityHeader(const std::string& lower) {
  for (const auto& w : Words(lower))
    for (const auto& part : Words(ColumnWordOf(w, ' ')))
      if (Vocab().quality.count(part)) return true;
  return false;
}

std::string QualityMetric(const std::string& lower) {
  std::string out;
  for (const auto& w : Words(lower)) {
    if (StatWord(w) && out.empty()) continue;
    const std::string word = ColumnWordOf(w, '_');
    if (!word.empty()) out += (out.empty() ? "" : "_") + word;
  }
  return out;
}

// "tok/s/GPU", "TFLOP/s/rank", "tokens/s per GPU", "Per GPU TF", "per-GPU
// TFLOPs": a figure per device; the device's words are taken out of the header.
std::string PerDevice(std::string* lower, std::string* h) {
  std::string per;
  for (const char* d : {"gpu", "rank", "device", "chip"})
    for (const std::string& form : {std::string("/") + d, std::string(" per ") + d, std::string("per ") + d + " ",
                                    std::string("per-") + d})
      if (size_t at = lower->find(form); at != std::string::npos && per.empty() &&
                                         (form[0] == '/' || form[0] == ' ' || at == 0 || (*lower)[at - 1] == ' ')) {
        per = d;
        lower->erase(at, form.size());
        h->erase(at, form.size());
      }
  return per;
}

// A header with its unit's parenthesis glued to its name set apart ("Mem(GB)"
// -> "Mem (GB)"); "Step(s)", "GPU(s)" are plurals and stay.
static std::string ParenApart(const std::string& raw) {
  std::string h;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '(' && i > 0 && std::isalnum(static_cast<unsigned char>(raw[i - 1])) && raw.compare(i, 3, "(s)") != 0)
      h += ' ';
    h += raw[i];
  }
  return h;
}

ColumnInfo ColumnMetric(const std::string& raw) {
  ColumnInfo c;
  std::string h = ParenApart(raw);
  Config scale = HeaderScale(&h);
  if (size_t at = h.find('@'); at != std::string::npos) {
    size_t e = at + 1;
    while (e < h.size() && (std::isalnum(static_cast<unsigned char>(h[e])) || h[e] == '.' || h[e] == '_')) ++e;
    c.at = h.substr(at + 1, e - at - 1);
    h = h.substr(0, at) + h.substr(e);
  }
  std::string lower;
  for (char ch : h) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  const std::string per = PerDevice(&lower, &h);
  const bool delta = HasWord(lower, "delta") || HasWord(lower, "gain") || lower.find("\xCE\x94") != std::string::npos ||
                     HasWord(lower, "change") || lower.find("vs ") != std::string::npos;
  std::string base;
  if (h.find("TF/s") != std::string::npos || HasWord(lower, "tflops") || lower.find("tflop/s") != std::string::npos)
    base = "tflops", c.unit = "TF/s";
  else if (lower.find("tokens/s") != std::string::npos || lower.find("tok/s") != std::string::npos) base = "tokens_per_s", c.unit = "tokens/s";
  else if (lower.find("gb/s") != std::string::npos) base = "gb_per_s", c.unit = "GB/s";
  else if (HasWord(lower, "mfu")) base = "mfu", c.unit = "%";
  else if (HasWord(lower, "ms") || lower.find("(ms)") != std::string::npos || lower.rfind("ms/", 0) == 0)
    base = "time_s", c.unit = "ms", c.factor = 1e-3;
  else if (HasWord(lower, "us") || HasWord(lower, "\xC2\xB5s")) base = "time_s", c.unit = "us", c.factor = 1e-6;
  else if (lower == "s" || lower == "time (s)" || lower == "time_s" || lower == "seconds" || lower == "s/step")
    base = "time_s", c.unit = "s";
  else if (const auto w = Words(lower); !w.empty() && (w.back() == "s" || w.back() == "sec" || w.back() == "seconds" ||
                                                         w.back() == "s/step" || w.back() == "s/iter"))
    base = "time_s", c.unit = "s";  // "P50 step s", "median s/step"
  else if (HasWord(h, "TF") || HasWord(h, "TFLOP"))
    base = "tflops", c.unit = "TF/s";  // "Per GPU TF"
  else if (HeaderUnit(h, &c, &base))
    ;
  else if (QualityHeader(lower))
    base = QualityMetric(lower), c.unit = "";
  if (lower.rfind('%', 0) == 0) {
    // "% of 2587 ms step": a share of what the header names, not that unit.
    c.metric = "share_pct", c.unit = "%", c.factor = 1, c.derived = true;
    return c;
  }
  if (HasWord(lower, "speedup")) {  // "Speedup vs Baseline": a speedup, though "vs" names a comparison
    c.metric = "speedup", c.unit = "x", c.derived = true, c.factor = 1;
  } else if (delta) {
    c.metric = base.empty() ? "delta_pct" : base + "_delta_pct";
    c.unit = "%";
    c.factor = 1;
    c.derived = true;
  } else if (const std::string ratio = RatioHeader(lower); !ratio.empty()) {
    c.metric = ratio + "_x", c.unit = "x", c.derived = true, c.factor = 1;  // "realtime-x": a ratio of its own
  } else {
    c.metric = base;
  }
  if (!per.empty() && !c.metric.empty() && !c.derived) {
    c.metric += "_per_" + per;
    c.unit += "/" + std::string(per == "gpu" ? "GPU" : per);
  }
  c.scale = std::move(scale);
  return c;
}

std::string Unticked(std::string s) {
  s.erase(std::remove_if(s.begin(), s.end(), [](char ch) { return ch == '`' || ch == '*'; }), s.end());
  return Undecorated(parse_detail::Trim(s));  // "✅ 12.1 ms": the pictograph is the author's mark
}

// A cell's words around its number: an approximation mark before it ("~",
// "≈", "about", "approx.") and a parenthesis after it ("20.33 (1.153x)":
// the figure's derived speedup beside it) are the author's, not the number's.
std::string CellCore(std::string cell, bool* approximate) {
  *approximate = false;
  CommaGrouped(&cell);  // "40_977", "26'661"
  for (const char* mark : {"~", "\xE2\x89\x88", "about ", "approx. ", "approx ", "ca. "})
    if (cell.rfind(mark, 0) == 0) {
      cell = parse_detail::Trim(cell.substr(std::string(mark).size()));
      *approximate = true;
      break;
    }
  if (const size_t open = cell.find(" ("); open != std::string::npos && open > 0 && cell.back() == ')')
    cell = parse_detail::Trim(cell.substr(0, open));
  cell = WithoutCount(cell);  // "359 ms, 5992 calls"
  // "12.63 ± 0.31", "7.75 +/- 0.02 ms": the measurement and its spread; the figure is the measurement.
  for (const std::string& mark : OutputVocabulary().spread_marks)  // output.json spread_marks
    if (const size_t at = cell.find(" " + mark + " "); at != std::string::npos && at > 0) {
      const size_t unit = cell.find(' ', at + mark.size() + 2);  // "7.75 ± 0.02 ms": its unit after the spread
      cell = cell.substr(0, at) + (unit == std::string::npos ? "" : cell.substr(unit));
      break;
    }
  if (std::string seconds; DurationCell(cell, &seconds)) return seconds;  // "1m 44s 79ms"
  return cell;
}

// The spread written after a cell's measurement ("812.48 ± 3.43" -> "1.43",
// "7.75 +/- 0.02 ms" -> "0.02 ms"): the figure of its spread, in the cell's
// unit. False when the cell writes none.
static bool CellSpread(const std::string& raw, std::string* spread) {
  bool approximate = false;
  const std::string cell = parse_detail::Trim(raw);
  for (const std::string& mark : OutputVocabulary().spread_marks)  // output.json spread_marks
    if (const size_t at = cell.find(" " + mark + " "); at != std::string::npos && at > 0) {
      std::string rest = parse_detail::Trim(cell.substr(at + mark.size() + 2));
      std::string unit;
      if (!NumberCell(rest, &unit)) return false;
      *spread = CellCore(rest, &approximate);
      return true;
    }
  return false;
}

// A cell's number: "1,572,435", "+27.29%", "1.182x", "23.51 ms", "~17.5",
// "0.069120s", "1.21M", "20.33 (1.153x)"; nullopt for "—", "n/a" and
// words. A unit written in the cell (a known one) converts the number to the
// column's metric.
std::optional<CellValue> CellNumber(std::string cell, const ColumnInfo& col) {
  CellValue out;
  cell = CellCore(std::move(cell), &out.approximate);
  if (cell.rfind("\xE2\x88\x92", 0) == 0) cell = "-" + cell.substr(3);  // "−3.6%": a minus sign (U+2212)
  if (!cell.empty() && cell.back() == '%') cell.pop_back();
  // "17.29% after growth": words after a percentage qualify it.
  if (const size_t pct = cell.find("% "); col.unit == "%" && pct != std::string::npos) cell.erase(pct);
  if (!cell.empty() && (cell.back() == 'x' || cell.back() == 'X') && (col.metric == "speedup" || col.unit == "x")) cell.pop_back();
  size_t n = 0;
  while (n < cell.size() && (std::isdigit(static_cast<unsigned char>(cell[n])) || cell[n] == '.' || cell[n] == ',' ||
                             (n == 0 && (cell[n] == '+' || cell[n] == '-'))))
    ++n;
  n = n > 0 ? ExponentEnd(cell, n) : n;  // "1.285e-05"
  auto v = ParseNumber(cell.substr(0, n));
  if (!v) return std::nullopt;
  std::string unit = parse_detail::Trim(cell.substr(n));
  double scale = 1;
  if (size_t mag = 0; !unit.empty() && (scale = MagnitudeAt(unit, 0, &mag), mag > 0)) {  // "1.21M", "13.2万"
    out.magnitude = unit.substr(0, mag);
    unit = parse_detail::Trim(unit.substr(mag));
  }
  double factor = col.factor;
  UnitInfo info{};
  // "191.0k tok/s after growth": words after the unit qualify the figure.
  if (const size_t sp = unit.find(' '); sp != std::string::npos && AnyUnit(unit.substr(0, sp), &info))
    unit = unit.substr(0, sp);
  if (!unit.empty() && AnyUnit(unit, &info)) {
    const std::string m = info.metric;
    if (col.metric.size() < m.size() || col.metric.compare(col.metric.size() - m.size(), m.size(), m) != 0)
      return std::nullopt;  // a unit the column's metric is not measured in
    factor = info.factor;
  } else if (!unit.empty() && scale == 1 && unit != col.unit) {
    return std::nullopt;  // "3 steps", "n/a"
  }
  out.value = ToStored(*v * scale, factor);
  // As written when no multiplier is glued to it and its unit is the column's.
  if (scale == 1 && (unit.empty() || factor == col.factor)) out.decimals = WrittenDecimals(cell.substr(0, n));
  // "1.53ms" in a column of "376us": as written, in its own unit.
  if (scale == 1 && !unit.empty() && factor != col.factor && !col.derived)
    out.decimals = WrittenDecimals(cell.substr(0, n)), out.unit = unit;
  // "221k" in a tokens/s column: as written, in the unit "k tokens/s".
  if (scale != 1 && (unit.empty() || factor == col.factor) && !col.unit.empty() && !col.derived)
    out.decimals = WrittenDecimals(cell.substr(0, n));
  else
    out.magnitude.clear();
  return out;
}

// A cell written as a change with its two sides in parentheses ("+8.1%
// decode (3.2→3.46 t/s)", "1.9x (410 → 780 GB/s)"): the sides into `sides`
// ("3.2→3.46 t/s"), the change into `change` ("+8.1%", "1.9x"). The after
// side is the row's measurement, the before side the baseline's, the change
// derived from them. False for any other cell.
static bool ChangeCell(const std::string& cell, std::string* sides, std::string* change) {
  const size_t open = cell.find('(');
  if (open == std::string::npos || open == 0 || cell.back() != ')') return false;
  std::string inner = parse_detail::Trim(cell.substr(open + 1, cell.size() - open - 2)), before, after;
  if (!ArrowCell(inner, &before, &after)) return false;
  const auto words = Words(cell.substr(0, open));
  if (words.empty()) return false;
  const std::string& w = words[0];
  const char last = w.back();
  size_t n = w[0] == '+' || w[0] == '-' ? 1 : 0;
  const size_t digits = n;
  while (n < w.size() && (std::isdigit(static_cast<unsigned char>(w[n])) || w[n] == '.')) ++n;
  if (n == digits || n + 1 != w.size() || !(last == '%' || last == 'x' || last == 'X')) return false;
  if (last == '%' && digits == 0) return false;  // a share, not a change
  *sides = inner, *change = w;
  return true;
}

// Whether two units a column's cells are written in measure one metric
// ("376us" over "1.53ms"): each cell is converted, and shown, as written.
// A wall time ("47 mins", "210 hours") and a time in seconds ("6h 44m",
// read as 24240 s) are one metric too: the column's is the wall time's.
static bool SameMetricUnits(const std::string& a, const std::string& b) {
  UnitInfo ia{}, ib{};
  if (!UnitOf(a, &ia) || !UnitOf(b, &ib) || ia.derived || ib.derived) return false;
  return ia.metric == ib.metric || (ia.metric == "time_s" && ib.metric.ends_with("_time_s")) ||
         (ib.metric == "time_s" && ia.metric.ends_with("_time_s"));
}

// Of two units of one metric, the one whose metric names the column: the
// longer ("wall_time_s" over "time_s").
static bool NamesTheColumn(const std::string& u, const std::string& unit) {
  UnitInfo iu{}, iv{};
  return UnitOf(u, &iu) && UnitOf(unit, &iv) && iu.metric.size() > iv.metric.size();
}

// The metric a column without one in its header holds, from the units its
// cells are written in ("4.21 ms", "0.069120s"; "14.2%" beside a header
// "roofline": metric roofline in %). Empty when the cells say none.
ColumnInfo CellUnitMetric(const TableBlock& t, size_t c, const std::string& header) {
  ColumnInfo out;
  std::string unit;
  int figures = 0, statuses = 0, odd = 0;
  for (const auto& row : t.rows) {
    if (c >= row.size()) continue;
    bool approximate = false;
    std::string cell = Unticked(row[c]), sides, change;
    cell = CellCore(ChangeCell(cell, &sides, &change) ? sides : cell, &approximate);
    if (cell.empty() || cell == "\xE2\x80\x94" || cell == "-" || PlaceholderCell(cell) || EmptyCell(cell)) continue;  // "N/A"
    if (std::string low, high; DashRange(cell, &low, &high)) cell = high;  // "32-113ms": the unit after the range
    // "baseline 2.41 H/s; candidates 2.37/2.52 H/s": the unit of its readings.
    if (std::vector<std::pair<std::string, std::string>> parts; ReadingParts(cell, &parts)) cell = parts.back().first;
    // "62.9 -> 63.2 ms": the unit after the arrow is both sides'.
    for (size_t p = 0; p < cell.size(); ++p)
      if (size_t a = ArrowAt(cell, p); a > 0) {
        cell = CellCore(parse_detail::Trim(cell.substr(p + a)), &approximate);
        break;
      }
    size_t n = 0;
    while (n < cell.size() && (std::isdigit(static_cast<unsigned char>(cell[n])) || cell[n] == '.' || cell[n] == ','))
      ++n;
    // "blocked (driver)", "*analysis only*": a step that measured nothing,
    // a status among the column's figures, not a figure.
    if (n == 0 && cell.find_first_of("0123456789") == std::string::npos && !RemarkColumn(header)) {
      ++statuses;
      continue;
    }
    if (n == 0) {  // "as high as 0.9 H/s": a figure among words, no reading of the column's
      ++odd;
      continue;
    }
    n = ExponentEnd(cell, n);
    std::string u = parse_detail::Trim(cell.substr(n));
    // "189.6k tok/s", "191.0k tok/s after growth": a multiplier glued to the
    // number, words after the unit.
    if (u.size() > 2 && std::strchr("kKMB", u[0]) && u[1] == ' ') u = parse_detail::Trim(u.substr(1));
    if (const size_t sp = u.find(' '); sp != std::string::npos && u != "%") {
      UnitInfo probe{};
      if (UnitOf(u.substr(0, sp), &probe)) u = u.substr(0, sp);
    }
    if (u.empty() || (!unit.empty() && u != unit && !SameMetricUnits(unit, u))) return {};
    unit = unit.empty() || NamesTheColumn(u, unit) ? u : unit, ++figures;
  }
  if (statuses > 0 && figures < 2) return {};  // one figure among words: a remark, not a column of figures
  if (odd > 0 && (figures < 3 || odd > figures)) return {};  // figures in sentences: a column of remarks
  UnitInfo info{};
  if (unit == "%") {
    const std::string lower = PercentColumnName(header);
    if (lower.empty()) return {};
    out.metric = lower.find("mfu") != std::string::npos ? "mfu" : lower, out.unit = "%";
    out.derived = ChangePercentHeader(header);  // "| Impact |" over "+14.3%": a change, worked out
  } else if (!unit.empty() && ((UnitOfIn(unit, header, &info) && !info.derived) || CountPerSecond(unit, &info))) {
    out.metric = info.metric, out.unit = unit, out.factor = info.factor;  // "19.3 inf/s": a count per second
  }
  return out;
}

// Header words beside a metric's unit ("exposed collective ms/step" ->
// "exposed_collective"), for naming one of two columns of one metric.
std::string Qualifier(const std::string& header) {
  std::string q;
  for (const auto& w : Words(header)) {
    std::string lw = SnakeKey(w);
    UnitInfo info{};
    if (UnitOf(w, &info) || lw == "time" || lw == "(ms)" || lw == "(s)" || lw == "(us)" || lw == "tokens/s" ||
        lw == "tf/s" || lw == "mfu" || lw == "step" || lw == "per" || lw.find('/') != std::string::npos)
      continue;  // units ("TFLOP/s/rank", "ms/step") are the metric's, not its name
    std::string clean;
    for (size_t k = 0; k < lw.size(); ++k) {
      const auto ch = static_cast<unsigned char>(lw[k]);
      // "v0.9.51": a release number's dots stay, as written.
      const bool dot = ch == '.' && k > 0 && std::isalnum(static_cast<unsigned char>(lw[k - 1])) &&
                       k + 1 < lw.size() && std::isdigit(static_cast<unsigned char>(lw[k + 1]));
      clean += std::isalnum(ch) || dot || ch >= 0x80 ? lw[k] : '_';  // a header in any script (`変更前`) is words
    }
    while (!clean.empty() && clean.back() == '_') clean.pop_back();
    while (!clean.empty() && clean.front() == '_') clean.erase(clean.begin());
    if (!clean.empty()) q += (q.empty() ? "" : "_") + clean;
  }
  return q;
}

// Every column its own metric: when two columns hold one metric at one
// "@value", each but the plainest is named by its header's other words
// ("exposed_collective_time_s" beside "ms/step").
void NameColumns(const std::vector<std::string>& headers, std::vector<ColumnInfo>* cols) {
  std::map<std::pair<std::string, std::string>, std::vector<size_t>> same;
  for (size_t c = 0; c < cols->size(); ++c)
    if (const ColumnInfo& k = (*cols)[c]; !k.metric.empty())  // a run's column of its own (RunColumns) clashes with none
      same[{k.metric, k.at + (k.scale.count("variant") ? kScaleMark + k.scale.at("variant") : "")}].push_back(c);
  for (const auto& [key, idx] : same) {
    if (idx.size() < 2) continue;
    size_t plain = idx.size();
    for (size_t i = 0; i < idx.size(); ++i)
      if (Qualifier(headers[idx[i]]).empty()) plain = i;
    for (size_t i = 0; i < idx.size(); ++i) {
      if (i == plain) continue;
      const std::string q = Qualifier(headers[idx[i]]);
      (*cols)[idx[i]].metric = QualifiedMetricName(q.empty() ? "column" + std::to_string(idx[i] + 1) : q, key.first);
    }
  }
}

// Keys that say nothing a row could confirm: derived ones, repetition and
// output settings.
bool NeutralKeyName(const std::string& k) { return !FollowedKey(k).empty() || IsIgnoredForPairing(k); }

// A table whose every metric column is a statistic over repeats, with
// their range ("Median (ms)", "Min-max (ms)", "Median useful TFLOP/s")
// summarizes figures written elsewhere: derived, not tabled. (Per-run
// statistics over steps, "Mean tok/s | P50 step s", give no range.)
bool SummaryTable(const std::vector<std::string>& headers, const std::vector<ColumnInfo>& cols) {
  bool range = false;
  for (size_t c = 0; c < cols.size(); ++c) {
    if (cols[c].metric.empty()) continue;
    const auto w = Words(Lower(headers[c]));
    const bool is_range = !w.empty() && (w[0].rfind("min-max", 0) == 0 || w[0] == "range");
    if (w.empty() || !(StatisticWord(w[0]) || is_range)) return false;
    range = range || is_range;
  }
  return range;
}

// A statistic of a metric's spread or tail ("p90", "p99", "max", "std"):
// beside the central figure (median, mean), never the figure itself.
bool SpreadStatistic(const std::string& w) {
  static const std::set<std::string> k = {"p1",  "p5",  "p10", "p25", "p75", "p90",    "p95",    "p99", "p999",
                                          "min", "max", "std", "stdev", "stddev", "sd", "iqr", "worst"};
  return k.count(Lower(w)) > 0;
}

// Statistic columns ("median ms | p90", "mean tok/s | max"): a header that
// is a statistic alone holds the metric (and unit) of the nearest metric
// column before it, else after it; a spread statistic names its column's
// metric ("p90_time_s"), so the tail is never read as the central figure
// nor as a configuration key.
void StatisticColumns(const std::vector<std::string>& headers, std::vector<ColumnInfo>* cols) {
  auto base = [&](size_t c) -> const ColumnInfo* {
    for (size_t d = c; d-- > 0;)
      if (!(*cols)[d].metric.empty() && !(*cols)[d].derived) return &(*cols)[d];
    for (size_t d = c + 1; d < cols->size(); ++d)
      if (!(*cols)[d].metric.empty() && !(*cols)[d].derived) return &(*cols)[d];
    return nullptr;
  };
  std::vector<ColumnInfo> out = *cols;
  for (size_t c = 0; c < cols->size(); ++c) {
    const auto w = Words(Lower(headers[c]));
    if (w.empty() || !(StatisticWord(w[0]) || SpreadStatistic(w[0]))) continue;
    if (out[c].metric.empty() && w.size() == 1) {
      const ColumnInfo* b = base(c);
      if (b == nullptr) continue;
      out[c] = *b;
    }
    if (!out[c].metric.empty() && !out[c].derived && SpreadStatistic(w[0])) out[c].metric = w[0] + "_" + out[c].metric;
  }
  *cols = std::move(out);
}

// A header that names a measured figure without its unit ("Median TTFT",
// "Request throughput"; measured_words of table.json) over cells that are
// bare numbers, one at least: the figure, named by the header's words,
// without a unit.
bool MeasuredBareColumn(const TableBlock& t, size_t c, const std::string& header) {
  bool named = false, any = false;
  for (const auto& w : Words(Lower(header)))
    for (const auto& part : Words(ColumnWordOf(w, ' '))) named = named || Vocab().measured.count(part) > 0;
  if (!named) return false;
  for (const auto& row : t.rows) {
    if (c >= row.size() || EmptyCell(row[c])) continue;
    std::string unit;
    if (!NumberCell(row[c], &unit) || !unit.empty()) return false;
    any = true;
  }
  return any;
}

// Whether column `c` of a ledger of tasks ("| task | status | duration |",
// "| 任务 | 状态 | 耗时 |": a status column beside it; status_headers of
// table.json) tells how long each task took (ledger_time_headers): a job's
// duration, no run's figure.
static bool LedgerTimeColumn(const std::vector<std::string>& headers, size_t c) {
  auto plain = [](const std::string& h) { return Lower(parse_detail::Trim(h.substr(0, h.find('(')))); };
  if (!Vocab().ledger_times.count(plain(headers[c]))) return false;
  return std::any_of(headers.begin(), headers.end(), [&](const std::string& h) { return Vocab().status.count(plain(h)) > 0; });
}

// The metric each column of a table holds (from its header, else from the
// units its cells are written in), every column its own metric.
std::vector<ColumnInfo> TableColumns(const TableBlock& t, std::vector<std::string>* headers) {
  std::vector<ColumnInfo> cols;
  for (size_t c = 0; c < t.header.size(); ++c) {
    headers->push_back(Unticked(t.header[c]));
    cols.push_back(ColumnMetric(headers->back()));
    if (cols.back().metric.empty() && !SettingHeader(headers->back())) {  // "Size" over "64 MiB": the rows' setting
      Config scale = cols.back().scale;  // "Latency (seq=1024)" over cells "0.52 ms"
      cols.back() = CellUnitMetric(t, c, headers->back());
      if (cols.back().metric.empty() && MeasuredBareColumn(t, c, headers->back()))
        cols.back().metric = QualityMetric(Lower(headers->back()));
      if (UnitInfo rate{}; cols.back().metric.empty() && CountPerSecond(headers->back(), &rate) && BareColumn(t, c))
        cols.back().metric = rate.metric, cols.back().unit = Lower(headers->back()), cols.back().factor = 1;  // "Rows/sec"
      cols.back().scale = std::move(scale);
    }
    if ((EstimateColumn(headers->back()) && c > 0) || NamesUnderDerivedHeader(t, c, cols.back()) ||
        ApproximateRangeColumn(t, c))
      cols.back() = ColumnInfo{};
  }
  for (size_t c = 0; c < cols.size(); ++c)
    if (LedgerTimeColumn(*headers, c)) cols[c] = ColumnInfo{};
  if (LetterKeyColumn(t, *headers)) cols[0] = ColumnInfo{};
  FactorColumns(t, *headers, &cols);
  CrossColumns(headers, &cols);  // "| Llama P50 | Llama P95 | Qwen3 P50 |": a run per name
  StatisticColumns(*headers, &cols);
  RunColumns(*headers, &cols);
  OneScale(&cols);
  ScaleByFirstWord(*headers, &cols);  // "Fixed `l=64` | ... | Fixed accuracy"
  OneAt(&cols);
  NameColumns(*headers, &cols);
  ScaleValueColumns(t, *headers, &cols);  // "| Variant | T=1 | T=7 |" over bare numbers
  RatioColumns(t, *headers, &cols);       // "| v1 (s) | v2 (s) | Ratio |" over "0.76x"
  PairColumns(t, *headers, &cols);  // "fwd / bwd" over "7.48 / 5.05 ms"
  ChangeUnitsAsWritten(t, *headers, &cols);  // "| delta |" over "-25.0": no percent
  StatisticCellColumns(t, &cols);  // "avg: 12.5 ms, std: 2.1 ms, max: 18.0 ms"
  SharesAlone(&cols);              // "| Component | % of time |": a profile's shares
  return cols;
}

// The key the "@value" columns name: one the entry varies with such a
// value, else one it sets to one of them ("tokens/s @0.0 | tokens/s @0.1"
// beside --null-route-frac 0.0). Every "@" column of a table names one key.
std::string AtKey(const std::vector<ColumnInfo>& cols, const EntryCtx& x) {
  std::string at_key;
  for (const auto& c : cols)
    if (!c.at.empty() && at_key.empty()) at_key = KeyOfValue(x.vars, c.at);
  for (const auto& c : cols)
    for (const auto& [k, v] : x.fixed)
      if (!c.at.empty() && at_key.empty() && !NeutralKeyName(k) && ValuesEqual(v, c.at)) at_key = k;
  return at_key;
}

// A column of what a run came out with other than its speed: what it
// dropped or overflowed ("dropped", "overflows") or the model's quality
// ("final loss", "accuracy", "grad norm"). Neither its configuration nor a
// performance figure.
bool OutcomeCount(const std::string& header) {
  const auto w = Words(Lower(header));
  if (w.empty()) return false;
  static const std::set<std::string> k = {"dropped", "drops", "drop", "overflow", "overflows", "overflowed", "skipped"};
  static const std::set<std::string> quality = {"loss", "accuracy", "acc", "perplexity", "ppl", "norm", "eval"};
  for (const auto& word : w)
    if (quality.count(word)) return true;
  // "Boundary step", "common step": where in a training run, not what ran.
  if (w.size() >= 2 && (w.back() == "step" || w.back() == "update" || w.back() == "epoch")) return true;
  return k.count(w[0]) > 0 || k.count(w.back()) > 0;
}

// A column of remarks ("Notes", "Comment", "Verdict", "Description";
// remark_headers of data/reader/table.json): the author's prose about the
// row or its outcome, not its configuration.
bool RemarkColumn(const std::string& header) { return Vocab().remarks.count(Lower(parse_detail::Trim(header))) > 0; }

// A label column's header as a key: its words joined by '_' ("GPU/CPU bits"
// is gpu_cpu_bits), or "" when it has no word.
std::string ColumnWord(const std::string& key) { return ColumnWordOf(key, '_'); }

// A label cell of a row: a varied value, a key's column, a generic
// harness's column word (and the keys it names), else part of the label.
bool EmptyCell(const std::string& raw);

void LabelCell(const std::string& header, std::string cell, const EntryCtx& x, Config* cfg, std::string* label) {
  if (EmptyCell(cell) || ComparisonCell(cell) || CheckColumn(header) || OutcomeCount(header) ||
      RemarkColumn(header) || EstimateColumn(header) || SentenceCell(cell))
    return;
  // "— send/recv metadata": a part of the row above, named by its words.
  for (const char* dash : {"\xE2\x80\x94 ", "\xE2\x80\x93 ", "- "})
    if (cell.rfind(dash, 0) == 0) cell = parse_detail::Trim(cell.substr(std::string(dash).size()));
  // "9.0e-2" under "relfrob(dx)": a quantity of no metric moelog knows,
  // not a name of the run ("6230e838", a hash past any number's range, is one).
  if (char* end = nullptr; cell.find_first_of("eE") != std::string::npos &&
                           std::isdigit(static_cast<unsigned char>(cell[0])) &&
                           std::isfinite(std::strtod(cell.c_str(), &end)) && end == cell.c_str() + cell.size())
    return;
  const std::string key = NormalizeKey(Unticked(header));
  if (std::string k = KeyOfValue(x.vars, cell); !k.empty()) {
    (*cfg)[k] = cell;
  } else if ((IsRunKey(key) && !(x.generic && IsBoolFlag(key))) || x.vars.count(key) || x.fixed.count(key)) {
    (*cfg)[key] = cell;
  } else if (const std::string word = ColumnWord(key); x.generic && !word.empty()) {
    (*cfg)[word] = cell;  // "arm: EP8 2 nodes": the column's word, and the keys it names
    Config named = LabelConfig(cell, x.vars, x.fixed, x.generic, &x.feeds);
    named.erase("case");
    for (const auto& [k, v] : named) (*cfg)[k] = v;
  } else {
    *label += (label->empty() ? "" : ", ") + cell;
  }
}

// A cell holding one number: with an approximation mark, a unit or a
// parenthesis of its own ("23.44", "20.33 (1.153x)", "~37 ms"); the unit it
// is written with goes to `unit` ("" for none).
bool NumberCell(const std::string& raw, std::string* unit) {
  // "0.61 samples/sec<br>1.41 tflops/gpu": figures stacked, the first leads.
  if (const std::string first = FirstStacked(raw); !first.empty() && first != raw) return NumberCell(first, unit);
  bool approximate = false;
  const std::string cell = CellCore(Unticked(raw), &approximate);
  size_t n = 0;
  while (n < cell.size() && (std::isdigit(static_cast<unsigned char>(cell[n])) || cell[n] == '.' || cell[n] == ','))
    ++n;
  n = n > 0 ? ExponentEnd(cell, n) : n;  // "1.285e-05"
  if (n == 0 || !ParseNumber(cell.substr(0, n))) return false;
  *unit = parse_detail::Trim(cell.substr(n));
  // "6.30M tokens/sec", "805K tokens/sec": a magnitude glued to the number is no part of its unit.
  if (size_t mag = 0; !unit->empty() && (MagnitudeAt(*unit, 0, &mag), mag > 0) && mag < unit->size() && (*unit)[mag] == ' ')
    *unit = parse_detail::Trim(unit->substr(mag));
  UnitInfo info{};
  return unit->empty() || (UnitOf(*unit, &info) && !info.derived);
}

// An empty cell, or one that records a run with no figure ("n/a", "OOM",
// "error (OOM)"; no_run_cells of table.json: its first word).
bool EmptyCell(const std::string& raw) {
  const std::string c = Unticked(raw);
  const auto words = Words(Lower(c));
  return c.empty() || c == "\xE2\x80\x94" || c == "-" || c == "\xE2\x80\x93" || PlaceholderCell(c) ||
         (!words.empty() && Vocab().no_run.count(words[0]) && c.find_first_of("0123456789") == std::string::npos);
}

// The two sides of a cell "62.933 -> 63.249" ("A \u2192 B ms"): a control
// and its treatment, two figures. False for a cell without an arrow.
bool ArrowCell(const std::string& cell, std::string* before, std::string* after) {
  for (size_t p = 0; p < cell.size(); ++p)
    if (size_t a = ArrowAt(cell, p); a > 0) {
      *before = parse_detail::Trim(cell.substr(0, p));
      *after = parse_detail::Trim(cell.substr(p + a));
      return !before->empty() && !after->empty();
    }
  return false;
}

// The figure set a metric column's cells go to: its "@value", and a
// column of its own scale ("Latency (seq=1024)", a run's column) its own.
std::string GroupOf(const ColumnInfo& col) {
  std::string group = col.at;
  if (!col.scale.empty()) {
    group += kScaleMark;
    for (const auto& [k, val] : col.scale) group += k + "=" + val + ";";
  }
  return group;
}

// A row's figure sets in the order of their columns ("| before (us) |
// after (us) |", "| triton | cuda |": the author's order), not by name;
// sets no column names (a cell's two sides) after them, in theirs.
std::vector<std::pair<std::string, StoredRun>> InColumnOrder(const std::vector<ColumnInfo>& cols,
                                                             std::map<std::string, StoredRun> by_at) {
  std::vector<std::pair<std::string, StoredRun>> out;
  for (const auto& col : cols)
    if (auto it = col.metric.empty() ? by_at.end() : by_at.find(GroupOf(col)); it != by_at.end()) {
      out.emplace_back(it->first, std::move(it->second));
      by_at.erase(it);
    }
  for (auto& [group, figs] : by_at) out.emplace_back(group, std::move(figs));
  return out;
}

// A metric cell of a row, into the figure set of its "@value" (and side of
// an arrow: "A -> B" gives a "before" and an "after" figure).
void MetricCell(const std::string& cell, const ColumnInfo& col, std::map<std::string, StoredRun>* by_at) {
  std::string before, after, sides, change;
  if (!col.derived && SplitCell(cell, col, by_at)) return;
  if (!col.derived && ChangeCell(cell, &sides, &change)) {
    MetricCell(sides, col, by_at);
    auto it = by_at->find(col.at + kSide + "2after");
    const bool speedup = change.back() == 'x' || change.back() == 'X';
    const auto v = ParseNumber(change.substr(0, change.size() - 1));
    if (it == by_at->end() || !v) return;
    // "speedup" as the other readers name it; a second one of the row by its column.
    const std::string metric = !speedup ? col.metric + "_delta_pct"
                               : it->second.metrics.count("speedup") ? col.metric + "_speedup" : "speedup";
    it->second.metrics[metric] = *v;
    it->second.units[metric] = speedup ? "x" : "%";
    it->second.decimals[metric] = WrittenDecimals(change.substr(change[0] == '+' || change[0] == '-' ? 1 : 0, change.size() - 1));
    it->second.derived.insert(metric);
    return;
  }
  if (ArrowCell(cell, &before, &after)) {
    // "62.9 -> 63.2 ms": the unit written after the second names the first too.
    std::string unit, u0;
    if (NumberCell(after, &unit) && !unit.empty() && NumberCell(before, &u0) && u0.empty()) before += " " + unit;
    ColumnInfo side = col;
    side.at = col.at + kSide + "1before";  // the digit keeps the sides in order
    MetricCell(before, side, by_at);
    side.at = col.at + kSide + "2after";
    MetricCell(after, side, by_at);
    return;
  }
  auto v = CellNumber(cell, col);
  if (!v) return;
  if (std::string spread; !col.derived && CellSpread(cell, &spread)) {  // "812.48 ± 3.43": its spread too
    ColumnInfo sd = col;
    sd.metric = "std_" + col.metric;
    MetricCell(spread, sd, by_at);
  }
  StoredRun& run = (*by_at)[GroupOf(col)];
  ParenFigure(cell, col, &run);
  run.metrics[col.metric] = v->value;
  run.units[col.metric] = !v->unit.empty() ? v->unit : v->magnitude.empty() ? col.unit : v->magnitude + " " + col.unit;
  if (v->decimals >= 0) run.decimals[col.metric] = v->decimals;
  if (v->approximate) run.approximate.insert(col.metric);
  if (col.derived) run.derived.insert(col.metric);
}

std::string RowText(const std::vector<std::string>& row) {
  std::string text = "|";
  for (const auto& cell : row) text += " " + cell + " |";
  return FigureText(text);
}

void MergeRunFigures(const StoredRun& from, StoredRun* to) {
  for (const auto& [m, v] : from.metrics) to->metrics[m] = v;
  for (const auto& [m, u] : from.units) to->units[m] = u;
  for (const auto& [m, d] : from.decimals) to->decimals[m] = d;
  to->derived.insert(from.derived.begin(), from.derived.end());
  to->approximate.insert(from.approximate.begin(), from.approximate.end());
}

// Whether a row's label cells say its figures are estimates ("Decode (estimated)").
static bool EstimateRow(const std::vector<std::string>& row, const std::vector<ColumnInfo>& cols) {
  for (size_t c = 0; c < row.size() && c < cols.size(); ++c)
    if (cols[c].metric.empty() && EstimateColumn(Unticked(row[c]))) return true;
  return false;
}

// The table as it is to be read, when a step rewrites it: a unit column
// folded into its figures, units shared across a slash, the unit a caption
// gives cross headers, the rows of changes between the rows above blanked
// ("| Phase 6 vs Phase 4 | +32% |", listed in `unread`). False when none does.
static bool Rewritten(const TableBlock& t, const EntryCtx& x, TableBlock* pre, std::vector<UnreadFigures>* unread) {
  if (FoldUnitColumn(t, pre) || ShareSlashUnits(t, pre) || CrossUnitTable(t, x, pre) || SplitSlashColumns(t, x, pre))
    return true;
  std::vector<size_t> changes;
  if (!WithoutChangeRows(t, pre, &changes)) return false;
  for (size_t r : changes)
    if (unread) unread->push_back({t.line + 2 + static_cast<int>(r), RowText(t.rows[r]), "a row of changes between the rows above: derived, not a run"});
  return true;
}

// A table written in an entry: each row a figure set (one per "@value" of
// its columns). Columns named by a config key give its value; other label
// columns are read like bullet labels (bare varied values, `topk8`, shapes
// such as 32768x2048x1408x60); metric columns give the figures. moelog's own
// tables (in its regions, headed "time (ms)") are not the logbook's words.
void TableFigures(const TableBlock& t, const Config& context, const EntryCtx& x, std::vector<RecordedFigure>* out,
                  std::vector<UnreadFigures>* unread) {
  if (std::find(t.header.begin(), t.header.end(), "time (ms)") != t.header.end() && !x.generic) return;
  if (TableBlock pre; Rewritten(t, x, &pre, unread)) return TableFigures(pre, context, x, out, unread);
  std::vector<std::string> headers;
  std::vector<ColumnInfo> cols = TableColumns(t, &headers);
  const bool repeats = RepeatColumns(t, headers, x, &cols);  // "| config | Run1 | Run2 | Avg |": one row's figures
  // A summary of statistics over repeats; a first column of goals ("| goal |
  // ms/step |", "| target |", "| expected |"): the table plans, no run.
  if (const bool summary = SummaryTable(headers, cols); summary || PlanHeader(headers.front())) {
    if (unread)
      unread->push_back({t.line, "| " + headers.front() + " | ...",
                         summary ? "a table of statistics over repeats: derived, not tabled" : "a table of goals or expectations: no run"});
    return;
  }
  if (const std::vector<size_t> checks = CheckColumns(headers, cols); !checks.empty()) {
    if (RateBesideChecks(cols, checks)) return TableFigures(WithoutColumns(t, checks), context, x, out, unread);
    if (unread) unread->push_back({t.line, "| " + headers.front() + " | ...", "a correctness check (differences, error counts): no benchmark figure"});
    return;
  }
  if (!repeats &&
      (LongTableFigures(t, context, x, out) || ValueTableFigures(t, headers, cols, context, x, out, unread) ||
       VerticalTableFigures(t, context, x, out, unread) || LedgerTableFigures(t, cols, context, x, out, unread)))
    return;
  const std::string at_key = AtKey(cols, x);
  for (size_t r = 0; r < t.rows.size() && out->size() <= kMaxFiguresPerEntry; ++r) {
    const auto& row = t.rows[r];
    const int line = t.line + 2 + static_cast<int>(r);
    Config cfg = context;
    std::string label;
    std::map<std::string, StoredRun> by_at;  // "@value" ("" for none) -> figures
    for (size_t c = 0; c < row.size() && c < t.header.size(); ++c) {
      if (!cols[c].metric.empty()) MetricCell(Unticked(row[c]), cols[c], &by_at);
      else LabelCell(t.header[c], Unticked(row[c]), x, &cfg, &label);
    }
    for (const auto& [k, v] : LabelConfig(label, x.vars, x.fixed, x.generic, &x.feeds)) cfg[k] = v;
    const std::string text = RowText(row);
    if (EstimateRow(row, cols) && !by_at.empty()) {  // "| Decode (estimated) | ~19 |": worked out, not measured
      if (unread) unread->push_back({line, text, "an estimate, not a measurement"});
      continue;
    }
    for (auto& [group, figs] : DerivedOnRuns(InColumnOrder(cols, std::move(by_at)))) {  // "| Ours | FLA | Speedup |"
      if (!HasBaseMetric(figs)) continue;
      StoredRun run = NewRecorded(x, cfg, line);
      const std::string at_side = group.substr(0, group.find(kScaleMark));
      if (const size_t sc = group.find(kScaleMark); sc != std::string::npos) {
        std::stringstream ss(group.substr(sc + 1));
        for (std::string kv; std::getline(ss, kv, ';');)
          if (const size_t eq = kv.find('='); eq != std::string::npos) run.config[kv.substr(0, eq)] = kv.substr(eq + 1);
      }
      const size_t side = at_side.find(kSide);
      const std::string at = at_side.substr(0, side);
      if (!at.empty()) run.config[at_key.empty() ? "at" : at_key] = at;
      if (side != std::string::npos) run.config["arrow"] = at_side.substr(side + 2);
      MergeRunFigures(figs, &run);
      out->push_back({std::move(run), line, text, false, true});
    }
  }
}

}  // namespace reader

}  // namespace moelog::logbook
