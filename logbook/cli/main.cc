// moelog: run MoE benchmarks and keep Markdown research logbooks up to date.
#include <algorithm>
#include <cstdio>
#include <vector>
#include <cstring>
#include <iostream>
#include <streambuf>
#include <string>

#include "engine/status.h"
#include "logbook/cli/commands.h"
#include "logbook/text.h"

namespace moelog::cli {
namespace {

struct Command {
  const char* name;
  const char* help;
  int (*fn)(const Args&);
};

// The terms an entry's region uses, defined once here (and in
// docs/reference.md, "What a region says") rather than in every region.
const char kRegionsHelp[] =
    "What an entry's region says (`moelog update` writes it after the entry's Result)\n"
    "\n"
    "First line: what the figures are. \"Predicted by v5p model (v5p.json, moelog 0.1.0)\": moelog's\n"
    "  TPU v5p-8 model of that hardware file (data/hardware/v5p.json) at that version, not a measurement;\n"
    "  \"Measured by moelog on this machine's CPU\": run here. \"Prediction, not run:\" first: the\n"
    "  entry's commands were planned, not run (or its Result is pending); \"Prediction, not evidence:\"\n"
    "  first: the entry ran them elsewhere (a CPU smoke test), and the model's figures are not what it\n"
    "  ran. \"on 4 devices\": every row ran on 4 (TF/s/device is TF/s / 4). \"recorded: Result's\": the\n"
    "  table also shows the figures the entry's Result states.\n"
    "calibrated x0.992 ± 0.021 (4 figures): modeled throughputs are multiplied by a factor learned from\n"
    "  the recorded figures of earlier entries of the same harness revision (never the entry's own),\n"
    "  shrunk toward 1 when the figures are few; ± is one standard deviation of the factor. No factor:\n"
    "  no earlier figure (or --no-calibrate). A figure far outside the model is left out of the factor,\n"
    "  or held out until a second figure agrees with it (a line under the table says so).\n"
    "\n"
    "Columns:\n"
    "  time (ms), TF/s, TF/s/device, tokens/s   moelog's figures, 4 significant digits (tokens/s\n"
    "                        with its thousands grouped: 608,500)\n"
    "  TF/s uncalibrated     the model's TF/s before calibration (shown when a factor moves figures\n"
    "                        by 2% or more; a smaller factor is said by the first line alone)\n"
    "  TF/s p10-p90          where a measurement is expected: the model's figure times the 10th and\n"
    "                        90th percentiles of its past errors on the row's path (data/v5p_bands.json),\n"
    "                        3 significant digits\n"
    "  recorded TF/s, ...    the figure the entry's Result states, with its author's digits (a time\n"
    "                        written `0.406 s` shows as 406 in a ms column)\n"
    "  model vs logbook      moelog's figure against the recorded one, in percent\n"
    "  v5p model             \"unvalidated (quant_mode=int8)\": a path no calibration measurement covers;\n"
    "                        the model's figure there is physics, unchecked, and has no band\n"
    "\n"
    "Lines under the table (only where needed, one line each): the harness revision the entry's date or\n"
    "commit selected, values pinned by `<!-- moelog: key=value -->`, commands not run or not modeled,\n"
    "rows the model cannot tell apart or folded into one, recorded failures, recorded figures placed on\n"
    "no row (with the reason). Under the chart: what it leaves out, and bars the model cannot tell apart\n"
    "(within its within-entry error) when the chart's title lines cannot hold them.\n"
    "\n"
    "Charts: filled bars or lines with dots are moelog's figures, outlined bars or open circles the\n"
    "logbook's; error bars are the p10-p90 band; hatched bars or dashed lines titled \"Prediction:\" are a\n"
    "model of commands nobody ran; a y axis that does not start at 0 has a break mark at its foot and a\n"
    "line under the title saying where it starts.\n";

int CmdHelp(const Args& args);

const Command kCommands[] = {
    {"bench", "run one MoE layer benchmark (hillclimb harness flags; --target cpu|v5p)", CmdBench},
    {"update", "run a logbook's entries (or use cached runs) and write result tables back", CmdUpdate},
    {"run", "run a recipe's steps in order and print a table per step", CmdRun},
    {"runs", "query the run store", CmdRuns},
    {"ids", "list a logbook's entry IDs (--write adds missing ones)", CmdIds},
    {"check", "evaluate a logbook's stop criteria against the run store", CmdCheck},
    {"plot", "draw one entry's chart", CmdPlot},
    {"compare", "A/B table of stored runs with % deltas", CmdCompare},
    {"new", "create a logbook, recipe or entry from templates", CmdNew},
    {"model", "v5p model: fit parameters, validate against measurements", CmdModel},
    {"next", "propose the next experiments of a logbook (model-ranked; --write appends one)", CmdNext},
    {"help", "`help regions`: what the tables and charts moelog writes into a logbook say", CmdHelp},
};

int CmdHelp(const Args& args) {
  if (args.size() == 1 && args[0] == "regions") {
    std::fputs(kRegionsHelp, stdout);
    return moelog::kExitOk;
  }
  if (args.empty() || (args.size() == 1 && (args[0] == "--help" || args[0] == "-h"))) {
    std::fputs("usage: moelog help regions\n\ntopics:\n  regions  what the tables and charts moelog writes into a logbook say\n",
               args.empty() ? stderr : stdout);
    return args.empty() ? moelog::kExitUsage : moelog::kExitOk;
  }
  std::fprintf(stderr, "moelog help: error: unknown topic '%s' (topics: regions)\n", args[0].c_str());
  return moelog::kExitUsage;
}

void PrintUsage(FILE* f) {
  std::fprintf(f,
               "usage: moelog <command> [options]\n\n"
               "moelog runs Mixture-of-Experts layer benchmarks on an embedded engine (real CPU\n"
               "numerics, or a model of a TPU v5p-8) and keeps Markdown research logbooks in sync\n"
               "with the results.\n\ncommands:\n");
  for (const auto& c : kCommands) std::fprintf(f, "  %-8s %s\n", c.name, c.help);
  std::fprintf(f,
               "\n`moelog <command> --help` shows each command's options.\n\n"
               "exit codes:\n"
               "  0    success\n"
               "  1    a run failed, or `update --check` found stale or missing regions\n"
               "  2    usage error: unknown flag or choice, bad value, incompatible options\n"
               "  3    a document could not be parsed or rewritten safely (file:line: message)\n"
               "  4    `check`: some machine-checkable stop criterion is unmet\n"
               "  5    this machine cannot run the configuration (a CPU feature is missing;\n"
               "       the message names the way out, e.g. --dtype float32), or the sandbox cannot start\n"
               "  6    `update`/`run`: commands that need --allow-shell were skipped (listed as\n"
               "       FILE:LINE); everything else was done\n"
               "  7    `check`: none unmet, but some criterion is met only by model predictions\n"
               "  130  interrupted\n");
}

int EditDistance(const std::string& a, const std::string& b) {
  std::vector<int> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = static_cast<int>(j);
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = static_cast<int>(i);
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1] ? 1 : 0)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

// Bytes a terminal acts on (escape sequences, carriage return, backspace,
// bell, C1 controls: logbook/text.h's TerminalFilter) are shown as '?': a
// logbook's text that moelog prints (titles, IDs, commands, diffs, runs)
// cannot retitle the window, move the cursor or overwrite a line of the
// consent listing.
class PrintableBuf : public std::streambuf {
 public:
  explicit PrintableBuf(std::streambuf* to) : to_(to) {}

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return sync() == 0 ? traits_type::not_eof(c) : c;
    const char ch = traits_type::to_char_type(c);
    return Put(std::string_view(&ch, 1)) ? c : traits_type::eof();
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    return Put(std::string_view(s, static_cast<size_t>(n))) ? n : 0;
  }
  // A flush shows a character still held too (as the bytes it has).
  int sync() override {
    shown_.clear();
    filter_.Finish(&shown_);
    if (!shown_.empty() && to_->sputn(shown_.data(), static_cast<std::streamsize>(shown_.size())) < 0) return -1;
    return to_->pubsync();
  }

