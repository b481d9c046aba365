#include "logbook/store/run_store.h"

#include <gtest/gtest.h>

#include <sqlite3.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <set>

#include "engine/bench_config.h"
#include "logbook/plan/bench_args.h"
#include "logbook/store/row_signer.h"
#include "logbook/store/sha256.h"

namespace moelog::logbook {
namespace {

std::string TempDb(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("moelog_store_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto p = dir / name;
  std::filesystem::remove(p);
  std::filesystem::remove(p.string() + "-wal");
  std::filesystem::remove(p.string() + "-shm");
  return p.string();
}

RunRecord MakeRecord(const std::string& entry, int64_t topk, double tflops, const std::string& impl = "fused_w13") {
  RunRecord r;
  r.entry_id = entry;
  r.logbook_path = "/x/logbook.md";
  r.command_original = "python bench_moe_hillclimb.py --topk " + std::to_string(topk);
  r.command_rewritten = "moelog bench --target v5p --topk " + std::to_string(topk);
  engine::BenchConfig c;
  c.target = "v5p";
  c.topk = topk;
  r.config_json = engine::CanonicalConfigJson(c);
  r.target = "v5p";
  r.cache_key = CacheKey(c);
  r.point = {{"distribution", "random"}, {"topk", std::to_string(topk)}, {"impl", impl}, {"null_target", "0.000"}};
  r.metrics = {{"time_s", 0.01}, {"tflops", tflops}, {"tokens_per_s", 1e6}};
  r.start_time = "2026-02-10T10:40:00.000Z";
  r.end_time = "2026-02-10T10:40:01.000Z";
  r.host = RowSigner::Default().host();  // made here, by this user
  r.git_commit = "abc";
  r.git_dirty = true;
  return r;
}

TEST(RunStore, InsertAndQueryRoundTrip) {
  auto store = RunStore::Open(TempDb("rt.db"));
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  EXPECT_EQ(*(*store)->SchemaVersion(), RunStore::kSchemaVersion);
  std::vector<RunRecord> rows = {MakeRecord("MOE-1", 2, 100.5), MakeRecord("MOE-1", 8, 200.25),
                                 MakeRecord("MOE-2", 2, 50)};
  ASSERT_TRUE((*store)->Insert(&rows).ok());
  EXPECT_GT(rows[0].id, 0);
  EXPECT_NE(rows[0].run_id, rows[1].run_id);
  auto got = (*store)->ByEntry("MOE-1");
  ASSERT_TRUE(got.ok());
  ASSERT_EQ(got->size(), 2u);
  const RunRecord& r = (*got)[1];
  EXPECT_EQ(r.point.at("topk"), "8");
  EXPECT_DOUBLE_EQ(r.metrics.at("tflops"), 200.25);
  EXPECT_EQ(r.config_json, rows[1].config_json);
  EXPECT_EQ(r.command_original, rows[1].command_original);
  EXPECT_TRUE(r.git_dirty);
  EXPECT_EQ(r.cache_key, rows[1].cache_key);
  auto by_key = (*store)->ByCacheKey(rows[2].cache_key);
  ASSERT_TRUE(by_key.ok());
  EXPECT_EQ(by_key->size(), 2u);  // MOE-1 topk=2 and MOE-2 share a config
}

TEST(RunStore, WhereFilters) {
  auto store = RunStore::Open(TempDb("where.db"));
  ASSERT_TRUE(store.ok());
  std::vector<RunRecord> rows = {MakeRecord("A", 2, 100), MakeRecord("A", 8, 300, "baseline"),
                                 MakeRecord("B", 4, 200)};
  ASSERT_TRUE((*store)->Insert(&rows).ok());
  auto count = [&](std::vector<std::string> where) {
    RunQuery q;
    q.where = std::move(where);
    auto r = (*store)->Query(q);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? static_cast<int>(r->size()) : -1;
  };
  EXPECT_EQ(count({"topk=2"}), 1);
  EXPECT_EQ(count({"topk=2.0"}), 1);  // numeric comparison against the stored text "2"
  EXPECT_EQ(count({"tflops>=200"}), 2);
  EXPECT_EQ(count({"tflops>150", "impl=baseline"}), 1);
  EXPECT_EQ(count({"impl!=baseline"}), 2);
  EXPECT_EQ(count({"null_target=0"}), 3);  // "0.000" is the number 0
  EXPECT_EQ(count({"entry_id=B"}), 1);
  EXPECT_EQ(count({"target=v5p"}), 3);
  EXPECT_EQ(count({"git_dirty=true"}), 3);
  EXPECT_EQ(count({"mlp_dim=4096"}), 3);  // from the config JSON
  EXPECT_EQ(count({"distribution=runs"}), 0);
  EXPECT_EQ(count({"no_such_key=1"}), 0);
  RunQuery bad;
  bad.where = {"topk"};
  EXPECT_EQ((*store)->Query(bad).status().code(), Status::Code::kInvalidArgument);
  bad.where = {"impl<baseline"};
  EXPECT_EQ((*store)->Query(bad).status().code(), Status::Code::kInvalidArgument);
}

TEST(RunStore, InjectionAttemptsStayData) {
  std::string path = TempDb("inject.db");
  auto store = RunStore::Open(path);
  ASSERT_TRUE(store.ok());
  std::vector<RunRecord> rows = {MakeRecord("A", 2, 100)};
  rows[0].entry_id = "x'); DROP TABLE runs; --";
  ASSERT_TRUE((*store)->Insert(&rows).ok());
  for (const std::string& w :
       {std::string("impl=x' OR '1'='1"), std::string("impl=fused_w13' --"), std::string("entry_id=1; DROP TABLE runs"),
        std::string("topk=1 OR 1=1"), std::string("impl=\") OR 1=1 --")}) {
    RunQuery q;
    q.where = {w};
    auto r = (*store)->Query(q);
    ASSERT_TRUE(r.ok()) << w << ": " << r.status().ToString();
    EXPECT_TRUE(r->empty()) << w;
  }
  // A key with SQL or JSON-path syntax is refused, not spliced.
  for (const std::string& w : {std::string("impl\"]=1"), std::string("a') OR 1=1 --=1"), std::string("$.x=1")}) {
    RunQuery q;
    q.where = {w};
    EXPECT_FALSE((*store)->Query(q).ok()) << w;
  }
  auto all = (*store)->Query(RunQuery{});
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 1u);  // the table is still there
  EXPECT_EQ((*all)[0].entry_id, "x'); DROP TABLE runs; --");
  auto by = (*store)->ByEntry("x'); DROP TABLE runs; --");
  ASSERT_TRUE(by.ok());
  EXPECT_EQ(by->size(), 1u);
}

TEST(RunStore, MigratesFromVersionOne) {
  std::string path = TempDb("migrate.db");
  {
    auto v1 = RunStore::Open(path, 1);
    ASSERT_TRUE(v1.ok()) << v1.status().ToString();
    EXPECT_EQ(*(*v1)->SchemaVersion(), 1);
    std::vector<RunRecord> rows = {MakeRecord("OLD", 2, 123.5)};
    ASSERT_TRUE((*v1)->Insert(&rows).ok());
  }
  auto v2 = RunStore::Open(path);
  ASSERT_TRUE(v2.ok()) << v2.status().ToString();
  EXPECT_EQ(*(*v2)->SchemaVersion(), RunStore::kSchemaVersion);
  auto old = (*v2)->ByEntry("OLD");
  ASSERT_TRUE(old.ok());
  ASSERT_EQ(old->size(), 1u);
  EXPECT_DOUBLE_EQ((*old)[0].metrics.at("tflops"), 123.5);
  EXPECT_EQ((*old)[0].invocation_index, 0);
  RunRecord fresh = MakeRecord("NEW", 8, 1);
  fresh.invocation_index = 3;
  fresh.cpu_isa = "isa=avx2 bf16=f32-compute kernels=avx2 int8=f32-compute";
  ASSERT_TRUE((*v2)->Insert(&fresh).ok());
  auto got = (*v2)->ByEntry("NEW");
  ASSERT_TRUE(got.ok());
  EXPECT_EQ((*got)[0].invocation_index, 3);
  EXPECT_EQ((*got)[0].cpu_isa, fresh.cpu_isa);
  EXPECT_EQ((*old)[0].cpu_isa, "");
  // Reopening a current store is a no-op; a version beyond this binary's is refused.
  EXPECT_TRUE(RunStore::Open(path).ok());
  EXPECT_FALSE(RunStore::Open(path, RunStore::kSchemaVersion + 1).ok());
}

TEST(RunStore, RefusesGarbageFile) {
  std::string path = TempDb("garbage.db");
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    std::fputs("this is not a database, just some text that is long enough to look like a header.....", f);
    std::fclose(f);
  }
  auto s = RunStore::Open(path);
  EXPECT_FALSE(s.ok());
}

// Runs SQL on a store file as another program would (no moelog checks).
void RawSql(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* err = nullptr;
  EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err), SQLITE_OK) << (err ? err : "");
  sqlite3_free(err);
  sqlite3_close(db);
}

