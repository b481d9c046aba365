// The only file that talks to SQLite. Every value goes through bind
// parameters; the only text spliced into SQL is this file's own constants
// (column names from a fixed list, comparison operators from a fixed list,
// the schema version integer).
#include "logbook/store/run_store.h"

#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string_view>
#include <tuple>
#include <variant>

#include <nlohmann/json.hpp>

#include "engine/backend.h"
#include "engine/format.h"
#include "logbook/budgets.h"
#include "logbook/doc/parse_logbook.h"
#include "logbook/file_util.h"
#include "logbook/numbers.h"
#include "logbook/store/row_signer.h"
#include "logbook/store/sha256.h"
#include "logbook/text.h"

namespace moelog::logbook {
namespace {

// PRAGMA application_id of a moelog run store: "moel".
constexpr int64_t kApplicationId = 0x6D6F656C;

// Schema steps: kMigrations[v] takes the database from version v to v + 1.
const std::vector<std::vector<const char*>>& Migrations() {
  static const std::vector<std::vector<const char*>> m = {
      // 0 -> 1: the runs table.
      {R"SQL(CREATE TABLE runs (
           id INTEGER PRIMARY KEY AUTOINCREMENT,
           run_id TEXT NOT NULL UNIQUE,
           entry_id TEXT NOT NULL DEFAULT '',
           logbook_path TEXT NOT NULL DEFAULT '',
           command_original TEXT NOT NULL DEFAULT '',
           command_rewritten TEXT NOT NULL DEFAULT '',
           config_json TEXT NOT NULL DEFAULT '{}',
           target TEXT NOT NULL DEFAULT '',
           cache_key TEXT NOT NULL DEFAULT '',
           point_json TEXT NOT NULL DEFAULT '{}',
           metrics_json TEXT NOT NULL DEFAULT '{}',
           status TEXT NOT NULL DEFAULT 'ok',
           exit_status INTEGER NOT NULL DEFAULT 0,
           timed_out INTEGER NOT NULL DEFAULT 0,
           stdout_tail TEXT NOT NULL DEFAULT '',
           stderr_tail TEXT NOT NULL DEFAULT '',
           start_time TEXT NOT NULL DEFAULT '',
           end_time TEXT NOT NULL DEFAULT '',
           host TEXT NOT NULL DEFAULT '',
           cpu_model TEXT NOT NULL DEFAULT '',
           moelog_version TEXT NOT NULL DEFAULT '',
           git_commit TEXT NOT NULL DEFAULT '',
           git_dirty INTEGER NOT NULL DEFAULT 0))SQL",
       "CREATE INDEX runs_entry ON runs(entry_id)",
       "CREATE INDEX runs_cache_key ON runs(cache_key)"},
      // 1 -> 2: invocation position, and the headline figures as real columns
      // (filled from metrics_json for existing rows) for fast sorting.
      {"ALTER TABLE runs ADD COLUMN invocation_index INTEGER NOT NULL DEFAULT 0",
       "ALTER TABLE runs ADD COLUMN time_s REAL",
       "ALTER TABLE runs ADD COLUMN tflops REAL",
       "ALTER TABLE runs ADD COLUMN tokens_per_s REAL",
       "UPDATE runs SET time_s = json_extract(metrics_json, '$.time_s'), "
       "tflops = json_extract(metrics_json, '$.tflops'), "
       "tokens_per_s = json_extract(metrics_json, '$.tokens_per_s')",
       "CREATE INDEX runs_logbook_entry ON runs(logbook_path, entry_id)"},
      // 2 -> 3: what a cpu run ran on ("isa=avx2 bf16=f32-compute
      // kernels=avx2", from its devices line); "" for v5p and older rows.
      {"ALTER TABLE runs ADD COLUMN cpu_isa TEXT NOT NULL DEFAULT ''"},
      // 3 -> 4: how the run was made ("in-process", "subprocess",
      // "shell sandbox=bwrap", "shell sandbox=none", ...); "" for older rows.
      {"ALTER TABLE runs ADD COLUMN runner TEXT NOT NULL DEFAULT ''"},
      // 4 -> 5: who made the row: HMAC-SHA256 by the user's key (row_signer.h);
      // "" for older rows, which count as foreign.
      {"ALTER TABLE runs ADD COLUMN signature TEXT NOT NULL DEFAULT ''"},
  };
  return m;
}

// Columns a --where key may name directly.
const std::array<const char*, 14> kColumnKeys = {"entry_id", "logbook_path", "target",      "status",
                                                 "cache_key", "host",        "run_id",      "exit_status",
                                                 "timed_out", "git_commit",  "git_dirty",   "moelog_version",
                                                 "cpu_isa",   "runner"};

// The columns of a run row after its rowid `id`, in the schema's order, each
// with what it holds of a RunRecord and the schema version that added it:
// one table for the SELECT, the INSERT, reading a row, binding one and the
// text its signature covers. point_json and metrics_json hold the record's
// point and metrics maps as JSON.
enum class RowJson { kPoint, kMetrics };
using RowField = std::variant<RowJson, std::string RunRecord::*, int RunRecord::*, bool RunRecord::*,
                              int64_t RunRecord::*>;
