
#include "logbook/reader/data_words.h"
#include "logbook/reader/figures_output_words.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook {

namespace reader {

// The key whose varied values include `word`, if exactly one.
std::string KeyOfValue(const Vars& vars, const std::string& word) {
  std::string found;
  for (const auto& [k, vals] : vars)
    for (const auto& v : vals)
      if (v == word) {
        if (!found.empty() && found != k) return "";
        found = k;
      }
  return found;
}

// The varied value `word` names for `key`: itself, or the one value whose
// first part it is ("ref" for "ref_dp", "staged" for "staged_dp"), when
// exactly one value of one key starts so.
bool ShortValue(const Vars& vars, const std::string& word, std::string* key, std::string* value) {
  if (!KeyOfValue(vars, word).empty() || word.size() < 3) return false;
  int hits = 0;
  for (const auto& [k, vals] : vars)
    for (const auto& v : vals)
      if (v.size() > word.size() + 1 && v.compare(0, word.size(), word) == 0 && v[word.size()] == '_')
        ++hits, *key = k, *value = v;
  return hits == 1;
}

// The one numeric key the entry varies or sets whose name starts with
// `prefix` ("d" of "d26" beside --depth=24), or "" (none, or several:
// "d" beside depth and dim names neither).
std::string AbbreviatedKey(const std::string& prefix, const Vars& vars, const Config* fixed) {
  if (prefix.empty() || prefix.size() > 3 || !std::all_of(prefix.begin(), prefix.end(), [](char c) {
        return std::isalpha(static_cast<unsigned char>(c));
      }))
    return "";
  std::set<std::string> found;
  auto look = [&](const std::string& key, const std::vector<std::string>& values) {
    if (key.size() <= prefix.size() || key.compare(0, prefix.size(), prefix) != 0 || key == "harness" ||
        key == "accelerator" || NeutralKeyName(key) || values.empty())
      return;
    if (std::all_of(values.begin(), values.end(), [](const std::string& v) { return ParseNumber(v).has_value(); }))
      found.insert(key);
  };
  for (const auto& [k, vals] : vars) look(k, vals);
  if (fixed)
    for (const auto& [k, v] : *fixed) look(k, {v});
  return found.size() == 1 ? *found.begin() : "";
}

// `topk8` -> {topk, 8}.
bool KeyDigits(const std::string& w, const Vars& vars, std::string* key, std::string* value,
               const Config* fixed) {
  size_t d = w.size();
  while (d > 0 && std::isdigit(static_cast<unsigned char>(w[d - 1]))) --d;
  if (d == 0 || d == w.size()) return false;
  std::string k = NormalizeKey(w.substr(0, d));
  // "EP8" names ep=8 when the entry varies ep, or sets it (a row of a table
  // may name another value than the command: "EP8 2 nodes" beside --ep 4).
  if (!vars.count(k) && k != "topk" && !(fixed && fixed->count(k))) k = AbbreviatedKey(k, vars, fixed);
  if (k.empty()) return false;
  *key = k;
  *value = w.substr(d);
  return true;
}

// "2048/2048": numbers joined by '/' name shape keys in the order a shape is
// written (tokens, hidden, mlp_dim, experts, topk, shared), each part a value
// the entry runs for its key, when exactly one assignment fits. Empty
// otherwise ("3072/3072" in an entry that only runs 2048 is a case name).
Config ShapeLabel(const std::string& w, const Vars& vars, const Config& fixed) {
  std::vector<std::string> parts;
  // "2048/2048" or "32768x2048x1408x60".
  const char sep = w.find('/') != std::string::npos ? '/' : 'x';
  std::stringstream ss(w);
  for (std::string p; std::getline(ss, p, sep);) {
    if (p.empty() || !std::all_of(p.begin(), p.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
      return {};
    parts.push_back(p);
  }
  if (parts.size() < 2) return {};
  std::vector<std::string> keys;
  Vars values;  // shape key -> the values the entry runs (varied or fixed)
  for (const char* k : {"tokens", "hidden", "mlp_dim", "experts", "topk", "shared_expert_dim"}) {
    if (vars.count(k)) values[k] = vars.at(k);
    else if (fixed.count(k)) values[k] = {fixed.at(k)};
    else continue;
    keys.push_back(k);
  }
  // Every way to give the parts, in order, to varied keys holding them: one way only.
  std::vector<Config> ways;
  std::function<void(size_t, size_t, Config)> assign = [&](size_t part, size_t from, Config cfg) {
    if (part == parts.size()) {
      ways.push_back(cfg);
      return;
    }
    for (size_t k = from; k < keys.size(); ++k) {
      const auto& vals = values.at(keys[k]);
      if (std::find(vals.begin(), vals.end(), parts[part]) == vals.end()) continue;
      Config next = cfg;
      next[keys[k]] = parts[part];
      assign(part + 1, k + 1, next);
    }
  };
  assign(0, 0, {});
  return ways.size() == 1 ? ways[0] : Config{};
}

// "shared-fused" names the boolean flag shared_fused when the entry varies
// it: true; "non-fused" / "no-shared-fused": false.
// "custom_vjp" names use_custom_sort_vjp: the word's '_' parts (two or
// more) appear in the key's parts in order, the last parts equal.
bool PartsName(const std::string& w, const std::string& k) {
  auto parts = [](const std::string& s) {
    std::vector<std::string> out(1);
    for (char c : s) {
      if (c == '_') out.emplace_back();
      else out.back().push_back(c);
    }
    return out;
  };
  const std::vector<std::string> a = parts(w), b = parts(k);
  if (a.size() < 2 || a.size() > b.size() || a.back() != b.back() || a.back().empty()) return false;
  size_t j = 0;
  for (const std::string& p : b)
    if (j < a.size() && !a[j].empty() && p == a[j]) ++j;
  return j == a.size();
}

bool BoolWord(const std::string& word, const Vars& vars, std::string* key, std::string* value) {
  std::string w = NormalizeKey(word);
  bool negated = false;
  for (const char* p : {"non_", "no_", "without_"})
    if (w.rfind(p, 0) == 0) {
      w = w.substr(std::strlen(p));
      negated = true;
      break;
    }
  std::string found;
  for (const auto& [k, vals] : vars) {
    if (!IsBoolFlag(k)) continue;
    const bool names = k == w || (k.size() > w.size() && k.compare(k.size() - w.size(), w.size(), w) == 0 &&
                                  k[k.size() - w.size() - 1] == '_') ||
                       PartsName(w, k);
    if (!names) continue;
    if (!found.empty()) return false;
    found = k;
  }
  if (found.empty()) return false;
  *key = found;
  *value = negated ? "false" : "true";
  return true;
}

// Config from a bullet label: k=v words, bare varied values, topk8 words,
// anything else as "case".
// A word that repeats a value every run of the entry has ("forward" when the
// entry runs --bench-pass forward only) names no variant.
bool IsFixedValue(const Config& fixed, const std::string& word) {
  for (const auto& [k, v] : fixed)
    if (v == word) return true;
  return false;
}

// A label's k=v words: run keys, keys the entry's commands vary or fix,
// and any key of a harness moelog has no adapter for. The one-letter names
// researchers write for shape keys (E=64, K=4, T=32768) stand for experts,
// topk and tokens when the entry has that key.
Config LabelWords(const std::string& label, const Vars& vars, const Config& fixed, bool generic,
                  const Config* feeds) {
  Config out;
  std::string t;
  for (char ch : SplitJoinedPairs(label)) t += (ch == '`' || ch == '(' || ch == ')' || ch == ',' || ch == ';') ? ' ' : ch;
  static const std::map<std::string, std::string> kShort = {{"e", "experts"}, {"k", "topk"}, {"t", "tokens"}};
  for (const auto& w : Words(t)) {
    size_t eq = w.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 >= w.size()) continue;
    // "`torchrun --nproc_per_node=8`" in a label: a flag of a command
    // written there, maybe a launcher's; a key only when the entry's
    // commands know it, never a key of its own.
    const size_t dashes = w.find_first_not_of('-');
    if (dashes >= eq) continue;
    std::string key = NormalizeKey(w.substr(dashes, eq - dashes));
    std::string value = w.substr(eq + 1);
    while (!value.empty() && (value.back() == '.' || value.back() == ':')) value.pop_back();
    if (value.empty()) continue;
    if (auto it = kShort.find(key); it != kShort.end() && (vars.count(it->second) || fixed.count(it->second)))
      key = it->second;
    if (feeds != nullptr && !IsRunKey(key) && !vars.count(key) && !fixed.count(key))
      if (auto it = feeds->find(key); it != feeds->end()) key = it->second;  // "factor=1.0": the loop variable's flag
    if (IsRunKey(key) || vars.count(key) || fixed.count(key) || (generic && dashes == 0)) out[key] = value;
  }
  return out;
}

// The varied value a word names, ignoring case ("EP" for "ep"); a "Non-"
// word names the other value of a two-valued key whose other value is
// "none" ("Non-EP" when parallel_mode runs none and ep).
bool LooseValue(const Vars& vars, const std::string& word, std::string* key, std::string* value) {
  std::string w;
  for (char c : word) w += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  bool negated = false;
  for (const char* p : {"non-", "non_", "no-"})
    if (w.rfind(p, 0) == 0 && w.size() > std::strlen(p)) {
      w = w.substr(std::strlen(p));
      negated = true;
      break;
    }
  std::string k = KeyOfValue(vars, w);
  if (k.empty()) return false;
  if (!negated) {
    *key = k;
    *value = w;
    return true;
  }
  const auto& vals = vars.at(k);
  if (vals.size() != 2 || std::find(vals.begin(), vals.end(), "none") == vals.end() || w == "none") return false;
  *key = k;
  *value = "none";
  return true;
}

// Words of a label that say nothing about the configuration.
bool FillerWord(const std::string& w) {
  static const std::set<std::string> k = {"result", "results", "Result", "Results", "run",
                                          "measured", "numbers", "total", "Total", "overall"};
  return k.count(w) > 0;
}

// Where a label's name ends and its prose starts: a dash ("Fused kernel —
// tiny pointwise kernel") or a word that starts a clause ("cap1.0 static
// interrupted at step 300 due to pause"). A case is a name, never a sentence.
// The words are data: name_end_words of data/reader/vocabulary.json (dashes,
// conjunctions and the verbs a finding is written with: "sin/256 is the
// worst", "inv scales excellently").
bool NameEnds(const std::string& w) {
  static const std::set<std::string> k = DataWords("data/reader/vocabulary.json", "name_end_words", /*lower=*/false);
  return k.count(w) > 0 || k.count(Lower(w)) > 0;
}

// "global mean step latency:": a label ending in a metric's word names the
// metric of its figures, never a case of the run.
bool NamesMetric(const std::vector<std::string>& words) {
  return !words.empty() && MetricWord(Lower(words.back())) && Lower(words.back()) != "tokens";
}

// Whether a word holds a letter of a script past ASCII (Cyrillic "среднее",
// Korean, Chinese, accented Latin): UTF-8 lead bytes of letters, not of the
// punctuation, arrows and signs a label joins its words with ("—", "→", "×").
bool ScriptLetter(const std::string& w) {
  for (size_t i = 0; i + 1 < w.size(); ++i) {
    const auto b0 = static_cast<unsigned char>(w[i]), b1 = static_cast<unsigned char>(w[i + 1]);
    if (b0 >= 0xC3 && b0 <= 0xDF && !(b0 == 0xC3 && (b1 == 0x97 || b1 == 0xB7))) return true;  // not × ÷
    if (b0 >= 0xE3 && b0 <= 0xEE && !(b0 == 0xE3 && b1 == 0x80)) return true;  // not CJK punctuation
    if (b0 >= 0xF0) return true;
  }
  return false;
}

// A word of no letter or digit ("+", "—"): it joins a label's words.
bool Joiner(const std::string& w) {
  return std::none_of(w.begin(), w.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)); }) &&
         !ScriptLetter(w);
}

