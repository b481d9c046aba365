// `moelog next`'s report and the entry --write appends (next.h).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>

#include "logbook/doc/markdown.h"
#include "logbook/numbers.h"
#include "logbook/research/entry_writer.h"
#include "logbook/research/next.h"
#include "logbook/research/next_internal.h"

namespace moelog::logbook {
namespace {

using engine::BenchConfig;
using namespace next_internal;


// The latest command of the logbook that runs the harness, and its entry.
const CommandText* LatestHarnessCommand(const Logbook& logbook, const Entry** entry) {
  for (auto e = logbook.entries.rbegin(); e != logbook.entries.rend(); ++e)
    for (auto c = e->commands.rbegin(); c != e->commands.rend(); ++c)
      if (c->joined.find("bench_moe_hillclimb.py") != std::string::npos) {
        *entry = &*e;
        return &*c;
      }
  return nullptr;
}

std::vector<std::string> SplitWords(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  std::string w;
  while (in >> w) out.push_back(w);
  return out;
}

// The harness's arguments for `c`: the original invocation's flags with
// their values set to c's (loop variables resolved), then changed keys the
// original did not name.
std::string ProposalArgs(const std::string& original, const BenchConfig& c,
                         const std::map<std::string, std::string>& changes) {
  std::vector<std::string> words = SplitWords(original), out;
  std::set<std::string> named;
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (w.rfind("--", 0) != 0) {
      out.push_back(w);
      continue;
    }
    std::string key = w.substr(2);
    std::string inline_value;
    if (size_t eq = key.find('='); eq != std::string::npos) {
      inline_value = key.substr(eq + 1);
      key = key.substr(0, eq);
    }
    std::replace(key.begin(), key.end(), '-', '_');
    const std::string v = GetKey(c, key);
    named.insert(key);
    if (v.empty()) {
      out.push_back(w);
      continue;
    }
    if (v == "true" || v == "false") {  // a switch
      if (v == "true") out.push_back(w);
      continue;
    }
    out.push_back("--" + w.substr(2, w.find('=') == std::string::npos ? std::string::npos : w.find('=') - 2));
    out.push_back(v);
    if (inline_value.empty() && i + 1 < words.size() && words[i + 1].rfind("--", 0) != 0) ++i;
  }
  for (const auto& [k, v] : changes) {
    if (named.count(k)) continue;
    std::string flag = "--" + k;
    std::replace(flag.begin(), flag.end(), '_', '-');
    if (v == "true") out.push_back(flag);
    else if (v != "false") {
      out.push_back(flag);
      out.push_back(v);
    }
  }
  std::string s;
  for (const auto& w : out) s += (s.empty() ? "" : " ") + w;
  return s;
}

// The command in the form of `cmd`: the same launcher and harness program,
// the proposal's flags, and no loop around it.
std::string CommandInFormOf(const std::string& cmd, const BenchConfig& c,
                            const std::map<std::string, std::string>& changes) {
  const std::string script = "bench_moe_hillclimb.py";
  const size_t p = cmd.find(script);
  const size_t args_begin = p + script.size();
  // The arguments end at a separator or at the end of the line (a
  // here-document's lines stay where they are).
  size_t e = cmd.find_first_of(";'\"&|\n", args_begin);
  // A quoted loop variable ("$tk") is part of the arguments.
  while (e != std::string::npos && cmd[e] == '"' && e + 1 < cmd.size() && cmd[e + 1] == '$') {
    const size_t close = cmd.find('"', e + 1);
    if (close == std::string::npos) break;
    e = cmd.find_first_of(";'\"&|\n", close + 1);
  }
  if (e == std::string::npos) e = cmd.size();
  // The harness's simple command starts after the last separator before it.
  size_t s = 0;
  for (size_t i = p; i-- > 0;) {
    const char ch = cmd[i];
    if (ch == ';' || ch == '\'' || ch == '&' || ch == '|' || ch == '\n') { s = i + 1; break; }
    const bool word_start = i == 0 || cmd[i - 1] == ' ';
    if (word_start && cmd.compare(i, 3, "do ") == 0) { s = i + 3; break; }
    if (word_start && cmd.compare(i, 3, "-- ") == 0) { s = i + 3; break; }
  }
  while (s < p && cmd[s] == ' ') ++s;
  std::string head = cmd.substr(0, s), tail = cmd.substr(e);
  const std::string prog = cmd.substr(s, args_begin - s);
  const std::string args = ProposalArgs(cmd.substr(args_begin, e - args_begin), c, changes);
  // A loop in a quoted shell script: keep the script's quotes, drop the loop.
  const size_t q = head.find('\'');
  if (q != std::string::npos && head.find("for ", q) != std::string::npos) {
    const bool strict = head.find("set -euo pipefail", q) != std::string::npos;
    head = head.substr(0, q + 1) + (strict ? "set -euo pipefail; " : "");
    const size_t close = tail.find('\'');
    tail = close == std::string::npos ? "" : tail.substr(close);
  }
  return head + prog + " " + args + tail;
}

// The next explicit ID in the logbook's series ("MOE-I8-004"), or "" when its
// entries carry none (moelog derives one from the date).
std::string NextExplicitId(const Logbook& logbook) {
  std::string best_prefix;
  long best = -1;
  size_t width = 0;
  for (const auto& e : logbook.entries) {
    const std::string& id = e.explicit_id;
    if (id.empty()) continue;
    size_t d = id.size();
    while (d > 0 && std::isdigit(static_cast<unsigned char>(id[d - 1]))) --d;
    if (d == id.size()) continue;
    const std::string prefix = id.substr(0, d);
    if (!logbook.id_prefix.empty() && prefix != logbook.id_prefix + "-") continue;
    const long n = std::atol(id.c_str() + d);
    if (n > best) {
      best = n;
      best_prefix = prefix;
      width = id.size() - d;
    }
  }
  if (best < 0) return "";
  std::string num = std::to_string(best + 1);
  while (num.size() < width) num = "0" + num;
  return best_prefix + num;
}


// A generic harness's command with the step's changes: each changed key's
// flag (--key-name VALUE, --key_name=VALUE) or KEY=VALUE word takes the new
// value; a key the command does not name is added as a flag at the end of
// its first line (inside a closing quote). Line structure is kept.
std::string RewriteCommand(std::string cmd, const std::map<std::string, std::string>& changes) {
  auto value_end = [&](size_t from) { return std::min(cmd.find_first_of(" \t\n;'\"&|", from), cmd.size()); };
  auto word_start = [&](size_t at) { return at == 0 || cmd[at - 1] == ' ' || cmd[at - 1] == '\t' || cmd[at - 1] == '\n'; };
  for (const auto& [k, v] : changes) {
    std::string under = "--";
    under += k;
    std::string dash = under;
    std::replace(dash.begin(), dash.end(), '_', '-');
    bool done = false;
    for (const std::string& flag : {dash, under, k + "="}) {
      for (size_t at = cmd.find(flag); at != std::string::npos && !done; at = cmd.find(flag, at + 1)) {
        if (!word_start(at)) continue;
        size_t from = at + flag.size();
        if (flag.back() != '=') {
          if (from < cmd.size() && cmd[from] == '=') ++from;
          else if (from < cmd.size() && cmd[from] == ' ') ++from;
          else continue;
        }
        cmd.replace(from, value_end(from) - from, v);
        done = true;
      }
      if (done) break;
    }
    if (done) continue;
    size_t eol = std::min(cmd.find('\n'), cmd.size());
    if (eol > 0 && (cmd[eol - 1] == '\'' || cmd[eol - 1] == '"')) --eol;
    cmd.insert(eol, " " + dash + " " + v);
  }
  return cmd;
}

std::string Pct(double v) {
  std::ostringstream s;
  s << (v >= 0 ? "+" : "") << FormatValue(std::round(v * 100) / 100) << "%";
  return s.str();
}

// A figure with four significant digits when it is small (seconds).
std::string Sig(double v) {
  if (std::fabs(v) >= 100 || v == 0) return Fmt(v);
  char b[32];
  std::snprintf(b, sizeof b, "%.4g", v);
  return b;
}

std::string Interval(double lo, double hi, const std::string& unit) {
  std::ostringstream s;
  s << "[" << Sig(lo) << ", " << Sig(hi) << "]";
  if (!unit.empty()) s << " " << unit;
  return s.str();
}

void FormatCriteria(const NextReport& r, std::ostringstream& s) {
  if (r.criteria.empty()) return;
  s << "\nunmet criteria first (the runs that complete them):\n";
  int i = 0;
  for (const auto& p : r.criteria) {
    s << "\nC" << ++i << ". " << p.step.what << " (" << ChangesText(p.candidate.changes);
    if (!p.step.base_run.empty()) s << " from run " << p.step.base_run;
    s << ")\n   completes: " << p.step.criterion << " (line " << p.step.line << ")";
    if (p.step.suggested) s << " [suggested: the predicate `check --suggest` reads from the prose]";
    s << "\n";
    if (p.figured && p.exploration) {
      s << "   exploration: " << Interval(p.lo, p.hi, MetricName(r.metric)) << " (a path no calibration row took)\n";
    } else if (p.figured) {
      s << "   predicted " << Fmt(p.predicted) << " " << MetricName(r.metric);
      if (p.band > 0) s << " " << Interval(p.lo, p.hi, "");
      s << "\n";
    }
  }
}

void FormatModel(const NextReport& r, std::ostringstream& s) {
  const std::string unit = MetricName(r.metric);
  s << "shape: " << r.shape << " (entry " << r.anchor_entry << ")";
  if (r.freed.empty()) {
    s << "; held (the Scope frees no shape key)\n";
  } else {
    s << "; the Scope frees";
    for (const auto& [k, v] : r.freed) {
      s << " " << k << " {";
      for (size_t i = 0; i < v.size(); ++i) s << (i ? "," : "") << v[i];
      s << "}";
    }
    s << ": " << r.shapes << " shapes searched\n";
  }
  s << "best so far: " << Fmt(r.best_figure) << " " << unit << " " << r.best_kind << " (run " << r.best_run
    << "); the model's best of the " << r.compared << " known configurations at this shape: " << Fmt(r.best_modeled)
    << " " << unit << "\n";
  s << "searched " << r.searched << " configurations in " << FormatValue(std::round(r.search_s * 1e4) / 1e4)
    << " s (v5p model";
  if (r.factor_figures > 0)
    s << ", calibrated on " << r.factor_figures << " recorded figures of " << r.factor_entries << " entries: x"
      << Fixed(r.factor, 3);
  else
    s << ", uncalibrated (no recorded figure on a validated path)";
  s << "; interval: " << (r.bands.empty() ? std::string("none (no band file)") : "the path's p10-p90 band, " + r.bands)
    << ")\n";
}

void FormatValidated(const NextReport& r, std::ostringstream& s) {
  const std::string unit = MetricName(r.metric);
  if (r.validated.empty()) s << "\nno proposal on a validated path: " << r.none_why << "\n";
  int i = 0;
  for (const auto& p : r.validated) {
    s << "\n" << ++i << ". " << ChangesText(p.candidate.changes) << "\n";
    s << "   predicted " << Fmt(p.predicted) << " " << unit;
    if (p.band > 0) s << " [" << Fmt(p.lo) << ", " << Fmt(p.hi) << "]";
    else s << " (no band: no interval)";
    if (r.factor != 1) s << " (model " << Fmt(p.uncalibrated) << ")";
    s << ", " << Pct(p.gain_pct) << " over the best; expected improvement " << Fmt(p.expected_improvement) << " "
      << unit << "\n";
    s << "   dominant term: " << p.candidate.dominant << "\n";
    s << "   serves: " << (p.serves.empty() ? "no unmet criterion" : p.serves) << "\n";
    s << "   path: validated\n";
  }
}

void FormatExploration(const NextReport& r, std::ostringstream& s) {
  if (r.unvalidated.empty()) return;
  const std::string unit = MetricName(r.metric);
  const PriorBand& b = r.prior;
  s << "\nexploration: unvalidated paths (no calibration row took them), fewest changed keys first, then by the "
       "interval's lower end; each interval is the model's figure times its error off its fit, per unvalidated key x["
    << Fixed(b.lo, 3) << ", " << Fixed(b.hi, 3) << "] (the wider of the leave-one-path-out p10-p90 and the "
    << b.history << " first measurement" << (b.history == 1 ? "" : "s") << " of a path in this logbook, x["
    << Fixed(b.history_lo, 3) << ", " << Fixed(b.history_hi, 3) << "]), compounded per key:\n";
  for (const auto& p : r.unvalidated) {
    const double base = p.predicted > 0 && p.gain_pct > -100 ? p.predicted / (1 + p.gain_pct / 100) : 0;
    s << "  - " << ChangesText(p.candidate.changes) << ": " << Interval(p.lo, p.hi, unit);
    if (base > 0) s << " (" << Pct((p.lo / base - 1) * 100) << " .. " << Pct((p.hi / base - 1) * 100) << ")";
    s << ", dominant " << p.candidate.dominant << "; unvalidated: ";
    for (size_t k = 0; k < p.candidate.unvalidated.size(); ++k) s << (k ? ", " : "") << p.candidate.unvalidated[k];
    if (!p.serves.empty()) s << "; serves: " << p.serves;
    s << "\n";
  }
}

void FormatRecord(const NextReport& r, std::ostringstream& s) {
  if (r.record.empty()) return;
  s << "\nfrom the record (" << r.record_metric << "; no model for this harness), untried neighbours of the best:\n";
  for (const auto& p : r.record) {
    s << "  - " << p.step.what << ": ";
    if (p.figured)
      s << "exploration, the record's " << p.step.pairs << " pair" << (p.step.pairs == 1 ? "" : "s")
        << " at otherwise identical controls put it in " << Interval(p.lo, p.hi, r.record_metric) << "\n";
    else
      s << "exploration, no recorded pair measured this change\n";
  }
}

}  // namespace

