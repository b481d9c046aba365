#include "logbook/research/next_steps.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

#include "logbook/criteria/pairing.h"
#include "logbook/criteria/recorded.h"
#include "logbook/criteria/suggest.h"
#include "logbook/numbers.h"
#include "logbook/update/criteria_status.h"

namespace moelog::logbook {
namespace {

// Bounds on the work one criterion may cause.
constexpr size_t kMaxCellsWalked = 100000;

bool Accepts(const Clause& c, const StoredRun& r) { return (c.accept & KindBit(EvidenceKindOf(r))) != 0; }

// The runs a clause reads: those of the kinds it accepts, else (none of
// them) every run: a step may start from a prediction.
std::vector<const StoredRun*> ClauseRuns(const Clause& c, const std::vector<StoredRun>& runs) {
  std::vector<const StoredRun*> out, all;
  for (const auto& r : runs) {
    if (!MatchesFilters(r, c.where)) continue;
    all.push_back(&r);
    if (Accepts(c, r)) out.push_back(&r);
  }
  return out.empty() ? all : out;
}

Step StepFrom(const StoredRun* base, const Criterion& cr, const std::string& predicate, bool suggested) {
  Step s;
  if (base) {
    s.base_run = base->id;
    s.base_entry = base->entry_id;
    s.base = base->config;
  }
  s.criterion = cr.text;
  s.line = cr.line;
  s.predicate = predicate;
  s.suggested = suggested;
  return s;
}

// The changes that take `base` to the values of `conds` (kEq ones).
void AddCondChanges(const std::vector<Condition>& conds, const StoredRun* base, std::map<std::string, std::string>* ch) {
  for (const auto& c : conds) {
    if (c.op != Condition::Op::kEq || c.values.empty()) continue;
    const auto v = base ? RunValue(*base, c.key) : std::nullopt;
    if (!v || !ValuesEqual(*v, c.values[0])) (*ch)[c.key] = c.values[0];
  }
}

std::string CellText(const std::vector<Axis>& axes, const std::vector<size_t>& cell) {
  std::string s;
  for (size_t a = 0; a < axes.size(); ++a) s += (a ? ", " : "") + axes[a].key + "=" + axes[a].values[cell[a]];
  return s;
}

// Table and sweep: the missing cells of the group that covers the most.
void TableSteps(const Clause& c, const Criterion& cr, const std::string& pred, bool suggested,
                const std::vector<StoredRun>& runs, size_t limit, std::vector<Step>* out) {
  std::set<std::string> axis_keys;
  for (const auto& a : c.axes) axis_keys.insert(a.key);
  struct Group {
    std::map<std::vector<size_t>, const StoredRun*> cells;
  };
  std::vector<std::string> order;
  std::map<std::string, Group> groups;
  const auto clause_runs = ClauseRuns(c, runs);
  for (const StoredRun* r : clause_runs) {
    auto cell = CellOf(*r, c.axes);
    if (!cell) continue;
    const std::string sig = ControlSignature(*r, ControlKeys({r}, c.same, axis_keys));
    if (!groups.count(sig)) order.push_back(sig);
    groups[sig].cells[*cell] = r;  // the latest run of the cell
  }
  const Group* best = nullptr;
  for (const auto& sig : order)
    if (!best || groups[sig].cells.size() > best->cells.size()) best = &groups[sig];
  const StoredRun* fallback = clause_runs.empty() ? (runs.empty() ? nullptr : &runs.back()) : clause_runs.back();
  std::vector<size_t> idx(c.axes.size(), 0);
  for (size_t walked = 0; walked < kMaxCellsWalked && out->size() < limit; ++walked) {
    if (!best || !best->cells.count(idx)) {
      // From the group's run nearest the cell (fewest axes to change).
      const StoredRun* base = fallback;
      size_t nearest = SIZE_MAX;
      if (best)
        for (const auto& [cell, r] : best->cells) {
          size_t d = 0;
          for (size_t a = 0; a < idx.size(); ++a) d += cell[a] != idx[a];
          if (d < nearest) nearest = d, base = r;
        }
      Step s = StepFrom(base, cr, pred, suggested);
      for (size_t a = 0; a < c.axes.size(); ++a) {
        auto v = base ? RunValue(*base, c.axes[a].key) : std::nullopt;
        if (!v || !ValuesEqual(*v, c.axes[a].values[idx[a]])) s.changes[c.axes[a].key] = c.axes[a].values[idx[a]];
      }
      if (!best) AddCondChanges(c.where, base, &s.changes);
      s.what = "the missing cell " + CellText(c.axes, idx);
      out->push_back(std::move(s));
    }
    size_t a = idx.size();
    while (a-- > 0) {
      if (++idx[a] < c.axes[a].values.size()) break;
      idx[a] = 0;
    }
    if (a == SIZE_MAX) break;  // wrapped: every cell walked
  }
}

// Pairs and beats: the missing arm.
void PairSteps(const Clause& c, const Criterion& cr, const std::string& pred, bool suggested,
               const std::vector<StoredRun>& runs, size_t limit, std::vector<Step>* out) {
  std::vector<const StoredRun*> as, bs;
  for (const StoredRun* r : ClauseRuns(c, runs)) {
    if (MatchesFilters(*r, c.left)) as.push_back(r);
    else if (MatchesFilters(*r, c.right)) bs.push_back(r);
  }
  if (c.kind == Clause::Kind::kBeats && !as.empty() && !bs.empty()) return;  // the margin is the search's job
  const bool add_right = !as.empty() || bs.empty();
  const auto& from = !as.empty() ? as : bs;
  const auto& to = add_right ? c.right : c.left;
  std::set<std::string> excluded;
  for (const auto* side : {&c.left, &c.right})
    for (const auto& cond : *side) excluded.insert(cond.key);
  std::set<std::string> seen;
  size_t wanted = static_cast<size_t>(std::max(1, c.at_least));
  for (auto it = from.rbegin(); it != from.rend() && wanted > 0 && out->size() < limit; ++it) {
    const std::string sig = ControlSignature(**it, ControlKeys({*it}, c.same, excluded));
    if (!seen.insert(sig).second) continue;
    Step s = StepFrom(*it, cr, pred, suggested);
    AddCondChanges(to, *it, &s.changes);
    if (s.changes.empty()) continue;
    std::string side;
    for (const auto& cond : to) side += (side.empty() ? "" : ", ") + cond.key + "=" + cond.values[0];
    s.what = "the missing arm " + side + " at the controls of run " + (*it)->id;
    out->push_back(std::move(s));
    --wanted;
  }
  if (from.empty() && out->size() < limit) {  // neither arm: both, from the latest run
    const StoredRun* base = runs.empty() ? nullptr : &runs.back();
    for (const auto* side : {&c.left, &c.right}) {
      Step s = StepFrom(base, cr, pred, suggested);
      AddCondChanges(*side, base, &s.changes);
      AddCondChanges(c.where, base, &s.changes);
      s.what = "an arm of the A/B";
      if (out->size() < limit) out->push_back(std::move(s));
    }
  }
}

double MetricOf(const StoredRun& r, const std::string& m) {
  auto it = r.metrics.find(m);
  return it == r.metrics.end() ? std::nan("") : it->second;
}

// Repeats: the best matching run again.
void RepeatSteps(const Clause& c, const Criterion& cr, const std::string& pred, bool suggested,
                 const std::vector<StoredRun>& runs, std::vector<Step>* out) {
  const auto rs = ClauseRuns(c, runs);
  if (rs.empty()) return;
  bool lower = false;
  std::vector<StoredRun> copies;
  for (const auto* r : rs) copies.push_back(*r);
  const std::string m = RecordMetric(copies, &lower);
  const StoredRun* best = rs.back();
  for (const auto* r : rs) {
    const double v = MetricOf(*r, m), b = MetricOf(*best, m);
    if (!std::isnan(v) && (std::isnan(b) || (lower ? v < b : v > b))) best = r;
  }
  Step s = StepFrom(best, cr, pred, suggested);
  s.what = "a repeat of run " + best->id + " (the criterion needs " + std::to_string(c.at_least) +
           " runs of one config)";
  out->push_back(std::move(s));
}

// Whether the clause holds on the runs (as the criterion reads them).
bool ClauseMet(const Clause& c, const Predicate& p, const EvalContext& ctx) {
  Criterion one;
  one.predicate = Predicate{p.text, {c}};
  return Evaluate(one, ctx).state == CriterionState::kMet;
}

}  // namespace

std::string ChangesText(const std::map<std::string, std::string>& changes) {
  std::string s;
  for (const auto& [k, v] : changes) s += (s.empty() ? "" : ", ") + k + "=" + v;
  return s.empty() ? "no change" : s;
}

std::vector<Step> CriteriaSteps(const Logbook& logbook, std::string_view text, const std::vector<StoredRun>& runs,
                                const std::vector<Criterion>& criteria, size_t limit) {
  std::vector<Step> out;
  EvalContext ctx;
  ctx.runs = runs;
  ctx.entries = EntryFactsOf(logbook);
  const auto suggestions = text.empty() ? std::vector<Suggestion>{} : SuggestPredicates(logbook, text);
  const RunKeys keys = RecordedKeys(logbook);
  for (const auto& cr : criteria) {
    if (out.size() >= limit) break;
    std::optional<Predicate> pred = cr.predicate;
    bool suggested = false;
    if (!pred)
      for (const auto& s : suggestions)
        if (s.line == cr.line && !s.predicate.empty()) {
          auto p = ParsePredicate(s.predicate, logbook.file, s.line, keys);
          if (p.ok()) pred = std::move(p).value(), suggested = true;
        }
    if (!pred) continue;
    for (const auto& c : pred->clauses) {
      if (out.size() >= limit || ClauseMet(c, *pred, ctx)) continue;
      switch (c.kind) {
        case Clause::Kind::kTable:
        case Clause::Kind::kSweep: TableSteps(c, cr, pred->text, suggested, runs, limit, &out); break;
        case Clause::Kind::kPairs:
        case Clause::Kind::kBeats: PairSteps(c, cr, pred->text, suggested, runs, limit, &out); break;
        case Clause::Kind::kRepeats: RepeatSteps(c, cr, pred->text, suggested, runs, &out); break;
        default: break;
      }
    }
  }
  if (out.size() > limit) out.resize(limit);
  return out;
}

std::string RecordMetric(const std::vector<StoredRun>& runs, bool* lower_better) {
  std::string best;
  size_t best_n = 0;
  for (const char* m : {"tflops", "tokens_per_s", "mfu", "time_s", "mean_s"}) {
    const size_t n = static_cast<size_t>(
        std::count_if(runs.begin(), runs.end(), [&](const StoredRun& r) { return r.metrics.count(m) > 0; }));
    if (n > best_n) best = m, best_n = n;
  }
  if (lower_better) *lower_better = best == "time_s" || best == "mean_s";
  return best;
}

std::vector<Step> RecordSteps(const std::vector<StoredRun>& runs, size_t limit) {
  bool lower = false;
  const std::string m = RecordMetric(runs, &lower);
  std::vector<const StoredRun*> with;
  for (const auto& r : runs)
    if (!std::isnan(MetricOf(r, m)) && MetricOf(r, m) > 0) with.push_back(&r);
  if (with.empty()) return {};
  const StoredRun* best = with[0];
  for (const auto* r : with)
    if (lower ? MetricOf(*r, m) < MetricOf(*best, m) : MetricOf(*r, m) > MetricOf(*best, m)) best = r;
  // The keys the record varies and the values each ran.
  std::map<std::string, std::set<std::string>> values;
  for (const auto* r : with)
    for (const auto& [k, v] : r->config)
      if (!IsIgnoredForPairing(k) && FollowedKey(k).empty()) values[k].insert(CanonicalValue(v));
  std::vector<Step> out;
  const double bf = MetricOf(*best, m);
  for (const auto& [k, vs] : values) {
    const auto own = RunValue(*best, k);
    if (vs.size() < 2 || !own) continue;
    const auto ctrl = ControlKeys({best}, {}, {k});
    const std::string best_sig = ControlSignature(*best, ctrl);
    for (const auto& v : vs) {
      if (v == CanonicalValue(own)) continue;
      bool tried = false;
      // Figure at v / figure at the best's value, at identical other controls
      // within one entry (an entry's own A/B: a shape its Result leaves
      // unsaid is still shared).
      std::vector<double> ratios;
      for (const auto* a : with) {
        const auto av = RunValue(*a, k);
        if (!av || CanonicalValue(av) != v) continue;
        const auto actrl = ControlKeys({a}, {}, {k});
        if (ControlSignature(*a, ctrl) == best_sig) tried = true;
        for (const auto* b : with)
          if (b->entry_id == a->entry_id && RunValue(*b, k) && CanonicalValue(RunValue(*b, k)) == CanonicalValue(own) &&
              ControlSignature(*b, actrl) == ControlSignature(*a, actrl) && ratios.size() < 64)
            ratios.push_back(MetricOf(*a, m) / MetricOf(*b, m));
      }
      if (tried) continue;
      Step s;
      s.base_run = best->id;
      s.base_entry = best->entry_id;
      s.base = best->config;
      s.changes[k] = v;
      s.metric = m;
      s.pairs = static_cast<int>(ratios.size());
      if (!ratios.empty()) {
        std::sort(ratios.begin(), ratios.end());
        s.lo = bf * ratios.front();
        s.hi = bf * ratios.back();
        s.estimate = bf * ratios[ratios.size() / 2];
      }
      s.what = k + "=" + v + " at the controls of the best recorded run " + best->id;
      out.push_back(std::move(s));
    }
  }
  // Pairs-backed estimates first, by the gain they suggest; then the rest.
  std::stable_sort(out.begin(), out.end(), [&](const Step& a, const Step& b) {
    if ((a.pairs > 0) != (b.pairs > 0)) return a.pairs > 0;
    return lower ? a.estimate < b.estimate : a.estimate > b.estimate;
  });
  if (out.size() > limit) out.resize(limit);
  return out;
}

}  // namespace moelog::logbook
