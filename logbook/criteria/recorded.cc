#include "logbook/criteria/recorded.h"

#include "logbook/plan/launchers.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include "engine/bench_config.h"
#include "logbook/criteria/compare.h"
#include "logbook/criteria/pairing.h"
#include "logbook/doc/parse_logbook.h"

namespace moelog::logbook {
namespace {

using Config = std::map<std::string, std::string>;
using Vars = std::map<std::string, std::vector<std::string>>;  // varied key -> values

bool IsIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)); }
bool IsIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'; }

std::vector<std::string> Words(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c)) || c == '`' || c == '"' || c == '\'' || c == ';') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

std::string StripVar(std::string v) {
  v.erase(std::remove_if(v.begin(), v.end(), [](char c) { return c == '$' || c == '{' || c == '}'; }), v.end());
  return v;
}

bool IsBoolFlag(const std::string& key) {
  static const std::set<std::string> k = {"shared_fused", "stage_timing", "use_custom_sort_vjp", "null_route_sweep",
                                          "renormalize_real_after_null", "json", "check_numerics", "staged_parallel"};
  return k.count(key) > 0;
}

// Every flag occurrence of a command line (key, value; "$VAR" kept), and the
// shell loops `for VAR in a b c;`.
void ParseCommand(const std::string& cmd, std::vector<std::pair<std::string, std::string>>* flags,
                  std::map<std::string, std::vector<std::string>>* loops) {
  auto w = Words(cmd);
  for (size_t i = 0; i < w.size(); ++i) {
    if (w[i] == "for" && i + 2 < w.size() && w[i + 2] == "in") {
      std::vector<std::string> values;
      for (size_t j = i + 3; j < w.size() && w[j] != "do"; ++j) {
        std::string v = w[j];
        if (!v.empty() && v.back() == ';') v.pop_back();
        if (!v.empty()) values.push_back(v);
      }
      (*loops)[w[i + 1]] = values;
      continue;
    }
    if (w[i].rfind("--", 0) != 0 || w[i].size() < 3) continue;
    std::string key = w[i].substr(2), value;
    size_t eq = key.find('=');
    if (eq != std::string::npos) {
      value = key.substr(eq + 1);
      key = key.substr(0, eq);
    }
    key = NormalizeKey(key);
    if (eq == std::string::npos) {
      if (IsBoolFlag(key) || i + 1 >= w.size() || w[i + 1].rfind("--", 0) == 0) value = "true";
      else value = w[++i];
    }
    if (!IsKnownRunKey(key) && key != "topk_list") continue;
    flags->emplace_back(key, value);
  }
}

// What a "both" value of a flag runs (the engine's expansion).
std::vector<std::string> BothValues(const std::string& key) {
  engine::BenchConfig c;
  c.bench_pass = "forward";  // prequeue exists for the forward pass only
  if (key == "distribution") return c.distribution = "both", c.DistributionValues();
  if (key == "impl") return c.impl = "both", c.ImplValues();
  if (key == "queue_mode") return c.queue_mode = "both", c.QueueModeValues();
  return {"both"};
}

// A harness whose adapter makes several runs of one invocation (one per
// implementation path or mesh): the keys its runs set differently are
// varied, with the values of its runs ("ref_dp", "staged_dp", "fused_ep").
void AdapterRunKeys(const std::string& cmd, Vars* vars) {
  for (const auto& w : Words(cmd)) {
    const Adapter* a = DefaultLauncherTable().FindHarness(w);
    if (a == nullptr || a->runs.size() < 2) continue;
    std::map<std::string, std::vector<std::string>> values;
    for (const auto& run : a->runs)
      for (size_t i = 0; i + 1 < run.args.size(); ++i)
        if (run.args[i].rfind("--", 0) == 0 && run.args[i + 1].rfind("--", 0) != 0) {
          auto& v = values[NormalizeKey(run.args[i].substr(2))];
          if (std::find(v.begin(), v.end(), run.args[i + 1]) == v.end()) v.push_back(run.args[i + 1]);
        }
    for (const auto& [k, v] : values)
      if (v.size() > 1 && !vars->count(k)) (*vars)[k] = v;
  }
}

