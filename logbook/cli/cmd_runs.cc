// moelog runs: query the run store.
#include <algorithm>
#include <cctype>
#include <map>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <set>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "engine/status.h"
#include "logbook/cli/cli_parse.h"
#include "logbook/cli/commands.h"
#include "logbook/criteria/criteria.h"
#include "logbook/criteria/recorded.h"
#include "logbook/doc/parse_logbook.h"
#include "logbook/numbers.h"
#include "logbook/store/run_store.h"
#include "logbook/store/stored_run_reader.h"
#include "logbook/update/counted_runs.h"

namespace moelog::cli {
namespace {

using logbook::RunRecord;

// A metric's value with `digits` (negative: -digits significant digits,
// "%.*g"; else that many decimals, "%.*f"); "" when the run lacks it.
std::string Metric(const RunRecord& r, const std::string& k, int digits) {
  auto it = r.metrics.find(k);
  return it == r.metrics.end() ? "" : digits < 0 ? engine::General(it->second, -digits) : logbook::Fixed(it->second, digits);
}

std::string Point(const RunRecord& r, const std::string& k) {
  auto it = r.point.find(k);
  return it == r.point.end() ? "" : it->second;
}

// Who made a row: "here" (this user, this host), else why it is foreign.
std::string Origin(const RunRecord& r) {
  if (!r.foreign) return "here";
  return std::string("foreign: ") + (r.signature.empty() ? "unsigned" : "not this user's key") + ", host " +
         (r.host.empty() ? "?" : r.host);
}

// Columns of the table and CSV output: fixed ones, then every point key.
struct Column {
  std::string name;
  std::string (*get)(const RunRecord&);
};

const std::vector<Column>& FixedColumns() {
  static const std::vector<Column> c = {
      {"id", [](const RunRecord& r) { return std::to_string(r.id); }},
      {"entry", [](const RunRecord& r) { return r.entry_id; }},
      {"target", [](const RunRecord& r) { return r.target; }},
      {"status", [](const RunRecord& r) { return r.status; }},
      {"time_s", [](const RunRecord& r) { return Metric(r, "time_s", 6); }},
      {"tflops", [](const RunRecord& r) { return Metric(r, "tflops", 3); }},
      {"tflops_per_device", [](const RunRecord& r) { return Metric(r, "tflops_per_device", 3); }},
      {"tokens_per_s", [](const RunRecord& r) { return Metric(r, "tokens_per_s", 2); }},
      {"cpu_isa", [](const RunRecord& r) { return r.cpu_isa; }},
      {"start_time", [](const RunRecord& r) { return r.start_time; }},
  };
  return c;
}

// Point keys worth a table column (the per-run identity).
std::vector<std::string> PointColumns(const std::vector<RunRecord>& rows) {
  static const std::vector<std::string> kOrder = {"distribution", "mode", "pass", "impl", "backend", "topk",
                                                  "null_target", "parallel_mode", "quant_mode", "remat_mode"};
  std::set<std::string> seen;
  for (const auto& r : rows)
    for (const auto& [k, v] : r.point) seen.insert(k);
  std::vector<std::string> cols;
  for (const auto& k : kOrder)
    if (seen.count(k)) cols.push_back(k);
  return cols;
}

std::string CsvField(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string o = "\"";
  for (char c : s) {
    if (c == '"') o += '"';
    o += c;
  }
  return o + "\"";
}

// Columns padded to their widest cell, two spaces apart, no trailing blanks.
void PrintAligned(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& cells) {
  std::vector<size_t> width(header.size());
  for (size_t c = 0; c < header.size(); ++c) {
    width[c] = header[c].size();
    for (const auto& row : cells) width[c] = std::max(width[c], row[c].size());
  }
  auto line = [&](const std::vector<std::string>& row) {
    std::string s;
    for (size_t c = 0; c < row.size(); ++c) {
      if (c) s += "  ";
      s += row[c] + std::string(width[c] - row[c].size(), ' ');
    }
    while (!s.empty() && s.back() == ' ') s.pop_back();
    std::cout << s << "\n";
  };
  line(header);
  for (const auto& row : cells) line(row);
}

void PrintTable(const std::vector<RunRecord>& rows, const std::vector<std::string>& states, bool origin) {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> cells;
  auto pcols = PointColumns(rows);
  const auto& fixed = FixedColumns();
  for (size_t i = 0; i < 4; ++i) header.push_back(fixed[i].name);
  if (!states.empty()) header.push_back("counted");
  if (origin) header.push_back("origin");
  for (const auto& p : pcols) header.push_back(p);
  for (size_t i = 4; i < fixed.size(); ++i) header.push_back(fixed[i].name);
  for (size_t n = 0; n < rows.size(); ++n) {
    const RunRecord& r = rows[n];
    std::vector<std::string> row;
    for (size_t i = 0; i < 4; ++i) row.push_back(fixed[i].get(r));
    if (!states.empty()) row.push_back(states[n]);
    if (origin) row.push_back(Origin(r));
    for (const auto& p : pcols) row.push_back(Point(r, p));
    for (size_t i = 4; i < fixed.size(); ++i) row.push_back(fixed[i].get(r));
    cells.push_back(std::move(row));
  }
  PrintAligned(header, cells);
}

// The CSV's config columns: every config key of the runs under the names
// check and compare use (stored_run_reader.h: the canonical config with the run's
// point on top), shape keys included, shell variables never.
std::vector<std::string> ConfigColumns(const std::vector<std::map<std::string, std::string>>& configs) {
  std::set<std::string> keys;
  for (const auto& c : configs)
    for (const auto& [k, v] : c) keys.insert(k);
  return {keys.begin(), keys.end()};
}

void PrintCsv(const std::vector<RunRecord>& rows, const std::vector<std::string>& states, bool origin) {
  std::vector<std::map<std::string, std::string>> configs;
  for (const auto& r : rows) configs.push_back(logbook::ToStoredRun(r).config);
  std::vector<std::string> pcols = ConfigColumns(configs);
  std::set<std::string> mset;
  for (const auto& r : rows)
    for (const auto& [k, v] : r.metrics) mset.insert(k);
  std::vector<std::string> header = {"id", "run_id", "entry_id", "logbook_path", "target", "status", "exit_status",
                                     "timed_out", "cache_key", "start_time", "end_time", "host", "cpu_isa",
                                     "runner",     "git_commit", "git_dirty", "command_rewritten"};
  // Fields joined by appends (GCC 12 -O3 -Wrestrict false positive on `"," + std::string`, bug 105651).
  auto join = [](std::string* line, const std::string& field) {
    if (!line->empty()) *line += ',';
    *line += field;
  };
  if (!states.empty()) header.insert(header.begin() + 6, "counted");
  if (origin) header.push_back("origin");
  // One column per name: a config key that is also a fixed column (target),
  // or a metric that is also a config key (null_experts), appears once.
  std::set<std::string> taken(header.begin(), header.end());
  std::vector<std::string> kept;
  for (const auto& p : pcols)
    if (taken.insert(p).second) kept.push_back(p);
  pcols = kept;
  for (auto it = mset.begin(); it != mset.end();) it = taken.insert(*it).second ? std::next(it) : mset.erase(it);
  std::string h;
  for (const auto& c : header) join(&h, c);
  for (const auto& p : pcols) join(&h, CsvField(p));
  for (const auto& m : mset) join(&h, CsvField(m));
  std::cout << h << "\n";
  for (size_t i = 0; i < rows.size(); ++i) {
    const RunRecord& r = rows[i];
    std::vector<std::string> f = {std::to_string(r.id), r.run_id, r.entry_id, r.logbook_path, r.target, r.status,
                                  std::to_string(r.exit_status), r.timed_out ? "1" : "0", r.cache_key,
                                  r.start_time, r.end_time, r.host, r.cpu_isa, r.runner, r.git_commit,
                                  r.git_dirty ? "1" : "0", r.command_rewritten};
    if (!states.empty()) f.insert(f.begin() + 6, states[i]);
    if (origin) f.push_back(Origin(r));
    std::string s;
    for (const auto& x : f) join(&s, CsvField(x));
    for (const auto& p : pcols) {
      auto it = configs[i].find(p);
      join(&s, CsvField(it == configs[i].end() ? "" : it->second));
    }
    for (const auto& m : mset) join(&s, Metric(r, m, -17));
    std::cout << s << "\n";
  }
}

void PrintJson(const std::vector<RunRecord>& rows, const std::vector<std::string>& states, bool origin) {
  nlohmann::json arr = nlohmann::json::array();
  for (size_t n = 0; n < rows.size(); ++n) {
    const RunRecord& r = rows[n];
    nlohmann::json j;
    if (!states.empty()) j["counted"] = states[n];
    j["id"] = r.id;
    j["run_id"] = r.run_id;
    j["entry_id"] = r.entry_id;
    j["logbook_path"] = r.logbook_path;
    j["command_original"] = r.command_original;
    j["command_rewritten"] = r.command_rewritten;
    try {
      j["config"] = nlohmann::json::parse(r.config_json);
    } catch (const nlohmann::json::exception&) {
      j["config"] = r.config_json;
    }
    j["target"] = r.target;
    j["cache_key"] = r.cache_key;
    j["point"] = r.point;
    j["metrics"] = r.metrics;
    j["status"] = r.status;
    j["exit_status"] = r.exit_status;
    j["timed_out"] = r.timed_out;
    j["stdout_tail"] = r.stdout_tail;
    j["stderr_tail"] = r.stderr_tail;
    j["start_time"] = r.start_time;
    j["end_time"] = r.end_time;
    j["host"] = r.host;
    j["cpu_model"] = r.cpu_model;
    j["cpu_isa"] = r.cpu_isa;
    j["runner"] = r.runner;
    j["moelog_version"] = r.moelog_version;
    j["git_commit"] = r.git_commit;
    j["git_dirty"] = r.git_dirty;
    j["invocation_index"] = r.invocation_index;
    if (origin) j["origin"] = Origin(r);
    arr.push_back(std::move(j));
  }
  std::cout << arr.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}


// A --where item with its key in the criteria's spelling (dashes, aliases
// such as pass -> bench_pass); the operator and value as written.
struct WhereKey {
  std::string item, key;
};
WhereKey NormalizeWhere(const std::string& item) {
  size_t end = 0;
  while (end < item.size() && (std::isalnum(static_cast<unsigned char>(item[end])) || item[end] == '_' ||
                               item[end] == '-' || item[end] == '.'))
    ++end;
  const std::string key = logbook::NormalizeKey(item.substr(0, end));
  return {key + item.substr(end), key};
}

// Every key --where may name: store columns, config keys, and the point and
// metric keys the store's runs carry.
const std::set<std::string>& ColumnKeys() {
  static const std::set<std::string> k = {"entry_id",  "logbook_path",   "target",  "status",    "cache_key",
                                          "host",      "run_id",         "exit_status", "timed_out", "git_commit",
                                          "git_dirty", "moelog_version", "cpu_isa", "runner"};
  return k;
}

std::set<std::string> WhereKeys(const std::vector<RunRecord>& rows) {
  std::set<std::string> keys = ColumnKeys();
  for (const auto& r : rows) {
    for (const auto& [k, v] : r.point) keys.insert(k);
    for (const auto& [k, v] : r.metrics) keys.insert(k);
    for (const auto& [k, v] : logbook::ToStoredRun(r).config) keys.insert(k);
  }
  return keys;
}

// With --logbook: which rows count for it (counted_runs.h) --
// "yes", "superseded" (a command since edited or removed), or the failure
// status -- and, without --all, only the counted and failed ones.
std::vector<std::string> CountedStates(const std::string& logbook_path, logbook::RunStore* store, bool all,
                                       std::vector<RunRecord>* rows, std::string* error) {
  auto lb = logbook::LoadLogbook(logbook_path);
  if (!lb.ok()) {
    *error = lb.status().ToString();
    return {};
  }
  std::set<std::string> counted;
  for (const auto& r : logbook::CountedRuns(*lb, store, {"v5p", "cpu"})) counted.insert(r.id);
  auto norm = [](const std::string& p) {  // stored paths are absolute; the argument may not be
    std::error_code e;
    auto a = std::filesystem::absolute(p, e);
    return e ? p : a.lexically_normal().string();
  };
  const std::string self = norm(logbook_path);
  std::vector<RunRecord> kept;
  std::vector<std::string> states;
  for (auto& r : *rows) {
    const std::string id = !r.run_id.empty() ? r.run_id : std::to_string(r.id);
    const bool mine = r.logbook_path == logbook_path || norm(r.logbook_path) == self;
    if (!counted.count(id) && !mine) continue;  // another logbook's run
    const std::string state = counted.count(id) ? "yes" : r.foreign ? "foreign" : r.status != "ok" ? r.status
                                                                                                  : "superseded";
    if (!all && (state == "superseded" || state == "foreign")) continue;
    states.push_back(state);
    kept.push_back(std::move(r));
  }
  *rows = std::move(kept);
  return states;
}

// The recorded runs of `lb` of --entry that pass every --where filter, at
// most `limit` (0: all); an error for a filter that does not parse.
Result<std::vector<logbook::StoredRun>> RecordedRows(const logbook::Logbook& lb, const std::string& entry,
                                                     const std::vector<std::string>& where, int64_t limit) {
  const std::vector<logbook::StoredRun> recorded = logbook::RecordedRuns(lb);
  const logbook::RunKeys recorded_keys = logbook::RecordedKeys(lb);  // --where may name the recorded runs' keys
  std::vector<logbook::Condition> filters;
  for (const auto& w : where) {
    auto c = logbook::ParseRunFilter(w, recorded_keys);
    if (!c.ok()) return c.status();
    filters.push_back(*c);
  }
  std::vector<logbook::StoredRun> rows;
  for (const auto& r : recorded) {
    if (!entry.empty() && r.entry_id != entry) continue;
    if (!logbook::MatchesFilters(r, filters)) continue;
    rows.push_back(r);
    if (limit > 0 && static_cast<int64_t>(rows.size()) >= limit) break;
  }
  return rows;
}

void PrintRecordedJson(const std::vector<logbook::StoredRun>& rows) {
  nlohmann::json arr = nlohmann::json::array();
  for (const auto& r : rows) {
    nlohmann::json j;
    j["id"] = r.id;
    j["kind"] = r.source;
    j["entry_id"] = r.entry_id;
    j["file"] = r.file;
    j["line"] = r.line;
    j["config"] = r.config;
    j["metrics"] = r.metrics;
    j["units"] = r.units;
    j["derived"] = r.derived;
    arr.push_back(std::move(j));
  }
  std::cout << arr.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

// The recorded rows as a table: id, kind, where, then every config key and
// every metric any row has.
void PrintRecordedCells(const std::vector<logbook::StoredRun>& rows, const std::string& format) {
  std::set<std::string> keys, metrics;
  for (const auto& r : rows) {
    for (const auto& [k, v] : r.config) keys.insert(k);
    for (const auto& [m, v] : r.metrics) metrics.insert(m);
  }
  std::vector<std::string> header = {"id", "kind", "where"};
  header.insert(header.end(), keys.begin(), keys.end());
  for (const auto& m : metrics) header.push_back(m);
  std::vector<std::vector<std::string>> cells;
  for (const auto& r : rows) {
    std::vector<std::string> row = {r.id, r.source, r.file + ":" + std::to_string(r.line)};
    for (const auto& k : keys) {
      auto it = r.config.find(k);
      row.push_back(it == r.config.end() ? "" : it->second);
    }
    for (const auto& m : metrics) {
      auto it = r.metrics.find(m);
      // A table for people (grouped thousands), CSV for programs (plain).
      const std::string v = it == r.metrics.end() ? ""
                            : format == "csv"     ? logbook::Clean(it->second)
                                                  : logbook::Readable(it->second);
      row.push_back(v.empty() ? v : v + (r.derived.count(m) ? " (derived)" : ""));
    }
    cells.push_back(std::move(row));
  }
  if (format != "csv") {
    PrintAligned(header, cells);
    return;
  }
  auto join = [](const std::vector<std::string>& v) {
    std::string s;
    for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + CsvField(v[i]);
    return s;
  };
  std::cout << join(header) << "\n";
  for (const auto& row : cells) std::cout << join(row) << "\n";
}

// --kind recorded: the figures the logbook's Results record (recorded.h),
// one row each, filtered by --entry and --where like stored runs.
int PrintRecorded(const std::string& logbook_path, const std::string& entry, const std::vector<std::string>& where,
                  const std::string& format, int64_t limit) {
  auto lb = logbook::LoadLogbook(logbook_path);
  if (!lb.ok()) {
    PrintError("runs", lb.status().ToString());
    return kExitParse;
  }
  auto rows = RecordedRows(*lb, entry, where, limit);
  if (!rows.ok()) {
    PrintError("runs", rows.status().message());
    return kExitUsage;
  }
  if (format == "json") PrintRecordedJson(*rows);
  else PrintRecordedCells(*rows, format);
  return kExitOk;
}

struct RunsFlags {
  std::string db, logbook, logbook_flag, entry, format = "table", kind = "stored";
  std::vector<std::string> where;
  int64_t limit = 0;
  bool latest = false, all = false, accept_foreign = false;

  void Add(CLI::App& app) {
    app.add_option("--db", db, "run store (default: .moelog/runs.db beside LOGBOOK, else in the current directory)");
    app.add_option("LOGBOOK", logbook, "only runs of this logbook (those that count for it, and its failures)");
    app.add_option("--logbook", logbook_flag, "the same as LOGBOOK (the older spelling)");
    app.add_option("--entry", entry, "only runs of this entry ID");
    app.add_option("--where", where, "filter KEY=VALUE, KEY!=VALUE, KEY<N, KEY in {A,B} ... (repeatable)")
        ->allow_extra_args(false);
    app.add_option("--format", format, "output format")->check(CLI::IsMember({"table", "csv", "json"}));
    app.add_option("--limit", limit, "at most N rows (0: all)")->check(CLI::NonNegativeNumber);
    app.add_flag("--latest", latest, "only the newest run batch of each cache key");
    app.add_flag("--all", all,
                 "also foreign runs (with an origin column) and, with LOGBOOK, the runs superseded by edited or "
                 "removed commands");
    app.add_flag("--accept-foreign-runs", accept_foreign, "show and count foreign runs as if this user had made them");
    app.add_option("--kind", kind,
                   "stored: the run store's runs (measured and modeled); recorded: the figures LOGBOOK's "
                   "Result fields record (read from the document, never stored)")
        ->check(CLI::IsMember({"stored", "recorded"}));
  }
};

// The store query of the flags: --entry, --limit, --latest and the --where
// items, each of a known key (a column, a run key, a metric, or a key some
// stored run has); nullopt after printing the error for an unknown key.
std::optional<logbook::RunQuery> QueryOf(const RunsFlags& f, logbook::RunStore& store) {
  logbook::RunQuery q;
  q.entry_id = f.entry;
  q.limit = f.limit;
  q.latest_per_cache_key = f.latest;
  std::set<std::string> store_keys;  // read from the store only for a key that is not a known one
  for (const auto& item : f.where) {
    const WhereKey w = NormalizeWhere(item);
    const bool known =
        ColumnKeys().count(w.key) || logbook::IsKnownRunKey(w.key) || logbook::KnownMetrics().count(w.key);
    if (!known && store_keys.empty()) {
      auto everything = store.Query(logbook::RunQuery{});
      if (everything.ok()) store_keys = WhereKeys(*everything);
    }
    if (!known && !store_keys.count(w.key)) {
      PrintError("runs", "--where '" + item + "': unknown key '" + w.key + "' (valid: " + logbook::JoinKeys(store_keys) +
                             ")");
      return std::nullopt;
    }
    q.where.push_back(w.item);
  }
  return q;
}

// Leaves out the foreign rows; how many it left out.

}  // namespace

int CmdRuns(const Args& args) {
  CLI::App app("Query the run store: one row per stored run (sweep point x queue mode).\n"
               "Filters are ANDed. A --where item is KEY=VALUE (or ==, !=, <, <=, >, >=, or KEY in {A,B}),\n"
               "as in stop-criteria predicates. KEY is a column (entry_id, target, status, cache_key, host,\n"
               "run_id, exit_status, timed_out, git_commit, git_dirty, moelog_version) or a run's config,\n"
               "point or metric key (topk, impl, distribution, tflops, tokens_per_s, parallel_mode, ...);\n"
               "an unknown key is an error naming the valid ones. Numbers compare numerically.\n"
               "With LOGBOOK (or --logbook LOGBOOK), only the runs that count for it (its entries' commands as written now)\n"
               "and its failed runs; --all adds superseded ones, marked in the `counted` column.\n"
               "Runs this user did not make on this host (a store received with a logbook, rows edited\n"
               "by hand) are foreign: hidden, and never counted; --all shows them with their origin.",
               "moelog runs");
  RunsFlags f;
  f.Add(app);
  if (auto code = ParseCommandLine(app, args)) return *code;
  if (!f.logbook_flag.empty()) {
    if (!f.logbook.empty() && f.logbook != f.logbook_flag) {
      PrintError("runs", "two logbooks given (" + f.logbook + " and --logbook " + f.logbook_flag + "): give one");
      return kExitUsage;
    }
    f.logbook = f.logbook_flag;
  }
  if (f.kind == "recorded") {
    if (f.logbook.empty()) {
      PrintError("runs", "--kind recorded needs LOGBOOK (recorded runs are read from the logbook)");
      return kExitUsage;
    }
    return PrintRecorded(f.logbook, f.entry, f.where, f.format, f.limit);
  }
  const std::string db = !f.db.empty() ? f.db : f.logbook.empty() ? ".moelog/runs.db" : logbook::DefaultStorePath(f.logbook);
  std::error_code ec;
  if (!std::filesystem::exists(db, ec)) {
    PrintError("runs", "no run store at " + db + " (run `moelog update` first, or pass --db)");
    return kExitError;
  }
  auto store = logbook::RunStore::Open(db);
  if (!store.ok()) {
    PrintError("runs", store.status().message());
    return store.status().ExitCode();
  }
  const auto q = QueryOf(f, **store);
  if (!q) return kExitUsage;
  auto rows = (*store)->Query(*q);
  if (!rows.ok()) {
    PrintError("runs", rows.status().message());
    return rows.status().code() == Status::Code::kInvalidArgument ? kExitUsage : rows.status().ExitCode();
  }
  (*store)->AcceptForeign(f.accept_foreign);
  const size_t hidden = !f.all && !f.accept_foreign ? logbook::DropForeign(&*rows) : 0;
  const bool origin = f.all && std::any_of(rows->begin(), rows->end(), [](const RunRecord& r) { return r.foreign; });
  std::vector<std::string> states;
  if (!f.logbook.empty()) {
    std::string error;
    states = CountedStates(f.logbook, store->get(), f.all, &*rows, &error);
    if (!error.empty()) {
      PrintError("runs", error);
      return kExitParse;
    }
  }
  if (f.format == "json") PrintJson(*rows, states, origin);
  else if (f.format == "csv") PrintCsv(*rows, states, origin);
  else PrintTable(*rows, states, origin);
  if (hidden > 0)
    std::cerr << "moelog runs: " << hidden << " foreign run" << (hidden == 1 ? "" : "s")
              << " hidden (not made by this user on this host: never served or counted); --all shows them\n";
  return kExitOk;
}

}  // namespace moelog::cli