struct RowColumn {
  const char* name;
  RowField field;
  int since = 1;
  const char* if_empty = "";  // what is stored for an empty text field
};
const RowColumn kRowColumns[] = {
    // what ran, and for which entry
    {"run_id", &RunRecord::run_id}, {"entry_id", &RunRecord::entry_id}, {"logbook_path", &RunRecord::logbook_path},
    {"command_original", &RunRecord::command_original}, {"command_rewritten", &RunRecord::command_rewritten},
    {"config_json", &RunRecord::config_json, 1, "{}"}, {"target", &RunRecord::target},
    {"cache_key", &RunRecord::cache_key}, {"point_json", RowJson::kPoint}, {"metrics_json", RowJson::kMetrics},
    // how it ended
    {"status", &RunRecord::status}, {"exit_status", &RunRecord::exit_status}, {"timed_out", &RunRecord::timed_out},
    {"stdout_tail", &RunRecord::stdout_tail}, {"stderr_tail", &RunRecord::stderr_tail},
    // when, where and by which moelog and logbook revision
    {"start_time", &RunRecord::start_time}, {"end_time", &RunRecord::end_time}, {"host", &RunRecord::host},
    {"cpu_model", &RunRecord::cpu_model}, {"moelog_version", &RunRecord::moelog_version},
    {"git_commit", &RunRecord::git_commit}, {"git_dirty", &RunRecord::git_dirty},
    // added by later schema versions
    {"invocation_index", &RunRecord::invocation_index, 2}, {"cpu_isa", &RunRecord::cpu_isa, 3},
    {"runner", &RunRecord::runner, 4}, {"signature", &RunRecord::signature, 5},
};
// Copies of three metrics as real columns for sorting (version 2), written
// on insert, never read back.
const char* const kFigureColumns[] = {"time_s", "tflops", "tokens_per_s"};

// The names of the columns schema `version` has, ", "-separated.
std::string RowColumnNames(int version) {
  std::string names;
  for (const RowColumn& c : kRowColumns)
    if (c.since <= version) names += std::string(names.empty() ? "" : ", ") + c.name;
  return names;
}

template <typename... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <typename... F>
Overloaded(F...) -> Overloaded<F...>;  // clang 14 deduces no aggregate's arguments without it

// What a column stores for a record: an integer or text.
using RowValue = std::variant<int64_t, std::string_view>;

// Calls f(value) for each column schema `version` has, in order.
template <typename F>
void ForRowValues(const RunRecord& r, int version, const std::string& point_json, const std::string& metrics_json,
                  F f) {
  for (const RowColumn& c : kRowColumns) {
    if (c.since > version) continue;
    f(std::visit(Overloaded{[&](RowJson j) -> RowValue {
                              return std::string_view(j == RowJson::kPoint ? point_json : metrics_json);
                            },
                            [&](std::string RunRecord::*m) -> RowValue {
                              const std::string& v = r.*m;
                              return v.empty() ? std::string_view(c.if_empty) : std::string_view(v);
                            },
                            [&](int RunRecord::*m) -> RowValue { return static_cast<int64_t>(r.*m); },
                            [&](bool RunRecord::*m) -> RowValue { return int64_t{r.*m ? 1 : 0}; },
                            [&](int64_t RunRecord::*m) -> RowValue { return r.*m; }},
                 c.field));
  }
}


// SQL function moelog_num(x): x as a number when it is one (integer, real, or
// text that is entirely a number), else NULL. Lets "topk=2" match the stored
// text "2" and "null_target=0" match "0.000" without matching "random".
void MoelogNum(sqlite3_context* ctx, int, sqlite3_value** argv) {
  switch (sqlite3_value_type(argv[0])) {
    case SQLITE_INTEGER:
    case SQLITE_FLOAT:
      sqlite3_result_double(ctx, sqlite3_value_double(argv[0]));
      return;
    case SQLITE_TEXT: {
      const unsigned char* t = sqlite3_value_text(argv[0]);
      const std::string s = t ? reinterpret_cast<const char*>(t) : "";
      const std::optional<double> v = s == "true" ? 1.0 : s == "false" ? 0.0 : ParseNumber(s);
      if (!v) break;
      sqlite3_result_double(ctx, *v);
      return;
    }
    default:
      break;
  }
  sqlite3_result_null(ctx);
}

// Every statement on a store is bounded: SQLite calls the progress handler
// every kProgressEvery virtual-machine steps of the statement running on
// this thread; past the budget the statement stops (SQLITE_INTERRUPT). The
// count restarts at each step and each Exec.
constexpr int kProgressEvery = 1000;
thread_local int64_t t_progress_left = 0;
int ProgressHandler(void*) { return --t_progress_left < 0 ? 1 : 0; }
void StartStatementBudget() { t_progress_left = BudgetLimit(BudgetId::kStoreStatementSteps) / kProgressEvery; }

// A statement's failure: what SQLite says, or the budget it ran over.
std::string SqliteError(sqlite3* db) {
  if (sqlite3_errcode(db) == SQLITE_INTERRUPT)
    return "a statement ran " + OverBudget(BudgetId::kStoreStatementSteps) +
           "; the store makes SQLite work without end: pass another --db";
  return sqlite3_errmsg(db);
}

// A prepared statement that finalizes itself.
class Stmt {
 public:
  Stmt(sqlite3* db, const std::string& sql) : db_(db) {
    rc_ = sqlite3_prepare_v2(db, sql.c_str(), static_cast<int>(sql.size()), &s_, nullptr);
  }
  ~Stmt() { sqlite3_finalize(s_); }
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;
  Status status() const {
    return rc_ == SQLITE_OK ? Status::Ok() : Status::IOError(std::string("sqlite: ") + sqlite3_errmsg(db_));
  }
  void Bind(int i, std::string_view v) { sqlite3_bind_text(s_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT); }
  void Bind(int i, int64_t v) { sqlite3_bind_int64(s_, i, v); }
  void BindDouble(int i, double v) { sqlite3_bind_double(s_, i, v); }
  void BindNull(int i) { sqlite3_bind_null(s_, i); }
  int Step() {
    StartStatementBudget();
    return sqlite3_step(s_);
  }
  void Reset() {
    sqlite3_reset(s_);
    sqlite3_clear_bindings(s_);
  }
  std::string Text(int c) const {
    const unsigned char* t = sqlite3_column_text(s_, c);
    return t ? std::string(reinterpret_cast<const char*>(t), static_cast<size_t>(sqlite3_column_bytes(s_, c))) : "";
  }
  int64_t Int(int c) const { return sqlite3_column_int64(s_, c); }