// Fixed config and varied keys of an entry from its commands and Config
// field. A flag is fixed when every invocation gives it the same value.
void EntryConfig(const Entry& e, Config* fixed, Vars* vars) {
  std::vector<std::pair<std::string, std::string>> flags;
  std::map<std::string, std::vector<std::string>> loops;
  for (const auto& c : e.commands) ParseCommand(c.joined, &flags, &loops);
  std::map<std::string, std::vector<std::string>> values;  // key -> distinct literal values
  std::map<std::string, size_t> count;
  size_t invocations = 0;
  for (const auto& [k, v] : flags) invocations = std::max(invocations, ++count[k]);
  for (const auto& [k, v] : flags) {
    if (v.find('$') != std::string::npos) {
      auto it = loops.find(StripVar(v));
      if (it != loops.end()) (*vars)[k] = it->second;
      continue;
    }
    auto& vals = values[k];
    if (std::find(vals.begin(), vals.end(), v) == vals.end()) vals.push_back(v);
  }
  for (const auto& [k, vals] : values) {
    if (vals.size() == 1 && vals.front() == "both" && !vars->count(k)) {
      (*vars)[k] = BothValues(k);  // one invocation sweeps the key itself
      continue;
    }
    if (IsBoolFlag(k) && count[k] < invocations) {
      (*vars)[k] = {"false", "true"};  // given to some invocations only
      continue;
    }
    if (k == "topk_list") {
      std::vector<std::string> ks;
      std::stringstream ss(vals.front());
      std::string t;
      while (std::getline(ss, t, ',')) ks.push_back(t);
      (*vars)["topk"] = ks;
    } else if (vars->count(k)) {
      continue;
    } else if (vals.size() == 1 && count[k] == invocations) {
      (*fixed)[k] = vals.front();
    } else if (vals.size() > 1) {
      (*vars)[k] = vals;
    }
  }
  for (const auto& c : e.commands) AdapterRunKeys(c.joined, vars);
  for (const auto& [k, v] : *vars) fixed->erase(k);
  if (const Field* f = e.FindField("Config")) {
    auto add = [&](const std::string& text) {
      for (const auto& [k, v] : ConfigWords(text))
        if (!vars->count(k)) (*fixed)[k] = v;
    };
    add(f->bullet.text);
    for (const auto& c : f->bullet.children) add(c.text);
  }
}

// The key whose varied values include `word`, if exactly one.
std::string KeyOfValue(const Vars& vars, const std::string& word) {
  std::string found;
  for (const auto& [k, vals] : vars)
    for (const auto& v : vals)
      if (v == word) {
        if (!found.empty() && found != k) return "";
        found = k;
      }
  return found;
}

// The varied value `word` names for `key`: itself, or the one value whose
// first part it is ("ref" for "ref_dp", "staged" for "staged_dp"), when
// exactly one value of one key starts so.
bool ShortValue(const Vars& vars, const std::string& word, std::string* key, std::string* value) {
  if (!KeyOfValue(vars, word).empty() || word.size() < 3) return false;
  int hits = 0;
  for (const auto& [k, vals] : vars)
    for (const auto& v : vals)
      if (v.size() > word.size() + 1 && v.compare(0, word.size(), word) == 0 && v[word.size()] == '_')
        ++hits, *key = k, *value = v;
  return hits == 1;
}

// `topk8` -> {topk, 8}.
bool KeyDigits(const std::string& w, const Vars& vars, std::string* key, std::string* value) {
  size_t d = w.size();
  while (d > 0 && std::isdigit(static_cast<unsigned char>(w[d - 1]))) --d;
  if (d == 0 || d == w.size()) return false;
  std::string k = NormalizeKey(w.substr(0, d));
  if (!vars.count(k) && k != "topk") return false;
  *key = k;
  *value = w.substr(d);
  return true;
}

