// `moelog next`: the shape keys a logbook's Scope frees (next.h ScopeFreedShapeKeys).
#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "logbook/research/next.h"
#include "logbook/research/next_internal.h"

namespace moelog::logbook {
namespace {

using next_internal::ShapeKeys;

// ------------------------------------------------------- the Scope's word ---

// Lower case, dashes/underscores/backticks as spaces: "Top-K" -> "top k".
std::string ScopeWords(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    const unsigned char u = static_cast<unsigned char>(ch);
    out += (ch == '-' || ch == '_' || ch == '`') ? ' ' : static_cast<char>(std::tolower(u));
  }
  return out;
}

bool WordAt(const std::string& s, size_t at, size_t len) {
  const auto alnum = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) != 0; };
  return (at == 0 || !alnum(s[at - 1])) && (at + len >= s.size() || !alnum(s[at + len]));
}

// Whether the bullet says something may vary (and does not deny it).
bool SaysMayVary(const std::string& w) {
  for (const char* no : {"may not vary", "must not vary", "cannot vary", "can not vary", "can't vary", "never vary",
                         "never varies", "does not vary", "do not vary", "not free"})
    if (w.find(no) != std::string::npos) return false;
  for (const char* yes : {"may vary", "can vary", "free to vary", "is free", "are free", "may change", "what varies",
                          "varies:", "vary:", "free:", "varied:", "may be varied", "can be varied", "search space"})
    if (w.find(yes) != std::string::npos) return true;
  return false;
}

// The shape key a word names at `at` (and its length), or "".
std::string ShapeKeyAt(const std::string& w, size_t at, size_t* len) {
  static const std::vector<std::pair<std::string, std::string>> kWords = {
      {"shared expert dim", "shared_expert_dim"}, {"shared expert", "shared_expert_dim"},
      {"shared", "shared_expert_dim"},            {"top k", "topk"},
      {"topk", "topk"},                           {"experts per token", "topk"},
      {"number of experts", "experts"},           {"expert count", "experts"},
      {"experts", "experts"},                     {"mlp dim", "mlp_dim"},
      {"mlpdim", "mlp_dim"},                      {"intermediate", "mlp_dim"},
      {"mlp", "mlp_dim"},                         {"hidden", "hidden"},
      {"tokens", "tokens"},                       {"token count", "tokens"},
      {"bench pass", "bench_pass"},               {"pass mode", "bench_pass"},
      {"pass", "bench_pass"},                     {"distribution", "distribution"},
      {"dtype", "dtype"},                         {"precision", "dtype"},
      {"shape", "shape"}};
  for (const auto& [word, key] : kWords) {
    if (w.compare(at, word.size(), word) != 0 || !WordAt(w, at, word.size())) continue;
    if (key == "tokens" && w.compare(at + word.size(), 2, "/s") == 0) return "";  // a metric
    *len = word.size();
    return key;
  }
  return "";
}

// The values listed right after a key's word ("topk in {2,4,8}", "(2, 4)",
// "= 2048"): numbers, or the words a non-numeric key takes.
std::vector<std::string> ValuesAfter(const std::string& w, size_t at, const std::string& key) {
  size_t i = at;
  const size_t stop = std::min(w.size(), at + 80);  // bounded: the values sit right after the word
  auto skip = [&] {
    while (i < stop && (w[i] == ' ' || w[i] == '=' || w[i] == '{' || w[i] == '(' || w[i] == ':' || w[i] == '[')) ++i;
  };
  skip();
  if (w.compare(i, 3, "in ") == 0) i += 3;
  skip();
  std::vector<std::string> out;
  const bool numeric = key != "distribution" && key != "bench_pass" && key != "dtype";
  while (i < stop) {
    size_t e = i;
    while (e < stop && (std::isalnum(static_cast<unsigned char>(w[e])) || w[e] == '.')) ++e;
    if (e == i) break;
    std::string v = w.substr(i, e - i);
    const bool number = std::all_of(v.begin(), v.end(), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); });
    if (numeric ? !number : !(v == "random" || v == "runs" || v == "forward" || v == "float32" || v == "bfloat16"))
      break;
    // "forward backward" is one pass.
    if (v == "forward" && w.compare(e, 9, " backward") == 0) {
      v = "forward_backward";
      e += 9;
    }
    out.push_back(v);
    i = e;
    while (i < stop && (w[i] == ',' || w[i] == ' ' || w[i] == '/')) ++i;
    if (w.compare(i, 4, "and ") == 0) i += 4;
    else if (w.compare(i, 3, "or ") == 0) i += 3;
  }
  return out;
}

}  // namespace

std::map<std::string, std::vector<std::string>> ScopeFreedShapeKeys(const Logbook& logbook) {
  std::map<std::string, std::vector<std::string>> out;
  const Section* scope = logbook.FindSection(SectionKind::kScope);
  if (!scope) return out;
  for (const auto& b : scope->bullets) {
    const std::string w = ScopeWords(b.text.substr(0, 2000));  // bounded
    if (!SaysMayVary(w)) continue;
    // What follows "except", "but" or "other than" stays held.
    size_t held_from = w.size();
    for (const char* cut : {" except ", " but ", " other than "})
      held_from = std::min(held_from, w.find(cut) == std::string::npos ? w.size() : w.find(cut));
    std::map<std::string, std::vector<std::string>> named;
    std::set<std::string> held;
    for (size_t i = 0; i < w.size(); ++i) {
      size_t len = 0;
      const std::string key = ShapeKeyAt(w, i, &len);
      if (key.empty()) continue;
      const std::vector<std::string> keys =
          key == "shape" ? ShapeKeys() : std::vector<std::string>{key};
      const auto values = key == "shape" ? std::vector<std::string>{} : ValuesAfter(w, i + len, key);
      for (const auto& k : keys) {
        if (i >= held_from) {
          held.insert(k);
        } else {
          auto& v = named[k];
          for (const auto& x : values)
            if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
        }
      }
      i += len - 1;
    }
    for (auto& [k, v] : named)
      if (!held.count(k)) {
        auto& into = out[k];
        for (const auto& x : v)
          if (std::find(into.begin(), into.end(), x) == into.end()) into.push_back(x);
      }
  }
  return out;
}

}  // namespace moelog::logbook