std::string FileBytes(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  std::string out;
  if (!f) return out;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  std::fclose(f);
  return out;
}

// A genuine store plus one object of someone else's: refused on open,
// naming the object, and the file is not changed.
void ExpectRefused(const std::string& name, const std::string& sql, const std::string& named) {
  const std::string path = TempDb(name);
  {
    auto store = RunStore::Open(path);
    ASSERT_TRUE(store.ok());
    RunRecord r = MakeRecord("E-1", 2, 100);
    ASSERT_TRUE((*store)->Insert(&r).ok());
  }
  RawSql(path, "PRAGMA journal_mode=DELETE; " + sql);
  const std::string before = FileBytes(path);
  auto s = RunStore::Open(path);
  ASSERT_FALSE(s.ok()) << name;
  EXPECT_NE(s.status().message().find(named), std::string::npos) << s.status().message();
  EXPECT_NE(s.status().message().find("pass another --db"), std::string::npos) << s.status().message();
  EXPECT_EQ(FileBytes(path), before) << name << ": the refused store was changed";
}

TEST(RunStore, AStoreIsDataNotCode) {
  // A trigger that eats every row moelog inserts, one that makes an insert
  // work forever, a view, another table, and moelog's own index redefined.
  ExpectRefused("trigger.db", "CREATE TRIGGER eat AFTER INSERT ON runs BEGIN DELETE FROM runs; END;",
                "trigger 'eat' on 'runs'");
  ExpectRefused("hang.db",
                "CREATE TRIGGER hang AFTER INSERT ON runs BEGIN SELECT count(*) FROM runs a, runs b, runs c, runs d, "
                "runs e, runs f, runs g; END;",
                "trigger 'hang'");
  ExpectRefused("view.db", "CREATE VIEW v AS SELECT * FROM runs;", "view 'v'");
  ExpectRefused("table.db", "CREATE TABLE notes(x);", "table 'notes'");
  ExpectRefused("index.db", "DROP INDEX runs_entry; CREATE INDEX runs_entry ON runs(length(stdout_tail));",
                "index 'runs_entry' on 'runs' differs");
  // SQLite's own statistics and moelog's cache index missing are fine.
  const std::string path = TempDb("analyzed.db");
  ASSERT_TRUE(RunStore::Open(path).ok());
  RawSql(path, "ANALYZE; DROP INDEX runs_cache_key_start;");
  auto ok = RunStore::Open(path);
  EXPECT_TRUE(ok.ok()) << ok.status().ToString();
}