 private:
  sqlite3* db_;
  sqlite3_stmt* s_ = nullptr;
  int rc_;
};

std::string NewRunId() {
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  const uint64_t hi = rng(), lo = rng();
  return engine::Hex16(hi) + engine::Hex16(lo);
}

std::string PointJson(const std::map<std::string, std::string>& point) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [k, v] : point) j[k] = v;
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string MetricsJson(const std::map<std::string, double>& metrics) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [k, v] : metrics) j[k] = v;  // NaN/inf become null
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void FillFromJson(const std::string& point_json, const std::string& metrics_json, RunRecord* r) {
  try {
    auto p = nlohmann::json::parse(point_json);
    for (auto it = p.begin(); it != p.end(); ++it)
      r->point[it.key()] = it.value().is_string()
                               ? it.value().get<std::string>()
                               : it.value().dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    auto m = nlohmann::json::parse(metrics_json);
    for (auto it = m.begin(); it != m.end(); ++it)
      if (it.value().is_number()) r->metrics[it.key()] = it.value().get<double>();
  } catch (const nlohmann::json::exception&) {
    // A row edited by hand with broken JSON: keep the columns, drop the maps.
  }
}

bool ValidKey(const std::string& k) {
  if (k.empty() || k.size() > 128) return false;
  return std::all_of(k.begin(), k.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-';
  });
}

// "key<op>value" with op one of = == != <= >= < > (== is =), or
// "key in {a,b,...}" (op "in", values in `values`): the criteria's forms.
struct WhereItem {
  std::string key, op, value;
  std::vector<std::string> values;  // op "in"
};

Result<WhereItem> ParseWhere(const std::string& item) {
  static const char* kOps[] = {"==", "!=", "<=", ">=", "=", "<", ">"};
  size_t best = std::string::npos;
  std::string op;
  for (const char* o : kOps) {
    size_t p = item.find(o);
    if (p != std::string::npos && (p < best || (p == best && std::strlen(o) > op.size()))) {
      best = p;
      op = o;
    }
  }
  WhereItem w;
  const size_t in = item.find(" in ");
  if (in != std::string::npos && (best == std::string::npos || in < best)) {
    std::string list = parse_detail::Trim(item.substr(in + 4));
    if (list.size() < 2 || list.front() != '{' || list.back() != '}')
      return Status::InvalidArgument("--where '" + item + "': expected key in {a,b,...}");
    for (const std::string& v : SplitList(std::string_view(list).substr(1, list.size() - 2)))
      if (!Trim(v).empty()) w.values.push_back(Trim(v));
    if (w.values.empty()) return Status::InvalidArgument("--where '" + item + "': the set {...} is empty");
    w.key = parse_detail::Trim(item.substr(0, in));
    w.op = "in";
  } else if (best == std::string::npos) {
    return Status::InvalidArgument("--where '" + item +
                                   "': expected key=value (or key==, !=, <, <=, >, >= value, or key in {a,b})");
  } else {
    w.key = parse_detail::Trim(item.substr(0, best));
    w.op = op == "==" ? "=" : op;
    w.value = parse_detail::Trim(item.substr(best + op.size()));
  }
  if (!ValidKey(w.key))
    return Status::InvalidArgument("--where '" + item + "': a key is letters, digits, '_', '.', '-'");
  return w;
}

// The signed text of a row: every stored field but the rowid and the
// signature itself, each length-prefixed; point and metrics as their stored
// JSON.
// The text a row's signature covers: its columns of schema 4 (all but the
// signature itself), each as it is stored.
std::string SignedText(const RunRecord& r, const std::string& point_json, const std::string& metrics_json) {
  std::string t;
  t.reserve(1024 + r.stdout_tail.size() + r.stderr_tail.size() + r.command_original.size() + r.config_json.size());
  ForRowValues(r, 4, point_json, metrics_json, [&](const RowValue& v) {
    if (const auto* n = std::get_if<int64_t>(&v)) RowSigner::AppendField(&t, std::to_string(*n));
    else RowSigner::AppendField(&t, std::get<std::string_view>(v));
  });
  return t;
}

std::string ReadWhole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}


// The store's folder: moelog's own .moelog beside a document is a real
// directory (never a link to elsewhere); any other is created as needed.
Status PrepareFolder(const std::string& path) {
  std::error_code ec;
  auto parent = std::filesystem::path(path).parent_path();
  if (parent.filename() == ".moelog") {
    if (!parent.parent_path().empty()) std::filesystem::create_directories(parent.parent_path(), ec);
    MOELOG_RETURN_IF_ERROR(MakeRealDir(parent.string()));
  } else if (!parent.empty()) {
    std::filesystem::create_directories(parent, ec);
  }
  return Status::Ok();
}

// The index CachedRuns looks batches up by: not part of the schema version
// (created where missing).
constexpr const char* kCacheKeyStartIndex =
    "CREATE INDEX IF NOT EXISTS runs_cache_key_start ON runs(cache_key, start_time)";

// One schema object of a store: type, name, table and SQL with its blanks
// collapsed ("" for SQLite's automatic indexes).
using SchemaObject = std::tuple<std::string, std::string, std::string, std::string>;