// "2048/2048": numbers joined by '/' name shape keys in the order a shape is
// written (tokens, hidden, mlp_dim, experts, topk, shared), each part a value
// the entry runs for its key, when exactly one assignment fits. Empty
// otherwise ("3072/3072" in an entry that only runs 2048 is a case name).
Config ShapeLabel(const std::string& w, const Vars& vars, const Config& fixed) {
  std::vector<std::string> parts;
  std::stringstream ss(w);
  for (std::string p; std::getline(ss, p, '/');) {
    if (p.empty() || !std::all_of(p.begin(), p.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
      return {};
    parts.push_back(p);
  }
  if (parts.size() < 2) return {};
  std::vector<std::string> keys;
  Vars values;  // shape key -> the values the entry runs (varied or fixed)
  for (const char* k : {"tokens", "hidden", "mlp_dim", "experts", "topk", "shared_expert_dim"}) {
    if (vars.count(k)) values[k] = vars.at(k);
    else if (fixed.count(k)) values[k] = {fixed.at(k)};
    else continue;
    keys.push_back(k);
  }
  // Every way to give the parts, in order, to varied keys holding them: one way only.
  std::vector<Config> ways;
  std::function<void(size_t, size_t, Config)> assign = [&](size_t part, size_t from, Config cfg) {
    if (part == parts.size()) {
      ways.push_back(cfg);
      return;
    }
    for (size_t k = from; k < keys.size(); ++k) {
      const auto& vals = values.at(keys[k]);
      if (std::find(vals.begin(), vals.end(), parts[part]) == vals.end()) continue;
      Config next = cfg;
      next[keys[k]] = parts[part];
      assign(part + 1, k + 1, next);
    }
  };
  assign(0, 0, {});
  return ways.size() == 1 ? ways[0] : Config{};
}

// "shared-fused" names the boolean flag shared_fused when the entry varies
// it: true; "non-fused" / "no-shared-fused": false.
bool BoolWord(const std::string& word, const Vars& vars, std::string* key, std::string* value) {
  std::string w = NormalizeKey(word);
  bool negated = false;
  for (const char* p : {"non_", "no_", "without_"})
    if (w.rfind(p, 0) == 0) {
      w = w.substr(std::strlen(p));
      negated = true;
      break;
    }
  std::string found;
  for (const auto& [k, vals] : vars) {
    if (!IsBoolFlag(k)) continue;
    const bool names = k == w || (k.size() > w.size() && k.compare(k.size() - w.size(), w.size(), w) == 0 &&
                                  k[k.size() - w.size() - 1] == '_');
    if (!names) continue;
    if (!found.empty()) return false;
    found = k;
  }
  if (found.empty()) return false;
  *key = found;
  *value = negated ? "false" : "true";
  return true;
}

// Config from a bullet label: k=v words, bare varied values, topk8 words,
// anything else as "case".
Config LabelConfig(const std::string& label, const Vars& vars, const Config& fixed) {
  Config cfg = ConfigWords(label);
  std::vector<std::string> rest;
  std::string t;
  for (char c : label) t += (c == ',' || c == '(' || c == ')') ? ' ' : c;
  for (const auto& w : Words(t)) {
    if (w.find('=') != std::string::npos) continue;
    std::string key, value;
    if (std::string k = KeyOfValue(vars, w); !k.empty()) {
      cfg[k] = w;
    } else if (KeyDigits(w, vars, &key, &value) || BoolWord(w, vars, &key, &value)) {
      cfg[key] = value;
    } else if (Config shape = ShapeLabel(w, vars, fixed); !shape.empty()) {
      cfg.insert(shape.begin(), shape.end());
    } else if (w.find('/') != std::string::npos) {
      // "random/full": every part a varied value, else a case name.
      std::vector<std::string> parts;
      std::stringstream ss(w);
      std::string p;
      bool all = true;
      Config sub;
      while (std::getline(ss, p, '/')) {
        std::string k = KeyOfValue(vars, p);
        if (k.empty()) all = false;
        else sub[k] = p;
      }
      if (all) cfg.insert(sub.begin(), sub.end());
      else rest.push_back(w);
    } else {
      rest.push_back(w);
    }
  }
  if (!rest.empty()) {
    std::string c;
    for (const auto& r : rest) c += (c.empty() ? "" : " ") + r;
    cfg["case"] = c;
  }
  return cfg;
}

struct Figure {
  double value = 0;
  std::string metric;
  std::string word;  // identifier right before the number ("" if none)
};

// Figures in the text after a bullet's label.
std::vector<Figure> Figures(const std::string& s) {
  std::vector<Figure> out;
  int depth = 0;
  size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    if (c == '(') { ++depth; ++i; continue; }
    if (c == ')') { depth = std::max(0, depth - 1); ++i; continue; }
    bool sign = (c == '+' || c == '-') && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1]));
    if (!std::isdigit(static_cast<unsigned char>(c)) && !sign) { ++i; continue; }
    // Glued to a word or '=' ("topk8", "v5p", "k=2"): not a figure.
    // The scan always steps past the character it stands on ('+' in "1e+00"
    // is no identifier character), so every loop here is linear.
    if (i > 0 && (IsIdentChar(s[i - 1]) || s[i - 1] == '=' || s[i - 1] == '.')) {
      ++i;
      while (i < s.size() && (IsIdentChar(s[i]) || s[i] == '.')) ++i;
      continue;
    }
    size_t j = i + (sign ? 1 : 0);
    std::string num;
    while (j < s.size() && (std::isdigit(static_cast<unsigned char>(s[j])) || s[j] == ',' || s[j] == '.')) {
      if ((s[j] == ',' || s[j] == '.') && !(j + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[j + 1])))) break;
      num += s[j++];
    }
    const size_t start = i;
    i = j;
    if (depth > 0 || sign) continue;  // deltas and asides
    if (j < s.size() && (IsIdentChar(s[j]) || s[j] == '%')) {  // "2.3x", "4%", "128MiB"
      while (i < s.size() && IsIdentChar(s[i])) ++i;
      continue;
    }
    size_t k = j;
    while (k < s.size() && (s[k] == ' ' || s[k] == '`')) ++k;
    if (k < s.size() && s[k] == '%') continue;
    std::string metric = "tflops";
    std::string after = s.substr(k, 8);
    if (after.rfind("TF/s", 0) == 0) metric = "tflops";
    else if (after.rfind("tok/s", 0) == 0 || after.rfind("tokens/s", 0) == 0) metric = "tokens_per_s";
    else if (k < s.size() && std::isalpha(static_cast<unsigned char>(s[k])) && after.rfind("vs", 0) != 0)
      continue;  // another unit (GB/s, s, MiB, x): not a throughput figure
    auto v = ParseNumber(num);
    if (!v) continue;
    Figure f;
    f.value = *v;
    f.metric = metric;
    size_t b = start;
    while (b > 0 && (s[b - 1] == ' ' || s[b - 1] == '`')) --b;
    size_t e = b;
    while (b > 0 && IsIdentChar(s[b - 1])) --b;
    std::string word = s.substr(b, e - b);
    static const std::set<std::string> kStop = {"vs", "and", "or", "at", "with", "to", "of", "is", "from", "was", "by"};
    if (!word.empty() && IsIdentStart(word[0]) && !kStop.count(word) && (b == 0 || s[b - 1] != '/')) f.word = word;
    out.push_back(f);
  }
  return out;
}