std::string FormatNextReport(const NextReport& r) {
  std::ostringstream s;
  if (r.searched_model) FormatModel(r, s);
  FormatCriteria(r, s);
  if (r.searched_model) FormatValidated(r, s);
  FormatExploration(r, s);
  FormatRecord(r, s);
  if (!FirstProposal(r))
    s << "\nno candidate: " << (r.none_why.empty() ? std::string("no unmet criterion names a missing run") : r.none_why)
      << "; no unmet criterion names a missing run, and the record varies no key with an untried value\n";
  else if (!r.searched_model)
    s << "\n(no model search: " << r.none_why << ")\n";
  return s.str();
}

namespace {

// The command a proposal runs, in the form of the logbook's: the hillclimb
// harness's from the latest command that runs it (its launcher, the
// proposal's flags, loops resolved); another harness's from the command
// of the entry its base run belongs to, with the changed flags.
std::vector<std::string> ProposalCommands(const Logbook& logbook, const Proposal& p) {
  if (p.harness) {
    const Entry* latest = nullptr;
    if (const CommandText* cmd = LatestHarnessCommand(logbook, &latest))
      return {CommandInFormOf(cmd->joined, p.config, p.candidate.changes)};
  }
  const Entry* base = p.step.base_entry.empty() ? nullptr : logbook.FindEntry(p.step.base_entry);
  if (!base) return {};
  const CommandText* chosen = nullptr;
  for (const auto& c : base->commands) {
    if (c.planned) continue;
    if (!chosen) chosen = &c;
    for (const auto& [k, v] : p.candidate.changes) {
      std::string dash = "--";
      dash += k;
      std::replace(dash.begin(), dash.end(), '_', '-');
      if (c.joined.find(dash) != std::string::npos || c.joined.find(k + "=") != std::string::npos) return {RewriteCommand(c.joined, p.candidate.changes)};
    }
  }
  if (!chosen) return {};
  return {RewriteCommand(chosen->joined, p.candidate.changes)};
}

std::string Hypothesis(const NextReport& r, const Proposal& p) {
  const std::string unit = MetricName(r.metric);
  std::ostringstream h;
  if (!p.step.criterion.empty()) {
    h << "running " << p.step.what << " completes the stop criterion \"" << p.step.criterion << "\" (line "
      << p.step.line << (p.step.suggested ? ", as `check --suggest` reads its prose" : "") << ")";
    if (p.figured && p.exploration) h << "; exploration: the v5p model puts it in " << Interval(p.lo, p.hi, unit);
    else if (p.figured) {
      h << "; the v5p model predicts " << Fmt(p.predicted) << " " << unit;
      if (p.band > 0) h << " " << Interval(p.lo, p.hi, "");
    }
    h << ".";
    return h.str();
  }
  if (!p.step.base_run.empty()) {
    h << "exploration from the record: " << p.step.what;
    if (p.figured) h << "; its " << p.step.pairs << " recorded pairs put it in " << Interval(p.lo, p.hi, r.record_metric);
    h << ".";
    return h.str();
  }
  if (p.exploration) {
    h << "exploration on a path no calibration row took: the v5p model, with its error on paths it was not fitted "
         "on, puts " << ChangesText(p.candidate.changes) << " in " << Interval(p.lo, p.hi, unit)
      << " against the best known " << Fmt(r.best_figure) << " " << unit << " " << r.best_kind << ".";
    return h.str();
  }
  h << "the v5p model predicts " << Fmt(p.predicted) << " " << unit;
  if (p.band > 0) h << " [" << Fmt(p.lo) << ", " << Fmt(p.hi) << "]";
  h << " with " << ChangesText(p.candidate.changes) << ", " << Pct(p.gain_pct)
    << " over the best known configuration at this shape (" << Fmt(r.best_figure) << " " << unit << " " << r.best_kind
    << ", " << Fmt(r.best_modeled) << " by the model); dominant term: " << p.candidate.dominant << ".";
  return h.str();
}

}  // namespace