std::string CollapseBlanks(const std::string& sql) {
  std::string out;
  for (char c : sql) {
    const bool blank = c == ' ' || c == '\n' || c == '\t' || c == '\r';
    if (blank && (out.empty() || out.back() == ' ')) continue;
    out += blank ? ' ' : c;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

std::vector<SchemaObject> SchemaObjects(sqlite3* db) {
  std::vector<SchemaObject> out;
  sqlite3_stmt* s = nullptr;
  if (sqlite3_prepare_v2(db, "SELECT type, name, tbl_name, COALESCE(sql, '') FROM sqlite_master", -1, &s,
                         nullptr) != SQLITE_OK)
    return out;
  StartStatementBudget();
  while (sqlite3_step(s) == SQLITE_ROW) {
    auto text = [&](int c) {
      const unsigned char* t = sqlite3_column_text(s, c);
      return t ? std::string(reinterpret_cast<const char*>(t), static_cast<size_t>(sqlite3_column_bytes(s, c)))
               : std::string();
    };
    out.emplace_back(text(0), text(1), text(2), CollapseBlanks(text(3)));
  }
  sqlite3_finalize(s);
  return out;
}

// The objects moelog's store of schema `version` holds, made by the
// migrations in a database in memory (so they are exactly what SQLite stores
// for them), with the cache index and SQLite's statistics table, which may
// be present or not.
const std::set<SchemaObject>& OwnSchema(int version) {
  static std::mutex mu;
  static std::map<int, std::set<SchemaObject>> memo;
  std::lock_guard<std::mutex> lock(mu);
  auto it = memo.find(version);
  if (it != memo.end()) return it->second;
  std::set<SchemaObject>& own = memo[version];
  sqlite3* db = nullptr;
  if (sqlite3_open(":memory:", &db) == SQLITE_OK) {
    for (int at = 0; at < version; ++at)
      for (const char* sql : Migrations()[static_cast<size_t>(at)]) sqlite3_exec(db, sql, nullptr, nullptr, nullptr);
    if (version >= 1) sqlite3_exec(db, kCacheKeyStartIndex, nullptr, nullptr, nullptr);
    sqlite3_exec(db, "ANALYZE", nullptr, nullptr, nullptr);  // makes sqlite_stat1
    for (auto& o : SchemaObjects(db)) own.insert(std::move(o));
  }
  sqlite3_close(db);
  return own;
}

// Why the store's schema is not moelog's for `version` ("" when it is): a
// trigger, a view, another table or index, or a table or index of moelog's
// name that differs from moelog's. A store is data; one that carries code
// (a trigger runs on moelog's writes) is refused before anything is used.
std::string ForeignSchema(sqlite3* db, int version) {
  const std::set<SchemaObject>& own = OwnSchema(version);
  bool has_runs = false;
  for (const SchemaObject& o : SchemaObjects(db)) {
    const auto& [type, name, table, sql] = o;
    if (own.count(o)) {
      has_runs = has_runs || (type == "table" && name == "runs");
      continue;
    }
    const bool ours = std::any_of(own.begin(), own.end(), [&o](const SchemaObject& m) {
      return std::get<0>(m) == std::get<0>(o) && std::get<1>(m) == std::get<1>(o);
    });
    return type + " '" + name + "'" + (table.empty() || table == name ? "" : " on '" + table + "'") +
           (ours ? " differs from moelog's schema " + std::to_string(version) + " definition"
                 : " is not one of moelog's (its store holds one table, its indexes and no triggers or views)");
  }
  if (version >= 1 && !has_runs) return "schema " + std::to_string(version) + " has no runs table";
  return "";
}

}  // namespace

struct RunStore::Impl {
  sqlite3* db = nullptr;
  int version = 0;
  const RowSigner* signer = nullptr;
  bool accept_foreign = false;
  mutable std::mutex mu;            // guards ignored
  std::set<std::string> ignored;    // run IDs of foreign rows CachedRuns skipped
  const RowSigner& Signer() const { return signer ? *signer : RowSigner::Default(); }
  std::string SelectSql() const { return "SELECT id, " + RowColumnNames(version) + " FROM runs"; }
  RunRecord ReadRow(const Stmt& s) const {
    RunRecord r;
    r.id = s.Int(0);
    std::string point_json, metrics_json;
    int i = 0;
    for (const RowColumn& c : kRowColumns) {
      if (c.since > version) continue;
      ++i;
      std::visit(Overloaded{[&](RowJson j) { (j == RowJson::kPoint ? point_json : metrics_json) = s.Text(i); },
                            [&](std::string RunRecord::*m) { r.*m = s.Text(i); },
                            [&](int RunRecord::*m) { r.*m = static_cast<int>(s.Int(i)); },
                            [&](bool RunRecord::*m) { r.*m = s.Int(i) != 0; },
                            [&](int64_t RunRecord::*m) { r.*m = s.Int(i); }},
                 c.field);
    }
    FillFromJson(point_json, metrics_json, &r);
    const RowSigner& signer = Signer();
    r.foreign = r.host != signer.host() || !signer.VerifyText(SignedText(r, point_json, metrics_json), r.signature);
    return r;
  }
  ~Impl() {
    if (db) sqlite3_close_v2(db);
  }
  Status Exec(const std::string& sql) {
    char* err = nullptr;
    StartStatementBudget();
    int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err);
    if (rc != SQLITE_OK) {
      std::string msg = rc == SQLITE_INTERRUPT ? SqliteError(db) : err ? err : sqlite3_errstr(rc);
      sqlite3_free(err);
      return Status::IOError("sqlite: " + msg);
    }
    return Status::Ok();
  }
  Result<int64_t> Scalar(const std::string& sql) {
    Stmt s(db, sql);
    MOELOG_RETURN_IF_ERROR(s.status());
    if (s.Step() != SQLITE_ROW) return Status::IOError(std::string("sqlite: ") + SqliteError(db));
    return s.Int(0);
  }
  // The store's application_id when the file is moelog's (or new); an error
  // naming what it is otherwise.
  Result<int64_t> CheckOwnership(const std::string& path, int version) {
    auto app = Scalar("PRAGMA application_id");
    auto tables = Scalar("SELECT count(*) FROM sqlite_master");
    auto cols = Scalar(
        "SELECT count(*) FROM pragma_table_info('runs') WHERE name IN "
        "('run_id', 'cache_key', 'config_json', 'command_rewritten', 'point_json', 'metrics_json')");
    if (!app.ok() || !tables.ok() || !cols.ok()) return Status::IOError(path + ": not a moelog run store");
    const bool fresh = *app == 0 && version == 0 && *tables == 0;
    const bool legacy = *app == 0 && version >= 1 && *cols == 6;  // written before the id existed
    if (*app != kApplicationId && !fresh && !legacy)
      return Status::IOError(path + ": not a moelog run store (application_id " + std::to_string(*app) +
                             ", schema version " + std::to_string(version) + ", " + std::to_string(*tables) +
                             " schema objects); moelog writes only its own store: pass another --db");
    return *app;
  }
  // Sets the journal and cache, stamps moelog's application_id (`app`:
  // the one the file carries) and migrates to `schema_version`, in one
  // transaction.
  Status Configure(const std::string& path, int app, int schema_version) {
    MOELOG_RETURN_IF_ERROR(Exec("PRAGMA journal_mode=WAL"));
    MOELOG_RETURN_IF_ERROR(Exec("PRAGMA synchronous=NORMAL"));
    // A page cache large enough for a whole logbook's lookups (64 MiB at most).
    MOELOG_RETURN_IF_ERROR(Exec("PRAGMA cache_size=-65536"));
    MOELOG_RETURN_IF_ERROR(Exec("BEGIN IMMEDIATE"));
    auto v = UserVersion();
    if (!v.ok()) {
      (void)Exec("ROLLBACK");
      return v.status();
    }
    // The id is this file's own constant; PRAGMA values cannot be bound.
    if (app != kApplicationId)
      MOELOG_RETURN_IF_ERROR(Exec("PRAGMA application_id = " + std::to_string(kApplicationId)));
    if (*v > kSchemaVersion) {
      (void)Exec("ROLLBACK");
      return Status::InvalidArgument(path + ": run store schema version " + std::to_string(*v) +
                                     " is newer than this moelog supports (" + std::to_string(kSchemaVersion) + ")");
    }
    int at = *v;
    for (; at < schema_version; ++at) {
      for (const char* sql : Migrations()[static_cast<size_t>(at)]) {
        Status st = Exec(sql);
        if (!st.ok()) {
          (void)Exec("ROLLBACK");
          return Status::IOError(path + ": migration to schema " + std::to_string(at + 1) + " failed: " +
                                 st.message());
        }
      }
      // The version is this file's own integer; PRAGMA values cannot be bound.
      MOELOG_RETURN_IF_ERROR(Exec("PRAGMA user_version = " + std::to_string(at + 1)));
    }
    // CachedRuns finds a key's newest batch by (cache_key, start_time): an
    // index, not part of the schema version (created where missing).
    if (at >= 1) MOELOG_RETURN_IF_ERROR(Exec(kCacheKeyStartIndex));
    MOELOG_RETURN_IF_ERROR(Exec("COMMIT"));
    version = std::max(at, *v);
    return Status::Ok();
  }
  // Each row just written is read back by its rowid with its run ID and
  // signature, before anyone is told it is stored.
  Status ReadBack(const std::vector<RunRecord>& records) {
    Stmt s(db, "SELECT run_id, " + std::string(version >= 5 ? "signature" : "''") + " FROM runs WHERE id = ?1");
    MOELOG_RETURN_IF_ERROR(s.status());
    size_t lost = 0;
    for (const RunRecord& r : records) {
      s.Bind(1, r.id);
      const int rc = s.Step();
      if (rc != SQLITE_ROW && rc != SQLITE_DONE) return Status::IOError("sqlite: read-back failed: " + SqliteError(db));
      if (rc != SQLITE_ROW || s.Text(0) != r.run_id || (version >= 5 && s.Text(1) != r.signature)) ++lost;
      s.Reset();
    }
    if (lost == 0) return Status::Ok();
    return Status::IOError("the run store did not keep " + std::to_string(lost) + " of the " +
                           std::to_string(records.size()) + " rows just written (read back by rowid)");
  }
  Result<int> UserVersion() {
    Stmt s(db, "PRAGMA user_version");
    MOELOG_RETURN_IF_ERROR(s.status());
    if (s.Step() != SQLITE_ROW) return Status::IOError(std::string("sqlite: ") + SqliteError(db));
    return static_cast<int>(s.Int(0));
  }
};

