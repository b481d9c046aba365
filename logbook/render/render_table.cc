#include "logbook/render/render_table.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <set>

#include <nlohmann/json.hpp>

#include "logbook/doc/parse_logbook.h"
#include "logbook/store/stored_run.h"

namespace moelog::logbook {
namespace {

// Appends " TEXT |" (one table cell). Built by appends: GCC 12 at -O3 warns
// (-Wrestrict, a false positive, GCC bug 105651) on `" " + std::string`.
void Cell(std::string* out, const std::string& text) {
  out->append(" ").append(text).append(" |");
}

std::string JsonScalar(const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number_integer()) return std::to_string(v.get<int64_t>());
  if (v.is_number()) return FormatValue(v.get<double>());
  if (v.is_null()) return "";
  return v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string Fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

const char* kPriority[] = {"parallel_mode", "topk", "routing_pack_strategy", "distribution", "queue_mode", "mode",
                           "remat_mode", "quant_mode", "backend", "impl", "bench_pass", "pass", "tokens", "hidden",
                           "mlp_dim", "experts", "shared_expert_dim", "shared_fused", "dtype"};

// Keys that never make a column: bookkeeping, or already a metric column.
bool NeverColumn(const std::string& k) {
  return IsIgnoredForPairing(k) || k == "target" || k == "source" || k == "hardware" || k == "model_params" ||
         k == "seed" || k == "null_route_seed";
}

std::string EscapeCell(std::string s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += "\\|";
    else if (c == '\n' || c == '\r') out += ' ';
    else out += c;
  }
  return out;
}

std::string Unquote(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), '`'), s.end());
  return parse_detail::Trim(s);
}

}  // namespace

TableRow RowFromRecord(const RunRecord& record) {
  TableRow row;
  row.target = record.target;
  try {
    const auto j = nlohmann::json::parse(record.config_json);
    if (j.is_object()) {
      for (auto it = j.begin(); it != j.end(); ++it) {
        if (it.value().is_array()) {
          std::string joined;
          for (const auto& e : it.value()) {
            if (!joined.empty()) joined += ',';
            joined += JsonScalar(e);
          }
          row.config[it.key()] = joined;
        } else {
          row.config[it.key()] = JsonScalar(it.value());
        }
      }
    }
  } catch (const std::exception&) {
    // A malformed stored config leaves only the point columns.
  }
  // Loop bindings ("loop.tk") belong to the entry that first ran this config;
  // a cached run can be shared by entries, so they never make columns.
  for (const auto& [k, v] : record.point)
    if (k.rfind("loop.", 0) != 0) row.config[k] = v;
  row.metrics = record.metrics;
  row.status = record.status;
  return row;
}

std::vector<std::string> VaryingColumns(const std::vector<TableRow>& rows) {
  std::set<std::string> keys;
  for (const auto& r : rows)
    for (const auto& [k, v] : r.config)
      if (!NeverColumn(k)) keys.insert(k);
  std::vector<std::string> order;
  for (const char* p : kPriority)
    if (keys.erase(p)) order.push_back(p);
  for (const auto& k : keys) order.push_back(k);
  std::vector<std::string> out;
  std::vector<std::vector<std::string>> seen;
  for (const auto& k : order) {
    std::vector<std::string> values;
    for (const auto& r : rows) {
      auto it = r.config.find(k);
      values.push_back(it == r.config.end() ? "" : it->second);
    }
    std::set<std::string> distinct(values.begin(), values.end());
    if (distinct.size() < 2) continue;
    if (std::find(seen.begin(), seen.end(), values) != seen.end()) continue;
    seen.push_back(values);
    out.push_back(k);
  }
  return out;
}

