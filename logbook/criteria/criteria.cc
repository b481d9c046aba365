#include "logbook/criteria/criteria.h"

#include "engine/target.h"
#include "logbook/budgets.h"
#include "logbook/criteria/pairing.h"
#include "logbook/doc/markdown.h"
#include "logbook/doc/regions.h"
#include "logbook/text.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <sstream>

namespace moelog::logbook {
namespace {

// ---------------------------------------------------------------- tokens ---

struct Token {
  std::string text;
  bool punct = false;  // one of { } , ; = != >= <= > < ==
};

bool IsPunctChar(char c) { return c == '{' || c == '}' || c == ',' || c == ';' || c == '=' || c == '<' || c == '>' || c == '!'; }

std::vector<Token> Tokenize(const std::string& s) {
  std::vector<Token> out;
  size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) { ++i; continue; }
    if (IsPunctChar(c)) {
      if ((c == '<' || c == '>' || c == '!' || c == '=') && i + 1 < s.size() && s[i + 1] == '=') {
        out.push_back({s.substr(i, 2), true});
        i += 2;
      } else {
        out.push_back({std::string(1, c), true});
        ++i;
      }
      continue;
    }
    size_t j = i;
    while (j < s.size() && !std::isspace(static_cast<unsigned char>(s[j])) && !IsPunctChar(s[j])) ++j;
    out.push_back({s.substr(i, j - i), false});
    i = j;
  }
  return out;
}

// ---------------------------------------------------------------- parser ---

class Parser {
 public:
  Parser(const std::string& text, std::string where, const RunKeys& keys)
      : toks_(Tokenize(text)), where_(std::move(where)), keys_(keys) {}

  // One condition and nothing after it.
  Result<Condition> ParseFilter() {
    auto c = ParseCondition(false);
    if (!c.ok()) return c.status();
    if (!AtEnd()) return Error("unexpected '" + Peek() + "' after the condition");
    return c;
  }

  Result<Predicate> Parse(const std::string& text) {
    Predicate p;
    p.text = text;
    if (toks_.empty()) return Error("empty predicate");
    while (true) {
      auto clause = ParseClause();
      if (!clause.ok()) return clause.status();
      p.clauses.push_back(std::move(clause.value()));
      if (AtEnd()) break;
      if (!Accept(";")) return Error("expected ';' or end of predicate, got '" + Peek() + "'");
      if (AtEnd()) break;  // a trailing ';' is harmless
    }
    return p;
  }

 private:
  bool AtEnd() const { return pos_ >= toks_.size(); }
  std::string Peek(size_t ahead = 0) const {
    return pos_ + ahead < toks_.size() ? toks_[pos_ + ahead].text : std::string();
  }
  bool PeekIs(const std::string& t, size_t ahead = 0) const { return pos_ + ahead < toks_.size() && Peek(ahead) == t; }
  bool Accept(const std::string& t) {
    if (PeekIs(t)) { ++pos_; return true; }
    return false;
  }
  Status Error(const std::string& m) const { return Status::ParseError(where_ + ": " + m); }
  Status Expect(const std::string& t, const std::string& context) {
    if (Accept(t)) return Status::Ok();
    return Error("expected '" + t + "' " + context + ", got " + (AtEnd() ? "end of predicate" : "'" + Peek() + "'"));
  }
  bool PeekWord() const { return !AtEnd() && !toks_[pos_].punct; }

  Result<std::string> Word(const std::string& what) {
    if (!PeekWord()) return Error("expected " + what + ", got " + (AtEnd() ? "end of predicate" : "'" + Peek() + "'"));
    return toks_[pos_++].text;
  }

  Result<std::string> Key() {
    auto w = Word("a config key");
    if (!w.ok()) return w.status();
    std::string k = NormalizeKey(*w);
    if (!keys_.Has(k)) return Error("unknown config key '" + *w + "' (valid: " + JoinKeys(keys_.Names()) + ")");
    return k;
  }

  Result<std::vector<std::string>> ValueSet() {
    MOELOG_RETURN_IF_ERROR(Expect("{", "to open a value set"));
    std::vector<std::string> vals;
    while (true) {
      auto v = Word("a value");
      if (!v.ok()) return v.status();
      vals.push_back(*v);
      if (Accept("}")) break;
      MOELOG_RETURN_IF_ERROR(Expect(",", "or '}' in a value set"));
    }
    return vals;
  }

  Result<Condition> ParseCondition(bool eq_only) {
    Condition c;
    auto k = Key();
    if (!k.ok()) return k.status();
    c.key = *k;
    if (Accept("=") || Accept("==")) {
      c.op = Condition::Op::kEq;
    } else if (!eq_only && Accept("!=")) {
      c.op = Condition::Op::kNe;
    } else if (!eq_only && Accept("in")) {
      c.op = Condition::Op::kIn;
      auto vs = ValueSet();
      if (!vs.ok()) return vs.status();
      c.values = *vs;
      return c;
    } else {
      return Error(std::string("expected '=' ") + (eq_only ? "" : "'!=' or 'in' ") + "after '" + c.key + "'");
    }
    auto v = Word("a value after '" + c.key + "='");
    if (!v.ok()) return v.status();
    c.values = {*v};
    return c;
  }

