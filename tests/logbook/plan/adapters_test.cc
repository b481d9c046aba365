// Harness adapters: the schema (errors name the file and the key), how an
// invocation's flags and environment become moelog bench runs, revisions by
// commit and date, output rules, and the built-in files.
#include "logbook/plan/adapters.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>

#include <unistd.h>

#include "logbook/file_util.h"
#include "logbook/plan/int_expr.h"
#include "logbook/plan/shell_plan.h"
#include "tests/time_bound.h"

namespace moelog::logbook {
namespace {

namespace fs = std::filesystem;

const std::string kFixtures = std::string(MOELOG_TEST_DATA_DIR) + "/golden/adapters/adapters";

Adapter Load(const std::string& name) {
  auto text = ReadFile(kFixtures + "/" + name);
  EXPECT_TRUE(text.ok());
  auto a = ParseAdapter(text.ok() ? *text : "", name);
  EXPECT_TRUE(a.ok()) << a.status().ToString();
  return a.ok() ? *a : Adapter{};
}

TEST(Adapters, BuiltinFilesAreTheDataFolder) {
  const auto texts = BuiltinAdapterTexts();
  ASSERT_FALSE(texts.empty());
  size_t on_disk = 0;
  for (const auto& e : fs::directory_iterator(std::string(MOELOG_TEST_DATA_DIR) + "/../data/adapters"))
    on_disk += e.path().extension() == ".json";
  EXPECT_EQ(texts.size(), on_disk);
  for (const auto& [path, text] : texts) {
    auto disk = ReadFile(std::string(MOELOG_TEST_DATA_DIR) + "/../" + path);
    ASSERT_TRUE(disk.ok()) << path;
    EXPECT_EQ(*disk, text) << path << " changed since the build";
    EXPECT_TRUE(ParseAdapter(text, path).ok()) << ParseAdapter(text, path).status().ToString();
  }
  EXPECT_EQ(BuiltinAdapters().size(), texts.size());
}

TEST(Adapters, SchemaErrorsNameTheFileAndKey) {
  struct Case {
    const char* json;
    const char* key;
  };
  const Case cases[] = {
      {R"({"moelog_adapter":1,"name":"x","scripts":["x.py"],"colour":"red"})", "colour"},
      {R"({"moelog_adapter":2,"name":"x","scripts":["x.py"]})", "moelog_adapter"},
      {R"({"moelog_adapter":1,"scripts":["x.py"]})", "name"},
      {R"({"moelog_adapter":1,"name":"x","scripts":[]})", "scripts"},
      {R"({"moelog_adapter":1,"name":"x","scripts":["x.py"],"flags":{"--b":"--batchez"}})", "flags.--b.to"},
      {R"({"moelog_adapter":1,"name":"x","scripts":["x.py"],"flags":{"b":"--tokens"}})", "flags.b"},
      {R"({"moelog_adapter":1,"name":"x","scripts":["x.py"],"flags":{"--m":{"to":"--bench-pass","values":{"f":"fwd"}}}})",
       "flags.--m.values.f"},
      {R"({"moelog_adapter":1,"name":"x","scripts":["x.py"],"flags":{"--m":{"to":"--tokens","ignore":"value"}}})",
       "flags.--m"},
      {R"({"moelog_adapter":1,"name":"x","scripts":["x.py"],"env":{"E":{"ignore":"maybe"}}})", "env.E.ignore"},
      {R"({"moelog_adapter":1,"name":"x","scripts":["x.py"],"defaults":["--topk","many"]})", "defaults"},
      {R"({"moelog_adapter":1,"name":"x","scripts":["x.py"],"runs":[{"label":"a","args":["--parallel-mode","mp"]}]})",
       "runs[0].args"},
      {R"({"moelog_adapter":1,"name":"x","scripts":["x.py"],"runs":[{"label":"a"},{"label":""}]})", "runs[1].label"},
      {R"({"moelog_adapter":1,"name":"x","scripts":["x.py"],"env":{"A":{"to":"--tokens","expr":"A * (128"}}})",
       "env.A.expr"},
      {R"({"moelog_adapter":1,"name":"x","scripts":["x.py"],"env":{"A":{"to":"--tokens","expr":"A ** 2"}}})",
       "env.A.expr"},
      {R"({"moelog_adapter":1,"name":"x","scripts":["x.py"],"env":{"A":{"to":"--tokens","expr":"A","values":{}}}})",
       "env.A.expr"},
      {R"({"moelog_adapter":1,"name":"x","scripts":["x.py"],"applies":{"from":"soon"}})", "applies.from"},
      {R"({"moelog_adapter":1,"name":"x","scripts":["x.py"],"applies":{}})", "applies"},
      {R"({"moelog_adapter":1,"name":"x","scripts":["x.py"],"revisions":[{"name":"r","before":"yesterday"}]})",
       "revisions[0].before"},
      {R"({"moelog_adapter":1,"name":"x","scripts":["x.py"],"revisions":[{"name":"r","commits":["XYZ"]}]})",
       "revisions[0].commits"},
      {R"({"moelog_adapter":1,"name":"x","scripts":["x.py"],"output":[{"pattern":"(","metric":"tflops"}]})",
       "output[0].pattern"},
      {R"({"moelog_adapter":1,"name":"x","scripts":["x.py"],"env":{"A":{"to":"--tokens","pattern":"T=[0-9]+"}}})",
       "env.A.pattern"},
      {R"({"moelog_adapter":1,"name":"x","scripts":["x.py"],"env":{"A":{"to":"--tokens","pattern":"(["}}})",
       "env.A.pattern"},
  };
  for (const auto& c : cases) {
    auto a = ParseAdapter(c.json, "my/adapter.json");
    ASSERT_FALSE(a.ok()) << c.json;
    EXPECT_EQ(a.status().message().rfind("my/adapter.json: " + std::string(c.key) + ":", 0), 0u)
        << a.status().message();
  }
  auto bad = ParseAdapter("{not json", "f.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message().rfind("f.json: ", 0), 0u);
}

TEST(Adapters, EnvironmentAndRunsMakeOneRunPerMesh) {
  const Adapter a = Load("compare_meshes.json");
  auto r = AdaptInvocation(a, {}, {{"MOE_TOKENS", "16384"}, {"MOE_PASS", "fwdbwd"}, {"MOE_PROFILE", "1"}}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->runs.size(), 2u);
  EXPECT_EQ(r->runs[0].label, "data");
  EXPECT_EQ(r->runs[1].label, "data x expert");
  const std::vector<std::string> want = {"--impl",       "fused_w13", "--iters",         "3",
                                         "--warmup",     "1",         "--bench-pass",    "forward_backward",
                                         "--tokens",     "16384",     "--parallel-mode", "ep",
                                         "--mesh",       "data=2,expert=2"};
  EXPECT_EQ(r->runs[1].args, want);
  auto one = AdaptInvocation(a, {}, {{"MOE_MESHES", "data x expert"}}, {});
  ASSERT_TRUE(one.ok());
  ASSERT_EQ(one->runs.size(), 1u);
  EXPECT_EQ(one->runs[0].label, "data x expert");
  auto unknown = AdaptInvocation(a, {}, {{"MOE_MESHES", "torus"}}, {});
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("has no run 'torus'"), std::string::npos);
  auto refused = AdaptInvocation(a, {}, {{"MOE_FP8", "1"}}, {});
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("fp8 matmuls have no engine model"), std::string::npos);
  EXPECT_FALSE(AdaptInvocation(a, {}, {{"MOE_PASS", "both"}}, {}).ok());  // not in its value map
  EXPECT_FALSE(AdaptInvocation(a, {"--tokens", "3"}, {}, {}).ok());       // it takes no flags
}

// LIBTPU_INIT_ARGS holds libtpu's own flags: the built-in adapters read the
// scoped VMEM limit out of it (a pattern rule) and nothing else.
TEST(Adapters, PatternRuleReadsOneFlagOutOfAVariable) {
  const Adapter* hill = nullptr;
  for (const Adapter& a : BuiltinAdapters())
    if (a.name == "hillclimb") hill = &a;
  ASSERT_NE(hill, nullptr);
  auto r = AdaptInvocation(*hill, {"--topk", "2"},
                           {{"LIBTPU_INIT_ARGS", "--xla_enable_async_all_gather=true --xla_tpu_scoped_vmem_limit_kib=50000"}},
                           {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->runs.size(), 1u);
  const std::vector<std::string> want = {"--xla-scoped-vmem-kib", "50000", "--topk", "2"};
  EXPECT_EQ(r->runs[0].args, want);
  auto other = AdaptInvocation(*hill, {"--topk", "2"}, {{"LIBTPU_INIT_ARGS", "--xla_enable_async_all_gather=true"}}, {});
  ASSERT_TRUE(other.ok());
  EXPECT_EQ(other->runs[0].args, (std::vector<std::string>{"--topk", "2"}));
}

// A harness's output line longer than any metric line is skipped, not
// matched (a regex matcher recurses per character repeated).
TEST(Adapters, OverlongOutputLinesAreSkipped) {
  const Adapter* mlp = nullptr;
  for (const Adapter& a : BuiltinAdapters())
    if (a.name == "mlp_profile") mlp = &a;
  ASSERT_NE(mlp, nullptr);
  const std::string text = "ref_dp.time_s = " + std::string(300000, '9') + "\nref_dp.time_s = 0.042\n";
  const auto lines = AdapterOutputLines(*mlp, text);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].label, "ref_dp");
  EXPECT_DOUBLE_EQ(lines[0].value, 0.042);
}

// Patterns run on RE2, in linear time: a pattern that would backtrack
// exponentially on a backtracking engine (std::regex took forever on this
// 61-character value) answers at once, in the value and in output lines; a
// pattern that needs backtracking (a backreference) is refused when the
// adapter is read, naming the file and key.
TEST(Adapters, PatternsRunInLinearTime) {
  const std::string json = R"({"moelog_adapter": 1, "name": "evil", "scripts": ["evil.py"],
    "flags": {"--k": {"to": "--topk", "pattern": "^(a|aa)+([0-9])$"}},
    "output": [{"pattern": "^(a|aa)+([0-9]) tflops$", "metric": "tflops", "value_group": 2}]})";
  auto a = ParseAdapter(json, "evil.json");
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  const std::string value = std::string(60, 'a') + "!";  // 61 characters, no match
  const auto start = std::chrono::steady_clock::now();
  auto r = AdaptInvocation(*a, {"--k", value}, {}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->runs[0].args.empty());  // no match: the rule adds nothing
  const auto lines = AdapterOutputLines(*a, std::string(1000, 'a') + "! tflops\n" + std::string(40, 'a') + "7 tflops\n");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_DOUBLE_EQ(lines[0].value, 7.0);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), test::TimeBound(2.0));
  auto backref = ParseAdapter(R"({"moelog_adapter": 1, "name": "b", "scripts": ["b.py"],
    "flags": {"--k": {"to": "--topk", "pattern": "^(a+)\\1$"}}})", "b.json");
  ASSERT_FALSE(backref.ok());
  EXPECT_NE(backref.status().message().find("b.json"), std::string::npos) << backref.status().message();
  EXPECT_NE(backref.status().message().find("RE2"), std::string::npos) << backref.status().message();
}