RunStore::RunStore(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
RunStore::~RunStore() = default;

Result<std::unique_ptr<RunStore>> RunStore::Open(const std::string& path, int schema_version) {
  if (schema_version < 1 || schema_version > kSchemaVersion)
    return Status::InvalidArgument("run store: schema version " + std::to_string(schema_version) + " does not exist");
  // A key that cannot be used is said before anything is opened or run:
  // rows stored without it would read as foreign ever after.
  if (const std::string& key = RowSigner::Default().problem(); !key.empty()) return Status::IOError(key);
  MOELOG_RETURN_IF_ERROR(PrepareFolder(path));
  // SQLite writes the database and its journal files: each is absent or a
  // regular file with one link (never a link, FIFO, device or hard link).
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) MOELOG_RETURN_IF_ERROR(CheckOwnFile(path + suffix));
  auto impl = std::make_unique<Impl>();
  int rc = sqlite3_open_v2(path.c_str(), &impl->db,
                           SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX | SQLITE_OPEN_NOFOLLOW,
                           nullptr);
  if (rc != SQLITE_OK)
    return Status::IOError(path + ": cannot open run store: " +
                           (impl->db ? sqlite3_errmsg(impl->db) : sqlite3_errstr(rc)));
  sqlite3_busy_timeout(impl->db, 10000);
  // The store is data: no trigger or view runs, no function the schema names
  // runs unless it is innocuous, the schema cannot be written as a table,
  // and every statement is bounded.
  for (int op : {SQLITE_DBCONFIG_ENABLE_TRIGGER, SQLITE_DBCONFIG_ENABLE_VIEW, SQLITE_DBCONFIG_TRUSTED_SCHEMA})
    sqlite3_db_config(impl->db, op, 0, nullptr);
  sqlite3_db_config(impl->db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
  sqlite3_progress_handler(impl->db, kProgressEvery, ProgressHandler, nullptr);
  sqlite3_create_function(impl->db, "moelog_num", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nullptr, MoelogNum,
                          nullptr, nullptr);
  // Probe that this is a database at all before changing anything.
  auto probe = impl->UserVersion();
  if (!probe.ok())
    return Status::IOError(path + (sqlite3_errcode(impl->db) == SQLITE_NOTADB ? ": not a moelog run store: "
                                                                               : ": cannot use the run store: ") +
                           probe.status().message());
  // Only moelog's own store is written: a new (empty) database, or one that
  // carries moelog's application_id (or, from before the id, moelog's runs
  // table). Checked before anything is changed.
  auto app = impl->CheckOwnership(path, *probe);
  if (!app.ok()) return app.status();
  if (*probe <= kSchemaVersion)
    if (const std::string why = ForeignSchema(impl->db, *probe); !why.empty())
      return Status::IOError(path + ": not a moelog run store as moelog makes it: " + why +
                             "; moelog uses no store that carries code or objects of its own: pass another --db");
  MOELOG_RETURN_IF_ERROR(impl->Configure(path, *app, schema_version));
  return std::unique_ptr<RunStore>(new RunStore(std::move(impl)));
}

Result<int> RunStore::SchemaVersion() { return impl_->UserVersion(); }

Status RunStore::Insert(RunRecord* record) {
  std::vector<RunRecord> one{*record};
  MOELOG_RETURN_IF_ERROR(Insert(&one));
  *record = one[0];
  return Status::Ok();
}

namespace {

// The INSERT of a run row in the columns schema `version` has.
std::string InsertSql(int version) {
  std::string sql = "INSERT INTO runs (" + RowColumnNames(version);
  int params = 0;
  for (const RowColumn& c : kRowColumns) params += c.since <= version ? 1 : 0;
  if (version >= 2)
    for (const char* k : kFigureColumns) {
      sql += std::string(", ") + k;
      ++params;
    }
  sql += ") VALUES (";
  for (int i = 1; i <= params; ++i) sql += (i > 1 ? ", ?" : "?") + std::to_string(i);
  return sql + ")";
}

// Binds a run's columns as schema `version` has them, in InsertSql's order.
void BindRun(Stmt& s, const RunRecord& r, int version, const std::string& point_json,
             const std::string& metrics_json) {
  int i = 0;
  ForRowValues(r, version, point_json, metrics_json, [&](const RowValue& v) {
    if (const auto* n = std::get_if<int64_t>(&v)) s.Bind(++i, *n);
    else s.Bind(++i, std::get<std::string_view>(v));
  });
  if (version < 2) return;
  for (const char* k : kFigureColumns) {
    auto it = r.metrics.find(k);
    if (it == r.metrics.end()) s.BindNull(++i); else s.BindDouble(++i, it->second);
  }
}

}  // namespace

Status RunStore::Insert(std::vector<RunRecord>* records) {
  const int version = impl_->version;
  MOELOG_RETURN_IF_ERROR(impl_->Exec("BEGIN IMMEDIATE"));
  {
    Stmt s(impl_->db, InsertSql(version));
    Status st = s.status();
    for (size_t i = 0; st.ok() && i < records->size(); ++i) {
      RunRecord& r = (*records)[i];
      if (r.run_id.empty()) r.run_id = NewRunId();
      const std::string point_json = PointJson(r.point), metrics_json = MetricsJson(r.metrics);
      if (version >= 5) {
        r.signature = impl_->Signer().SignText(SignedText(r, point_json, metrics_json));
        r.foreign = r.signature.empty() || r.host != impl_->Signer().host();
      }
      BindRun(s, r, version, point_json, metrics_json);
      if (s.Step() != SQLITE_DONE) {
        st = Status::IOError(std::string("sqlite: insert failed: ") + SqliteError(impl_->db));
        break;
      }
      r.id = sqlite3_last_insert_rowid(impl_->db);
      s.Reset();
    }
    if (!st.ok()) {
      (void)impl_->Exec("ROLLBACK");
      return st;
    }
  }
  MOELOG_RETURN_IF_ERROR(impl_->Exec("COMMIT"));
  return impl_->ReadBack(*records);
}

namespace {

// A query's SQL with its bound values (?1, ?2, ...): text or number.
struct QuerySql {
  struct Binding {
    bool is_num;
    std::string text;
    double num;
  };
  std::string sql;
  std::vector<Binding> binds;

  std::string Text(const std::string& v) {
    binds.push_back({false, v, 0});
    return "?" + std::to_string(binds.size());
  }
  std::string Num(double v) {
    binds.push_back({true, "", v});
    return "?" + std::to_string(binds.size());
  }
  // A --where value as a number: true and false are 1 and 0.
  static std::optional<double> Number(const std::string& v) {
    return v == "true" ? 1.0 : v == "false" ? 0.0 : ParseNumber(v);
  }
  // The SQL of a --where key: a column, else the run's point, metric or
  // config value of that name.
  std::string KeyExpr(const std::string& key) {
    auto col = std::find_if(kColumnKeys.begin(), kColumnKeys.end(), [&](const char* c) { return key == c; });
    if (col != kColumnKeys.end()) return *col;  // a name from the fixed list above
    std::string p = Text("$.\"" + key + "\"");
    return "COALESCE(json_extract(point_json, " + p + "), json_extract(metrics_json, " + p +
           "), json_extract(config_json, " + p + "))";
  }
  // One --where item ANDed to the query: numbers compare numerically.
  Status AddWhere(const std::string& item) {
    auto w = ParseWhere(item);
    if (!w.ok()) return w.status();
    const std::optional<double> num = Number(w->value);
    const std::string lhs = KeyExpr(w->key);
    const std::string& op = w->op;  // one of the fixed operators
    if (op == "in") {
      std::string any;
      for (const auto& v : w->values) {
        const std::optional<double> n = Number(v);
        any += any.empty() ? "" : " OR ";
        any += n ? "moelog_num(" + lhs + ") = " + Num(*n) : lhs + " = " + Text(v);
      }
      sql += " AND (" + any + ")";
    } else if (num) {
      sql += " AND moelog_num(" + lhs + ") " + op + " " + Num(*num);
    } else if (op == "=" || op == "!=") {
      sql += " AND " + lhs + " " + op + " " + Text(w->value);
    } else {
      return Status::InvalidArgument("--where '" + item + "': " + op + " needs a number");
    }
    return Status::Ok();
  }
  // Binds the values; the last is the LIMIT (an integer) when `limited`.
  void BindAll(Stmt& s, bool limited) const {
    for (size_t i = 0; i < binds.size(); ++i) {
      int idx = static_cast<int>(i + 1);
      if (!binds[i].is_num) s.Bind(idx, binds[i].text);
      else if (limited && i + 1 == binds.size()) s.Bind(idx, static_cast<int64_t>(binds[i].num));
      else s.BindDouble(idx, binds[i].num);
    }
  }
};

// Keeps each cache key's newest batch (rows in id order).
void KeepLatestPerCacheKey(std::vector<RunRecord>* rows) {
  std::map<std::string, std::string> newest;  // cache key -> start time of its newest row
  for (const auto& r : *rows) newest[r.cache_key] = r.start_time;
  std::vector<RunRecord> kept;
  for (auto& r : *rows)
    if (newest[r.cache_key] == r.start_time) kept.push_back(std::move(r));
  *rows = std::move(kept);
}

}  // namespace

Result<std::vector<RunRecord>> RunStore::Query(const RunQuery& q) {
  QuerySql b;
  b.sql = impl_->SelectSql() + " WHERE 1=1";
  if (!q.entry_id.empty()) b.sql += " AND entry_id = " + b.Text(q.entry_id);
  if (!q.logbook_path.empty()) b.sql += " AND logbook_path = " + b.Text(q.logbook_path);
  if (!q.cache_key.empty()) b.sql += " AND cache_key = " + b.Text(q.cache_key);
  if (!q.start_time.empty()) b.sql += " AND start_time = " + b.Text(q.start_time);
  if (q.invocation_index >= 0 && impl_->version >= 2)
    b.sql += " AND invocation_index = " + b.Num(static_cast<double>(q.invocation_index));
  for (const auto& item : q.where) MOELOG_RETURN_IF_ERROR(b.AddWhere(item));
  b.sql += " ORDER BY id";
  if (q.limit > 0) b.sql += " LIMIT " + b.Num(static_cast<double>(q.limit));
  Stmt s(impl_->db, b.sql);
  MOELOG_RETURN_IF_ERROR(s.status());
  b.BindAll(s, q.limit > 0);
  std::vector<RunRecord> out;
  int rc;
  while ((rc = s.Step()) == SQLITE_ROW) out.push_back(impl_->ReadRow(s));
  if (rc != SQLITE_DONE) return Status::IOError(std::string("sqlite: query failed: ") + SqliteError(impl_->db));
  if (q.latest_per_cache_key) KeepLatestPerCacheKey(&out);
  return out;
}

Result<std::vector<std::pair<std::string, std::string>>> RunStore::EntryLogbooks() {
  Stmt s(impl_->db, "SELECT DISTINCT entry_id, logbook_path FROM runs WHERE entry_id != '' ORDER BY 1, 2");
  MOELOG_RETURN_IF_ERROR(s.status());
  std::vector<std::pair<std::string, std::string>> out;
  int rc;
  while ((rc = s.Step()) == SQLITE_ROW) out.emplace_back(s.Text(0), s.Text(1));
  if (rc != SQLITE_DONE) return Status::IOError(std::string("sqlite: query failed: ") + SqliteError(impl_->db));
  return out;
}

Result<std::vector<RunRecord>> RunStore::ByEntry(const std::string& entry_id) {
  RunQuery q;
  q.entry_id = entry_id;
  if (entry_id.empty()) q.where.push_back("entry_id=");
  return Query(q);
}

Result<std::vector<RunRecord>> RunStore::ByCacheKey(const std::string& cache_key) {
  if (cache_key.empty()) return std::vector<RunRecord>{};
  RunQuery q;
  q.cache_key = cache_key;
  return Query(q);
}

Result<std::vector<RunRecord>> RunStore::CachedRuns(const std::string& cache_key,
                                                    std::vector<RunRecord>* foreign_batch) {
  if (foreign_batch) foreign_batch->clear();
  if (cache_key.empty()) return std::vector<RunRecord>{};
  // The usable rows' batches by the index, newest first (a key stored by
  // thousands of entries costs one small query), then each batch's rows until
  // one holds rows this user made: usually the first.
  struct Head {
    std::string start, entry;
    int64_t index;
  };
  std::vector<Head> heads;
  {
    Stmt s(impl_->db, std::string("SELECT start_time, entry_id") + (impl_->version >= 2 ? ", invocation_index" : "") +
                          " FROM runs WHERE cache_key = ?1 AND status IN ('ok', 'oom') ORDER BY id DESC");
    MOELOG_RETURN_IF_ERROR(s.status());
    s.Bind(1, cache_key);
    int rc;
    while ((rc = s.Step()) == SQLITE_ROW) {
      Head h{s.Text(0), s.Text(1), impl_->version >= 2 ? s.Int(2) : -1};
      const bool seen = std::any_of(heads.begin(), heads.end(), [&](const Head& o) {
        return o.start == h.start && o.entry == h.entry && o.index == h.index;
      });
      if (!seen) heads.push_back(std::move(h));
    }
    if (rc != SQLITE_DONE) return Status::IOError(std::string("sqlite: query failed: ") + SqliteError(impl_->db));
  }
  constexpr size_t kMaxBatches = 64;  // foreign batches looked through before a miss
  std::vector<RunRecord> out;
  std::vector<std::string> skipped;
  bool have_foreign = false;
  for (size_t b = 0; b < heads.size() && b < kMaxBatches; ++b) {
    RunQuery q;
    q.cache_key = cache_key;
    q.entry_id = heads[b].entry;
    q.start_time = heads[b].start;
    q.invocation_index = heads[b].index;
    auto rows = Query(q);
    if (!rows.ok()) return rows.status();
    std::vector<RunRecord> mine, foreign;
    for (auto& r : *rows) {
      if (r.entry_id != heads[b].entry) continue;  // entry_id "" matches any in Query
      (r.foreign && !impl_->accept_foreign ? foreign : mine).push_back(std::move(r));
    }
    for (const auto& r : foreign) skipped.push_back(r.run_id);
    if (!mine.empty()) {
      out = std::move(mine);
      break;
    }
    if (!have_foreign && foreign_batch) *foreign_batch = std::move(foreign);
    have_foreign = true;
  }
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->ignored.insert(skipped.begin(), skipped.end());
  return out;
}

void RunStore::AcceptForeign(bool accept) { impl_->accept_foreign = accept; }
bool RunStore::accepts_foreign() const { return impl_->accept_foreign; }
int64_t RunStore::ForeignIgnored() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return static_cast<int64_t>(impl_->ignored.size());
}
void RunStore::SetSigner(const RowSigner* signer) { impl_->signer = signer; }
std::string RunStore::SigningProblem() const { return impl_->Signer().problem(); }