// "random/full": every part a varied value, each into `cfg`; false (and
// nothing set) when a part is none.
bool SlashValues(const std::string& w, const Vars& vars, Config* cfg) {
  std::stringstream ss(w);
  Config sub;
  for (std::string p; std::getline(ss, p, '/');) {
    const std::string k = KeyOfValue(vars, p);
    if (k.empty()) return false;
    sub[k] = p;
  }
  cfg->insert(sub.begin(), sub.end());
  return true;
}

// "Request rate 16", "batch size 64": a flag of the entry's command written
// in words (two or three), then its value: that value of the flag, for the
// figures under the label. How many words it takes (0: none).
size_t SpelledFlag(const std::vector<std::string>& words, size_t wi, const Config& fixed, Config* cfg) {
  for (size_t n = 3; n >= 2; --n) {
    if (wi + n >= words.size()) continue;
    std::string key;
    for (size_t k = wi; k < wi + n; ++k) {
      if (!key.empty()) key.push_back('_');
      key.append(NormalizeKey(words[k]));
    }
    const std::string& v = words[wi + n];
    if (!fixed.count(key) || v.empty() || !std::isdigit(static_cast<unsigned char>(v[0]))) continue;
    (*cfg)[key] = v.back() == ':' ? v.substr(0, v.size() - 1) : v;
    return n + 1;
  }
  return 0;
}