TEST(Adapters, RenamedFlagsValueMapsSwitchesAndIgnoredFlags) {
  const Adapter a = Load("renamed_flags.json");
  auto r = AdaptInvocation(a, {"--batch", "8192", "--k=4", "--mode", "train", "--kernel", "xla", "--ep", "--profile",
                               "--trace-dir", "/tmp/t"},
                           {}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->runs.size(), 1u);
  EXPECT_EQ(r->runs[0].label, "");
  const std::vector<std::string> want = {"--impl",       "fused_w13",        "--tokens",  "8192",
                                         "--topk",       "4",                "--bench-pass", "forward_backward",
                                         "--backend",    "ragged_dot",       "--parallel-mode", "ep"};
  EXPECT_EQ(r->runs[0].args, want);
  auto unknown = AdaptInvocation(a, {"--tokens", "3"}, {}, {});
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("unknown flag --tokens for harness renamed_flags"), std::string::npos);
  EXPECT_NE(AdaptInvocation(a, {"--gpu"}, {}, {}).status().message().find("GPU path"), std::string::npos);
  EXPECT_FALSE(AdaptInvocation(a, {"--batch"}, {}, {}).ok());         // needs a value
  EXPECT_FALSE(AdaptInvocation(a, {"--ep=1"}, {}, {}).ok());          // a switch takes none
  EXPECT_FALSE(AdaptInvocation(a, {"positional"}, {}, {}).ok());
}