  bool AtClauseKeyword() const {
    return AtEnd() || PeekIs(";") || PeekIs("where") || PeekIs("same") || PeekIs("accept") ||
           (PeekIs("at") && PeekIs("least", 1));
  }

  // accept KIND[,KIND...]: the evidence kinds that may meet the clause.
  Status ParseAccept(Clause* c) {
    c->accept = 0;
    do {
      auto w = Word("an evidence kind (measured, recorded, modeled or any)");
      if (!w.ok()) return w.status();
      if (*w == "any") {
        c->accept = kAnyEvidence;
        continue;
      }
      auto k = ParseEvidenceKind(*w);
      if (!k) return Error("unknown evidence kind '" + *w + "' (valid: measured, recorded, modeled, any)");
      c->accept |= KindBit(*k);
    } while (Accept(","));
    return Status::Ok();
  }

  // Optional trailers in any order: same K,..  where C,..  at least N  accept KIND,..
  Status ParseTrailers(Clause* c, bool allow_same, bool allow_at_least) {
    std::set<std::string> seen;
    while (!AtEnd() && !PeekIs(";")) {
      std::string kw = Peek();
      if (seen.count(kw)) return Error("'" + kw + "' given twice");
      if (allow_same && Accept("same")) {
        seen.insert("same");
        do {
          auto k = Key();
          if (!k.ok()) return k.status();
          c->same.push_back(*k);
        } while (Accept(","));
      } else if (Accept("accept")) {
        seen.insert("accept");
        MOELOG_RETURN_IF_ERROR(ParseAccept(c));
      } else if (Accept("where")) {
        seen.insert("where");
        do {
          auto cond = ParseCondition(false);
          if (!cond.ok()) return cond.status();
          c->where.push_back(*cond);
        } while (Accept(",") || Accept("and"));
      } else if (allow_at_least && PeekIs("at") && PeekIs("least", 1)) {
        seen.insert("at");
        pos_ += 2;
        auto n = Word("a count after 'at least'");
        if (!n.ok()) return n.status();
        auto v = ParseNumber(*n);
        if (!v || *v < 1 || *v != static_cast<int>(*v)) return Error("'at least' needs a positive whole number, got '" + *n + "'");
        c->at_least = static_cast<int>(*v);
      } else {
        return Error("unexpected '" + kw + "'");
      }
    }
    return Status::Ok();
  }

  // A clause: its predicate word, then the predicate's own grammar.
  Result<Clause> ParseClause() {
    using Parse = Status (Parser::*)(Clause*);
    static const std::pair<const char*, Parse> kPredicates[] = {
        {"pairs", &Parser::ParsePairs},   {"beats", &Parser::ParseBeats},     {"sweep", &Parser::ParseSweep},
        {"table", &Parser::ParseTable},   {"metric", &Parser::ParseMetric}, {"repeats", &Parser::ParseRepeats},
        {"entry", &Parser::ParseEntry}};
    auto kw = Word("one of pairs, beats, sweep, table, metric, repeats, entry");
    if (!kw.ok()) return kw.status();
    for (const auto& [word, parse] : kPredicates) {
      if (*kw != word) continue;
      Clause c;
      MOELOG_RETURN_IF_ERROR((this->*parse)(&c));
      return c;
    }
    return Error("unknown predicate '" + *kw + "' (expected pairs, beats, sweep, table, metric, repeats or entry)");
  }

  // "pairs SIDE vs SIDE ..."
  Status ParsePairs(Clause* c) {
    c->kind = Clause::Kind::kPairs;
    MOELOG_RETURN_IF_ERROR(ParseSide(&c->left));
    MOELOG_RETURN_IF_ERROR(Expect("vs", "between the two sides of 'pairs'"));
    MOELOG_RETURN_IF_ERROR(ParseSide(&c->right));
    return ParseTrailers(c, true, true);
  }

  // A metric name the store knows, normalized.
  Result<std::string> MetricName() {
    auto m = Word("a metric name");
    if (!m.ok()) return m.status();
    std::string metric = NormalizeKey(*m);
    if (!KnownMetrics().count(metric))
      return Error("unknown metric '" + *m + "' (valid: " + JoinKeys(KnownMetrics()) + ")");
    return metric;
  }

  // "beats SIDE vs SIDE by N% [on METRIC] ..."
  Status ParseBeats(Clause* c) {
    c->kind = Clause::Kind::kBeats;
    c->metric = "tflops";
    MOELOG_RETURN_IF_ERROR(ParseSide(&c->left));
    MOELOG_RETURN_IF_ERROR(Expect("vs", "between the two sides of 'beats'"));
    MOELOG_RETURN_IF_ERROR(ParseSide(&c->right));
    MOELOG_RETURN_IF_ERROR(Expect("by", "before the margin of 'beats'"));
    auto n = Word("a margin such as 5%");
    if (!n.ok()) return n.status();
    std::string num = *n;
    if (!num.empty() && num.back() == '%') num.pop_back();
    auto v = ParseNumber(num);
    if (!v || *v < 0) return Error("expected a margin in percent after 'by', got '" + *n + "'");
    c->by_pct = *v;
    if (Accept("on")) {
      auto m = MetricName();
      if (!m.ok()) return m.status();
      c->metric = *m;
    }
    return ParseTrailers(c, true, true);
  }