TEST(RunStore, OlderSchemasAreStillMigrated) {
  for (int v = 1; v < RunStore::kSchemaVersion; ++v) {
    const std::string path = TempDb("old" + std::to_string(v) + ".db");
    ASSERT_TRUE(RunStore::Open(path, v).ok());
    auto now = RunStore::Open(path);
    EXPECT_TRUE(now.ok()) << v << ": " << now.status().ToString();
  }
}

TEST(RunStore, CachedRunsIsNewestSuccessfulBatch) {
  auto store = RunStore::Open(TempDb("cache.db"));
  ASSERT_TRUE(store.ok());
  std::vector<RunRecord> first = {MakeRecord("A", 2, 10), MakeRecord("A", 2, 11)};
  ASSERT_TRUE((*store)->Insert(&first).ok());
  std::vector<RunRecord> second = {MakeRecord("A", 2, 20), MakeRecord("A", 2, 21)};
  for (auto& r : second) r.start_time = "2026-02-11T00:00:00.000Z";
  ASSERT_TRUE((*store)->Insert(&second).ok());
  RunRecord failed = MakeRecord("A", 2, 0);
  failed.status = "failed";
  failed.start_time = "2026-02-12T00:00:00.000Z";
  ASSERT_TRUE((*store)->Insert(&failed).ok());
  auto cached = (*store)->CachedRuns(first[0].cache_key);
  ASSERT_TRUE(cached.ok());
  ASSERT_EQ(cached->size(), 2u);
  EXPECT_DOUBLE_EQ((*cached)[0].metrics.at("tflops"), 20);
  auto miss = (*store)->CachedRuns("0000");
  ASSERT_TRUE(miss.ok());
  EXPECT_TRUE(miss->empty());
  auto n = (*store)->DeleteEntry("A");
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, 5);
}

