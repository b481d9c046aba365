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
};

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