// A word that repeats a value every run of the entry has ("forward" when the
// entry runs --bench-pass forward only) names no variant.
bool IsFixedValue(const Config& fixed, const std::string& word) {
  for (const auto& [k, v] : fixed)
    if (v == word) return true;
  return false;
}

void Walk(const Bullet& b, Config context, const Config& fixed, const Vars& vars, const std::string& entry_id,
          std::vector<RecordedFigure>* out) {
  size_t colon = std::string::npos;
  bool in_code = false;
  for (size_t i = 0; i < b.text.size(); ++i) {
    if (b.text[i] == '`') in_code = !in_code;
    else if (b.text[i] == ':' && !in_code) { colon = i; break; }
  }
  std::string label = colon == std::string::npos ? "" : b.text.substr(0, colon);
  std::string rest = colon == std::string::npos ? b.text : b.text.substr(colon + 1);
  Config own = LabelConfig(label, vars, fixed);
  if (own.count("case") && context.count("case")) {
    // A nested case names a variant of its parent's case.
    own["variant"] = own["case"];
    own.erase("case");
  }
  for (const auto& [k, v] : own) context[k] = v;
  // Group figures into points: a category word starts a new point.
  struct Point {
    Config cfg;
    std::map<std::string, double> metrics;
    bool clash = false;
  };
  std::vector<Point> points;
  for (const auto& f : Figures(rest)) {
    std::string key, value;
    if (!f.word.empty() && (KeyDigits(f.word, vars, &key, &value) || BoolWord(f.word, vars, &key, &value) ||
                            ShortValue(vars, f.word, &key, &value))) {
      points.push_back({{{key, value}}, {}, false});
    } else if (!f.word.empty() && !IsFixedValue(fixed, f.word)) {
      std::string k = KeyOfValue(vars, f.word);
      points.push_back({{{k.empty() ? "variant" : k, f.word}}, {}, false});
    } else if (points.empty()) {
      points.push_back({});
    }
    Point& p = points.back();
    if (p.metrics.count(f.metric)) p.clash = true;
    p.metrics[f.metric] = f.value;
  }
  for (const auto& p : points) {
    if (p.clash || p.metrics.empty()) continue;
    StoredRun r;
    r.config = fixed;
    for (const auto& [k, v] : context) r.config[k] = v;
    for (const auto& [k, v] : p.cfg) r.config[k] = v;
    r.metrics = p.metrics;
    r.entry_id = entry_id;
    r.source = "recorded";
    r.id = entry_id + "#" + std::to_string(out->size() + 1);
    out->push_back({std::move(r), b.line, b.text});
  }
  for (const auto& c : b.children) Walk(c, context, fixed, vars, entry_id, out);
}