// Rows are signed with the user's key and checked on read: a row another
// key signed, a row edited after signing, a row of another host and an
// unsigned row are foreign -- never served (CachedRuns skips them, counting
// them) unless the store accepts foreign rows.
TEST(RunStore, ForeignRowsAreNotServed) {
  const RowSigner mine(std::string(32, 'k'), "here"), theirs(std::string(32, 'x'), "here");
  const std::string path = TempDb("trust.db");
  auto store = RunStore::Open(path);
  ASSERT_TRUE(store.ok());
  (*store)->SetSigner(&theirs);
  RunRecord sent = MakeRecord("A", 2, 999.999);
  sent.host = "here";
  sent.start_time = "2026-02-12T00:00:00.000Z";
  ASSERT_TRUE((*store)->Insert(&sent).ok());
  (*store)->SetSigner(&mine);
  auto none = (*store)->CachedRuns(sent.cache_key);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
  EXPECT_EQ((*store)->ForeignIgnored(), 1);
  RunRecord made = MakeRecord("A", 2, 10);
  made.host = "here";
  ASSERT_TRUE((*store)->Insert(&made).ok());
  std::vector<RunRecord> foreign;
  auto hit = (*store)->CachedRuns(made.cache_key, &foreign);
  ASSERT_TRUE(hit.ok());
  ASSERT_EQ(hit->size(), 1u);
  EXPECT_DOUBLE_EQ((*hit)[0].metrics.at("tflops"), 10);
  EXPECT_FALSE((*hit)[0].foreign);
  EXPECT_TRUE(foreign.empty());  // the foreign row is older than the trusted one
  (*store)->SetSigner(&theirs);
  RunRecord newer = MakeRecord("A", 2, 555);
  newer.host = "here";
  newer.start_time = "2026-02-13T00:00:00.000Z";
  ASSERT_TRUE((*store)->Insert(&newer).ok());
  (*store)->SetSigner(&mine);
  hit = (*store)->CachedRuns(made.cache_key, &foreign);
  ASSERT_TRUE(hit.ok() && hit->size() == 1u);
  EXPECT_DOUBLE_EQ((*hit)[0].metrics.at("tflops"), 10);
  ASSERT_EQ(foreign.size(), 1u);  // the newer foreign batch, for checks only
  EXPECT_DOUBLE_EQ(foreign[0].metrics.at("tflops"), 555);
  (*store)->AcceptForeign(true);
  auto accepted = (*store)->CachedRuns(made.cache_key);
  ASSERT_TRUE(accepted.ok() && accepted->size() == 1u);
  EXPECT_DOUBLE_EQ((*accepted)[0].metrics.at("tflops"), 555);
  (*store)->AcceptForeign(false);
  // A signed row edited in place is foreign too, as is one of another host.
  auto rows = (*store)->Query(RunQuery{});
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 3u);
  EXPECT_TRUE((*rows)[0].foreign);
  EXPECT_FALSE((*rows)[1].foreign);
  EXPECT_TRUE((*rows)[2].foreign);
  store->reset();
  ASSERT_EQ(std::system(("sqlite3 " + path + " \"UPDATE runs SET tflops = 11, metrics_json = "
                         "json_set(metrics_json, '$.tflops', 11) WHERE id = 2\"").c_str()),
            0);
  auto again = RunStore::Open(path);
  ASSERT_TRUE(again.ok());
  (*again)->SetSigner(&mine);
  auto edited = (*again)->CachedRuns(made.cache_key);
  ASSERT_TRUE(edited.ok());
  EXPECT_TRUE(edited->empty());
  const RowSigner elsewhere(std::string(32, 'k'), "there");
  (*again)->SetSigner(&elsewhere);
  RunRecord other = MakeRecord("B", 4, 5);
  other.host = "here";  // signed with the right key, but not made on this host
  ASSERT_TRUE((*again)->Insert(&other).ok());
  EXPECT_TRUE((*again)->CachedRuns(other.cache_key)->empty());
}

