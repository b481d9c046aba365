// Reader stage key, output blocks: what keys the figures of a printed block
// (figures_output.cc) from outside it: the sub-heading above it, a short
// label paragraph or bullet right before it ("FP16:", "* 1 req/s", "vLLM
// v0.8.5"), and the command it prints for (the flags the entry's commands
// vary; for a program that runs no harness, the flags its other commands of
// the same program set otherwise).
#include "logbook/doc/command_line.h"
#include "logbook/reader/blocks.h"
#include "logbook/reader/blocks_benchtools.h"
#include "logbook/reader/figures_output_words.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {
namespace {

std::string TrimText(const std::string& s) { return parse_detail::Trim(s); }

// A plain bullet that is a command line ("* srv-bench run --request-rate 2"):
// a few program words, then flags; no code span, no sentence.
bool BulletCommandLine(const Bullet& b) {
  if (!b.children.empty() || !b.code_spans.empty() || b.text.size() > 400) return false;
  const auto w = SpaceWords(b.text);
  size_t i = 0;
  for (; i < w.size() && w[i].rfind("--", 0) != 0; ++i) {
    if (i >= 4 || !std::all_of(w[i].begin(), w[i].end(), [](char c) {
          return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) ||
                 c == '-' || c == '_' || c == '.' || c == '/';
        }))
      return false;
  }
  return i > 0 && i < w.size() && w[i].size() > 2 && std::isalpha(static_cast<unsigned char>(w[i][2]));
}

// The last command written in a bullet's code span before `before`
// ("- `python bench.py --impl ref`" over its printed figures): a top-level
// bullet's, or one of a bullet that holds `before` (a command nested in
// another item's list is that item's only).
void NearestSpanCommand(const Bullet& b, int before, int* line, std::string* cmd) {
  if (b.line >= before) return;
  if (b.line >= *line)
    for (const auto& span : b.code_spans)
      if (LooksLikeCommandLine(TrimText(span)) || span.find(" --") != std::string::npos) *line = b.line, *cmd = span;
  if (b.line >= *line && BulletCommandLine(b)) *line = b.line, *cmd = b.text;
  if (b.end_line < before) return;
  for (const auto& c : b.children) NearestSpanCommand(c, before, line, cmd);
}

// The program a command runs: its first word that is no assignment.
std::string ProgramOf(const std::string& cmd) {
  for (const auto& w : SpaceWords(cmd))
    if (w.find('=') == std::string::npos) return w;
  return "";
}

// The flags of a command that runs no harness ("vllm bench serve
// --request-rate 1") that the entry's other commands of the same program
// set otherwise or not at all: what tells their printed blocks apart.
Config VariedProgramFlags(const Entry& entry, const std::string& near, const ParsedCommand& own) {
  if (own.program_flags.empty()) return {};
  std::map<std::string, std::set<std::string>> seen;
  const std::string program = ProgramOf(near);
  size_t same = 0;
  for (size_t i = 0; i < entry.commands.size() && i < 64; ++i) {
    if (ProgramOf(entry.commands[i].joined) != program) continue;
    ParsedCommand pc;
    ParseCommand(entry.commands[i].joined, &pc);
    ++same;
    std::set<std::string> keys;
    for (const auto& [k, v] : pc.program_flags) seen[k].insert(v), keys.insert(k);
    for (const auto& [k, v] : own.program_flags)
      if (!keys.count(k)) seen[k].insert("");
  }
  Config cfg;
  for (const auto& [k, v] : own.program_flags)
    if (same > 1 && seen[k].size() > 1 && v.find('$') == std::string::npos && v.size() <= 40) cfg[k] = v;
  return cfg;
}

// Whether the entry runs the program of `near` (at most 60 characters) by
// another command too: then `near` as written tells its printout apart.
bool OtherRunOfProgram(const Entry& entry, const std::string& near) {
  if (near.size() > 60 || near.find(' ') == std::string::npos) return false;
  return std::any_of(entry.commands.begin(), entry.commands.end(), [&](const auto& c) {
    return c.joined != near && ProgramOf(c.joined) == ProgramOf(near);
  });
}

