// moelog update LOGBOOK: run (or find in the store) every entry's benchmark
// commands and write one result table per runnable entry into the logbook.
#include <unistd.h>

#include <fstream>
#include <iostream>
#include <sstream>

#include "logbook/cli/cli_parse.h"
#include "logbook/cli/commands.h"
#include "logbook/cli/session_flags.h"
#include "logbook/file_util.h"
#include "logbook/update/gpu_session.h"
#include "logbook/update/pinned_target.h"
#include "logbook/update/session.h"

namespace moelog::cli {
namespace {

// Without --target, the GPU the logbook pins (front matter or a Hardware/
// Config line) is the target when the logbook has GPU harness commands; the
// region's caption says so.
void ApplyPinnedTarget(const std::string& path, logbook::SessionOptions* o) {
  auto text = logbook::ReadFile(path);  // never blocks (a FIFO, /dev/zero): the session reports such a file
  if (!text.ok()) return;
  const logbook::PinnedHardware pin = logbook::FindPinnedHardware(*text);
  if (pin.name.empty()) return;
  std::ostringstream quiet;  // a logbook that does not load is reported by the session
  int code = 0;
  if (logbook::GpuCasesOf(path, 72, quiet, &code).empty()) return;  // no GPU harness command: the default target
  o->target = pin.name;
  o->target_pin = pin.where;
  std::cerr << path << ": target " << pin.name << " (pinned by the logbook, " << pin.where
            << "; --target overrides)\n";
}

}  // namespace

int CmdUpdate(const Args& args) {
  CLI::App app{
      "Run a logbook's entries (or reuse cached runs from the run store) and write one result table per\n"
      "runnable entry into an owned region after its Result field:\n"
      "  <!-- moelog:begin id=<ID> hash=<hash> --> ... <!-- moelog:end -->\n"
      "Every byte outside regions stays identical; a second update changes nothing. A region edited by hand\n"
      "is kept unless --overwrite-edits. Commands are rewritten into `moelog bench --target <t>` (remote launchers\n"
      "stripped, loops expanded) and run without any shell; commands only bash could run (substitutions,\n"
      "other programs, pipelines...) need --allow-shell and then run sandboxed (bubblewrap).\n\n"
      "exit codes: 0 ok (commands that cannot be planned are reported, not failures); 1 a run failed, a chart\n"
      "could not be written, a hand-edited region was kept, or --check found stale/missing regions; 2 usage error; 3 malformed regions or unsafe rewrite (file\n"
      "unchanged); 5 the sandbox cannot start; 6 commands that need --allow-shell were skipped.\n\n"
      "--target <GPU hardware file> (h100, b200, ...): GPU harness commands (DeepEP's test scripts) are modeled\n"
      "on the GPU model, each entry's table beside the figures its recorded output states.",
      "moelog update"};
  logbook::SessionOptions o;
  std::string path;
  app.add_option("logbook", path, "logbook Markdown file")->required();
  AddSessionFlags(&app, &o);
  app.add_option("--entry", o.entries, "only this entry ID (repeatable)");
  app.add_flag("--failed", o.failed, "only entries whose stored runs include a failure");
  app.add_flag("--stale", o.stale, "only entries whose region is missing or out of date");
  app.add_flag("--show-recorded", o.show_recorded,
               "print where each figure written in an entry's Result went: its table row, or why none");
  app.add_flag("--check", o.check,
               "run nothing, write nothing; exit 1 and print a unified diff if any region is stale or missing");
  if (auto code = ParseCommandLine(app, args)) return *code;
  if (o.check && o.dry_run) {
    PrintError("update", "--check and --dry-run cannot be combined");
    return kExitUsage;
  }
  o.progress = isatty(2);
  if (app.count("--target") == 0) ApplyPinnedTarget(path, &o);
  if (logbook::IsGpuTarget(o.target))  // a GPU hardware file: its harnesses' commands on the GPU model
    return logbook::RunGpuSession(path, o, std::cout, std::cerr).exit_code;
  return logbook::RunSession(path, logbook::DocumentKind::kLogbook, o, std::cout, std::cerr).exit_code;
}

}  // namespace moelog::cli