  // One axis: a key and its set of values.
  Result<Axis> ParseAxis(const char* before_values) {
    Axis a;
    auto k = Key();
    if (!k.ok()) return k.status();
    a.key = *k;
    if (before_values) MOELOG_RETURN_IF_ERROR(Expect(before_values, "after the swept key"));
    auto vs = ValueSet();
    if (!vs.ok()) return vs.status();
    a.values = *vs;
    return a;
  }

  // "sweep KEY in {VALUES} ..."
  Status ParseSweep(Clause* c) {
    c->kind = Clause::Kind::kSweep;
    auto a = ParseAxis("in");
    if (!a.ok()) return a.status();
    c->axes.push_back(*a);
    return ParseTrailers(c, true, false);
  }

  // "table KEY {VALUES} [x KEY {VALUES}]... ..."
  Status ParseTable(Clause* c) {
    c->kind = Clause::Kind::kTable;
    do {
      auto a = ParseAxis(nullptr);
      if (!a.ok()) return a.status();
      for (const auto& prev : c->axes)
        if (prev.key == a->key) return Error("table axis '" + a->key + "' given twice");
      c->axes.push_back(*a);
      // The grid is walked cell by cell: its size is bounded before anything runs.
      size_t cells = 1;
      for (const auto& axis : c->axes) cells = cells > SIZE_MAX / axis.values.size() ? SIZE_MAX : cells * axis.values.size();
      if (cells > static_cast<size_t>(BudgetLimit(BudgetId::kPredicateCells)))
        return Error("cannot check this table: " + OverBudget(BudgetId::kPredicateCells));
    } while (Accept("x"));
    return ParseTrailers(c, true, false);
  }

  // "metric [all|any] METRIC OP NUMBER ..."
  Status ParseMetric(Clause* c) {
    c->kind = Clause::Kind::kMetric;
    if (Accept("all")) c->all = true;
    else Accept("any");
    const std::string name = AtEnd() ? "" : Peek();
    auto m = MetricName();
    if (!m.ok()) return m.status();
    c->metric = *m;
    static const std::set<std::string> kOps = {">=", ">", "<=", "<", "==", "!=", "="};
    if (AtEnd() || !kOps.count(Peek())) return Error("expected a comparison (>= > <= < == !=) after '" + name + "'");
    c->op = Peek() == "=" ? "==" : Peek();
    ++pos_;
    auto n = Word("a number");
    if (!n.ok()) return n.status();
    auto v = ParseNumber(*n);
    if (!v) return Error("expected a number after '" + c->op + "', got '" + *n + "'");
    c->threshold = *v;
    return ParseTrailers(c, false, false);
  }

  // "repeats ..."
  Status ParseRepeats(Clause* c) {
    c->kind = Clause::Kind::kRepeats;
    c->at_least = 2;
    return ParseTrailers(c, false, true);
  }

  // "entry ID has result" or "entry ID has runs ..."
  Status ParseEntry(Clause* c) {
    auto id = Word("an entry ID");
    if (!id.ok()) return id.status();
    c->entry_id = *id;
    MOELOG_RETURN_IF_ERROR(Expect("has", "after the entry ID"));
    if (Accept("result")) {
      c->kind = Clause::Kind::kEntryResult;
      if (!AtEnd() && !PeekIs(";")) return Error("unexpected '" + Peek() + "' after 'has result'");
      return Status::Ok();
    }
    if (Accept("runs")) {
      c->kind = Clause::Kind::kEntryRuns;
      return ParseTrailers(c, false, true);
    }
    return Error("expected 'result' or 'runs' after 'has'");
  }

  Status ParseSide(std::vector<Condition>* side) {
    do {
      auto cond = ParseCondition(true);
      if (!cond.ok()) return cond.status();
      side->push_back(*cond);
    } while (Accept(","));
    return Status::Ok();
  }

  std::vector<Token> toks_;
  size_t pos_ = 0;
  std::string where_;
  const RunKeys& keys_;  // outlives the parser: the caller's argument
};

// ------------------------------------------------------------ evaluation ---

bool Matches(const StoredRun& run, const Condition& c) {
  auto v = RunValue(run, c.key);
  if (!v) return c.op == Condition::Op::kNe;
  switch (c.op) {
    case Condition::Op::kEq: return ValuesEqual(*v, c.values[0]);
    case Condition::Op::kNe: return !ValuesEqual(*v, c.values[0]);
    case Condition::Op::kIn:
      return std::any_of(c.values.begin(), c.values.end(), [&](const std::string& x) { return ValuesEqual(*v, x); });
  }
  return false;
}

bool MatchesAll(const StoredRun& run, const std::vector<Condition>& conds) {
  return std::all_of(conds.begin(), conds.end(), [&](const Condition& c) { return Matches(run, c); });
}

std::vector<std::string> Differences(const StoredRun& a, const StoredRun& b, const std::vector<std::string>& keys) {
  std::vector<std::string> diff;
  for (const auto& k : keys) {
    auto va = RunValue(a, k), vb = RunValue(b, k);
    if (!va && !vb) continue;
    if (!va || !vb || !ValuesEqual(*va, *vb)) diff.push_back(k);
  }
  return diff;
}

std::string DescribeConds(const std::vector<Condition>& side) {
  std::string s;
  for (const auto& c : side) s += (s.empty() ? "" : ",") + c.key + "=" + c.values[0];
  return s;
}

std::string Join(const std::vector<std::string>& v, const std::string& sep) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + v[i];
  return s;
}

