// How well `moelog next` proposes what researchers ran: each logbook given
// is cut after each entry; `next` sees the cut text and the figures its
// Results record (no store) and lists up to ten proposals (criteria steps,
// then validated, exploration and record proposals). A proposal is a hit
// when one run of the next three entries takes every value it changes, at
// the same shape (the shape keys it does not change agree with its start).
// A repeat (no change) is a hit when such a run matches its start on every
// key both record. Cut points whose next three entries record no run are
// not counted. Prints, per logbook and in total, the hit rates of the top 5
// and the top 10, and how many hits improved on the best figure recorded
// before the cut.
//
// usage: next_history_bench LOGBOOK.md...
#include <algorithm>
#include <chrono>
#include <set>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "logbook/criteria/criteria.h"
#include "logbook/criteria/recorded.h"
#include "logbook/doc/markdown.h"
#include "logbook/doc/parse_logbook.h"
#include "logbook/file_util.h"
#include "logbook/research/next.h"
#include "logbook/research/next_internal.h"

namespace {

using namespace moelog;           // NOLINT
using namespace moelog::logbook;  // NOLINT

// A proposal's start (its base run's config, or the search's anchor) and changes.
struct Pick {
  std::map<std::string, std::string> start, changes;
  const char* kind = "";
};

std::map<std::string, std::string> AnchorConfig(const NextReport& rep) {
  std::map<std::string, std::string> out;
  for (const auto& k : next_internal::ShapeKeys()) out[k] = next_internal::GetKey(rep.anchor, k);
  for (const auto& a : DefaultSearchAxes()) out[a.key] = next_internal::GetKey(rep.anchor, a.key);
  return out;
}

std::vector<Pick> Picks(const NextReport& rep) {
  std::vector<Pick> out;
  const char* kinds[] = {"criteria", "validated", "exploration", "record"};
  int k = 0;
  for (const auto* list : {&rep.criteria, &rep.validated, &rep.unvalidated, &rep.record}) {
    for (const auto& p : *list)
      out.push_back({p.step.base_run.empty() ? AnchorConfig(rep) : p.step.base, p.candidate.changes, kinds[k]});
    ++k;
  }
  return out;
}

bool Agrees(const StoredRun& r, const std::string& k, const std::string& v) {
  auto rv = RunValue(r, k);
  return rv && ValuesEqual(*rv, v);
}

bool Hit(const Pick& p, const StoredRun& r) {
  for (const auto& [k, v] : p.changes)
    if (!Agrees(r, k, v)) return false;
  const bool repeat = p.changes.empty();
  for (const auto& [k, v] : p.start) {
    const bool shape = std::find(next_internal::ShapeKeys().begin(), next_internal::ShapeKeys().end(), k) !=
                       next_internal::ShapeKeys().end();
    if ((shape || repeat) && !p.changes.count(k) && !IsIgnoredForPairing(k) && RunValue(r, k) && !Agrees(r, k, v))
      return false;
  }
  return true;
}

double Best(const std::vector<StoredRun>& runs, const std::string& m, bool lower) {
  double best = std::nan("");
  for (const auto& r : runs) {
    auto it = r.metrics.find(m);
    if (it == r.metrics.end() || it->second <= 0) continue;
    if (std::isnan(best) || (lower ? it->second < best : it->second > best)) best = it->second;
  }
  return best;
}

struct Tally {
  int cuts = 0, top5 = 0, top10 = 0, improved = 0, proposed = 0;
  double seconds = 0;
};

void Judge(const std::string& path, Tally* total) {
  auto text = ReadFile(path);
  if (!text.ok()) {
    std::fprintf(stderr, "%s: %s\n", path.c_str(), text.status().ToString().c_str());
    return;
  }
  const Logbook full = ParseLogbook(*text, path);
  const std::vector<StoredRun> all = RecordedRuns(full);
  const auto lines = SplitLines(*text);
  Tally t;
  for (size_t i = 0; i + 1 < full.entries.size(); ++i) {
    std::set<std::string> next3;
    for (size_t j = i + 1; j < full.entries.size() && j <= i + 3; ++j) next3.insert(full.entries[j].id);
    std::vector<StoredRun> future;
    for (const auto& r : all)
      if (next3.count(r.entry_id)) future.push_back(r);
    if (future.empty()) continue;
    std::string cut;
    for (int l = 0; l + 1 < full.entries[i + 1].heading_line && static_cast<size_t>(l) < lines.size(); ++l)
      cut += std::string(lines[static_cast<size_t>(l)]) + "\n";
    const Logbook lb = ParseLogbook(cut, path);
    const std::vector<StoredRun> runs = RecordedRuns(lb);
    auto crit = ParseCriteria(StopCriteriaBullets(lb, cut), path, RecordedKeys(lb));
    NextOptions opt;
    opt.count = 10;
    opt.text = cut;
    const auto t0 = std::chrono::steady_clock::now();
    auto rep = ProposeNext(lb, runs, crit.ok() ? *crit : std::vector<Criterion>{}, opt);
    t.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ++t.cuts;
    if (!rep.ok()) continue;
    const auto picks = Picks(*rep);
    if (!picks.empty()) ++t.proposed;
    bool lower = false;
    const std::string m = rep->searched_model ? rep->metric : RecordMetric(runs, &lower);
    const double best = Best(runs, m, lower);
    int first_hit = -1;
    bool improved = false;
    for (size_t k = 0; k < picks.size() && k < 10; ++k)
      for (const auto& r : future)
        if (Hit(picks[k], r)) {
          if (first_hit < 0) {
            first_hit = static_cast<int>(k);
            std::fprintf(stderr, "%s: after %s: hit #%zu (%s) %s by run %s\n", path.c_str(), full.entries[i].id.c_str(),
                         k + 1, picks[k].kind, ChangesText(picks[k].changes).c_str(), r.id.c_str());
          }
          auto it = r.metrics.find(m);
          if (it != r.metrics.end() && !std::isnan(best) && (lower ? it->second < best : it->second > best))
            improved = true;
        }
    t.top5 += first_hit >= 0 && first_hit < 5;
    t.top10 += first_hit >= 0;
    t.improved += improved;
  }
  std::printf("%-40s cuts %3d  proposed %3d  top5 %3d (%5.1f%%)  top10 %3d (%5.1f%%)  improved-best %d  %.2f s\n",
              path.substr(path.rfind('/') + 1).c_str(), t.cuts, t.proposed, t.top5,
              t.cuts ? 100.0 * t.top5 / t.cuts : 0.0, t.top10, t.cuts ? 100.0 * t.top10 / t.cuts : 0.0, t.improved,
              t.seconds);
  total->cuts += t.cuts;
  total->proposed += t.proposed;
  total->top5 += t.top5;
  total->top10 += t.top10;
  total->improved += t.improved;
  total->seconds += t.seconds;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: next_history_bench LOGBOOK.md...\n");
    return 2;
  }
  Tally total;
  for (int i = 1; i < argc; ++i) Judge(argv[i], &total);
  std::printf("%-40s cuts %3d  proposed %3d  top5 %3d (%5.1f%%)  top10 %3d (%5.1f%%)  improved-best %d  %.2f s\n",
              "all", total.cuts, total.proposed, total.top5, total.cuts ? 100.0 * total.top5 / total.cuts : 0.0,
              total.top10, total.cuts ? 100.0 * total.top10 / total.cuts : 0.0, total.improved, total.seconds);
  return 0;
}