// A short line that labels what follows it ("* 1 req/s", "vLLM v0.8.5"):
// a few words with a digit (or, `words_alone`, without one), no sentence,
// no command, no colon.
bool LabelLine(const std::string& text, bool words_alone = false) {
  const std::string t = TrimText(text);
  if (t.empty() || t.size() > 40 || Words(t).size() > 5 || t.back() == '.' || t.back() == ':' ||
      t.find('`') != std::string::npos || LooksLikeCommandLine(t))
    return false;
  return words_alone || std::any_of(t.begin(), t.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// The childless bullets right above an output block whose words alone label
// it ("* Default build", "* With native CPU optimizations"): read only when
// two or more blocks are so labelled, each differently, as one label alone
// tells no block apart.
std::set<int> WordLabelBullets(const Entry& entry) {
  std::set<int> lines;
  std::set<std::string> texts;
  for (const auto& b : entry.notes)
    if (b.children.empty() && b.line != entry.heading_line && LabelLine(b.text, true) &&
        std::any_of(entry.outputs.begin(), entry.outputs.end(),
                    [&](const FencedBlock& o) { return b.end_line < o.line && b.end_line >= o.line - 2; }))
      lines.insert(b.line), texts.insert(TrimText(b.text));
  if (texts.size() < 2 || texts.size() != lines.size()) lines.clear();
  return lines;
}

// The label line right above a block or above the command it prints for
// (a paragraph or a bullet at most two lines before): its values key the
// block ("setup" when they name no key the entry knows).
void LabelAbove(const Entry& entry, int block_line, int command_line, const EntryCtx& x, Config* cfg) {
  auto near = [&](int end) {
    return (end < block_line && end >= block_line - 2) ||
           (command_line > 0 && command_line >= block_line - 8 && end < command_line && end >= command_line - 2);
  };
  // The label nearest the block: a line right above it before one above its command.
  std::string label;
  int at = -1;
  // The entry's own head (a bold line or an item that heads it) names the entry, not a setup of its block.
  for (const auto& p : entry.paragraphs)
    if (!p.output_label && p.line != entry.heading_line && near(p.end_line) && LabelLine(p.text) && p.end_line > at)
      label = p.text, at = p.end_line;
  const std::set<int> word_labels = WordLabelBullets(entry);
  for (const auto& b : entry.notes)
    if (b.children.empty() && b.line != entry.heading_line && near(b.end_line) &&
        (LabelLine(b.text) || word_labels.count(b.line)) && b.end_line > at)
      label = b.text, at = b.end_line;
  if (label.empty()) return;
  const Config words = LabelConfig(label, x.vars, x.fixed, x.generic, &x.feeds);
  if (words.empty() || (words.size() == 1 && words.count("case"))) {  // "2 req/s": the line as written
    (*cfg)["setup"] = TrimText(label);
    return;
  }
  for (const auto& [k, v] : words) (*cfg)[k] = v;
}

// A value written as a placeholder for the reader to fill in ("x.x",
// "<rate>", "N", "..."): it names no run.
bool PlaceholderValue(const std::string& v) {
  if (v.size() >= 2 && v.front() == '<' && v.back() == '>') return true;
  return v == "..." || v == "\xE2\x80\xA6" ||
         (!v.empty() && std::all_of(v.begin(), v.end(), [](char c) { return c == 'x' || c == 'X' || c == 'N' || c == '.'; }) &&
          v.find_first_of("xXN") != std::string::npos);
}

// A bullet that states one setting as a flag's name and its value
// ("* max-batch-size 8", "* --num-prompts 100"): the key (snake case) and value.
bool SettingBullet(const Bullet& b, std::string* key, std::string* value) {
  if (!b.children.empty()) return false;
  const auto w = SpaceWords(b.text);
  if (w.size() != 2) return false;
  std::string k = w[0].substr(w[0].rfind("--", 0) == 0 ? 2 : 0);
  const bool joined = k.find_first_of("-_") != std::string::npos || w[0].rfind("--", 0) == 0;
  if (!joined || k.empty() || !std::islower(static_cast<unsigned char>(k[0])) ||
      !std::all_of(k.begin(), k.end(), [](char c) {
        return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '_';
      }) ||
      k.back() == '-' || k.back() == '_' || !ParseNumber(w[1]).has_value())
    return false;
  *key = SnakeKey(k), *value = w[1];
  return true;
}

// The settings the part of the entry holding `line` states as bullets
// (SettingBullet), from its sub-heading (or the entry's heading) down to `line`;
// `part` gets the line where that part starts.
Config PartSettings(const Entry& entry, int line, int* part) {
  *part = entry.heading_line;
  for (const auto& h : entry.subheadings)
    if (h.line < line) *part = std::max(*part, h.line);
  Config out;
  for (const auto& b : entry.notes) {
    std::string k, v;
    if (b.line > *part && b.end_line < line && SettingBullet(b, &k, &v)) out[k] = v;
  }
  return out;
}

}  // namespace

// A childless bullet that is the label line of the output block right below
// it ("* 2 req/s" over a serving printout): it keys that block's figures and
// is no run's figure itself.
bool LabelsAnOutputBlock(const Entry& entry, const Bullet& b) {
  if (!b.children.empty() || (!LabelLine(b.text) && !WordLabelBullets(entry).count(b.line))) return false;
  return std::any_of(entry.outputs.begin(), entry.outputs.end(),
                     [&](const FencedBlock& o) { return b.end_line < o.line && b.end_line >= o.line - 2; });
}

// The block's configuration: the sub-heading above it, a short label
// paragraph right before it ("FP16:"), and the values its own command gives
// the keys the entry's commands vary.
namespace {

// The last line of a text that is not blank.
std::string LastLine(const std::string& text) {
  size_t end = text.find_last_not_of(" \t\r\n");
  if (end == std::string::npos) return "";
  const size_t nl = text.rfind('\n', end);
  return text.substr(nl == std::string::npos ? 0 : nl + 1, end + 1 - (nl == std::string::npos ? 0 : nl + 1));
}

// A profiler's report line right above a block (a line of its own, or the
// last line of the printout before it: "[4/7] Executing 'cuda_api_sum' stats
// report"): the report whose table the block prints, a workload of its own.
void ReportAbove(const Entry& entry, const FencedBlock& b, Config* cfg) {
  std::string name;
  for (const auto& p : entry.paragraphs)
    if (p.end_line < b.line && p.end_line >= b.line - 2 && ReportLine(LastLine(p.text), &name)) (*cfg)[kWorkloadKey] = name;
  for (const auto& o : entry.outputs)
    if (o.end_line < b.line && o.end_line >= b.line - 2 && ReportLine(LastLine(o.text), &name)) (*cfg)[kWorkloadKey] = name;
}

}  // namespace

Config BlockContext(const Entry& entry, const FencedBlock& b, const Config& context, const EntryCtx& x) {
  Config cfg = Under(entry, b.line, context, x);
  ReportAbove(entry, b, &cfg);
  for (const auto& p : entry.paragraphs) {
    if (p.end_line >= b.line || p.end_line < b.line - 2 || p.output_label || p.text.size() > 60 || p.text.back() != ':')
      continue;
    for (const auto& [k, v] : LabelConfig(p.text.substr(0, p.text.size() - 1), x.vars, x.fixed, x.generic, &x.feeds))
      cfg[k] = v;
  }
  const int before = b.line + (b.output_cue == "prompt" ? 1 : 0);
  int near_line = -1;
  std::string near;
  for (const auto& c : entry.commands)
    if (c.line < before && c.line >= near_line) near_line = c.line, near = c.joined;
  const int command_line = near_line;
  for (const auto& b : entry.notes) NearestSpanCommand(b, before, &near_line, &near);
  for (const auto& f : entry.fields)
    if (f.name != "Command") NearestSpanCommand(f.bullet, before, &near_line, &near);
  // A part under its own sub-heading that states its settings as bullets is
  // its own run: they key its blocks, and a command above that sub-heading
  // does not.
  int part = 0;
  const Config settings = PartSettings(entry, b.line, &part);
  if (!settings.empty() && near_line < part) near.clear(), near_line = -1;
  LabelAbove(entry, b.line, near_line, x, &cfg);
  for (const auto& [k, v] : settings) cfg[k] = v;
  if (near.empty()) return cfg;
  // A command of a bullet is no command of the entry's: all its flags key
  // the figures below it; a command's, the flags the entry's commands vary.
  const bool span = near_line != command_line;
  ParsedCommand pc;
  ParseCommand(near, &pc);
  for (const auto& [k, v] : pc.flags)
    if (span && v.find('$') == std::string::npos) cfg.emplace(k, v);  // a label nearer the block names its own
    else if (x.vars.count(k) && v.find('$') == std::string::npos) cfg[k] = v;
  if (span && pc.harnesses.empty())
    for (const auto& [k, v] : pc.program_flags)  // "vllm bench serve --request-rate 1": a program's own flags
      if (v.find('$') == std::string::npos && v.find("://") == std::string::npos && v.size() <= 40 && !PlaceholderValue(v))
        cfg.emplace(k, v);  // an address it serves at or reads from names no run
  const Config varied = pc.harnesses.empty() && !span ? VariedProgramFlags(entry, near, pc) : Config{};
  cfg.insert(varied.begin(), varied.end());
  if (std::string args = PositionalArgs(near); pc.flags.empty() && varied.empty() && !args.empty()) cfg["args"] = args;
  else if (args.empty() && pc.program_flags.empty() && OtherRunOfProgram(entry, near)) cfg["command"] = near;  // "./bench -units 625"
  return cfg;
}



namespace {

// The sentence that leads into output block `b`: a paragraph or a bullet
// ending at most three lines above it, below any earlier block and sub-heading of the
// entry, its parentheticals dropped; "" when none.
std::string LeadIn(const Entry& entry, const FencedBlock& b) {
  int floor = entry.heading_line;
  for (const auto& o : entry.outputs)
    if (o.end_line < b.line) floor = std::max(floor, o.end_line);
  for (const auto& h : entry.subheadings)
    if (h.line < b.line) floor = std::max(floor, h.line);
  std::string lead;
  int at = 0;
  for (const auto& p : entry.paragraphs)
    if (p.line > floor && p.end_line < b.line && p.end_line >= b.line - 3) lead = p.text, at = p.end_line;
  for (const auto& n : entry.notes)  // "- `engine-a` output:"
    if (n.children.empty() && n.line > floor && n.end_line < b.line && n.end_line >= b.line - 3 && n.end_line > at)
      lead = n.text, at = n.end_line;
  std::string out;
  int depth = 0;
  for (char c : lead) {
    if (c == '(') ++depth;
    else if (c == ')' && depth > 0) --depth;
    else if (depth == 0) out += c;
  }
  return TrimText(out);
}

// The words of `lead` that `other` does not hold, without short lower-case
// function words ("on", "my") and words that say "output": what names the
// block's setup ("linux machine" of "Sample output on my linux machine"
// beside "Sample result on a MacBook Pro"); with `short_words`, those
// function words too.
std::string OwnLeadWords(const std::string& lead, const std::string& other, bool short_words = false) {
  auto clean = [](std::string w) {
    while (!w.empty() && std::ispunct(static_cast<unsigned char>(w.back()))) w.pop_back();
    while (!w.empty() && std::ispunct(static_cast<unsigned char>(w.front()))) w.erase(0, 1);
    return w;
  };
  std::set<std::string> theirs;
  for (const auto& w : SpaceWords(other)) theirs.insert(Lower(clean(w)));
  std::string out;
  for (const auto& raw : SpaceWords(lead)) {
    const std::string w = clean(raw);
    const bool function_word = !short_words && w.size() <= 3 && std::all_of(w.begin(), w.end(), [](char c) { return std::islower(static_cast<unsigned char>(c)); });
    if (w.empty() || function_word || theirs.count(Lower(w)) || IsOutputLabelWord(w)) continue;
    out += (out.empty() ? "" : " ") + w;
  }
  return out;
}

}  // namespace

// Figures of one entry with one configuration and a metric in common,
// printed by two output blocks that the sentences leading into them tell
// apart (the same bench "on my linux machine (...)" and "on a MacBook Pro
// (...)"): each keyed `setup` (`case` when a sub-heading keys `setup`
// already) with the words of its sentence the other's does not share; never
// the whole sentence, never left as one row.
void SetupByLeadIn(const Entry& e, std::vector<RecordedFigure>* out) {
  if (e.outputs.size() < 2) return;
  auto block_of = [&](int line) {
    for (size_t k = 0; k < e.outputs.size(); ++k)
      if (e.outputs[k].line <= line && line <= e.outputs[k].end_line) return static_cast<int>(k);
    return -1;
  };
  std::map<Config, std::vector<size_t>> same;
  for (size_t i = 0; i < out->size(); ++i) same[(*out)[i].run.config].push_back(i);
  for (const auto& [cfg, ids] : same) {
    // A part's sub-heading keys `setup` already: the lead-ins key `case`.
    const std::string key = cfg.count("setup") ? "case" : "setup";
    if (ids.size() < 2 || cfg.count(key)) continue;
    std::map<std::string, int> metrics;  // metric -> figures holding it
    std::map<int, std::string> leads;     // block -> its lead-in
    for (size_t i : ids) {
      for (const auto& [m, v] : (*out)[i].run.metrics)
        if (!(*out)[i].run.derived.count(m)) ++metrics[m];
      const int k = block_of((*out)[i].line);
      leads[k] = k < 0 ? "" : LeadIn(e, e.outputs[static_cast<size_t>(k)]);
    }
    const bool clash = std::any_of(metrics.begin(), metrics.end(), [](const auto& m) { return m.second > 1; });
    if (!clash || leads.size() < 2 || std::any_of(leads.begin(), leads.end(), [](const auto& l) { return l.second.empty(); }))
      continue;
    std::map<int, std::string> values;
    std::set<std::string> distinct;
    for (const auto& [k, lead] : leads) {
      std::string others;
      for (const auto& [j, l] : leads)
        if (j != k) others += " " + l;
      values[k] = OwnLeadWords(lead, others);
      if (values[k].empty()) values[k] = OwnLeadWords(lead, others, true);  // "mit" beside "ohne": a short word tells them apart
      distinct.insert(values[k]);
    }
    if (distinct.size() != leads.size() ||
        std::any_of(values.begin(), values.end(), [](const auto& v) { return v.second.empty() || v.second.size() > 40; }))
      continue;
    for (size_t i : ids) (*out)[i].run.config[key] = values[block_of((*out)[i].line)];
  }
}

}  // namespace moelog::logbook::reader