namespace {

// Words of a label: split at spaces, commas, slashes and parentheses.
std::vector<std::string> LabelTokens(const std::string& label) {
  std::vector<std::string> tokens;
  std::string cur;
  for (char c : label) {
    if (c == ',' || c == '/' || c == ' ' || c == '(' || c == ')') {
      if (!cur.empty()) tokens.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) tokens.push_back(cur);
  return tokens;
}

// One TF/s figure a Result bullet states, with the words that name it.
struct Figure {
  std::vector<std::string> tokens;
  double value = 0;
};

// The bullet's only TF/s figure; nullopt for none or several.
std::optional<double> SingleTflops(const Bullet& b) {
  std::optional<double> found;
  for (const auto& n : b.numbers) {
    if (n.unit != "TF/s") continue;
    if (found) return std::nullopt;  // several figures: ambiguous
    found = n.value;
  }
  return found;
}

// Figures compared in one bullet, "`2048/2048`: gmm `275.232` vs ragged_dot
// `268.852` TF/s": each " vs " segment's first number, named by the label
// and the words before it. Empty unless every segment has one.
std::vector<Figure> ComparedFigures(const Bullet& b, const std::vector<std::string>& label) {
  const bool tflops = std::any_of(b.numbers.begin(), b.numbers.end(), [](const StatedNumber& n) { return n.unit == "TF/s"; });
  const size_t colon = BulletLabel(b.text).empty() ? std::string::npos : b.text.find(':');
  std::string rest = Unquote(colon == std::string::npos ? b.text : b.text.substr(colon + 1));
  if (!tflops || rest.find(" vs ") == std::string::npos) return {};
  std::vector<Figure> out;
  size_t pos = 0;
  while (pos <= rest.size()) {
    size_t end = rest.find(" vs ", pos);
    const std::string seg = rest.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    Figure f{label, 0};
    bool found = false;
    for (const auto& t : LabelTokens(seg)) {
      if (auto v = ParseNumber(t)) {
        f.value = *v;
        found = true;
        break;
      }
      f.tokens.push_back(t);
    }
    if (!found || f.tokens.size() == label.size()) return {};  // a segment with no figure or no name
    out.push_back(std::move(f));
    if (end == std::string::npos) break;
    pos = end + 4;
  }
  return out.size() >= 2 ? out : std::vector<Figure>{};
}

// Whether every token names the row: key=value on its config, or a value of
// one of the varying columns.
bool TokensMatch(const TableRow& row, const std::vector<std::string>& varying, const std::vector<std::string>& tokens) {
  if (tokens.empty()) return false;
  for (const auto& t : tokens) {
    bool ok = false;
    const size_t eq = t.find('=');
    if (eq != std::string::npos) {
      const std::string key = NormalizeKey(t.substr(0, eq));
      auto it = row.config.find(key);
      if (it == row.config.end() && key == "bench_pass") it = row.config.find("pass");
      ok = it != row.config.end() && ValuesEqual(it->second, t.substr(eq + 1));
    } else {
      for (const auto& k : varying) {
        auto it = row.config.find(k);
        if (it != row.config.end() && ValuesEqual(it->second, t)) ok = true;
      }
    }
    if (!ok) return false;
  }
  return true;
}

}  // namespace

std::optional<double> RecordedTflops(const TableRow& row, const std::vector<std::string>& varying,
                                     const std::vector<const Bullet*>& recorded, size_t row_count) {
  std::vector<Figure> figures;
  for (const Bullet* b : recorded) {
    const std::vector<std::string> label = LabelTokens(Unquote(BulletLabel(b->text)));
    std::vector<Figure> compared = ComparedFigures(*b, label);
    if (!compared.empty()) {
      figures.insert(figures.end(), compared.begin(), compared.end());
    } else if (auto v = SingleTflops(*b)) {
      figures.push_back({label, *v});
    }
  }
  if (row_count == 1 && figures.size() == 1) return figures[0].value;
  if (varying.empty()) return std::nullopt;
  std::optional<double> match;
  for (const Figure& f : figures) {
    if (!TokensMatch(row, varying, f.tokens)) continue;
    if (match) return std::nullopt;  // two figures claim this row
    match = f.value;
  }
  return match;
}

// Where the figures come from, said under every table: a modeled figure must
// never pass for a measurement.
std::string TableCaption(const std::vector<TableRow>& rows, bool any_recorded) {
  bool v5p = false, cpu = false;
  for (const auto& r : rows) (r.target == "v5p" ? v5p : cpu) = true;
  std::string s = v5p && cpu ? "v5p rows: predicted by moelog's TPU v5p-8 model; cpu rows: measured on this machine."
                  : v5p      ? "Predicted by moelog's TPU v5p-8 model (`--target v5p`), not measured."
                             : "Measured by moelog on this machine's CPU (`--target cpu`).";
  if (any_recorded) s += " Recorded: the figure this entry's Result states; delta: moelog's against it.";
  return s;
}

std::string RenderRunTable(const std::vector<TableRow>& rows, const std::vector<const Bullet*>& recorded) {
  const auto varying = VaryingColumns(rows);
  std::vector<std::optional<double>> rec(rows.size());
  bool any_rec = false;
  for (size_t i = 0; i < rows.size(); ++i) {
    rec[i] = RecordedTflops(rows[i], varying, recorded, rows.size());
    any_rec = any_rec || rec[i].has_value();
  }
  bool any_status = false;
  for (const auto& r : rows) any_status = any_status || r.status != "ok";
  std::vector<std::string> head = varying;
  if (any_status) head.push_back("status");
  for (const char* h : {"time (ms)", "TF/s", "TF/s/device", "tokens/s"}) head.push_back(h);
  if (any_rec) {
    head.push_back("recorded TF/s");
    head.push_back("delta");
  }
  std::string out = "|";
  for (const auto& h : head) out += " " + h + " |";
  out += "\n|";
  for (size_t i = 0; i < head.size(); ++i) out += i < varying.size() + (any_status ? 1 : 0) ? "---|" : "---:|";
  out += "\n";
  for (size_t i = 0; i < rows.size(); ++i) {
    const TableRow& r = rows[i];
    out += "|";
    for (const auto& k : varying) {
      auto it = r.config.find(k);
      Cell(&out, EscapeCell(it == r.config.end() ? "" : it->second));
    }
    if (any_status) Cell(&out, r.status);
    auto metric = [&](const char* k, double scale, int decimals) {
      auto it = r.metrics.find(k);
      std::string cell;
      Cell(&cell, it == r.metrics.end() || !std::isfinite(it->second) ? "-" : Fixed(it->second * scale, decimals));
      return cell;
    };
    out += metric("time_s", 1000.0, 3);
    out += metric("tflops", 1.0, 3);
    out += metric("tflops_per_device", 1.0, 3);
    out += metric("tokens_per_s", 1.0, 0);
    if (any_rec) {
      auto tf = r.metrics.find("tflops");
      if (rec[i]) {
        Cell(&out, Fixed(*rec[i], 3));
        if (tf != r.metrics.end() && *rec[i] != 0) {
          const double d = (tf->second - *rec[i]) / *rec[i] * 100.0;
          std::string delta = d >= 0 ? "+" : "";
          delta.append(Fixed(d, 1)).append("%");
          Cell(&out, delta);
        } else {
          out += " - |";
        }
      } else {
        out += " - | - |";
      }
    }
    out += "\n";
  }
  out += '\n';
  out += TableCaption(rows, any_rec);
  out += '\n';
  return out;
}

}  // namespace moelog::logbook
