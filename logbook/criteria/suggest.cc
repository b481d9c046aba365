#include "logbook/criteria/suggest.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <cstdint>
#include <optional>
#include <set>
#include <unordered_map>
#include <vector>

#include "engine/target.h"
#include "logbook/criteria/criteria.h"
#include "logbook/criteria/recorded.h"
#include "logbook/doc/markdown.h"
#include "logbook/numbers.h"
#include "logbook/store/stored_run.h"

namespace moelog::logbook {
namespace {

constexpr size_t kMaxSentence = 4000;  // longer prose is read up to here

// The values researchers name in prose, by config key (the harness's choices).
const std::vector<std::pair<std::string, std::vector<std::string>>>& Vocabulary() {
  static const std::vector<std::pair<std::string, std::vector<std::string>>> kVocab = {
      {"parallel_mode", {"none", "ep", "dp"}},
      {"quant_mode", {"none", "int8", "int8_routed", "int8_all", "int8_routed_prequant"}},
      {"backend", {"gmm", "ragged_dot"}},
      {"impl", {"baseline", "fused_w13", "preweight", "fused_w13_preweight", "scatter", "fast"}},
      {"routing_pack_strategy", {"argsort", "tuple_sort", "expert_score_sort"}},
      {"remat_mode", {"none", "expert_mlp", "combine"}},
      {"queue_mode", {"full", "prequeue"}},
      {"distribution", {"random", "runs"}},
      {"bench_pass", {"forward", "forward_backward"}},
      {"ep_comm_path", {"compact_psum", "ring_ag_rs", "a2a"}},
      {"ep_dispatch", {"compact", "dense_masked"}},
      {"capacity_policy", {"drop", "pad"}},
      {"mlp_path", {"ref_dp", "staged_dp", "fused_ep"}},
  };
  return kVocab;
}

// Values that are also everyday words: read only as `key=value` or as a
// side of a comparison, never as a condition on their own.
bool CommonWord(const std::string& w) {
  static const std::set<std::string> kCommon = {"none", "runs", "random", "full", "fast", "both", "baseline",
                                                "forward", "combine", "scatter", "drop", "pad", "dp"};
  return kCommon.count(w) > 0;
}

std::vector<std::string> KeysOfValue(const std::string& v) {
  std::vector<std::string> keys;
  for (const auto& [k, vals] : Vocabulary())
    if (std::find(vals.begin(), vals.end(), v) != vals.end()) keys.push_back(k);
  return keys;
}

bool KeyHasValue(const std::string& key, const std::string& v) {
  for (const auto& [k, vals] : Vocabulary())
    if (k == key) return std::find(vals.begin(), vals.end(), v) != vals.end();
  return false;
}

// Words that name a numeric config key ("top-k sweep").
std::optional<std::string> KeyWord(const std::string& w) {
  static const std::map<std::string, std::string> kWords = {
      {"top-k", "topk"}, {"topk", "topk"}, {"top_k", "topk"}, {"k", "topk"}, {"tokens", "tokens"},
      {"experts", "experts"}, {"hidden", "hidden"}, {"mlp_dim", "mlp_dim"}, {"mlp-dim", "mlp_dim"},
      {"shared", "shared_expert_dim"}, {"devices", "devices"}, {"chips", "devices"}};
  auto it = kWords.find(w);
  if (it == kWords.end()) return std::nullopt;
  return it->second;
}

struct Setting {
  std::string key, value;
  size_t pos = 0;  // token index
  bool common = false;
};

// The sentence as lower-case tokens: words keep _ - . / % = and digit lists
// keep their commas ("1,2,4,6,8"); other punctuation separates.
std::vector<std::string> Tokens(const std::string& prose) {
  std::string s = prose.substr(0, kMaxSentence);
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::vector<std::string> out;
  std::string cur;
  auto flush = [&] {
    while (!cur.empty() && (cur.back() == '.' || cur.back() == '-' || cur.back() == ',')) cur.pop_back();
    if (!cur.empty()) out.push_back(cur);
    cur.clear();
  };
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    const bool word = std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '/' || c == '%' ||
                      c == '=' || c == '-' || c == '>' || c == '+';
    if (word) {
      cur += c;
      continue;
    }
    if (c == ',' && !cur.empty() && std::isdigit(static_cast<unsigned char>(cur.back()))) {
      size_t j = i + 1;
      while (j < s.size() && s[j] == ' ') ++j;
      if (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) {
        cur += ',';
        i = j - 1;
        continue;
      }
    }
    flush();
  }
  flush();
  return out;
}

std::optional<int> SmallCount(const std::string& w) {
  static const std::map<std::string, int> kWords = {{"one", 1}, {"two", 2}, {"three", 3}, {"four", 4},
                                                    {"five", 5}, {"twice", 2}, {"thrice", 3}};
  if (auto it = kWords.find(w); it != kWords.end()) return it->second;
  auto n = ParseNumber(w);
  if (n && *n >= 1 && *n <= 1000 && *n == static_cast<int>(*n)) return static_cast<int>(*n);
  return std::nullopt;
}

std::vector<std::string> SplitList(const std::string& s) {
  std::vector<std::string> out;
  size_t b = 0;
  while (b <= s.size()) {
    size_t e = s.find(',', b);
    if (e == std::string::npos) e = s.size();
    if (e > b) out.push_back(s.substr(b, e - b));
    b = e + 1;
  }
  return out;
}

bool Has(const std::vector<std::string>& toks, std::initializer_list<const char*> words) {
  for (const auto& t : toks)
    for (const char* w : words)
      if (t == w) return true;
  return false;
}

std::string JoinStr(const std::vector<std::string>& v, const std::string& sep) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + v[i];
  return s;
}