// The metric a table column holds, from its header ("TF/s", "tokens/s",
// "tok/s"); "" for other columns.
std::string ColumnMetric(const std::string& header) {
  if (header.find("TF/s") != std::string::npos && header.find('/', header.find("TF/s") + 4) == std::string::npos)
    return "tflops";
  if (header.find("tokens/s") != std::string::npos || header.find("tok/s") != std::string::npos) return "tokens_per_s";
  return "";
}

std::string Unticked(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), '`'), s.end());
  return parse_detail::Trim(s);
}

// A table written in a Result: each row a figure set. Columns named by a
// config key give its value; other label columns are read like bullet labels
// (bare varied values, `topk8`, shapes); TF/s and tokens/s columns give the
// figures. moelog's own tables (in its regions, headed "time (ms)") are not
// the logbook's words.
void TableFigures(const TableBlock& t, const Config& context, const Config& fixed, const Vars& vars,
                  const std::string& entry_id, std::vector<RecordedFigure>* out) {
  if (std::find(t.header.begin(), t.header.end(), "time (ms)") != t.header.end()) return;
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const auto& row = t.rows[r];
    StoredRun run;
    run.config = fixed;
    for (const auto& [k, v] : context) run.config[k] = v;
    std::string label;
    for (size_t c = 0; c < row.size() && c < t.header.size(); ++c) {
      const std::string cell = Unticked(row[c]);
      const std::string metric = ColumnMetric(t.header[c]);
      if (!metric.empty()) {
        if (auto v = ParseNumber(cell)) run.metrics[metric] = *v;
        continue;
      }
      const std::string key = NormalizeKey(Unticked(t.header[c]));
      if (IsKnownRunKey(key)) run.config[key] = cell;
      else label += (label.empty() ? "" : ", ") + cell;
    }
    for (const auto& [k, v] : LabelConfig(label, vars, fixed)) run.config[k] = v;
    if (run.metrics.empty()) continue;
    run.entry_id = entry_id;
    run.source = "recorded";
    std::string text = "|";
    for (const auto& cell : row) text += " " + cell + " |";
    out->push_back({std::move(run), t.line + 2 + static_cast<int>(r), text});
  }
}

}  // namespace