// Whether a parenthetical counts the repeats a figure was measured over
// ("3 runs", "n=5", "median of 7 trials"; repeat_count_nouns of
// data/reader/vocabulary.json): a note on the measurement, no name.
static bool RepeatCount(const std::string& inner) {
  static const auto* nouns = new std::set<std::string>(DataWords("data/reader/vocabulary.json", "repeat_count_nouns"));
  const std::vector<std::string> w = Words(Lower(inner));
  auto number = [](const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
  };
  if (w.size() == 1) return w[0].size() > 2 && w[0].rfind("n=", 0) == 0 && number(w[0].substr(2));
  return w.size() >= 2 && w.size() <= 4 && number(w[w.size() - 2]) && nouns->count(w.back()) > 0;
}

// The label without its parentheticals that count repeats ("Before (3
// runs)" is "Before"); none for a label that only counts them (a field's
// qualifier "3 runs").
static std::string WithoutRepeatCounts(const std::string& label) {
  if (RepeatCount(label)) return "";
  std::string out = label;
  size_t from = 0;
  for (size_t open; (open = out.find('(', from)) != std::string::npos;) {
    const size_t close = out.find(')', open);
    if (close == std::string::npos) break;
    if (RepeatCount(out.substr(open + 1, close - open - 1))) out.erase(open, close - open + 1), from = open;
    else from = open + 1;
  }
  return out;
}