struct ClauseOutcome {
  bool met = false;
  std::string detail;
  std::vector<std::string> evidence;
};

// How much a beats b on `metric`, percent (times: lower is better); NaN
// when either lacks it.
double GainPct(const StoredRun& a, const StoredRun& b, const std::string& metric) {
  auto ia = a.metrics.find(metric), ib = b.metrics.find(metric);
  if (ia == a.metrics.end() || ib == b.metrics.end() || ia->second <= 0 || ib->second <= 0)
    return std::numeric_limits<double>::quiet_NaN();
  const bool time = metric == "mean_s" || metric.rfind("time", 0) == 0 || metric.rfind("comm_s", 0) == 0;
  return time ? (ib->second / ia->second - 1) * 100 : (ia->second / ib->second - 1) * 100;
}

// What the search over pairs found: one pair per control signature at
// identical controls (in discovery order), and the nearest misses.
struct PairSearch {
  std::vector<std::string> groups;
  std::map<std::string, std::pair<std::string, std::string>> first_pair;
  size_t best_diff = SIZE_MAX;
  std::string best_desc;  // the closest pair whose controls differ
  double best_gain = -1e300;
  std::string best_gain_desc;  // beats: the pair with the best gain

  void Consider(const StoredRun& a, const StoredRun& b, const Clause& c, const std::set<std::string>& excluded) {
    auto keys = ControlKeys({&a, &b}, c.same, excluded);
    auto diff = Differences(a, b, keys);
    if (!diff.empty()) {
      if (diff.size() < best_diff) NoteMiss(a, b, diff);
      return;
    }
    if (c.kind == Clause::Kind::kBeats) {
      const double gain = GainPct(a, b, c.metric);
      if (gain > best_gain) {
        best_gain = gain;
        best_gain_desc = a.id + " vs " + b.id + " " +
                         (std::isnan(gain) ? std::string("lack ") + c.metric : Significant(gain, 3) + "%");
      }
      if (std::isnan(gain) || gain < c.by_pct) return;
    }
    std::string sig = ControlSignature(a, keys);
    if (!first_pair.count(sig)) {
      groups.push_back(sig);
      first_pair[sig] = {a.id, b.id};
    }
  }

  void NoteMiss(const StoredRun& a, const StoredRun& b, const std::vector<std::string>& diff) {
    best_diff = diff.size();
    std::vector<std::string> parts;
    for (const auto& k : diff) {
      auto va = RunValue(a, k), vb = RunValue(b, k);
      parts.push_back(k + " " + (va ? *va : "-") + " vs " + (vb ? *vb : "-"));
    }
    best_desc = a.id + "/" + b.id + " differ in " + Join(parts, ", ");
  }
};

// The detail line of a pairs or beats clause.
std::string PairsDetail(const Clause& c, const PairSearch& s, bool met) {
  const std::string left = DescribeConds(c.left), right = DescribeConds(c.right);
  const bool beats = c.kind == Clause::Kind::kBeats;
  const int n = static_cast<int>(s.groups.size());
  const std::string what = beats ? " beating " + right + " by >= " + FormatValue(c.by_pct) + "% " + c.metric : "";
  if (met)
    return std::to_string(n) + " " + left + " vs " + right + " pair" + (n == 1 ? "" : "s") +
           " at identical controls" + (beats ? ", " + left + what : "");
  std::string detail = std::to_string(n) + " of " + std::to_string(c.at_least) + " required " + left + " vs " +
                       right + " pairs at identical controls" + (beats ? " with " + left + what : "");
  if (beats && !s.best_gain_desc.empty()) detail += " (best: " + s.best_gain_desc + ")";
  else if (!s.best_desc.empty()) detail += " (closest: " + s.best_desc + ")";
  return detail;
}

// Pairs and beats: enough pairs of a left and a right run at identical
// controls (beats: the left ahead by the margin).
ClauseOutcome EvalPairs(const Clause& c, const EvalContext& ctx) {
  ClauseOutcome out;
  std::vector<const StoredRun*> as, bs;
  for (const auto& r : ctx.runs) {
    if (!MatchesAll(r, c.where)) continue;
    if (MatchesAll(r, c.left)) as.push_back(&r);
    else if (MatchesAll(r, c.right)) bs.push_back(&r);
  }
  if (as.empty() || bs.empty()) {
    out.detail = "no runs with " + DescribeConds(as.empty() ? c.left : c.right) +
                 (c.where.empty() ? "" : " matching the where clause");
    return out;
  }
  std::set<std::string> excluded;
  for (const auto* side : {&c.left, &c.right})
    for (const auto& cond : *side) excluded.insert(cond.key);
  if (as.size() > static_cast<size_t>(BudgetLimit(BudgetId::kCriterionPairs)) / bs.size()) {
    out.detail = "cannot judge: " + std::to_string(as.size()) + " x " + std::to_string(bs.size()) + " is " +
                 OverBudget(BudgetId::kCriterionPairs) + "; narrow it with a where clause";
    return out;
  }
  PairSearch s;
  for (const auto* a : as)
    for (const auto* b : bs) s.Consider(*a, *b, c, excluded);
  for (const auto& g : s.groups) {
    out.evidence.push_back(s.first_pair[g].first);
    out.evidence.push_back(s.first_pair[g].second);
  }
  out.met = static_cast<int>(s.groups.size()) >= c.at_least;
  out.detail = PairsDetail(c, s, out.met);
  return out;
}

