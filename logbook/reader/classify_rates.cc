// Reader stage classify: what a rate spelled alike measures, by the program
// that printed it. `tps` is tokens a second in a serving log and
// transactions a second in a database tool's (pgbench's `tps = 11926.33`,
// sysbench's `transactions: ... (411.45 per sec.)`): an entry that runs one
// of transaction_programs (data/reader/vocabulary.json) keeps its `tps`
// figures as transactions_per_s.
#include <set>
#include <string>
#include <vector>

#include "logbook/reader/data_words.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {
namespace {

bool RunsTransactionProgram(const Entry& e) {
  static const auto* programs = new std::set<std::string>(DataWords("data/reader/vocabulary.json", "transaction_programs"));
  // Any word of a command naming one, past launchers and paths alike
  // (`sudo -u postgres /usr/lib/postgresql/16/bin/pgbench -c 8`).
  for (const auto& c : e.commands)
    for (const auto& w : SpaceWords(c.joined.empty() ? c.text : c.joined))
      if (programs->count(Lower(w.substr(w.rfind('/') == std::string::npos ? 0 : w.rfind('/') + 1))) > 0) return true;
  return false;
}

template <typename Map>
void MoveKey(Map* m, const std::string& from, const std::string& to) {
  if (auto node = m->extract(from); !node.empty()) {
    node.key() = to;
    m->insert(std::move(node));
  }
}

void MoveKey(std::set<std::string>* s, const std::string& from, const std::string& to) {
  if (s->erase(from) > 0) s->insert(to);
}

}  // namespace

void TransactionRates(const Entry& e, std::vector<RecordedFigure>* figs) {
  constexpr char kTokens[] = "tokens_per_s", kTransactions[] = "transactions_per_s";
  if (figs->empty() || !RunsTransactionProgram(e)) return;
  for (auto& f : *figs) {
    StoredRun& r = f.run;
    const auto u = r.units.find(kTokens);
    if (!r.metrics.count(kTokens) || r.metrics.count(kTransactions) || u == r.units.end() || Lower(u->second) != "tps") continue;
    MoveKey(&r.metrics, kTokens, kTransactions);
    MoveKey(&r.units, kTokens, kTransactions);
    MoveKey(&r.decimals, kTokens, kTransactions);
    MoveKey(&r.repeats, kTokens, kTransactions);
    MoveKey(&r.derived, kTokens, kTransactions);
    MoveKey(&r.approximate, kTokens, kTransactions);
  }
}

}  // namespace moelog::logbook::reader