// The keys the Scope's Constraints hold fixed: "same shape, backend, impl,
// pass mode, routing pack strategy, and device count".
std::vector<std::string> ScopeSameKeys(const Logbook& logbook) {
  const Section* scope = logbook.FindSection(SectionKind::kScope);
  if (!scope) return {};
  for (const auto& b : scope->bullets) {
    std::string t = b.text.substr(0, kMaxSentence);
    for (auto& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const size_t same = t.find("same ");
    if (t.rfind("constraint", 0) != 0 || same == std::string::npos) continue;
    std::string rest = t.substr(same + 5);
    if (size_t stop = rest.find_first_of(").;"); stop != std::string::npos) rest = rest.substr(0, stop);
    static const std::vector<std::pair<std::string, std::vector<std::string>>> kPhrases = {
        {"shape", {"tokens", "hidden", "mlp_dim", "experts", "topk", "shared_expert_dim"}},
        {"dtype", {"dtype"}},
        {"backend", {"backend"}},
        {"impl", {"impl"}},
        {"pass", {"bench_pass"}},
        {"pack", {"routing_pack_strategy"}},
        {"queue", {"queue_mode"}},
        {"distribution", {"distribution"}},
        {"device", {"devices"}},
        {"parallel", {"parallel_mode"}},
    };
    std::vector<std::string> keys;
    for (const auto& [phrase, ks] : kPhrases)
      if (rest.find(phrase) != std::string::npos)
        for (const auto& k : ks)
          if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
    if (keys.size() >= 2) return keys;
  }
  return {};
}

// A figure the Baseline section states for `topk` (a bullet naming topk=N
// with a TF/s number), the "prior best" a sentence may point at.
std::optional<double> BaselineFigure(const Logbook& logbook, const std::string& topk) {
  const Section* base = logbook.FindSection(SectionKind::kBaseline);
  if (!base) return std::nullopt;
  std::optional<double> found;
  std::vector<const Bullet*> stack;
  for (const auto& b : base->bullets) stack.push_back(&b);
  int visited = 0;
  while (!stack.empty() && ++visited < 10000) {
    const Bullet* b = stack.back();
    stack.pop_back();
    for (const auto& c : b->children) stack.push_back(&c);
    std::string t = b->text;
    for (auto& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (t.find("topk=" + topk) == std::string::npos && t.find("topk " + topk) == std::string::npos) continue;
    for (const auto& n : b->numbers)
      if (n.unit == "TF/s" || t.find("tf/s") != std::string::npos)
        if (n.value > 50) found = n.value;
  }
  return found;
}

// The entries as sentences name them, indexed once per logbook: by ID, and
// by the content words of their labels (word -> the entries whose label has
// it, once per occurrence). A sentence then costs the entries its own words
// reach, not a pass over every entry's label.
class EntryNames {
 public:
  explicit EntryNames(const Logbook& logbook) : logbook_(logbook), hits_(logbook.entries.size(), 0) {
    for (size_t i = 0; i < logbook.entries.size(); ++i) {
      const Entry& e = logbook.entries[i];
      std::string id = e.explicit_id;
      for (auto& c : id) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (!id.empty()) by_id_.emplace(id, i);  // the first entry of an ID
      int content = 0;
      for (const auto& w : Tokens(e.label)) {
        if (w.size() < 3 || w == "the" || w == "and" || w == "for" || w == "with") continue;
        ++content;
        by_word_[w].push_back(i);
      }
      content_.push_back(content);
    }
  }

  // The entry a sentence names: by ID, or by most of its label's words.
  const Entry* Named(const std::vector<std::string>& toks) {
    size_t first = SIZE_MAX;
    for (const auto& t : toks)
      if (auto it = by_id_.find(t); it != by_id_.end()) first = std::min(first, it->second);
    if (first != SIZE_MAX) return &logbook_.entries[first];
    std::vector<size_t> touched;
    for (const auto& w : std::set<std::string>(toks.begin(), toks.end())) {
      auto it = by_word_.find(w);
      if (it == by_word_.end()) continue;
      for (size_t i : it->second)
        if (hits_[i]++ == 0) touched.push_back(i);
    }
    std::sort(touched.begin(), touched.end());
    const Entry* best = nullptr;
    double best_score = 0;
    for (size_t i : touched) {
      const int hit = hits_[i];
      hits_[i] = 0;
      if (content_[i] == 0 || hit < 3) continue;
      const double score = static_cast<double>(hit) / content_[i];
      if (score >= 0.6 && score > best_score) {
        best = &logbook_.entries[i];
        best_score = score;
      }
    }
    return best;
  }

 private:
  const Logbook& logbook_;
  std::unordered_map<std::string, size_t> by_id_;
  std::unordered_map<std::string, std::vector<size_t>> by_word_;
  std::vector<int> content_;
  std::vector<int> hits_;  // per entry, zero between sentences
};

struct Reading {
  std::string predicate;
  std::string reason;
};

class SentenceReader {
 public:
  SentenceReader(const Logbook& logbook, EntryNames& names, const std::string& prose, const RunKeys& keys)
      : logbook_(logbook), names_(names), toks_(Tokens(prose)), keys_(keys) {}

  // A clause with the sentence's where-filter (and `extra` before it).
  struct Clauses {
    std::string where;
    std::string operator()(const std::string& c, const std::string& extra = "") const {
      std::string w = where;
      if (!extra.empty()) w = extra + (w.empty() ? "" : ", " + w);
      return w.empty() ? c : c + " where " + w;
    }
  };

  // The clauses of a sentence that compares two settings: beats (with a
  // margin), a sweep with the baseline at each point, a table over a listed
  // axis, or pairs.
  void ComparisonClauses(const std::pair<Setting, Setting>& cmp,
                         const std::optional<std::pair<std::string, std::vector<std::string>>>& list,
                         const std::optional<double>& margin, const Clauses& with_where,
                         std::vector<std::string>* clauses) {
    if (margin) {
      clauses->push_back(with_where("beats " + Side(cmp.first) + " vs " + Side(cmp.second) + " by " +
                                    FormatValue(*margin) + "%" + MetricOn()));
    } else if (list && Has(toks_, {"sweep", "sweeps"})) {
      // A sweep in one mode with the other mode's baseline at each point.
      const Setting& mode = cmp.first.value == "none" ? cmp.second : cmp.first;
      const Setting& base = cmp.first.value == "none" ? cmp.first : cmp.second;
      clauses->push_back(with_where("sweep " + list->first + " in {" + JoinStr(list->second, ",") + "}",
                                    mode.key + "=" + mode.value));
      clauses->push_back(with_where("pairs " + Side(base) + " vs " + Side(mode),
                                    list->first + " in {" + JoinStr(list->second, ",") + "}") +
                         " at least " + std::to_string(list->second.size()));
    } else if (list) {
      std::vector<std::string> ab = {cmp.first.value, cmp.second.value};
      if (ab[1] == "none") std::swap(ab[0], ab[1]);
      clauses->push_back(with_where("table " + cmp.first.key + " {" + JoinStr(ab, ",") + "} x " + list->first + " {" +
                                    JoinStr(list->second, ",") + "}"));
    } else {
      std::string c = "pairs " + Side(cmp.first) + " vs " + Side(cmp.second);
      const auto same = ScopeSameKeys(logbook_);
      if (!same.empty() && Has(toks_, {"identical", "apples-to-apples", "fixed", "same", "direct", "controlled"})) {
        std::vector<std::string> keys;
        for (const auto& k : same)
          if (k != cmp.first.key) keys.push_back(k);
        c += " same " + JoinStr(keys, ",");
      }
      clauses->push_back(with_where(c) + " at least " + std::to_string(AtLeast().value_or(1)));
    }
  }

  Reading Read() {
    Reading r;
    if (Judgement()) {
      r.reason = "asks for a judgement (\"can state/answer whether\"), which no count of runs shows";
      return r;
    }
    CollectSettings();
    const Entry* entry = names_.Named(toks_);
    std::vector<std::string> clauses;
    const auto threshold = Threshold();
    // "reaches the prior best non-EP throughput": the other value names the
    // threshold's reference, not a second side.
    const auto cmp = Comparison(/*implicit=*/!threshold);
    const auto list = ListAxis(cmp ? cmp->first.key : "");
    const auto margin = Margin();
    const std::string where = Where(cmp, list);
    const Clauses with_where{where};
    if (cmp) ComparisonClauses(*cmp, list, margin, with_where, &clauses);
    else if (list && Has(toks_, {"sweep", "sweeps", "scan"}))
      clauses.push_back(with_where("sweep " + list->first + " in {" + JoinStr(list->second, ",") + "}"));
    if (threshold && !margin) clauses.push_back(with_where("metric " + threshold->first + " >= " + FormatValue(threshold->second)));
    if (Has(toks_, {"reproducible", "reproduced", "replicated", "repeatable", "repeats", "repeated", "reproduce"}))
      clauses.push_back(with_where("repeats at least " + std::to_string(std::max(2, Times().value_or(2)))));
    if (entry && clauses.empty() &&
        Has(toks_, {"recorded", "result", "results", "run", "measured", "done", "completed", "executed"}))
      clauses.push_back("entry " + entry->id + " has result");
    if (clauses.empty()) {
      r.reason = Why();
      return r;
    }
    r.predicate = JoinStr(clauses, "; ");
    // The proposal must be valid in the grammar `check` reads.
    auto parsed = ParsePredicate(r.predicate, "suggestion", 1, keys_);
    if (!parsed.ok()) {
      r.reason = "read as '" + r.predicate + "', which does not parse: " + parsed.status().message();
      r.predicate.clear();
    }
    return r;
  }

 private:
  bool Judgement() const {
    for (size_t i = 0; i < toks_.size(); ++i) {
      if (toks_[i] == "whether") return true;
      if (toks_[i] != "can" && toks_[i] != "could") continue;
      for (size_t j = i + 1; j < std::min(toks_.size(), i + 3); ++j)
        if (toks_[j] == "state" || toks_[j] == "answer" || toks_[j] == "explain" || toks_[j] == "say" ||
            toks_[j] == "tell" || toks_[j] == "decide" || toks_[j] == "conclude")
          return true;
    }
    return false;
  }

  void CollectSettings() {
    for (size_t i = 0; i < toks_.size(); ++i) {
      const std::string& t = toks_[i];
      if (size_t eq = t.find('='); eq != std::string::npos && eq > 0 && eq + 1 < t.size() && t.find('>') == std::string::npos) {
        const std::string key = NormalizeKey(t.substr(0, eq));
        if (keys_.Has(key)) settings_.push_back({key, t.substr(eq + 1), i, false});
        continue;
      }
      if ((t.rfind("non-", 0) == 0 || t.rfind("no-", 0) == 0 || t.rfind("non_", 0) == 0)) {
        const std::string rest = t.substr(t.find_first_of("-_") + 1);
        if (rest == "ep") settings_.push_back({"parallel_mode", "none", i, false});
        else if (rest.rfind("quant", 0) == 0) settings_.push_back({"quant_mode", "none", i, false});
        else if (rest == "remat") settings_.push_back({"remat_mode", "none", i, false});
        continue;
      }
      if (const engine::Target* target = engine::TargetNamedBy(t); target != nullptr && target->modeled) {
        on_tpu_ = true;
        continue;
      }
      std::string v = t;
      std::replace(v.begin(), v.end(), '-', '_');
      auto keys = KeysOfValue(v);
      if (keys.size() == 1) settings_.push_back({keys[0], v, i, CommonWord(v)});
      else if (!keys.empty()) settings_.push_back({"", v, i, true});  // "none": its key comes from the other side
    }
  }

  // A vs B: around "vs"/"versus"/"against", "beats", "than"; else two
  // values of one key ("int8 mode ... non-quant baseline").
  std::optional<std::pair<Setting, Setting>> Comparison(bool implicit) const {
    for (size_t i = 0; i < toks_.size(); ++i) {
      const std::string& t = toks_[i];
      if (t != "vs" && t != "vs." && t != "versus" && t != "against" && t != "beats" && t != "beat" &&
          t != "outperforms" && t != "than")
        continue;
      const auto left = Nearest(i, -1);
      const auto right = Nearest(i, +1);
      if (!left || !right) continue;
      auto pair = Resolve(*left, *right);
      if (pair) return pair;
    }
    if (!implicit) return std::nullopt;
    for (size_t a = 0; a < settings_.size(); ++a)
      for (size_t b = a + 1; b < settings_.size(); ++b)
        if (!settings_[a].key.empty() && settings_[a].key == settings_[b].key &&
            settings_[a].value != settings_[b].value && !IsNumericKey(settings_[a].key))
          return std::make_pair(settings_[a], settings_[b]);
    return std::nullopt;
  }

  static bool IsNumericKey(const std::string& k) { return !KeyHasValue(k, "none") && KeysOfValueKey(k).empty(); }
  static std::vector<std::string> KeysOfValueKey(const std::string& k) {
    for (const auto& [key, vals] : Vocabulary())
      if (key == k) return vals;
    return {};
  }

  // The setting nearest to token `at` on one side (within four tokens).
  std::optional<Setting> Nearest(size_t at, int dir) const {
    const Setting* best = nullptr;
    size_t best_d = 5;
    for (const auto& s : settings_) {
      if ((dir < 0 && s.pos >= at) || (dir > 0 && s.pos <= at)) continue;
      const size_t d = dir < 0 ? at - s.pos : s.pos - at;
      if (d < best_d || (best && d == best_d)) {
        best = &s;
        best_d = d;
      }
    }
    if (best) return *best;
    // "EP vs baseline": "baseline" stands for the other side's "none".
    if (dir > 0)
      for (size_t j = at + 1; j < std::min(toks_.size(), at + 4); ++j)
        if (toks_[j] == "baseline" || toks_[j] == "none" || toks_[j] == "non-ep") return Setting{"", "none", j, true};
    return std::nullopt;
  }

  static std::optional<std::pair<Setting, Setting>> Resolve(Setting a, Setting b) {
    if (a.value == "baseline") a = {"", "none", a.pos, true};
    if (b.value == "baseline") b = {"", "none", b.pos, true};
    if (a.key.empty() && !b.key.empty() && KeyHasValue(b.key, a.value)) a.key = b.key;
    if (b.key.empty() && !a.key.empty() && KeyHasValue(a.key, b.value)) b.key = a.key;
    if (a.key.empty() || a.key != b.key || a.value == b.value) return std::nullopt;
    return std::make_pair(a, b);
  }

  static std::string Side(const Setting& s) { return s.key + "=" + s.value; }

  // A list of values of one key: "top-k sweep (`1,2,4,6,8`)" or
  // "`topk=2` and `topk=8`" (a key other than the compared one).
  std::optional<std::pair<std::string, std::vector<std::string>>> ListAxis(const std::string& not_key) {
    for (size_t i = 0; i < toks_.size(); ++i) {
      if (toks_[i].find(',') == std::string::npos || !std::isdigit(static_cast<unsigned char>(toks_[i][0]))) continue;
      for (size_t d = 1; d <= 3; ++d) {
        if (i >= d)
          if (auto k = KeyWord(toks_[i - d])) return std::make_pair(*k, SplitList(toks_[i]));
        if (i + d < toks_.size())
          if (auto k = KeyWord(toks_[i + d])) return std::make_pair(*k, SplitList(toks_[i]));
      }
    }
    std::map<std::string, std::vector<std::string>> by_key;
    // Several values of one numeric key ("`topk=2` and `topk=8`").
    for (const auto& s : settings_)
      if (!s.key.empty() && s.key != not_key && ParseNumber(s.value)) {
        auto& v = by_key[s.key];
        if (std::find(v.begin(), v.end(), s.value) == v.end()) v.push_back(s.value);
      }
    for (auto& [k, v] : by_key)
      if (v.size() >= 2) {
        list_key_ = k;
        return std::make_pair(k, v);
      }
    return std::nullopt;
  }

  // "by 5%", "5% faster".
  std::optional<double> Margin() const {
    for (size_t i = 0; i < toks_.size(); ++i) {
      const std::string& t = toks_[i];
      if (t.size() < 2 || t.back() != '%') continue;
      auto v = ParseNumber(t.substr(0, t.size() - 1));
      if (!v) continue;
      const bool by = i > 0 && toks_[i - 1] == "by";
      const bool faster = i + 1 < toks_.size() && (toks_[i + 1] == "faster" || toks_[i + 1] == "better" ||
                                                   toks_[i + 1] == "higher" || toks_[i + 1] == "more");
      if (by || faster) return *v;
    }
    return std::nullopt;
  }

  std::string Metric() const {
    if (Has(toks_, {"tokens/s", "tok/s", "tokens_per_s"})) return "tokens_per_s";
    if (Has(toks_, {"per-device", "tflops_per_device"})) return "tflops_per_device";
    return "tflops";
  }
  std::string MetricOn() const {
    const std::string m = Metric();
    return m == "tflops" ? "" : " on " + m;
  }

  // "at least 300 TF/s", ">= 300 tokens/s", or "reaches the baseline's
  // best ... at topk=8" (the Baseline section's figure).
  std::optional<std::pair<std::string, double>> Threshold() const {
    for (size_t i = 0; i + 1 < toks_.size(); ++i) {
      auto v = ParseNumber(toks_[i]);
      const std::string& unit = toks_[i + 1];
      if (!v || (unit != "tf/s" && unit != "tflops" && unit != "tokens/s" && unit != "tok/s")) continue;
      bool above = false;
      for (size_t d = 1; d <= 3 && d <= i; ++d) {
        const std::string& w = toks_[i - d];
        above = above || w == "least" || w == ">=" || w == "reaches" || w == "reach" || w == "above" ||
                w == "exceeds" || w == "exceed" || w == "over" || w == "beyond";
      }
      if (above) return std::make_pair(unit == "tf/s" || unit == "tflops" ? std::string("tflops") : "tokens_per_s", *v);
    }
    if (!Has(toks_, {"reaches", "reach", "matches", "match", "exceeds"}) ||
        !Has(toks_, {"baseline", "prior", "previous", "best"}))
      return std::nullopt;
    for (const auto& s : settings_)
      if (s.key == "topk")
        if (auto f = BaselineFigure(logbook_, s.value)) return std::make_pair(std::string("tflops"), *f);
    return std::nullopt;
  }

  std::optional<int> AtLeast() const {
    for (size_t i = 0; i + 2 < toks_.size(); ++i)
      if (toks_[i] == "at" && toks_[i + 1] == "least") return SmallCount(toks_[i + 2]);
    return std::nullopt;
  }

  std::optional<int> Times() const {
    for (size_t i = 0; i < toks_.size(); ++i) {
      if (toks_[i] == "twice") return 2;
      if (i + 1 < toks_.size() && (toks_[i + 1] == "times" || toks_[i + 1] == "repeats" || toks_[i + 1] == "runs"))
        if (auto n = SmallCount(toks_[i])) return n;
    }
    return std::nullopt;
  }

  // Conditions: the settings the sentence names that are neither a side of
  // the comparison nor the list's key; "on v5p" excludes the CPU engine.
  std::string Where(const std::optional<std::pair<Setting, Setting>>& cmp,
                    const std::optional<std::pair<std::string, std::vector<std::string>>>& list) const {
    std::vector<std::string> conds;
    std::set<std::string> used;
    if (cmp) used.insert(cmp->first.key);
    if (list) used.insert(list->first);
    for (const auto& s : settings_) {
      if (s.key.empty() || s.common || used.count(s.key)) continue;
      used.insert(s.key);
      conds.push_back(s.key + "=" + s.value);
    }
    if (on_tpu_) conds.push_back("target!=cpu");
    return JoinStr(conds, ", ");
  }

  std::string Why() const {
    if (settings_.empty() && !on_tpu_)
      return "names no config value, list, threshold, margin, repeat or entry that runs can show";
    return "names config values but no comparison, sweep list, threshold, repeat or entry result to check";
  }

  const Logbook& logbook_;
  EntryNames& names_;
  std::vector<std::string> toks_;
  const RunKeys& keys_;  // the logbook's (outlives the reader)
  std::vector<Setting> settings_;
  bool on_tpu_ = false;
  std::string list_key_;
};

}  // namespace

std::vector<Suggestion> SuggestPredicates(const Logbook& logbook, std::string_view text) {
  std::vector<Suggestion> out;
  const auto bullets = StopCriteriaBullets(logbook, text);
  const auto lines = SplitLines(text);
  const RunKeys keys = RecordedKeys(logbook);
  EntryNames names(logbook);
  int index = 0;
  for (const auto& b : bullets) {
    Suggestion s;
    s.index = ++index;
    s.line = b.line;
    s.last_line = b.line + static_cast<int>(std::count(b.text.begin(), b.text.end(), '\n'));
    if (b.line >= 1 && static_cast<size_t>(b.line) <= lines.size()) {
      const std::string_view first = lines[static_cast<size_t>(b.line) - 1];
      size_t col = 0;
      while (col < first.size() && first[col] == ' ') ++col;
      while (col < first.size() && (std::isdigit(static_cast<unsigned char>(first[col])) || first[col] == '-' ||
                                    first[col] == '*' || first[col] == '+' || first[col] == '.' || first[col] == ')'))
        ++col;
      while (col < first.size() && first[col] == ' ') ++col;
      s.indent = static_cast<int>(col);
    }
    auto crit = ParseCriteria({b}, logbook.file, keys);
    s.prose = crit.ok() && !crit->empty() ? (*crit)[0].text : b.text;
    if (auto found = FindPredicateText(b.text)) {
      s.existing = found->first;
    } else {
      Reading r = SentenceReader(logbook, names, s.prose, keys).Read();
      s.predicate = r.predicate;
      s.reason = r.reason;
    }
    out.push_back(std::move(s));
  }
  return out;
}

std::string InsertSuggestions(std::string_view text, const std::vector<Suggestion>& suggestions,
                              const std::set<int>& only, int* written) {
  std::map<int, std::string> after;  // line -> comment line to insert after it
  for (const auto& s : suggestions) {
    if (s.predicate.empty() || !s.existing.empty() || (!only.empty() && !only.count(s.index))) continue;
    after[s.last_line] = std::string(static_cast<size_t>(s.indent), ' ') + "<!-- moelog: " + s.predicate + " -->";
  }
  if (written) *written = static_cast<int>(after.size());
  std::string out;
  out.reserve(text.size() + after.size() * 120);
  int line = 1;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    const size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
    out.append(text.substr(pos, end - pos));
    if (auto it = after.find(line); it != after.end()) {
      if (nl == std::string_view::npos) out += '\n';
      out += it->second + "\n";
    }
    pos = end;
    ++line;
  }
  return out;
}

}  // namespace moelog::logbook