// Walks the cells in axis order: the first run of each covered cell goes to
// *evidence; the missing cells are named ("key=value,...").
std::vector<std::string> MissingCells(const std::vector<Axis>& axes,
                                      const std::map<std::vector<size_t>, std::string>& cells, size_t total,
                                      std::vector<std::string>* evidence) {
  std::vector<std::string> missing;
  std::vector<size_t> idx(axes.size(), 0);
  for (size_t n = 0; n < total; ++n) {
    auto it = cells.find(idx);
    if (it != cells.end()) {
      evidence->push_back(it->second);
    } else {
      std::vector<std::string> parts;
      for (size_t a = 0; a < axes.size(); ++a) parts.push_back(axes[a].key + "=" + axes[a].values[idx[a]]);
      missing.push_back(Join(parts, ","));
    }
    for (size_t a = axes.size(); a-- > 0;) {
      if (++idx[a] < axes[a].values.size()) break;
      idx[a] = 0;
    }
  }
  return missing;
}

// Sweep and table: some group of runs at identical controls covers the whole
// cross product of the axes.
ClauseOutcome EvalTable(const Clause& c, const EvalContext& ctx) {
  ClauseOutcome out;
  std::set<std::string> axis_keys;
  for (const auto& a : c.axes) axis_keys.insert(a.key);
  struct Group {
    std::map<std::vector<size_t>, std::string> cells;  // cell -> first run id
  };
  std::vector<std::string> order;
  std::map<std::string, Group> groups;
  for (const auto& r : ctx.runs) {
    if (!MatchesAll(r, c.where)) continue;
    auto cell = CellOf(r, c.axes);
    if (!cell) continue;
    const std::vector<std::string> keys = ControlKeys({&r}, c.same, axis_keys);
    std::string sig = ControlSignature(r, keys);
    if (!groups.count(sig)) order.push_back(sig);
    groups[sig].cells.emplace(*cell, r.id);
  }
  size_t total = 1;
  for (const auto& a : c.axes) total *= a.values.size();
  if (order.empty()) {
    out.detail = "no run matches any cell";
    return out;
  }
  const Group* best = nullptr;
  for (const auto& sig : order)
    if (!best || groups[sig].cells.size() > best->cells.size()) best = &groups[sig];
  const std::vector<std::string> missing = MissingCells(c.axes, best->cells, total, &out.evidence);
  out.met = missing.empty();
  const std::string what = c.kind == Clause::Kind::kSweep ? "sweep" : "table";
  if (out.met) {
    out.detail = what + " complete (" + std::to_string(total) + " cells at identical controls)";
  } else {
    // The first missing cells are named; a wide grid's others are counted.
    constexpr size_t kNamed = 32;
    const std::vector<std::string> named(missing.begin(), missing.begin() + static_cast<std::ptrdiff_t>(std::min(missing.size(), kNamed)));
    out.detail = what + " has " + std::to_string(best->cells.size()) + " of " + std::to_string(total) +
                 " cells at identical controls; missing " + Join(named, "; ") +
                 (missing.size() > kNamed ? "; and " + std::to_string(missing.size() - kNamed) + " more" : "");
  }
  return out;
}

bool Compare(double v, const std::string& op, double t) {
  if (op == ">=") return v >= t;
  if (op == ">") return v > t;
  if (op == "<=") return v <= t;
  if (op == "<") return v < t;
  if (op == "==") return v == t;
  return v != t;
}

ClauseOutcome EvalMetric(const Clause& c, const EvalContext& ctx) {
  ClauseOutcome out;
  int matching = 0, passing = 0;
  const StoredRun* best = nullptr;
  double best_v = 0;
  const bool higher_better = c.op == ">=" || c.op == ">";
  std::vector<std::string> failing;
  for (const auto& r : ctx.runs) {
    if (!MatchesAll(r, c.where)) continue;
    auto it = r.metrics.find(c.metric);
    if (it == r.metrics.end()) continue;
    ++matching;
    if (Compare(it->second, c.op, c.threshold)) {
      ++passing;
      if (!c.all) out.evidence.push_back(r.id);
    } else {
      failing.push_back(r.id);
    }
    if (!best || (higher_better ? it->second > best_v : it->second < best_v)) {
      best = &r;
      best_v = it->second;
    }
  }
  const std::string cond = c.metric + " " + c.op + " " + FormatValue(c.threshold);
  if (matching == 0) {
    out.detail = "no matching run records " + c.metric;
    return out;
  }
  if (c.all) {
    out.met = passing == matching;
    if (out.met) {
      for (const auto& r : ctx.runs)
        if (MatchesAll(r, c.where) && r.metrics.count(c.metric)) out.evidence.push_back(r.id);
      out.detail = "all " + std::to_string(matching) + " matching runs have " + cond;
    } else {
      out.evidence = failing;
      out.detail = std::to_string(matching - passing) + " of " + std::to_string(matching) + " matching runs fail " + cond;
    }
    return out;
  }
  out.met = passing > 0;
  if (out.met) {
    out.detail = std::to_string(passing) + " of " + std::to_string(matching) + " matching runs have " + cond;
  } else {
    out.detail = "no run has " + cond + "; closest " + c.metric + " = " + Readable(best_v) + " (" + best->id + ")";
    out.evidence = {best->id};
  }
  return out;
}