namespace moelog::logbook::reader {

// The key a loop variable feeds in a command: `NAME=$t` or `--flag $t`
// (the flag's key), else the variable's own name.
std::string LoopKey(const std::string& cmd, const std::string& var, const ParsedCommand& pc) {
  const auto words = SpaceWords(cmd);
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    const size_t eq = w.find('=');
    const bool assigns = eq != std::string::npos && eq > 0 && StripVar(w.substr(eq + 1)) == var;
    if (assigns && w.find("=$") != std::string::npos) return SnakeKey(Lower(w.substr(w[0] == '-' ? w.find_first_not_of('-') : 0, eq)));
  }
  if (auto it = pc.feeds.find(NormalizeKey(var)); it != pc.feeds.end() && !it->second.empty()) return it->second;
  return var;
}

bool BlockLoop(const Entry& entry, const FencedBlock& b, std::string* key, std::vector<std::string>* values) {
  const int before = b.line + (b.output_cue == "prompt" ? 1 : 0);
  const CommandText* near = nullptr;
  for (const auto& c : entry.commands)
    if (c.line < before && (near == nullptr || c.line >= near->line)) near = &c;
  if (near == nullptr || near->line < b.line - 4) return false;
  ParsedCommand pc;
  ParseCommand(near->joined, &pc);
  if (pc.loops.size() != 1 || pc.loops.begin()->second.size() < 2) return false;
  *values = pc.loops.begin()->second;
  *key = LoopKey(near->joined, pc.loops.begin()->first, pc);
  return !key->empty();
}

// The figures of a block printed by a shell loop, one per value and alike
// otherwise ("for t in 1 4 8 16; do ... | grep mean; done"): each its value.
void LoopFigures(const Entry& entry, const FencedBlock& block, size_t from, std::vector<RecordedFigure>* out) {
  std::string key;
  std::vector<std::string> values;
  if (out->size() - from < 2 || !BlockLoop(entry, block, &key, &values) || values.size() != out->size() - from) return;
  for (size_t k = from + 1; k < out->size(); ++k) {
    const StoredRun& a = (*out)[from].run;
    const StoredRun& b = (*out)[k].run;
    if (a.config != b.config || a.metrics.size() != b.metrics.size() ||
        !std::equal(a.metrics.begin(), a.metrics.end(), b.metrics.begin(), [](const auto& p, const auto& q) { return p.first == q.first; }))
      return;
  }
  if ((*out)[from].run.config.count(key)) return;
  for (size_t k = from; k < out->size(); ++k) (*out)[k].run.config[key] = values[k - from];
}

}  // namespace moelog::logbook::reader