TEST(RowSigner, KeyIsCreatedOnceForTheUserAlone) {
  const auto dir = std::filesystem::temp_directory_path() / ("moelog_key_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  const std::string path = (dir / "moelog" / "store.key").string();
  auto key = LoadOrCreateKey(path);
  ASSERT_TRUE(key.ok()) << key.status().ToString();
  EXPECT_EQ(key->size(), 32u);
  struct stat st;
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  auto same = LoadOrCreateKey(path);
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(*same, *key);
  ::chmod(path.c_str(), 0644);  // readable by others: refused, with the fix
  auto open = LoadOrCreateKey(path);
  ASSERT_FALSE(open.ok());
  EXPECT_NE(open.status().message().find("mode 0644"), std::string::npos) << open.status().message();
  EXPECT_NE(open.status().message().find("chmod 600 " + path), std::string::npos) << open.status().message();
  // Kept elsewhere and linked into place (stow, chezmoi): used when the file
  // is the user's alone; the fix names the file, not the link.
  const std::string kept = (dir / "dotfiles.key").string();
  std::filesystem::rename(path, kept);
  std::filesystem::create_symlink(kept, path);
  auto linked = LoadOrCreateKey(path);
  ASSERT_FALSE(linked.ok());
  EXPECT_NE(linked.status().message().find("chmod 600 " + kept), std::string::npos) << linked.status().message();
  ::chmod(kept.c_str(), 0600);
  linked = LoadOrCreateKey(path);
  ASSERT_TRUE(linked.ok()) << linked.status().ToString();
  EXPECT_EQ(*linked, *key);
  std::filesystem::remove(path);
  std::filesystem::create_symlink("/etc/passwd", path);  // a link: refused
  EXPECT_FALSE(LoadOrCreateKey(path).ok());
  std::filesystem::remove_all(dir);
}

TEST(CacheKey, DependsOnRunNotOnSpelling) {
  auto a = ParseBenchArgs({"--target", "v5p", "--topk", "2", "--tokens", "1024"});
  auto b = ParseBenchArgs({"--tokens=1024", "--target", "v5p", "--topk=2"});
  auto c = ParseBenchArgs({"--target", "v5p", "--topk", "4", "--tokens", "1024"});
  auto d = ParseBenchArgs({"--target", "cpu", "--topk", "2", "--tokens", "1024"});
  ASSERT_TRUE(a.ok() && b.ok() && c.ok() && d.ok());
  EXPECT_EQ(CacheKey(*a), CacheKey(*b));
  EXPECT_NE(CacheKey(*a), CacheKey(*c));
  EXPECT_NE(CacheKey(*a), CacheKey(*d));
  EXPECT_EQ(CacheKey(*a).size(), 64u);
  EXPECT_EQ(ModelVersionTag(*a).rfind("v5p:", 0), 0u);
  EXPECT_EQ(ModelVersionTag(*d).rfind("cpu:", 0), 0u);
  // A different parameter file changes the key (its contents are hashed).
  auto dir = std::filesystem::temp_directory_path() / ("moelog_params_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::string p1 = (dir / "p1.json").string(), p2 = (dir / "p2.json").string();
  { std::FILE* f = std::fopen(p1.c_str(), "w"); std::fputs("{\"a\":1}", f); std::fclose(f); }
  { std::FILE* f = std::fopen(p2.c_str(), "w"); std::fputs("{\"a\":2}", f); std::fclose(f); }
  engine::BenchConfig x = *a, y = *a;
  x.model_params = p1;
  y.model_params = p2;
  EXPECT_NE(ModelVersionTag(x), ModelVersionTag(y));
}

TEST(Sha256, KnownVectors) {
  // FIPS 180-4 examples.
  EXPECT_EQ(Sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(Sha256Hex(std::string(1000000, 'a')), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(RunStore, DefaultPath) {
  EXPECT_EQ(DefaultStorePath("docs/x.md"), "docs/.moelog/runs.db");
  EXPECT_EQ(DefaultStorePath("x.md"), ".moelog/runs.db");
}

}  // namespace
}  // namespace moelog::logbook