// Some control setting (all config keys but the ignored ones) has at least N runs.
ClauseOutcome EvalRepeats(const Clause& c, const EvalContext& ctx) {
  ClauseOutcome out;
  std::vector<std::string> order;
  std::map<std::string, std::vector<std::string>> groups;
  std::set<std::string> modeled_ids;
  for (const auto& r : ctx.runs) {
    if (!MatchesAll(r, c.where)) continue;
    const std::vector<std::string> keys = ControlKeys({&r}, {}, {});
    std::string sig = ControlSignature(r, keys);
    if (!groups.count(sig)) order.push_back(sig);
    // One run counted by several entries (a shared command) is one repeat,
    // and a model (v5p) predicts one value per config however often it ran.
    auto& ids = groups[sig];
    const bool modeled = r.source == "modeled" || engine::IsModeledTarget(r.target);
    if (modeled && std::any_of(ids.begin(), ids.end(), [&](const std::string& id) { return modeled_ids.count(id); }))
      continue;
    if (modeled) modeled_ids.insert(r.id);
    if (std::find(ids.begin(), ids.end(), r.id) == ids.end()) ids.push_back(r.id);
  }
  const std::vector<std::string>* best = nullptr;
  for (const auto& sig : order)
    if (!best || groups[sig].size() > best->size()) best = &groups[sig];
  const int n = best ? static_cast<int>(best->size()) : 0;
  out.met = n >= c.at_least;
  if (best && out.met) out.evidence = *best;
  out.detail = out.met ? std::to_string(n) + " repeats of one config"
                       : "at most " + std::to_string(n) + " run" + (n == 1 ? "" : "s") + " of any one config (need " +
                             std::to_string(c.at_least) + ")";
  return out;
}

ClauseOutcome EvalEntry(const Clause& c, const EvalContext& ctx) {
  ClauseOutcome out;
  if (c.kind == Clause::Kind::kEntryRuns) {
    for (const auto& r : ctx.runs)
      if (r.entry_id == c.entry_id) out.evidence.push_back(r.id);
    const int n = static_cast<int>(out.evidence.size());
    out.met = n >= c.at_least;
    out.detail = "entry " + c.entry_id + " has " + std::to_string(n) + " stored run" + (n == 1 ? "" : "s") +
                 (out.met ? "" : " (need " + std::to_string(c.at_least) + ")");
    return out;
  }
  auto it = ctx.entries.find(c.entry_id);
  if (it == ctx.entries.end()) {
    out.detail = "no entry " + c.entry_id + " in the logbook";
  } else if (!it->second.has_result) {
    out.detail = "entry " + c.entry_id + " has no Result yet";
  } else {
    out.met = true;
    out.detail = "entry " + c.entry_id + " has a Result";
  }
  return out;
}

ClauseOutcome EvalClause(const Clause& c, const EvalContext& ctx) {
  switch (c.kind) {
    case Clause::Kind::kPairs:
    case Clause::Kind::kBeats: return EvalPairs(c, ctx);
    case Clause::Kind::kSweep:
    case Clause::Kind::kTable: return EvalTable(c, ctx);
    case Clause::Kind::kMetric: return EvalMetric(c, ctx);
    case Clause::Kind::kRepeats: return EvalRepeats(c, ctx);
    case Clause::Kind::kEntryResult:
    case Clause::Kind::kEntryRuns: return EvalEntry(c, ctx);
  }
  return {};
}

// Removes the predicate markup from a bullet and joins its lines.
std::string CleanSentence(const std::string& text) {
  std::string s = text;
  for (const char* open : {"<!--", "`moelog:"}) {
    size_t p;
    while ((p = s.find(open)) != std::string::npos) {
      const std::string close = open[0] == '<' ? "-->" : "`";
      size_t e = s.find(close, p + std::string(open).size());
      if (e == std::string::npos) break;
      s.erase(p, e + close.size() - p);
    }
  }
  std::string out;
  bool space = false;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c))) { space = true; continue; }
    if (space && !out.empty()) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

}  // namespace

// The cell of a run in the cross product of the axes (the position of each
// axis value), if its values lie in one.
std::optional<std::vector<size_t>> CellOf(const StoredRun& r, const std::vector<Axis>& axes) {
  std::vector<size_t> idx;
  for (const auto& a : axes) {
    auto v = RunValue(r, a.key);
    if (!v) return std::nullopt;
    size_t i = 0;
    while (i < a.values.size() && !ValuesEqual(*v, a.values[i])) ++i;
    if (i == a.values.size()) return std::nullopt;
    idx.push_back(i);
  }
  return idx;
}

Result<Predicate> ParsePredicate(const std::string& text, const std::string& file, int line, const RunKeys& keys) {
  Parser p(text, file + ":" + std::to_string(line), keys);
  return p.Parse(Trim(text));
}

Result<Condition> ParseRunFilter(const std::string& text, const RunKeys& keys) {
  return Parser(text, "--where '" + text + "'", keys).ParseFilter();
}

bool MatchesFilters(const StoredRun& run, const std::vector<Condition>& filters) { return MatchesAll(run, filters); }