Result<int64_t> RunStore::DeleteEntry(const std::string& entry_id) {
  Stmt s(impl_->db, "DELETE FROM runs WHERE entry_id = ?1");
  MOELOG_RETURN_IF_ERROR(s.status());
  s.Bind(1, entry_id);
  if (s.Step() != SQLITE_DONE) return Status::IOError(std::string("sqlite: ") + SqliteError(impl_->db));
  return static_cast<int64_t>(sqlite3_changes(impl_->db));
}

size_t DropForeign(std::vector<RunRecord>* rows) {
  const auto kept = std::remove_if(rows->begin(), rows->end(), [](const RunRecord& r) { return r.foreign; });
  const size_t dropped = static_cast<size_t>(rows->end() - kept);
  rows->erase(kept, rows->end());
  return dropped;
}

std::string ForeignNote(int64_t ignored) {
  if (ignored <= 0) return "";
  return " (" + std::to_string(ignored) + " foreign run" + (ignored == 1 ? "" : "s") +
         " ignored: not made by this user on this host)";
}

std::string DefaultStorePath(const std::string& logbook_path) {
  auto pos = logbook_path.find_last_of('/');
  return (pos == std::string::npos ? std::string() : logbook_path.substr(0, pos + 1)) + ".moelog/runs.db";
}