std::vector<RecordedFigure> RecordedFigures(const Entry& entry) {
  Config fixed;
  Vars vars;
  EntryConfig(entry, &fixed, &vars);
  std::vector<RecordedFigure> out;
  for (const auto& f : entry.fields) {
    if (f.name != "Result") continue;
    Config context = LabelConfig(f.qualifier, vars, fixed);
    context.erase("case");
    for (const auto& c : f.bullet.children) Walk(c, context, fixed, vars, entry.id, &out);
    for (const auto& t : entry.tables)
      if (t.line >= f.bullet.line && t.line <= f.bullet.end_line) TableFigures(t, context, fixed, vars, entry.id, &out);
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const RecordedFigure& a, const RecordedFigure& b) { return a.line < b.line; });
  // Number runs per entry in document order.
  for (size_t i = 0; i < out.size(); ++i) out[i].run.id = entry.id + "#" + std::to_string(i + 1);
  return out;
}

std::vector<StoredRun> RecordedRuns(const Entry& entry) {
  std::vector<StoredRun> out;
  for (auto& f : RecordedFigures(entry)) out.push_back(std::move(f.run));
  return out;
}

namespace {

// Keys a figure's config may hold that say nothing a row could confirm or
// deny: derived ones (devices and mesh follow the parallel mode), repetition
// and output settings.
bool NeutralKey(const std::string& k) {
  return !FollowedKey(k).empty() || IsIgnoredForPairing(k) || k == "target" || k == "source";
}

bool Fits(const StoredRun& figure, const std::map<std::string, std::string>& row) {
  for (const auto& [k, v] : figure.config) {
    if (k == "case" || k == "variant") return false;
    if (NeutralKey(k)) continue;
    auto it = row.find(k);
    if (it != row.end() && !ValuesEqual(it->second, v)) return false;
  }
  return true;
}

}  // namespace

bool FigureFits(const StoredRun& figure, const std::map<std::string, std::string>& row) { return Fits(figure, row); }

std::vector<FigurePlacement> PlaceFigures(const std::vector<RecordedFigure>& figures,
                                          const std::vector<std::map<std::string, std::string>>& rows,
                                          const std::vector<int>& group) {
  std::vector<FigurePlacement> out(figures.size());
  std::map<std::pair<int, std::string>, std::vector<size_t>> claims;  // (row or group, metric) -> figures
  for (size_t i = 0; i < figures.size(); ++i) {
    std::set<int> fit;
    for (size_t r = 0; r < rows.size(); ++r)
      if (Fits(figures[i].run, rows[r])) fit.insert(group.empty() ? static_cast<int>(r) : group[r]);
    if (fit.size() != 1) {
      out[i].why = fit.empty() ? "matches no row" : "matches several rows";
      continue;
    }
    out[i].row = *fit.begin();
    for (const auto& [metric, v] : figures[i].run.metrics) claims[{out[i].row, metric}].push_back(i);
  }
  for (const auto& [key, ids] : claims) {
    if (ids.size() < 2) continue;
    for (size_t i : ids) {
      out[i].row = -1;
      out[i].why = "another figure claims its row";
    }
  }
  return out;
}

std::vector<StoredRun> RecordedRuns(const Logbook& logbook) {
  std::vector<StoredRun> out;
  for (const auto& e : logbook.entries) {
    auto runs = RecordedRuns(e);
    out.insert(out.end(), runs.begin(), runs.end());
  }
  return out;
}

}  // namespace moelog::logbook