std::optional<std::pair<std::string, int>> FindPredicateText(const std::string& bullet_text) {
  struct Form { const char* open; const char* close; };
  size_t best = std::string::npos;
  std::string inner;
  for (Form f : {Form{"<!--", "-->"}, Form{"`", "`"}}) {
    size_t p = 0;
    while ((p = bullet_text.find(f.open, p)) != std::string::npos) {
      size_t start = p + std::string(f.open).size();
      size_t e = bullet_text.find(f.close, start);
      if (e == std::string::npos) break;
      std::string body = Trim(bullet_text.substr(start, e - start));
      // Region markers (`<!-- moelog:begin ... -->`, `moelog:end`) are not predicates.
      const bool marker = body.rfind("moelog:begin", 0) == 0 || body.rfind("moelog:end", 0) == 0;
      if (body.rfind("moelog:", 0) == 0 && !marker) {
        if (p < best) {
          best = p;
          inner = Trim(body.substr(7));
        }
        break;
      }
      p = e + std::string(f.close).size();
    }
  }
  if (best == std::string::npos) return std::nullopt;
  int offset = static_cast<int>(std::count(bullet_text.begin(), bullet_text.begin() + best, '\n'));
  return std::make_pair(inner, offset);
}

Result<std::vector<Criterion>> ParseCriteria(const std::vector<BulletSource>& bullets, const std::string& file,
                                             const RunKeys& keys) {
  std::vector<Criterion> out;
  for (const auto& b : bullets) {
    Criterion c;
    c.line = b.line;
    c.text = CleanSentence(b.text);
    if (auto found = FindPredicateText(b.text)) {
      auto p = ParsePredicate(found->first, file, b.line + found->second, keys);
      if (!p.ok()) return p.status();
      c.predicate = std::move(p.value());
    }
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<BulletSource> StopCriteriaBullets(const Logbook& logbook, std::string_view text) {
  std::vector<BulletSource> out;
  const Section* section = logbook.FindSection(SectionKind::kStopCriteria);
  if (!section) return out;
  const auto lines = SplitLines(text);
  const RegionScan regions = FindRegions(text, logbook.file);
  auto in_region = [&](int line) { return regions.Holds(line); };
  for (const Bullet& b : section->bullets) {
    if (in_region(b.line) || b.line < 1 || static_cast<size_t>(b.line) > lines.size()) continue;
    int last = std::min(b.end_line, static_cast<int>(lines.size()));
    while (last > b.line && Trim(std::string(lines[static_cast<size_t>(last) - 1])).empty()) --last;
    const std::string_view first = lines[static_cast<size_t>(b.line) - 1];
    std::string body(first.substr(std::min(first.size(), static_cast<size_t>(b.content_indent))));
    for (int l = b.line + 1; l <= last; ++l) body += "\n" + std::string(lines[static_cast<size_t>(l) - 1]);
    out.push_back({std::move(body), b.line});
  }
  return out;
}

namespace {

// True when evidence names runs and every one of them is a model prediction.
bool OnlyModeled(const std::vector<std::string>& evidence, const std::vector<StoredRun>& runs) {
  const std::set<std::string> ids(evidence.begin(), evidence.end());
  bool any = false;
  for (const auto& run : runs) {
    if (!ids.count(run.id)) continue;
    if (EvidenceKindOf(run) != EvidenceKind::kModeled) return false;
    any = true;
  }
  return any;
}

// The context with only the runs of the accepted kinds.
EvalContext Accepted(const EvalContext& ctx, EvidenceKinds kinds) {
  EvalContext out;
  out.entries = ctx.entries;
  for (const auto& r : ctx.runs)
    if (kinds & KindBit(EvidenceKindOf(r))) out.runs.push_back(r);
  return out;
}

enum class ClauseVerdict { kMet, kPredicted, kUnmet };

// A clause judged on the runs it accepts; when those do not meet it but the
// model's predictions would, it is predicted (with the predicted outcome).
ClauseVerdict JudgeClause(const Clause& c, const EvalContext& ctx, ClauseOutcome* out) {
  const bool uses_runs = c.kind != Clause::Kind::kEntryResult;
  if (!uses_runs || (c.accept & kAnyEvidence) == kAnyEvidence) {
    *out = EvalClause(c, ctx);
    return out->met ? ClauseVerdict::kMet : ClauseVerdict::kUnmet;
  }
  *out = EvalClause(c, Accepted(ctx, c.accept));
  if (out->met) return ClauseVerdict::kMet;
  ClauseOutcome with_model = EvalClause(c, Accepted(ctx, c.accept | KindBit(EvidenceKind::kModeled)));
  if (!with_model.met) return ClauseVerdict::kUnmet;
  *out = std::move(with_model);
  out->detail += " (modeled runs only; this clause accepts " + EvidenceKindsText(c.accept) + ")";
  return ClauseVerdict::kPredicted;
}

}  // namespace

const char* EvidenceKindName(EvidenceKind kind) {
  switch (kind) {
    case EvidenceKind::kMeasured: return "measured";
    case EvidenceKind::kRecorded: return "recorded";
    case EvidenceKind::kModeled: return "modeled";
  }
  return "measured";
}

std::optional<EvidenceKind> ParseEvidenceKind(std::string_view word) {
  for (EvidenceKind k : {EvidenceKind::kMeasured, EvidenceKind::kRecorded, EvidenceKind::kModeled})
    if (word == EvidenceKindName(k)) return k;
  return std::nullopt;
}

EvidenceKind EvidenceKindOf(const StoredRun& run) {
  if (run.source == "recorded") return EvidenceKind::kRecorded;
  if (run.source == "modeled" || engine::IsModeledTarget(run.target)) return EvidenceKind::kModeled;
  return EvidenceKind::kMeasured;
}

std::string EvidenceKindsText(EvidenceKinds kinds) {
  std::vector<std::string> names;
  for (EvidenceKind k : {EvidenceKind::kMeasured, EvidenceKind::kRecorded, EvidenceKind::kModeled})
    if (kinds & KindBit(k)) names.push_back(EvidenceKindName(k));
  return names.empty() ? "nothing" : Join(names, ",");
}

const char* StateName(CriterionState s) {
  switch (s) {
    case CriterionState::kMet: return "met";
    case CriterionState::kUnmet: return "unmet";
    case CriterionState::kManual: return "manual";
    case CriterionState::kPredicted: return "predicted";
  }
  return "manual";
}

CriterionResult Evaluate(const Criterion& criterion, const EvalContext& context) {
  CriterionResult r;
  r.text = criterion.text;
  r.line = criterion.line;
  if (!criterion.predicate) {
    r.state = CriterionState::kManual;
    r.detail = "no predicate";
    return r;
  }
  r.predicate = criterion.predicate->text;
  bool unmet = false, predicted = false;
  std::vector<std::string> met_details, predicted_details, unmet_details;
  std::set<std::string> seen;
  for (const auto& clause : criterion.predicate->clauses) {
    ClauseOutcome o;
    const ClauseVerdict v = JudgeClause(clause, context, &o);
    unmet = unmet || v == ClauseVerdict::kUnmet;
    predicted = predicted || v == ClauseVerdict::kPredicted;
    (v == ClauseVerdict::kMet ? met_details : v == ClauseVerdict::kPredicted ? predicted_details : unmet_details)
        .push_back(o.detail);
    for (const auto& id : o.evidence)
      if (seen.insert(id).second) r.evidence.push_back(id);
  }
  if (unmet) {
    r.state = CriterionState::kUnmet;
    r.detail = Join(unmet_details, "; ");
  } else if (predicted) {
    r.state = CriterionState::kPredicted;
    r.detail = Join(predicted_details, "; ") + "; a prediction, not a measurement";
  } else {
    r.state = CriterionState::kMet;
    r.detail = Join(met_details, "; ");
    if (OnlyModeled(r.evidence, context.runs)) r.detail += "; met by modeled (v5p) runs only, none measured";
  }
  return r;
}

std::vector<CriterionResult> EvaluateAll(const std::vector<Criterion>& criteria, const EvalContext& context) {
  std::vector<CriterionResult> out;
  for (const auto& c : criteria) out.push_back(Evaluate(c, context));
  return out;
}

namespace {

std::string EvidenceText(const std::vector<std::string>& ids, size_t limit) {
  if (ids.empty()) return "";
  std::vector<std::string> shown(ids.begin(), ids.begin() + static_cast<long>(std::min(limit, ids.size())));
  std::string s = (ids.size() == 1 ? "run " : "runs ") + Join(shown, ", ");
  if (ids.size() > limit) s += ", ... (" + std::to_string(ids.size()) + " in all)";
  return s;
}

}  // namespace

std::string FormatCheckLine(const std::string& file, const CriterionResult& r) {
  std::string s = file + ":" + std::to_string(r.line) + ": " + StateName(r.state) + ": " + r.text;
  std::string extra = r.state == CriterionState::kManual ? std::string() : r.detail;
  std::string ev = EvidenceText(r.evidence, 12);
  if (!ev.empty()) extra += (extra.empty() ? "" : "; ") + ev;
  if (!extra.empty()) s += " [" + extra + "]";
  return s;
}

int CheckExitCode(const std::vector<CriterionResult>& results) {
  bool predicted = false;
  for (const auto& r : results) {
    if (r.state == CriterionState::kUnmet) return kExitCriteriaUnmet;
    predicted = predicted || r.state == CriterionState::kPredicted;
  }
  return predicted ? kExitCriteriaPredicted : static_cast<int>(kExitOk);
}

std::string RenderCriteriaStatus(const std::vector<CriterionResult>& results) {
  if (results.empty()) return "- No stop criteria.\n";
  int met = 0, unmet = 0, manual = 0, predicted = 0;
  for (const auto& r : results) {
    if (r.state == CriterionState::kMet) ++met;
    else if (r.state == CriterionState::kUnmet) ++unmet;
    else if (r.state == CriterionState::kPredicted) ++predicted;
    else ++manual;
  }
  std::ostringstream s;
  s << "Stop criteria status: " << met << " met, " << unmet << " unmet, ";
  if (predicted) s << predicted << " predicted (model only), ";
  s << manual << " manual.\n\n";
  for (const auto& r : results) {
    std::string sentence = r.text;
    if (sentence.size() > 90) sentence = sentence.substr(0, 87) + "...";
    s << "- **" << StateName(r.state) << "**: " << sentence;
    if (r.state != CriterionState::kManual) {
      s << " — " << r.detail;
      std::string ev = EvidenceText(r.evidence, 8);
      if (!ev.empty()) s << " (" << ev << ")";
    }
    s << "\n";
  }
  return s.str();
}

}  // namespace moelog::logbook
