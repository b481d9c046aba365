// The harness's command line (bench_moe_hillclimb.py flags, plus moelog's
// own) as CLI11 options over an engine::BenchConfig: what `moelog bench`
// parses and what the planner reads harness invocations with.
#include "logbook/plan/bench_args.h"

#include <algorithm>
#include <type_traits>
#include <variant>

#include <CLI/CLI.hpp>

#include "engine/bench_flags.h"

namespace moelog::logbook {
namespace {

// One CLI11 option per flag of the run-key table (engine/bench_flags.h), in
// its order: a flag for a bool field, else an option whose default the help
// shows unless it is an empty string.
void AddOptions(CLI::App& app, engine::BenchConfig& c) {
  // A flag given twice takes its last value, as the harness's argparse does.
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  for (const engine::FlagSpec& f : engine::BenchFlags()) {
    if (!*f.flag) continue;
    std::visit([&](auto field) {
      using Field = decltype(field);
      if constexpr (std::is_same_v<Field, std::monostate>) {
        return;
      } else if constexpr (std::is_same_v<Field, bool engine::BenchConfig::*>) {
        app.add_flag(f.flag, c.*field, f.help);
      } else {
        CLI::Option* o = app.add_option(f.flag, c.*field, f.help);
        if (!f.choices.empty()) o->check(CLI::IsMember(f.choices));
        if constexpr (std::is_same_v<Field, std::string engine::BenchConfig::*>) {
          if (!(engine::BenchConfig{}.*field).empty()) o->capture_default_str();
        } else {
          o->capture_default_str();
        }
      }
    }, f.field);
  }
}

// Building the CLI11 parser costs about a millisecond; planning a large
// logbook parses thousands of command lines, so each thread keeps one parser
// bound to a scratch config and resets both before every parse.
struct BenchParser {
  engine::BenchConfig scratch;
  CLI::App app{"moelog bench: run one MoE layer benchmark (hillclimb harness flags)", "moelog bench"};
  BenchParser() { AddOptions(app, scratch); }
};

size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

// "unknown flag --topk-lst (did you mean --topk-list?)" for each flag of
// `args` the parser does not know, near a known one; a flag far from every
// known one means another harness (or a later revision of this one, which
// moelog does not model): "not this harness (or a revision moelog does not
// know): unknown flag --kernel". "" when every flag is known.
// Flags of a later rewrite of the hillclimb harness (kernel selection, EP
// lists, multi-host launch): never "did you mean", always another harness.
bool LaterRevisionFlag(const std::string& name) {
  static const char* kLater[] = {"kernel", "ep-list", "num-processes", "process-id", "coordinator-address",
                                 "num-slices", "kernels"};
  return std::any_of(std::begin(kLater), std::end(kLater), [&](const char* k) { return name == k; });
}

// A flag name near `name` to suggest, or "" when none is near: at most two
// edits, and at most a third of the name (`--ep-list` is no misspelling of
// `--topk-list`).
std::string NearFlag(const std::string& name, const std::vector<std::string>& known) {
  if (LaterRevisionFlag(name)) return "";
  std::string best;
  size_t best_d = std::min<size_t>(2, name.size() / 3) + 1;
  for (const auto& k : known)
    if (size_t d = EditDistance(name, k); d < best_d) best_d = d, best = k;
  return best;
}

std::string UnknownFlags(const CLI::App& app, const std::vector<std::string>& args) {
  std::vector<std::string> known;
  for (const CLI::Option* o : app.get_options())
    for (const auto& n : o->get_lnames()) known.push_back(n);
  std::vector<std::string> near, unknown;  // "--x (did you mean --y?)"; every unknown flag
  bool far = false;
  for (const auto& a : args) {
    if (a.size() < 3 || a.compare(0, 2, "--") != 0) continue;
    const std::string name = a.substr(2, a.find('=') == std::string::npos ? std::string::npos : a.find('=') - 2);
    if (std::find(known.begin(), known.end(), name) != known.end()) continue;
    if (std::find(unknown.begin(), unknown.end(), "--" + name) != unknown.end()) continue;
    unknown.push_back("--" + name);
    const std::string best = NearFlag(name, known);
    if (best.empty()) far = true;
    else near.push_back("unknown flag --" + name + " (did you mean --" + best + "?)");
  }
  if (unknown.empty()) return "";
  // One flag far from every known one: another harness, whose other flags
  // are no misspellings of this one's either.
  if (far) {
    std::string out = "not this harness (or a revision moelog does not know): unknown flag";
    out += unknown.size() > 1 ? "s " : " ";
    for (size_t i = 0; i < unknown.size(); ++i) out += (i ? ", " : "") + unknown[i];
    return out;
  }
  std::string out;
  for (const auto& n : near) out += (out.empty() ? "" : "; ") + n;
  return out;
}

}  // namespace

Result<engine::BenchConfig> ParseBenchFlags(const std::vector<std::string>& args) {
  thread_local BenchParser parser;
  parser.scratch = engine::BenchConfig();
  parser.app.clear();
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    parser.app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    return Status::NotFound(parser.app.help());
  } catch (const CLI::ParseError& e) {
    const std::string unknown = UnknownFlags(parser.app, args);
    return Status::InvalidArgument(unknown.empty() ? std::string(e.what()) : unknown);
  }
  return parser.scratch;
}

Result<engine::BenchConfig> ParseBenchArgs(const std::vector<std::string>& args) {
  auto c = ParseBenchFlags(args);
  if (!c.ok()) return c.status();
  MOELOG_RETURN_IF_ERROR(c->Validate());
  return c;
}

const std::vector<std::string>& BenchFlagNames() {
  static const std::vector<std::string> names = [] {
    engine::BenchConfig c;
    CLI::App app;
    AddOptions(app, c);
    std::vector<std::string> v;
    for (const CLI::Option* o : app.get_options())
      for (const auto& n : o->get_lnames()) v.push_back("--" + n);
    return v;
  }();
  return names;
}

std::string BenchHelp() {
  engine::BenchConfig c;
  CLI::App app("moelog bench: run one MoE layer benchmark (hillclimb harness flags)", "moelog bench");
  AddOptions(app, c);
  return app.help();
}

}  // namespace moelog::logbook
