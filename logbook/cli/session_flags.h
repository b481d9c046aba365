// Flags shared by `moelog update` and `moelog run` (CLI11).
#ifndef MOELOG_LOGBOOK_CLI_SESSION_FLAGS_H_
#define MOELOG_LOGBOOK_CLI_SESSION_FLAGS_H_

#include <CLI/CLI.hpp>

#include <cstdlib>
#include <string>

#include "engine/target.h"
#include "logbook/update/gpu_session.h"
#include "logbook/update/session.h"

namespace moelog::cli {

inline void AddSessionFlags(CLI::App* app, logbook::SessionOptions* o) {
  app->add_option("--target", o->target,
                  "benchmark target for every invocation: v5p (modeled, default), cpu (measured), or a GPU hardware "
                  "file (h100, b200, ...: `update` models GPU harness commands)")
      ->check(CLI::Validator(
          [](std::string& v) -> std::string {
            for (const std::string& t : engine::TargetNames())
              if (v == t) return "";
            if (logbook::IsGpuTarget(v)) return "";
            return "--target must be cpu, v5p or a GPU hardware file's name (got '" + v + "')";
          },
          "TARGET"));
  app->add_flag("--allow-shell", o->allow_shell,
                "consent to run commands that need bash (substitutions, other programs, pipelines...): "
                "without it they are listed (file:line) and skipped, exit 6");
  app->add_option("--sandbox", o->sandbox,
                  "with --allow-shell: bwrap (default; read-only file system except .moelog/scratch, no network) "
                  "or none")
      ->check(CLI::IsMember({"bwrap", "none"}));
  app->add_flag("--accept-foreign-runs", o->accept_foreign,
                "serve and count stored runs this user did not make on this host (a store received with the "
                "document); without it they are ignored and counted in the summary");
  app->add_flag("--rerun", o->rerun, "ignore cached runs: run every invocation again (a new batch)");
  app->add_flag("--overwrite-edits", o->overwrite_edits,
                "replace regions edited by hand (each one replaced is listed); without it they are kept, exit 1");
  app->add_flag_callback(
      "--force", [o] { o->rerun = o->overwrite_edits = true; }, "both --rerun and --overwrite-edits");
  app->add_option("-j,--jobs", o->jobs, "plan executions in parallel (default 1: CPU timings stay undisturbed)")
      ->check(CLI::Range(1, 64));
  app->add_flag("--dry-run", o->dry_run, "print the plan: each unit, its rewritten commands, cache hit or miss");
  app->add_option("--db", o->db, "run store (default: .moelog/runs.db beside the document)");
  app->add_option("--timeout", o->timeout_s, "seconds before a child process is killed (default 3600, at most 604800)")
      ->check(CLI::Validator(
          [](const std::string& s) -> std::string {
            char* end = nullptr;
            const double v = std::strtod(s.c_str(), &end);
            if (end == s.c_str() || *end != '\0' || !(v > 0 && v <= 604800))
              return "--timeout must be a number of seconds in (0, 604800], got '" + s + "'";
            return "";
          },
          "SECONDS"));
  app->add_flag_callback(
      "--no-calibrate", [o] { o->calibrate = false; },
      "show modeled figures as the model gives them, without the factor learned from the logbook's earlier "
      "recorded figures");
  app->add_flag("--quiet", o->quiet, "no progress line on the terminal (runs done, the current one, time left)");
  app->add_option("--max-memory", o->max_memory_gb,
                  "cpu target: refuse a run whose estimated peak memory exceeds this many GB (default: the memory "
                  "available when it starts); refused runs are stored as failed with the estimate")
      ->check(CLI::PositiveNumber);
  app->add_option("--launchers", o->launchers, "extra launcher table (JSON) matched before the built-in one");
  app->add_option("--adapters", o->adapters,
                  "folder of harness adapters (*.json, schema in docs/reference.md) matched before the built-in "
                  "ones (data/adapters/)");
}

}  // namespace moelog::cli

#endif  // MOELOG_LOGBOOK_CLI_SESSION_FLAGS_H_
