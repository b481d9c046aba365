// Reader stage figures, program output: timing records of benchmark
// runners that print one run's statistics over several lines: hyperfine's
// "Benchmark 1: cmd" (the command keys the lines below), "Time (mean ± σ):"
// and "Range (min … max):", and Julia BenchmarkTools' trial (its Range,
// then "Time (median):" and "Time (mean ± σ):"). figures_output.cc reads the
// block and asks these in turn.
#include <cmath>

#include "logbook/doc/command_line.h"
#include "logbook/plan/shell_parser.h"
#include "logbook/reader/figures_output_read.h"
#include "logbook/reader/figures_output_words.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook::reader::output_read {
namespace {

std::string TrimText(const std::string& s) { return parse_detail::Trim(s); }

}  // namespace

bool TookLine(OutputRead& r, const std::string& t, int line) {
  const size_t took = t.find(" took ");
  if (took == std::string::npos || took == 0 || took > 120) return false;
  std::string subject = TrimText(t.substr(0, took));
  if (const size_t open = subject.find(" ("); open != std::string::npos) subject = TrimText(subject.substr(0, open));
  if (subject.empty() || Words(subject).size() > 5 || !std::isalpha(static_cast<unsigned char>(subject[0]))) return false;
  const std::vector<std::string> toks = SpaceWords(t.substr(took + 6));
  std::string num, glued;
  bool approx = false;
  if (toks.empty() || !NumberToken(toks[0], &num, &glued, &approx)) return false;
  const std::string unit = UnitAfter(toks, 0, glued, t);  // "36.11 GiB memory": the line names what the unit is of
  UnitInfo info{};
  if (unit.empty() || !OutputUnit(unit, t, &info) || info.derived) return false;
  Config cfg = LineConfig(r);
  KeepFigure(r, line, t, cfg, {Fig{QualifiedMetricName(SnakeKey(subject), info.metric), info, unit, num, approx}});
  return true;
}

// A command keys the lines printed below it: its flags, else (`whole`) its
// words when it has no plain arguments either ("./bench -units 625").
void KeyCommand(OutputRead& r, const std::string& cmd, bool whole) {
  for (const auto& k : r.bench_keys) r.context.erase(k);
  r.bench_keys.clear();
  ParsedCommand pc;
  ParseCommand(cmd, &pc);
  for (const auto& [k, v] : pc.program_flags) r.context[k] = v, r.bench_keys.push_back(k);
  if (r.bench_keys.empty() && (whole || PositionalArgs(cmd).empty()) && cmd.size() <= 60 && cmd.find(' ') != std::string::npos)
    r.context["command"] = cmd, r.bench_keys.push_back("command");
}

// What a compared command sets besides its long flags, read by the
// planner's shell parser (quotes respected): the environment assignments
// before the program ("RUSTFLAGS='-C target-cpu=native'") and the short
// flags whose value is a number, a file or a path ("-c config/small.json").
static Config ShortFlagsAndEnv(const std::string& cmd) {
  Config out;
  shell::List list;
  std::string error;
  if (!shell::ParseScript(cmd, &list, &error) || list.items.size() != 1 || list.items[0].pipes.size() != 1) return out;
  for (const auto& c : list.items[0].pipes[0].cmds) {
    std::vector<std::string> w;
    for (const auto& raw : c.words) w.push_back(PlainWord(raw));
    size_t i = 0;
    for (std::string k, v; i < w.size() && EnvAssignment(w[i], &k, &v); ++i) out[k] = v;
    for (; i + 1 < w.size(); ++i)
      if (w[i].size() == 2 && w[i][0] == '-' && std::isalpha(static_cast<unsigned char>(w[i][1])) && w[i + 1][0] != '-' &&
          w[i + 1].find_first_of("0123456789./:") != std::string::npos)
        out[w[i].substr(1)] = w[i + 1], ++i;
  }
  return out;
}

// hyperfine's "Benchmark 1: ./bin --threads 8" ("Benchmark #1:" before
// hyperfine 1.12): the command keys the lines below it: its flags when each
// has a number, a file or a path ("--threads 4", "--config small.json"),
// else as written ("--fast corpus" may be a switch and an argument); a long
// one by its flags, its short flags' values and the environment it sets.
bool BenchmarkLine(OutputRead& r, const std::string& t) {
  if (t.rfind("Benchmark ", 0) != 0) return false;
  const size_t colon = t.find(": ");
  const size_t number = t.compare(10, 1, "#") == 0 ? 11 : 10;
  if (colon == std::string::npos || colon > 16 || colon <= number || !IsNumber(TrimText(t.substr(number, colon - number))))
    return false;
  r.timing = static_cast<size_t>(-1);
  const std::string cmd = TrimText(t.substr(colon + 2));
  ParsedCommand pc;
  ParseCommand(cmd, &pc);
  const bool valued = !pc.program_flags.empty() && std::all_of(pc.program_flags.begin(), pc.program_flags.end(), [](const auto& f) {
    return f.second.find_first_of("0123456789./:") != std::string::npos;  // a number, a file, a path
  });
  if (valued || cmd.size() > 60) {  // "--threads 4": its flags
    KeyCommand(r, cmd, true);
    for (const auto& [k, v] : ShortFlagsAndEnv(cmd))
      if (!r.context.count(k)) r.context[k] = v, r.bench_keys.push_back(k);
    if (r.context.count("command") && r.bench_keys.size() > 1) r.context.erase("command");
    return true;
  }
  for (const auto& k : r.bench_keys) r.context.erase(k);
  r.bench_keys = {"command"}, r.context["command"] = cmd;  // the commands compared, as written
  return true;
}