TEST(Adapters, RevisionsByCommitThenByDate) {
  const Adapter* h = nullptr;
  for (const auto& a : BuiltinAdapters())
    if (a.name == "hillclimb") h = &a;
  ASSERT_NE(h, nullptr);
  ASSERT_FALSE(h->revisions.empty());
  EXPECT_NE(FindRevision(*h, {"2026-02-09 13:40", ""}), nullptr);
  EXPECT_NE(FindRevision(*h, {"2026-02-08", ""}), nullptr);            // a day before, no time
  EXPECT_EQ(FindRevision(*h, {"2026-02-09", ""}), nullptr);            // that day, time unknown: today's
  EXPECT_EQ(FindRevision(*h, {"2026-02-09 14:22", ""}), nullptr);
  EXPECT_EQ(FindRevision(*h, {"", ""}), nullptr);                      // a recipe
  EXPECT_NE(FindRevision(*h, {"2026-03-01 10:00", "5b6f53c5d1234"}), nullptr);  // its commit, whatever the date
  EXPECT_EQ(FindRevision(*h, {"2026-02-01 10:00", "0123abcd"}), nullptr);       // another commit, whatever the date
  auto r = AdaptInvocation(*h, {"--parallel-mode", "ep"}, {}, {"2026-02-09 13:44", ""});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->revision, "dense-masked EP dispatch (before compact per-shard dispatch)");
  const std::vector<std::string> want = {"--ep-dispatch", "dense_masked", "--parallel-mode", "ep"};
  EXPECT_EQ(r->runs[0].args, want);
  EXPECT_TRUE(CommitMatches("5b6f53c", "5b6f53c5d"));
  EXPECT_FALSE(CommitMatches("5b6f53", "5b6f53c5d"));  // under 7 digits names nothing
}