Config LabelConfig(const std::string& written, const Vars& vars, const Config& fixed, bool generic,
                   const Config* feeds) {
  const std::string label = WithoutRepeatCounts(written);
  Config cfg = LabelWords(label, vars, fixed, generic, feeds);
  std::vector<std::string> rest, kept;
  std::string t;
  for (char c : label) t += (c == ',' || c == '(' || c == ')') ? ' ' : c;
  const std::vector<std::string> words = Words(t);
  bool named = false;  // the name has ended: later words are prose, not the case
  for (size_t wi = 0; wi < words.size(); ++wi) {
    const std::string& w = words[wi];
    if (w.find('=') != std::string::npos) continue;
    if (const size_t n = SpelledFlag(words, wi, fixed, &cfg); n > 0) {
      wi += n - 1;
      continue;
    }
    named = named || (wi > 0 && NameEnds(w));  // after a name's first word, its keys' words too
    std::string key, value;
    if (FillerWord(w)) continue;
    if (std::string k = KeyOfValue(vars, w); !k.empty()) {
      cfg[k] = w;
    } else if (std::string ck = generic ? "" : ChoiceKey(w);
               !ck.empty() && wi + 1 < words.size() && NormalizeKey(words[wi + 1]) == ck) {
      cfg[ck] = w;  // "random distribution": a choice of the flag its next word names
      ++wi;
    } else if (KeyDigits(w, vars, &key, &value, &fixed) || BoolWord(w, vars, &key, &value) ||
               ShortValue(vars, w, &key, &value)) {
      cfg[key] = value;
    } else if (std::string ck = generic || words.size() > 2 ? "" : ChoiceKey(w);
               !ck.empty() && fixed.count(ck) && !IsFixedValue(fixed, w)) {
      cfg[ck] = w;  // "prequeue:"; in a longer phrase ("same traced runs") the word is prose
    } else if (Config shape = ShapeLabel(w, vars, fixed); !shape.empty()) {
      cfg.insert(shape.begin(), shape.end());
    } else if (w.find('/') != std::string::npos) {
      if (SlashValues(w, vars, &cfg)) continue;
      rest.push_back(w);
      UnitInfo unit;
      if (!named && !AnyUnit(w, &unit)) kept.push_back(w);  // "sin/256" names the run; "TF/s" its figures' unit
    } else if (LooseValue(vars, w, &key, &value)) {
      cfg[key] = value;
    } else if (IsFixedValue(fixed, w) || Joiner(w)) {
      if (!named) kept.push_back(w);  // "(ring_ag_rs)" when every run uses it, a joiner "+": a case only beside other words
    } else if (UnitInfo u{}; wi > 0 && wi + 1 == words.size() && w.size() >= 2 && AnyUnit(w, &u) && !u.derived &&
                             !std::isdigit(static_cast<unsigned char>(words[wi - 1][0]))) {
      rest.push_back(w);  // "tick duration ms": the unit the label names is no part of the case ("memset 4 KB" keeps its size)
    } else {
      rest.push_back(w);
      if (!named) kept.push_back(w);
    }
  }
  if (NamesMetric(words)) rest.clear();
  if (!rest.empty() && !kept.empty()) {  // prose after keys only ("tokens=4096 is slowest") names no case
    std::string c;
    for (const auto& r : kept) c += (c.empty() ? "" : " ") + r;
    while (c.size() > 1 && c.back() == ':') c.pop_back();  // "CUTE_FMHA:" before its figures: the name, not its colon
    cfg["case"] = c;
  }
  return cfg;
}