namespace {

// A number and its unit at toks[k] ("1.234 s", "712.4ms"): the value in the
// unit's metric; how many words it takes (0: none there).
size_t ValueAt(const std::vector<std::string>& toks, size_t k, Fig* fig) {
  if (k >= toks.size()) return 0;
  std::string num, glued;
  bool approx = false;
  if (!NumberToken(toks[k], &num, &glued, &approx)) return 0;
  const std::string unit = UnitAfter(toks, k, glued, "");
  UnitInfo info;
  if (unit.empty() || !OutputUnit(unit, "", &info)) return 0;
  *fig = Fig{info.metric, info, unit, num, approx};
  return glued.empty() ? 2 : 1;
}

// The index of the word after `word` in toks, or toks.size().
size_t After(const std::vector<std::string>& toks, const char* word) {
  for (size_t k = 0; k < toks.size(); ++k)
    if (toks[k] == word) return k + 1;
  return toks.size();
}

Fig Named(Fig f, const std::string& stat) {
  std::get<0>(f) = stat + "_" + std::get<0>(f);
  return f;
}

}  // namespace

// Statistics added to the row of the last "Time" line (hyperfine's Range
// under its Time, Julia's mean under its median): each in its metric.
void AddToTimingRow(OutputRead& r, const std::vector<Fig>& figs, int line) {
  StoredRun& run = (*r.out)[r.timing].run;
  (*r.out)[r.timing].joined_lines.push_back(line);
  for (const Fig& f : figs) {
    const auto v = ParseNumber(std::get<3>(f));
    if (!v || run.metrics.count(std::get<0>(f))) continue;
    run.metrics[std::get<0>(f)] = std::get<1>(f).factor < 1 ? *v / std::round(1 / std::get<1>(f).factor) : *v * std::get<1>(f).factor;
    run.units[std::get<0>(f)] = std::get<2>(f);
    run.decimals[std::get<0>(f)] = WrittenDecimals(std::get<3>(f));
  }
}

// hyperfine's "Time (mean ± σ): 1.234 s ± 0.010 s [User: 9.1 s, System:
// 0.2 s]" (the mean the figure; σ, user and system time its row's
// statistics) and "Range (min … max): 1.220 s … 1.251 s" (added to the
// row); Julia BenchmarkTools' trial prints its Range first, then "Time
// (median):" (the figure) and "Time (mean ± σ):" (its row's mean): the
// lines of one record, up to a line of another kind (StatisticLine).
bool TimingLine(OutputRead& r, const std::string& t, int line) {
  const bool time = t.rfind("Time ", 0) == 0, range = t.rfind("Range (min", 0) == 0;
  const size_t open = t.find('('), close = t.find("):");
  if ((!time && !range) || close == std::string::npos || open == std::string::npos || open > close) return false;
  std::string rest;
  for (char c : t.substr(close + 2)) rest += c == '[' || c == ']' || c == ',' ? ' ' : c;
  const auto toks = SpaceWords(rest);
  Fig first, second;
  const size_t next = ValueAt(toks, 0, &first);
  if (next == 0) return false;
  const bool spread = ValueAt(toks, next + 1, &second) > 0;  // "± 0.010 s", "… 1.251 s"
  const bool row = r.timing < r.out->size();
  if (range) {
    if (!spread) return true;
    if (row) AddToTimingRow(r, {Named(first, "min"), Named(second, "max")}, line);
    else r.pending = {Named(first, "min"), Named(second, "max")}, r.pending_line = line;
    return true;
  }
  if (row) {  // "Time (mean ± σ)" under "Time (median)": the row's mean
    const std::string stat = Lower(SpaceWords(t.substr(open + 1, close - open - 1)).front());
    std::vector<Fig> more = {Named(first, stat)};
    if (spread) more.push_back(Named(second, "std"));
    AddToTimingRow(r, more, line);
    return true;
  }
  std::vector<Fig> figs = {first};
  if (spread) figs.push_back(Named(second, "std"));
  Fig part;
  if (ValueAt(toks, After(toks, "User:"), &part) > 0) figs.push_back(Named(part, "user"));
  if (ValueAt(toks, After(toks, "System:"), &part) > 0) figs.push_back(Named(part, "system"));
  const size_t before = r.out->size();
  KeepFigure(r, line, t, LineConfig(r), figs);
  if (r.out->size() > before) r.timing = before;
  if (row || r.pending.empty() || r.timing >= r.out->size()) return true;
  AddToTimingRow(r, r.pending, r.pending_line);
  r.pending.clear();
  return true;
}

}  // namespace moelog::logbook::reader::output_read
