#include "logbook/reader/blocks.h"
#include "logbook/reader/internal.h"
#include "logbook/reader/key_fields.h"

namespace moelog::logbook {

namespace reader {

// The run key of the modeled harness one of whose documented choices is
// `word` ("random" -> distribution, "compact_psum" -> ep_comm_path), when
// exactly one key has it. "" otherwise.
std::string ChoiceKey(const std::string& word) {
  std::string found;
  for (const auto& f : engine::BenchFlags())
    if (std::find(f.choices.begin(), f.choices.end(), word) != f.choices.end()) {
      if (!found.empty() && found != f.key) return "";
      found = f.key;
    }
  return found;
}

// A Config bullet "name: `a`, `b`" (a list of values) or "name: `a`": its
// key (the name in snake case; "kernels" is the harness's "kernel" when the
// entry's commands pass --kernel) and values. False for any other bullet.
bool ConfigList(const Bullet& b, const std::set<std::string>& flag_keys, std::string* key,
                std::vector<std::string>* values) {
  size_t colon = b.text.find(':');
  if (colon == std::string::npos || colon == 0 || b.code_spans.empty()) return false;
  std::string name = parse_detail::Trim(b.text.substr(0, colon));
  if (name.empty() || name.find('`') != std::string::npos || name.size() > 40) return false;
  for (char& c : name) c = c == ' ' ? '_' : c;
  *key = NormalizeKey(name);
  if (!flag_keys.count(*key) && key->size() > 1 && key->back() == 's' && flag_keys.count(key->substr(0, key->size() - 1)))
    key->pop_back();
  values->clear();
  for (const auto& span : b.code_spans) {
    if (span.empty() || span.find_first_of(" =") != std::string::npos) return false;
    values->push_back(span);
  }
  return true;
}

// Flags written alone in the Command field's prose, "the same with
// `--fp8-wire off`", "same as DISP-001 with `--dispatch-permute-mode
// repeat_sort`": each span one more invocation's flag (so a key the command
// sets and a span sets again is varied).
std::vector<std::pair<std::string, std::string>> FlagSpans(const Entry& e, const ParsedCommand& parsed) {
  std::vector<std::pair<std::string, std::string>> out;
  const ParsedCommand* pc = &parsed;
  const Field* f = e.FindField("Command");
  if (f == nullptr) return out;
  for (const auto& span : f->bullet.code_spans) {
    const auto w = Words(span);
    if (w.size() < 1 || w.size() > 2 || w[0].rfind("--", 0) != 0 || w[0].size() < 3) continue;
    std::string key = w[0].substr(2), value = w.size() == 2 ? w[1] : "true";
    if (size_t eq = key.find('='); eq != std::string::npos) value = key.substr(eq + 1), key = key.substr(0, eq);
    const bool known = std::any_of(pc->harnesses.begin(), pc->harnesses.end(), [](const std::string& h) {
      return DefaultLauncherTable().FindHarness(h) != nullptr;
    });
    out.emplace_back(pc->harnesses.empty() || known ? NormalizeKey(key) : SnakeKey(key), value);
  }
  return out;
}

// The entry's commands, read for flags: its command lines, and a Command
// written in a form the planner does not take for one.
ParsedCommand EntryCommands(const Entry& e) {
  ParsedCommand pc;
  for (const auto& c : e.commands) ParseCommand(c.joined, &pc);
  // A Command written in a form the planner does not take for a command line
  // (`sbatch job.sbatch`, a launcher it does not know) still names the
  // harness and its flags; the reader only reads it, nothing runs it.
  const Field* command = e.FindField("Command");
  // Its sub-bullets ("- Command(s):" over "- Non-EP: `... --queue-mode
  // both`") are read the same way.
  if (command != nullptr && e.commands.empty()) {
    std::vector<const Bullet*> todo = {&command->bullet};
    while (!todo.empty()) {
      const Bullet* b = todo.back();
      todo.pop_back();
      for (const auto& span : b->code_spans)
        if ((Words(span).size() >= 2 || !ScriptName(span).empty()) && span.rfind("--", 0) != 0)
          ParseCommand(span, &pc);  // "ran `bench_fp8.py` through the wrapper": the script names the harness
      for (const auto& c : b->children) todo.push_back(&c);
    }
  }
  if (command != nullptr && e.commands.size() <= 1) {
    // "`X=1 sbatch job.sbatch` vs default": the one command written is one
    // side of a comparison; its settings are not every figure's. Only the
    // harness is named.
    std::string prose;
    bool in_code = false;
    for (char ch : command->bullet.text) {
      if (ch == '`') in_code = !in_code;
      else if (!in_code) prose += ch;
    }
    if (prose.find(" vs ") != std::string::npos || prose.find(" vs. ") != std::string::npos) pc.flags.clear();
  }
  return pc;
}

FlagValues CollectFlagValues(const ParsedCommand& pc, const std::vector<std::pair<std::string, std::string>>& spans,
                             Vars* vars) {
  FlagValues fv;
  auto& values = fv.values;
  auto& count = fv.count;
  auto& invocations = fv.invocations;
  const auto& flags = pc.flags;
  const auto& loops = pc.loops;
  for (const auto& [k, v] : flags) invocations = std::max(invocations, ++count[k]), fv.flag_keys.insert(k);
  for (const auto& [k, v] : flags) {
    if (v.find('$') != std::string::npos) {
      auto it = loops.find(StripVar(v));
      if (it != loops.end()) (*vars)[k] = it->second;
      continue;
    }
    if (v.size() > 2 && v.front() == '{' && v.back() == '}' && v.find(',') != std::string::npos) {
      // "--quant-mode {none,int8}": a shell brace list, one run per value.
      std::vector<std::string> list;
      size_t p = 1;
      for (size_t c; (c = v.find(',', p)) != std::string::npos && c < v.size() - 1; p = c + 1) list.push_back(v.substr(p, c - p));
      list.push_back(v.substr(p, v.size() - 1 - p));
      (*vars)[k] = list;
      continue;
    }
    auto& vals = values[k];
    if (std::find(vals.begin(), vals.end(), v) == vals.end()) vals.push_back(v);
  }
  for (const auto& [k, v] : spans) {
    auto it = values.find(k);
    if (it != values.end() && std::find(it->second.begin(), it->second.end(), v) == it->second.end())
      it->second.push_back(v);  // the command's value and the span's: one run each
    else if (flags.empty() && !values.count(k))
      values[k] = {v}, count[k] = invocations = 1;  // no command: the span is the run's flag
  }
  return fv;
}

// Which flags are fixed (one value, every invocation) and which vary.
void SortFlagValues(const ParsedCommand& pc, bool generic, FlagValues* fv, Config* fixed, Vars* vars) {
  auto& count = fv->count;
  const size_t invocations = fv->invocations;
  for (const auto& [k, vals] : fv->values) {
    if (vals.size() == 1 && vals.front() == "both" && !vars->count(k)) {
      (*vars)[k] = BothValues(k);  // one invocation sweeps the key itself
      continue;
    }
    if (IsBoolFlag(k) && count[k] < invocations) {
      (*vars)[k] = {"false", "true"};  // given to some invocations only
      continue;
    }
    if (k.size() > 5 && k.compare(k.size() - 5, 5, "_list") == 0 && vals.size() == 1) {
      // --topk-list 1,2,4, --ep-list 1,2,4: one run per value of the key.
      const std::string base = k.substr(0, k.size() - 5);
      if (!vars->count(base)) (*vars)[base] = SplitList(vals.front());
    } else if (k == "null_route_sweep") {
      if (!vars->count("null_route_frac"))
        (*vars)["null_route_frac"] = {"0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9"};
    } else if (vars->count(k)) {
      continue;
    } else if (pc.conditional.count(k)) {
      // `if [ "$pm" = ep ]; then extra="--ep-comm-path ring_ag_rs"; fi`: the
      // runs of one branch only; a figure names it ("EP ring") or leaves it open.
      (*vars)[k] = vals;
    } else if (generic && vals.size() == 1 && vals.front().find(',') != std::string::npos) {
      (*vars)[k] = SplitList(vals.front());  // "--modes bf16,fp8gemm": one run per value
    } else if (vals.size() == 1 && count[k] == invocations) {
      (*fixed)[k] = vals.front();
    } else if (vals.size() > 1) {
      (*vars)[k] = vals;  // in the order the commands give them: the first command's first
      fv->commands_vary.insert(k);
    }
  }
}

std::string Lower(std::string w) { return LowerAscii(w); }

// Words that tell a sentence restates a figure of earlier work, or derives
// one, rather than recording this entry's run: "v143 remains the stable
// reference at 22.3%", "sealed baseline", "comparison point", "from the
// previous section", "baseline for context", "implied bandwidth".
bool RestatingWord(const std::string& w) {
  static const std::set<std::string> k = {"remains", "remained", "stays", "stayed", "sealed", "comparison",
                                          "reference", "earlier", "previous", "prior", "restated", "historical",
                                          "context", "implied", "projected", "projection", "estimated"};
  return k.count(Lower(w)) > 0;
}

// A Config bullet's keys ("tokens=32768", "routing distributions tested:
// `random`, `runs`") that the commands do not vary.
void ConfigBullet(const Bullet& b, bool generic, const std::set<std::string>& flag_keys, Config* fixed, Vars* vars) {
  for (const auto& w : Words(b.text))
    if (RestatingWord(w)) return;  // "comparison against the sealed baseline with `shared=2048`"
  RunKeys keys;
  keys.any = generic;
  keys.recorded = flag_keys;
  for (auto [key, v] : ConfigWords(b.text, keys)) {
    std::string k = key;
    k.erase(0, k.find_first_not_of('_'));  // "--xla_flag=false" written as a Config word
    if (k.empty()) continue;
    if (vars->count(k)) continue;
    if (std::vector<std::string> both = BothValues(k); v == "both" && both.size() > 1) (*vars)[k] = both;
    else (*fixed)[k] = v;
  }
  std::string key;
  std::vector<std::string> list;
  if (!ConfigList(b, flag_keys, &key, &list)) return;
  if (!generic && !IsRunKey(key)) {
    // "routing distributions tested: `random`, `runs`": the run key whose
    // documented choices they are.
    std::string ck = list.empty() ? "" : ChoiceKey(list.front());
    for (const auto& v : list)
      if (ChoiceKey(v) != ck) ck.clear();
    if (ck.empty()) return;
    key = ck;
  }
  if (vars->count(key) || fixed->count(key)) return;  // the command says it
  if (list.size() == 1) (*fixed)[key] = list.front();
  else (*vars)[key] = list;
}

// Keys a Command bullet gives to some arms of an arrow chain and not to
// others ("control → `fused=true` → `fused=true` + `NCCL_ALGO=ring`"): they
// tell the arms apart, so no figure of the entry has them all along. Short
// spans and words are read; a whole command line in a span is not an arm.
std::set<std::string> ArmChainKeys(const Entry& e) {
  std::set<std::string> varied;
  const Field* f = e.FindField("Command");
  if (f == nullptr) return varied;
  std::string t;  // each arrow ("→", "->") as one '\x01'
  const std::string& s = f->bullet.text;
  for (size_t i = 0; i < s.size();) {
    const size_t arrow = s.compare(i, 3, "\xE2\x86\x92") == 0 ? 3 : s.compare(i, 2, "->") == 0 ? 2 : 0;
    t += arrow ? '\x01' : s[i];
    i += arrow ? arrow : 1;
  }
  std::vector<std::set<std::string>> arms;
  for (const std::string& seg : SplitList(t, '\x01')) {
    std::set<std::string> keys;
    bool in_code = false;
    std::string span;
    for (char c : seg + "`") {
      if (c != '`') { span += c; continue; }
      const auto w = Words(span);
      if (!in_code || w.size() <= 2)
        for (const auto& word : w) {
          std::string key = word.substr(0, std::min(word.find('='), word.size()));
          key.erase(0, key.find_first_not_of('-'));  // "--fused=true", "fused=true", "--fused"
          if (!key.empty() && (word.find('=') != std::string::npos || word.rfind("--", 0) == 0)) keys.insert(NormalizeKey(key));
        }
      span.clear();
      in_code = !in_code;
    }
    arms.push_back(keys);
  }
  if (arms.size() < 2) return varied;
  for (const auto& a : arms)
    for (const auto& k : a)
      if (std::any_of(arms.begin(), arms.end(), [&](const std::set<std::string>& o) { return !o.count(k); }))
        varied.insert(k);
  return varied;
}

// Fixed config and varied keys of an entry from its commands and Config
// field. A flag is fixed when every invocation gives it the same value.
// `generic` is set when the entry runs scripts moelog has no adapter for:
// their flags are read as the script spells them.
// `feeds`: the loop variables that feed one flag each (`for factor in ...;
// --capacity-factor "$factor"` gives factor -> capacity_factor).
void EntryConfig(const Entry& e, Config* fixed, Vars* vars, bool* generic, bool* known_harness, Config* feeds,
                 std::set<std::string>* commands_vary) {
  ParsedCommand pc = EntryCommands(e);
  const auto spans = FlagSpans(e, pc);
  for (const auto& [var, key] : pc.feeds)
    if (!key.empty()) (*feeds)[var] = key;
  bool known = false;
  for (const auto& h : pc.harnesses) known = known || DefaultLauncherTable().FindHarness(h) != nullptr;
  // A harness moelog has no adapter for, or none named at all (`sbatch
  // job.sbatch`, a job number): the entry's own words name its keys.
  *generic = !known;
  *known_harness = known;
  FlagValues fv = CollectFlagValues(pc, spans, vars);
  SortFlagValues(pc, *generic, &fv, fixed, vars);
  *commands_vary = fv.commands_vary;
  for (const auto& c : e.commands) AdapterRunKeys(c.joined, vars);
  for (const auto& [k, v] : *vars) fixed->erase(k);
  if (const Field* f = e.FindField("Config")) {
    ConfigBullet(f->bullet, *generic, fv.flag_keys, fixed, vars);
    for (const auto& c : f->bullet.children) ConfigBullet(c, *generic, fv.flag_keys, fixed, vars);
  }
  SettingsListConfig(e, *vars, fixed);  // "- **params**:" over "- block_k: 256"
  for (const std::string& k : ArmChainKeys(e))
    for (auto it = fixed->begin(); it != fixed->end();) it = NormalizeKey(it->first) == k ? fixed->erase(it) : std::next(it);
  if (*generic && pc.harnesses.size() == 1) (*fixed)["harness"] = pc.harnesses.front();
  if (std::string a = EntryAccelerator(e); !a.empty()) (*fixed)["accelerator"] = a;
}

namespace {

// A value's form: letters as 'a', digit runs as '9', other characters as
// written ("v0.9.53" and "v0.9.51" share "a9.9.9"; "1024x1024" is "9x9").
std::string ValueForm(const std::string& v) {
  std::string out;
  for (char c : v) {
    const char k = std::isdigit(static_cast<unsigned char>(c)) ? '9' : std::isalpha(static_cast<unsigned char>(c)) ? 'a' : c;
    if (out.empty() || out.back() != k || (k != 'a' && k != '9')) out += k;
  }
  return out;
}

// A value's characters: letters, digits, "._-/+" and a multiplication sign
// ("1024×1024"); no arrow, colon or markup.
bool ValueToken(const std::string& v) {
  for (size_t i = 0; i < v.size(); ++i) {
    if (v.compare(i, 2, "\xC3\x97") == 0) {
      ++i;
      continue;
    }
    if (!std::isalnum(static_cast<unsigned char>(v[i])) && std::string("._-/+").find(v[i]) == std::string::npos) return false;
  }
  return true;
}

// One line "Name: value" that states a setting: a name of one to three
// words that is no unit ("Cycles: 5120" is a figure), and a value that is a
// code span (a parenthetical after it aside) or one token with a digit
// ("1024x1024", "v1.4.2", "256"), never a date, a time, a figure or a sentence.
bool SettingLine(const std::string& line, std::string* key, std::string* value) {
  const size_t colon = line.find(':');
  if (colon == std::string::npos || colon == 0 || colon > 40 || StatesFigure(line)) return false;
  const std::string name = parse_detail::Trim(line.substr(0, colon));
  const auto name_words = Words(name);
  if (name_words.empty() || name_words.size() > 3 || !LabelUnitOf(name).empty() || prose::NoRunLead(name) ||
      !std::all_of(name.begin(), name.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == ' '; }))
    return false;
  std::string rest = parse_detail::Trim(line.substr(colon + 1));
  if (const size_t open = rest.find(" ("); open != std::string::npos && rest.back() == ')') rest = parse_detail::Trim(rest.substr(0, open));
  if (rest.size() > 2 && rest.front() == '`' && rest.back() == '`' && rest.find('`', 1) == rest.size() - 1) {
    *value = rest.substr(1, rest.size() - 2);
  } else if (Words(rest).size() == 1 && rest.find_first_of("0123456789") != std::string::npos &&
             ValueForm(rest) != "9-9-9" && ValueToken(rest)) {
    *value = rest;
  } else {
    return false;
  }
  *key = SnakeKey(name);
  return !key->empty() && !value->empty() && value->size() <= 40 && value->find(' ') == std::string::npos;
}

// The values a table names of its own: its header cells and first column.
std::vector<std::string> TableNames(const TableBlock& t) {
  std::vector<std::string> out = t.header;
  for (const auto& r : t.rows)
    if (!r.empty()) out.push_back(r.front());
  return out;
}

}  // namespace

// Lines of the entry's paragraphs that state its settings ("**Kernel:**
// `conv_tiled` (8x8 tile)", "**Matrix Size:** 1024x1024"; SettingLine) key
// every figure below them that names no value for that key, except the
// figures of a table that names its own values of that form (a table of
// versions under "**Version:** v1.4.2"; a plain number has no form).
void FieldLineKeys(const Entry& entry, std::vector<RecordedFigure>* out) {
  struct Setting {
    int line;
    std::string key, value;
  };
  std::vector<Setting> settings;
  for (const auto& p : entry.paragraphs)
    for (size_t s = 0, nl = 0; s < p.text.size(); s = nl) {
      nl = p.text.size();
      for (size_t b : p.line_starts)
        if (b > s) nl = std::min(nl, b);
      std::string key, value;
      if (SettingLine(parse_detail::Trim(p.text.substr(s, nl - s)), &key, &value)) settings.push_back({p.LineAt(s), key, value});
    }
  if (settings.empty()) return;
  for (auto& f : *out) {
    const TableBlock* table = nullptr;
    for (const auto& t : entry.tables)
      if (t.line <= f.line && f.line <= t.end_line) table = &t;
    const std::vector<std::string> names = table != nullptr ? TableNames(*table) : std::vector<std::string>{};
    std::map<std::string, std::string> own;  // the last setting above the figure, by key
    for (const auto& st : settings)
      if (st.line < f.line) own[st.key] = st.value;
    for (const auto& [k, v] : own) {
      // A plain number has no form of its own: a column of it keys its rows itself.
      const std::string form = ValueForm(v) == "9" ? "" : ValueForm(v);
      const bool named = std::any_of(names.begin(), names.end(), [&](const std::string& c) {
        for (const auto& w : Words(c))
          if (ValueForm(w) == form) return true;
        return false;
      });
      if (!named) f.run.config.emplace(k, v);
    }
  }
}

}  // namespace reader

}  // namespace moelog::logbook