// The int8 branch's first revision applies only to commands that give
// --quant-mode (a flag of that branch), dated before its redefinition; the
// first harness version to entries before the EP work (or naming its commit).
TEST(Adapters, RevisionsOnlyWithTheirFlagAndTheFirstHarness) {
  const Adapter* h = nullptr;
  for (const auto& a : BuiltinAdapters())
    if (a.name == "hillclimb") h = &a;
  ASSERT_NE(h, nullptr);
  const EntryContext fake_day{"2026-02-10 11:01", ""};
  auto q = AdaptInvocation(*h, {"--quant-mode", "int8", "--parallel-mode", "ep"}, {}, fake_day);
  ASSERT_TRUE(q.ok()) << q.status().ToString();
  EXPECT_NE(q->revision.find("int8 fake quantization"), std::string::npos);
  const std::vector<std::string> want = {"--int8-impl", "fake_quant", "--quant-mode", "int8", "--parallel-mode", "ep"};
  EXPECT_EQ(q->runs[0].args, want);
  auto plain = AdaptInvocation(*h, {"--parallel-mode", "ep"}, {}, fake_day);  // no --quant-mode: today's harness
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->revision, "");
  auto later = AdaptInvocation(*h, {"--quant-mode", "int8"}, {}, {"2026-02-10 11:40", ""});  // redefined
  ASSERT_TRUE(later.ok());
  EXPECT_EQ(later->revision, "");
  EXPECT_EQ(FindRevision(*h, fake_day), nullptr);  // without the command's words it never applies
  EXPECT_TRUE(RevisionMayApply(*h, fake_day, "python bench_moe_hillclimb.py --quant-mode int8"));
  EXPECT_FALSE(RevisionMayApply(*h, fake_day, "python bench_moe_hillclimb.py --topk 2"));
  auto first = AdaptInvocation(*h, {"--topk", "4"}, {}, {"2026-02-08 12:00", ""});
  ASSERT_TRUE(first.ok());
  EXPECT_NE(first->revision.find("first harness version"), std::string::npos);
  auto by_commit = AdaptInvocation(*h, {"--topk", "4"}, {}, {"2026-03-01 12:00", "eada70a363e8"});
  ASSERT_TRUE(by_commit.ok());
  EXPECT_EQ(by_commit->revision, first->revision);
  EXPECT_EQ(AdaptInvocation(*h, {"--topk", "4"}, {}, {"2026-02-09 00:00", ""})->revision,
            "dense-masked EP dispatch (before compact per-shard dispatch)");  // the EP work's kickoff
}