// "939.7TF", "9000.0TF", "1.294B)": digits, a point, digits, then a unit
// of two letters or more, or one cut from a sentence with its ")"; not
// "1.5x" or "1.5B" (a factor or a size a setting names), "1.65e-06",
// "v0.9.51" or "2.1.0+cu121".
static bool FigureValue(const std::string& v) {
  size_t i = 0;
  while (i < v.size() && std::isdigit(static_cast<unsigned char>(v[i]))) ++i;
  if (i == 0 || i >= v.size() || v[i] != '.') return false;
  const size_t point = i++;
  while (i < v.size() && std::isdigit(static_cast<unsigned char>(v[i]))) ++i;
  if (i == point + 1) return false;
  const size_t unit = i;
  while (i < v.size() && std::isalpha(static_cast<unsigned char>(v[i]))) ++i;
  const size_t letters = i - unit;
  const bool paren = i < v.size() && v[i] == ')';  // cut from a sentence: "(... N=1.294B)"
  i += paren ? 1 : 0;
  // One letter alone is a magnitude a setting may be written with ("1.5B" of a model).
  return i == v.size() && (letters >= 2 || (letters == 1 && paren)) && v[unit] != 'e' && v[unit] != 'E';
}

void DropFigureKeys(std::vector<RecordedFigure>* out) {
  for (auto& f : *out)
    for (auto it = f.run.config.begin(); it != f.run.config.end();)
      it = FigureValue(it->second) ? f.run.config.erase(it) : std::next(it);
}

// "Pass 1: 41.20ms" read as metric (or case, variant) "Pass 1": a repeat
// counter (repeat_names, counter_names of output.json) is a key of its
// own, pass=1, unless the figure has that key already.
void CounterKeys(std::vector<RecordedFigure>* out) {
  const auto& words = OutputVocabulary();
  for (auto& f : *out) {
    for (const char* name : {"metric", "case", "variant"}) {
      auto it = f.run.config.find(name);
      if (it == f.run.config.end()) continue;
      const auto w = SpaceWords(it->second);
      if (w.size() != 2 || w[1].empty() || !std::all_of(w[1].begin(), w[1].end(), [](char c) {
            return std::isdigit(static_cast<unsigned char>(c));
          }))
        continue;
      const std::string counter = Lower(w[0]);
      if ((!words.repeat_names.count(counter) && !words.counters.count(counter)) || f.run.config.count(counter))
        continue;
      f.run.config[counter] = w[1];
      f.run.config.erase(it);
    }
  }
}

}  // namespace reader

}  // namespace moelog::logbook
