// Stage store/: the run store (this file, the only SQLite user), stored-run
// views (stored_run.h, stored_run_reader.h) and content hashes (sha256.h).
//
// RunStore: the SQLite database of benchmark runs (default
// `.moelog/runs.db` beside the logbook). One row per run (one sweep point x
// queue mode of one invocation). WAL journal, busy timeout, schema version in
// PRAGMA user_version with forward migrations. Every value is bound as a
// parameter; no caller text is ever spliced into SQL.
#ifndef MOELOG_LOGBOOK_RUN_STORE_H_
#define MOELOG_LOGBOOK_RUN_STORE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/bench_config.h"
#include "engine/status.h"

namespace moelog::logbook {

// One stored run. Times are ISO-8601 UTC strings ("2026-02-10T10:40:00.123Z").
struct RunRecord {
  int64_t id = 0;                  // rowid, set by Insert
  std::string run_id;              // unique text id (set by Insert when empty)
  std::string entry_id;            // "MOE-I8-004"; "" for ad-hoc runs
  std::string logbook_path;        // as given by the caller (absolute recommended)
  std::string command_original;    // the entry's command text
  std::string command_rewritten;   // `moelog bench ...` (or the rewritten script)
  std::string config_json;         // engine::CanonicalConfigJson of the invocation's config
  std::string target;              // "cpu" | "v5p"
  std::string cache_key;           // CacheKey(config)
  // Per-run point: distribution, mode, pass, impl, backend, topk, null_target,
  // null_mode, ... (ParsedRun::point).
  std::map<std::string, std::string> point;
  // time_s, time_median_s, time_min_s, time_max_s, tflops, tflops_per_device,
  // tokens_per_s, ... (ParsedRun::metrics).
  std::map<std::string, double> metrics;
  std::string status = "ok";       // ok | failed | timeout | oom
  int exit_status = 0;
  bool timed_out = false;
  std::string stdout_tail, stderr_tail;
  std::string start_time, end_time;
  std::string host, cpu_model, moelog_version;
  // cpu runs: "isa=avx2 bf16=f32-compute kernels=avx2" (from the devices line).
  std::string cpu_isa;
  // How the run was made: "in-process", "subprocess", "shell sandbox=bwrap",
  // "shell sandbox=none", "real-harness sandbox=..." ("" before schema 4).
  std::string runner;
  std::string git_commit;          // of the logbook's repository; "" if none
  bool git_dirty = false;
  int64_t invocation_index = 0;    // position of the invocation in its entry's plan
  // HMAC-SHA256 of the row by this user's key (row_signer.h; "" before schema 5).
  std::string signature;
  // Set on read: the signature does not check with this user's key, or the row
  // was made on another host. A foreign row is shown (`runs --all`) but never
  // served from the cache or counted, unless the store accepts foreign rows.
  bool foreign = false;
};

// A query. All conditions are ANDed. `where` items are "key=value" (or
// key==value, key!=value, key<value, ..., key in {a,b}): key is a
// column (entry_id, logbook_path, target, status, cache_key, host, run_id,
// exit_status, timed_out, git_commit) or a point / metric / config key
// (looked up in that order, e.g. topk=2, impl=fused_w13, parallel_mode=ep,
// tflops=239.15). A value that parses as a number compares numerically;
// true/false compare as 1/0.
struct RunQuery {
  std::string entry_id;            // "" = any
  std::string logbook_path;        // "" = any
  std::string cache_key;           // "" = any
  std::string start_time;          // "" = any; else exactly this start time (one run batch)
  int64_t invocation_index = -1;   // -1 = any
  std::vector<std::string> where;
  bool latest_per_cache_key = false;  // keep only the newest run batch per cache key
  int64_t limit = 0;               // 0 = no limit
};

class RowSigner;

class RunStore {
 public:
  static constexpr int kSchemaVersion = 5;

  ~RunStore();
  RunStore(const RunStore&) = delete;
  RunStore& operator=(const RunStore&) = delete;

  // Opens (creating parent directories and the file if needed) and migrates
  // the schema up to `schema_version` (tests use older versions to exercise
  // migrations). IOError if the file cannot be opened; InvalidArgument if the
  // database's version is newer than this moelog knows.
  static Result<std::unique_ptr<RunStore>> Open(const std::string& path,
                                                int schema_version = kSchemaVersion);

  // The database's PRAGMA user_version.
  Result<int> SchemaVersion();

  // Inserts runs in one transaction (all or none). Sets id and run_id.
  Status Insert(std::vector<RunRecord>* records);
  Status Insert(RunRecord* record);

  // Rows matching the query, oldest first (by id). InvalidArgument for a
  // malformed where item ("missing '='", unknown column-like key is fine: it
  // is looked up in point/metrics/config JSON).
  Result<std::vector<RunRecord>> Query(const RunQuery& query);
  Result<std::vector<RunRecord>> ByEntry(const std::string& entry_id);
  // Every (entry ID, logbook path) pair the store holds runs of, sorted.
  Result<std::vector<std::pair<std::string, std::string>>> EntryLogbooks();
  Result<std::vector<RunRecord>> ByCacheKey(const std::string& cache_key);

  // The newest successful batch of runs for `cache_key` made by this user on
  // this host: the rows sharing the run batch (same start_time and
  // invocation) of the newest trusted "ok" row. Empty when nothing is stored
  // (a cache miss). Foreign rows are skipped (counted in ForeignIgnored())
  // unless AcceptForeign(true); `foreign_batch`, when given, receives the
  // newest foreign batch newer than the trusted one (for checks, never served).
  Result<std::vector<RunRecord>> CachedRuns(const std::string& cache_key,
                                            std::vector<RunRecord>* foreign_batch = nullptr);

  // Serve and count foreign rows too (the user's flag --accept-foreign-runs).
  void AcceptForeign(bool accept);
  bool accepts_foreign() const;
  // Distinct foreign rows CachedRuns skipped so far.
  int64_t ForeignIgnored() const;
  // The signer rows are signed and checked with (default: RowSigner::Default()).
  void SetSigner(const RowSigner* signer);
  // Why rows cannot be signed here ("" when they can): the key's problem.
  std::string SigningProblem() const;

  // Deletes every row of an entry (history is otherwise kept: reruns add
  // rows). Returns the number of rows deleted.
  Result<int64_t> DeleteEntry(const std::string& entry_id);

 private:
  struct Impl;
  explicit RunStore(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// The foreign filter every reader of stored runs applies (CachedRuns, the
// loaders of stored_run_reader.h and counted_runs.h, `runs`): removes the
// foreign rows (RunRecord::foreign) from `rows` and gives how many it removed.
size_t DropForeign(std::vector<RunRecord>* rows);
// " (N foreign runs ignored: not made by this user on this host)", or "" for
// none: the one wording of the count.
std::string ForeignNote(int64_t ignored);

// The default store path for a logbook: <dir of logbook>/.moelog/runs.db.
std::string DefaultStorePath(const std::string& logbook_path);

// The engine/model part of the cache key. cpu: "cpu:<moelog version>:<cpu
// model>" (measured numbers depend on the machine); v5p: "v5p:<moelog
// version>:<sha256 of the fitted-parameter file and hardware file contents>"
// (files resolved from config.model_params / config.hardware, defaults under
// the data directory; a missing file hashes as "missing:<path>").
std::string ModelVersionTag(const engine::BenchConfig& config);

// sha256 hex of canonical config + "\n" + target + "\n" + ModelVersionTag.
// Prose edits never change it; any flag that changes the run does.
std::string CacheKey(const engine::BenchConfig& config);


}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_RUN_STORE_H_