TEST(Adapters, OutputRulesGiveMetricsPerRun) {
  const Adapter a = Load("compare_meshes.json");
  const auto m = ParseAdapterOutput(a, "warming up\n[data] step_time_s=4.5\n[data x expert] step_time_s=3.25\n"
                                       "[data] step_time_s=oops\n");
  ASSERT_EQ(m.size(), 2u);
  EXPECT_DOUBLE_EQ(m.at("data").at("time_s"), 4.5);
  EXPECT_DOUBLE_EQ(m.at("data x expert").at("time_s"), 3.25);
}

TEST(Adapters, PlannerExpandsAnInvocationIntoLabelledRuns) {
  auto user = LoadAdapters(kFixtures);
  ASSERT_TRUE(user.ok()) << user.status().ToString();
  LauncherTable table = DefaultLauncherTable();
  ASSERT_TRUE(AddAdapters(kFixtures, &table).ok());
  PlanOptions o;
  o.launchers = &table;
  Plan p = PlanCommand(
      "uv run scripts/ray/dev_tpu.py --config c.yaml execute -e MOE_TOKENS=16384 -e MOE_TOPK=4 -- "
      "uv run bench/compare_meshes.py > out.log",
      o);
  ASSERT_EQ(p.verdict, PlanVerdict::kRunnable) << p.Summary();
  ASSERT_EQ(p.invocations.size(), 2u);
  EXPECT_EQ(p.invocations[0].label, "data");
  EXPECT_EQ(p.invocations[0].config.mesh, "data=4,expert=1");
  EXPECT_EQ(p.invocations[1].config.parallel_mode, "ep");
  EXPECT_EQ(p.invocations[1].config.tokens, 16384);
  EXPECT_EQ(p.invocations[1].config.topk, 4);
  EXPECT_EQ(p.invocations[0].harness, "compare_meshes");
  // Exported variables reach the harness; plain assignments do not.
  Plan e = PlanCommand("export MOE_TOPK=8; MOE_TOKENS=999; python bench/compare_meshes.py", o);
  ASSERT_EQ(e.verdict, PlanVerdict::kRunnable) << e.Summary();
  EXPECT_EQ(e.invocations[0].config.topk, 8);
  EXPECT_NE(e.invocations[0].config.tokens, 999);
  // A loop over a renamed flag plans one run per iteration.
  Plan loop = PlanCommand("for k in 2 8; do python tools/moe_speed.py --batch 4096 --k $k; done", o);
  ASSERT_EQ(loop.verdict, PlanVerdict::kRunnable) << loop.Summary();
  ASSERT_EQ(loop.invocations.size(), 2u);
  EXPECT_EQ(loop.invocations[1].config.topk, 8);
  Plan bad = PlanCommand("python tools/moe_speed.py --batchsize 4096", o);
  EXPECT_EQ(bad.verdict, PlanVerdict::kInvalid);
  EXPECT_NE(bad.reason.find("unknown flag --batchsize"), std::string::npos);
  Plan unknown = PlanCommand("python tools/other.py --batch 4096", o);
  EXPECT_EQ(unknown.Summary(), "skipped: no adapter (unknown script tools/other.py)");
}