Result<std::string> AppendProposalEntry(const Logbook& logbook, std::string_view text, const NextReport& report,
                                        const std::string& now, std::string* new_id) {
  const Proposal* first = FirstProposal(report);
  if (!first)
    return Status::NotFound(logbook.file + ": no candidate: " +
                            (report.none_why.empty() ? std::string("nothing to propose") : report.none_why));
  const Proposal& p = *first;
  EntryIntent in;
  in.id = NextExplicitId(logbook);
  if (new_id) *new_id = in.id;
  const std::string title = p.candidate.changes.empty() ? p.step.what : ChangesText(p.candidate.changes);
  const bool confidence = !logbook.entries.empty() && !logbook.entries.back().confidence.empty();
  in.heading = now + " - " + (in.id.empty() ? "" : in.id + " ") + "Next: " + title +
               (confidence ? " (confidence: exploratory)" : "");
  in.before.push_back({"Hypothesis", Hypothesis(report, p)});
  in.commands = ProposalCommands(logbook, p);
  // The sub-bullet form when the command it copies sits under "- Command:".
  const auto lines = SplitLines(text);
  for (auto e = logbook.entries.rbegin(); e != logbook.entries.rend(); ++e)
    if (!e->commands.empty()) {
      const int l = e->commands.back().line;
      in.command_sub_bullets = l >= 1 && static_cast<size_t>(l) <= lines.size() &&
                               lines[static_cast<size_t>(l) - 1].find("- Command") == std::string_view::npos;
      break;
    }
  if (p.harness) in.config.push_back("shape: " + ShapeText(p.config));
  const std::string from = !p.step.base_run.empty() ? p.step.base_run : report.best_run;
  if (!from.empty())
    in.config.push_back("changed from run " + from + (p.step.base_entry.empty() ? "" : " (entry " + p.step.base_entry + ")") +
                        ": " + ChangesText(p.candidate.changes));
  if (!p.serves.empty()) in.config.push_back("serves: " + p.serves);
  in.after.push_back({"Result", "pending"});
  in.after.push_back({"Next action", "run it (`moelog update`) and compare with the prediction."});
  return AppendEntry(logbook, text, in);
}

}  // namespace moelog::logbook