namespace {
// Hash of a file's contents, memoized by (path, size, mtime): cache keys are
// computed for every invocation of every entry on each update.
std::string HashFile(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return "missing:" + path;
  const auto size = std::filesystem::file_size(path, ec);
  const auto mtime = std::filesystem::last_write_time(path, ec).time_since_epoch().count();
  const std::string memo_key = path + "\n" + std::to_string(size) + "\n" + std::to_string(mtime);
  static std::mutex mu;
  static std::map<std::string, std::string> memo;
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = memo.find(memo_key);
    if (it != memo.end()) return it->second;
  }
  std::string h = Sha256Hex(ReadWhole(path)).substr(0, 16);
  std::lock_guard<std::mutex> lock(mu);
  memo[memo_key] = h;
  return h;
}
}  // namespace

std::string ModelVersionTag(const engine::BenchConfig& c) {
  // Resolving and hashing the backend's files costs stat calls per key:
  // memoized per (target, params, hardware) for the life of the process.
  static std::mutex mu;
  static std::map<std::tuple<std::string, std::string, std::string>, std::string> memo;
  const auto key = std::make_tuple(c.target, c.model_params, c.hardware);
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = memo.find(key);
    if (it != memo.end()) return it->second;
  }
  const engine::ResultDependencies deps = engine::ResultDependenciesOf(c);
  std::string tag = deps.version;
  for (const auto& f : deps.files)
    tag += ":" + f.label + "=" + (f.path.empty() ? "missing:" + f.name : HashFile(f.path));
  std::lock_guard<std::mutex> lock(mu);
  memo[key] = tag;
  return tag;
}

std::string CacheKey(const engine::BenchConfig& c) {
  return Sha256Hex(engine::CanonicalConfigJson(c) + "\n" + c.target + "\n" + ModelVersionTag(c));
}

}  // namespace moelog::logbook