// Run labels may repeat: an impl x top-k matrix labelled by impl makes
// every run, and selecting a label makes each of its runs. Env rules compute
// (tokens = BENCH_BATCH * 128).
TEST(Adapters, RepeatedLabelsAndComputedValues) {
  const Adapter a = Load("impl_topk_matrix.json");
  auto all = AdaptInvocation(a, {}, {{"BENCH_BATCH", "64"}, {"BENCH_HIDDEN", "1024"}}, {});
  ASSERT_TRUE(all.ok()) << all.status().ToString();
  ASSERT_EQ(all->runs.size(), 4u);
  EXPECT_EQ(all->runs[0].label, "baseline");
  EXPECT_EQ(all->runs[1].label, "baseline");
  const std::vector<std::string> want = {"--bench-pass", "forward_backward", "--tokens", "8192", "--hidden", "1024",
                                         "--impl",       "baseline",         "--topk",   "8"};
  EXPECT_EQ(all->runs[1].args, want);
  auto one = AdaptInvocation(a, {}, {{"BENCH_BATCH", "64"}, {"BENCH_IMPLS", "fused_w13"}}, {});
  ASSERT_TRUE(one.ok()) << one.status().ToString();
  ASSERT_EQ(one->runs.size(), 2u);
  EXPECT_EQ(one->runs[0].label, "fused_w13");
  // A value the expression cannot read is named.
  auto bad = AdaptInvocation(a, {}, {{"BENCH_BATCH", "lots"}}, {});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("no whole-number value for BENCH_BATCH"), std::string::npos)
      << bad.status().message();
}

// The evaluator: integers, + - * / and parentheses; overflow, division by
// zero, unknown names and long or deep input are errors, never undefined.
TEST(Adapters, IntExprIsSmallAndBounded) {
  const NameValue names = [](const std::string& n) -> std::optional<int64_t> {
    if (n == "B") return 64;
    if (n == "Z") return 0;
    return std::nullopt;
  };
  EXPECT_EQ(*EvalIntExpr("B * 128", names), 8192);
  EXPECT_EQ(*EvalIntExpr("(B + 64) / 2 - -3", names), 67);
  EXPECT_FALSE(EvalIntExpr("B / Z", names).ok());
  EXPECT_FALSE(EvalIntExpr("9223372036854775807 + 1", names).ok());
  EXPECT_FALSE(EvalIntExpr("C * 2", names).ok());
  EXPECT_FALSE(EvalIntExpr("B; rm", names).ok());
  EXPECT_FALSE(EvalIntExpr(std::string(300, '1'), names).ok());
  EXPECT_FALSE(EvalIntExpr(std::string(40, '(') + "1" + std::string(40, ')'), names).ok());
  EXPECT_FALSE(EvalIntExpr(std::string(100, '-') + "1", names).ok());
}