 private:
  bool Put(std::string_view bytes) {
    shown_.clear();
    filter_.Feed(bytes, &shown_);
    const auto n = static_cast<std::streamsize>(shown_.size());
    return to_->sputn(shown_.data(), n) == n;
  }
  std::streambuf* to_;
  logbook::TerminalFilter filter_;
  std::string shown_;
};

}  // namespace

void PrintError(const std::string& command, const std::string& message) {
  std::cerr << "moelog " << command << ": error: " << message << "\n";
}

}  // namespace moelog::cli

int main(int argc, char** argv) {
  using namespace moelog::cli;
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
    PrintUsage(argc < 2 ? stderr : stdout);
    return argc < 2 ? moelog::kExitUsage : moelog::kExitOk;
  }
  if (!std::strcmp(argv[1], "--version")) {
    std::printf("moelog %s\n", MOELOG_VERSION);
    return 0;
  }
  // Never freed: std::cout and std::cerr are flushed after main returns.
  std::cout.rdbuf(new PrintableBuf(std::cout.rdbuf()));
  std::cerr.rdbuf(new PrintableBuf(std::cerr.rdbuf()));
  const std::string name = argv[1];
  Args args(argv + 2, argv + argc);
  for (const auto& c : kCommands)
    if (name == c.name) return c.fn(args);
  std::string hint;
  for (const auto& c : kCommands)
    if (EditDistance(name, c.name) <= 2) hint = std::string(" (did you mean '") + c.name + "'?)";
  std::cerr << "moelog: error: unknown command '" << name << "'" << hint << "; see `moelog --help`\n";
  return moelog::kExitUsage;
}