// A user adapter that applies from a date (a later revision of a built-in
// harness) is used from then on; before it, the built-in applies.
TEST(Adapters, UserAdapterAppliesByDateAndTheBuiltinElsewhere) {
  const std::string dir = ::testing::TempDir() + "/moelog_applies_" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/hillclimb_rewrite.json") << R"({"moelog_adapter": 1, "name": "hillclimb_rewrite",
    "scripts": ["bench_moe_hillclimb.py"], "native_flags": true, "applies": {"from": "2026-03-05"},
    "flags": {"--kernel": {"error": "the rewrite's kernels are not modeled"}}})";
  LauncherTable table = DefaultLauncherTable();
  ASSERT_TRUE(AddAdapters(dir, &table).ok());
  const std::string cmd = "python bench_moe_hillclimb.py --tokens 4096 --kernel ring";
  PlanOptions before;
  before.launchers = &table;
  before.context = {"2026-03-01 10:00", ""};
  const Plan old = PlanCommand(cmd, before);
  EXPECT_NE(old.reason.find("not this harness"), std::string::npos) << old.reason;  // the built-in
  PlanOptions after = before;
  after.context = {"2026-03-06", ""};
  const Plan later = PlanCommand(cmd, after);
  EXPECT_NE(later.reason.find("the rewrite's kernels are not modeled"), std::string::npos) << later.reason;
  EXPECT_NE(table.FindHarness("bench_moe_hillclimb.py", {"2026-03-06", ""}), nullptr);
  EXPECT_EQ(table.FindHarness("bench_moe_hillclimb.py", {"2026-03-06", ""})->name, "hillclimb_rewrite");
  EXPECT_EQ(table.FindHarness("bench_moe_hillclimb.py", {"2026-03-04 23:59", ""})->name, "hillclimb");
  EXPECT_EQ(table.FindHarness("bench_moe_hillclimb.py", {"", ""})->name, "hillclimb_rewrite");  // a recipe: today
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace moelog::logbook

namespace moelog::logbook {
namespace {

// DeepEP's test scripts: GPU harnesses, whose runs are the GPU bench's
// arguments (tokens per rank, nodes from WORLD_SIZE), one per kernel.
TEST(Adapters, DeepEpInternodeBecomesGpuBenchRuns) {
  const Adapter* a = nullptr;
  for (const Adapter& x : BuiltinAdapters())
    if (x.name == "deepep_internode") a = &x;
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->target_class, "gpu");
  auto r = AdaptInvocation(*a, {"--num-tokens", "2048", "--num-topk-groups", "2"}, {{"WORLD_SIZE", "4"}}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->runs.size(), 3u);
  EXPECT_EQ(r->runs[2].label, "combine");
  const auto& args = r->runs[0].args;
  auto has = [&](const std::string& f, const std::string& v) {
    for (size_t i = 0; i + 1 < args.size(); ++i)
      if (args[i] == f && args[i + 1] == v) return true;
    return false;
  };
  EXPECT_TRUE(has("--tokens-per-rank", "2048"));
  EXPECT_TRUE(has("--nodes", "4"));
  EXPECT_TRUE(has("--kernel", "ep_dispatch"));
  EXPECT_FALSE(AdaptInvocation(*a, {"--use-zero-copy"}, {}, {}).ok());
  const auto out = ParseAdapterOutput(
      *a, "[tuning] Best combine: SMs 24, NVL chunk 4, RDMA chunk 8: 41.50 GB/s (RDMA), 135.20 GB/s (NVL)\n");
  EXPECT_DOUBLE_EQ(out.at("combine").at("rdma_bandwidth_gbs"), 41.5);
  EXPECT_DOUBLE_EQ(out.at("combine").at("nvl_bandwidth_gbs"), 135.2);
}

// A GPU adapter is checked against the GPU bench's flags, a CPU one against
// moelog bench's own.
TEST(Adapters, GpuClassChecksTheGpuBenchFlags) {
  auto ok = ParseAdapter(R"({"moelog_adapter":1,"name":"g","class":"gpu","scripts":["g.py"],"flags":{"--n":"--tokens-per-rank"}})", "g.json");
  EXPECT_TRUE(ok.ok()) << ok.status().ToString();
  auto cpu_flag = ParseAdapter(R"({"moelog_adapter":1,"name":"g","class":"gpu","scripts":["g.py"],"defaults":["--parallel-mode","ep"]})", "g.json");
  ASSERT_FALSE(cpu_flag.ok());
  EXPECT_EQ(cpu_flag.status().message().rfind("g.json: defaults:", 0), 0u) << cpu_flag.status().message();
  EXPECT_FALSE(ParseAdapter(R"({"moelog_adapter":1,"name":"g","scripts":["g.py"],"flags":{"--n":"--tokens-per-rank"}})", "g.json").ok());
  EXPECT_FALSE(ParseAdapter(R"({"moelog_adapter":1,"name":"g","class":"tpu","scripts":["g.py"]})", "g.json").ok());
}

}  // namespace
}  // namespace moelog::logbook
