#include <nlohmann/json.hpp>

#include "logbook/reader/data_words.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook {

namespace reader {

namespace {

// The words of data/reader/hardware.json, read once: device names longest
// first (a name inside a longer one, "RTX 4080" in "RTX 4080 SUPER", is
// tried after it), cue words in lower case.
struct HardwareWords {
  std::vector<std::string> accelerators, tpu_slices;
  std::set<std::string> labels, cues, skip, vendors, node_words;
};

const HardwareWords& Hardware() {
  static const HardwareWords words = [] {
    HardwareWords w;
    do {
      const nlohmann::json& j = ReaderDataJson("data/reader/hardware.json");
      if (!j.is_object()) break;
      auto take = [&](const char* key, auto* into, bool lower) {
        if (!j.contains(key) || !j[key].is_array()) return;
        for (const auto& v : j[key])
          if (v.is_string() && !v.get<std::string>().empty())
            into->insert(into->end(), lower ? Lower(v.get<std::string>()) : v.get<std::string>());
      };
      take("accelerators", &w.accelerators, false);
      take("tpu_slices", &w.tpu_slices, false);
      take("statement_labels", &w.labels, true);
      take("statement_cues", &w.cues, true);
      take("skip_words", &w.skip, true);
      take("vendors", &w.vendors, true);
      take("node_words", &w.node_words, true);
    } while (false);
    std::stable_sort(w.accelerators.begin(), w.accelerators.end(),
                     [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
    return w;
  }();
  return words;
}


// A word of node_words ("hosts", "node").
bool NodeWord(const std::string& w) { return Hardware().node_words.count(Lower(w)) > 0; }

// `b` moved back over a maker's name ending at it ("16x NVIDIA A100": the
// count's end), when one is written there.
size_t BeforeVendor(const std::string& text, size_t b) {
  size_t e = b;
  while (e > 0 && text[e - 1] == ' ') --e;
  size_t w = e;
  const std::string word = WordBefore(text, e, &w);
  return !word.empty() && Hardware().vendors.count(Lower(word)) ? w : b;
}

// "3-node" before a count ending at `b`: the nodes it is per, or 0.
int HyphenNodes(const std::string& text, size_t b) {
  size_t w = b;
  const std::string word = Lower(WordBefore(text, b, &w));
  const size_t dash = word.find('-');
  if (dash == std::string::npos || dash == 0 || !NodeWord(word.substr(dash + 1))) return 0;
  for (size_t i = 0; i < dash; ++i)
    if (!std::isdigit(static_cast<unsigned char>(word[i]))) return 0;
  return std::atoi(word.substr(0, dash).c_str());
}

}  // namespace

// A count written as digits or a small number word ("8", "eight") ending
// at `e` (exclusive), or 0; *b is where it starts.
int CountBefore(const std::string& text, size_t e, size_t* b) {
  size_t d = e;
  while (d > 0 && std::isdigit(static_cast<unsigned char>(text[d - 1]))) --d;
  if (d < e && e - d <= 5) {
    *b = d;
    return std::atoi(text.substr(d, e - d).c_str());
  }
  static const std::map<std::string, int> kWords = {{"one", 1}, {"two", 2},   {"four", 4},     {"eight", 8},
                                                    {"sixteen", 16}, {"thirty-two", 32}, {"sixty-four", 64}};
  d = e;
  while (d > 0 && e - d < 12 && (std::isalpha(static_cast<unsigned char>(text[d - 1])) || text[d - 1] == '-')) --d;
  auto it = kWords.find(Lower(text.substr(d, e - d)));
  if (it == kWords.end()) return 0;
  *b = d;
  return it->second;
}

// The GPUs per node a text states ("4 GPUs per node", "eight H100s each",
// "16 GPUs total": *total set), or 0.
int PerNodeGpus(const std::string& text, bool* total) {
  for (size_t p = text.find("GPU"); p != std::string::npos; p = text.find("GPU", p + 1)) {
    size_t e = p, b = 0;
    while (e > 0 && text[e - 1] == ' ') --e;
    if (e > 0 && text[e - 1] == '-') --e;  // "4-GPU nodes"
    const int n = CountBefore(text, e, &b);
    if (n <= 0) continue;
    size_t q = p + 3;
    if (q < text.size() && text[q] == 's') ++q;
    size_t w = q;
    const std::string next = Lower(WordAt(text, q, &w));
    *total = next == "total" || next == "in";
    if (*total || next == "per" || next == "each" || next == "nodes" || next == "node") return n;
  }
  return 0;
}

// "B200 x8", "B200 80GB x 8", "B200 (8 GPUs)": the count written after the
// name ending at `q`, or 0.
int CountAfter(const std::string& text, size_t q) {
  while (q < text.size() && text[q] == ' ') ++q;
  // A memory or form factor between name and count: "80GB", "-80GB", "SXM5", "PCIe".
  size_t m = q + (q < text.size() && text[q] == '-' ? 1 : 0), e = m;
  while (e < text.size() && std::isalnum(static_cast<unsigned char>(text[e]))) ++e;
  const std::string tok = Lower(text.substr(m, e - m));
  if (e > m && (tok.rfind("sxm", 0) == 0 || tok == "pcie" || (tok.size() > 2 && tok.compare(tok.size() - 2, 2, "gb") == 0)))
    for (q = e; q < text.size() && text[q] == ' ';) ++q;
  if (q < text.size() && text[q] == '(') ++q;
  if (text.compare(q, 2, "\xC3\x97") == 0) q += 1;  // "×" (two bytes)
  const bool x = q < text.size() && (text[q] == 'x' || text[q] == 'X' || text[q] == '\x97');
  size_t d = q + (x ? 1 : 0);
  while (d < text.size() && text[d] == ' ') ++d;
  size_t e2 = d;
  while (e2 < text.size() && std::isdigit(static_cast<unsigned char>(text[e2]))) ++e2;
  if (e2 == d || e2 - d > 5 || (e2 < text.size() && std::isalnum(static_cast<unsigned char>(text[e2])))) return 0;
  // "x8" or "(8 GPUs)".
  size_t w = e2;
  if (!x && Lower(WordAt(text, e2, &w)).rfind("gpu", 0) != 0) return 0;
  return std::atoi(text.substr(d, e2 - d).c_str());
}

// The nodes a text counts ("16 workers", "2 nodes", "four hosts"), or 0.
int NodeCount(const std::string& text) {
  for (const char* unit : {"nodes", "workers", "hosts", "machines"})
    for (size_t p = text.find(unit); p != std::string::npos; p = text.find(unit, p + 1)) {
      size_t e = p, b = 0;
      while (e > 0 && text[e - 1] == ' ') --e;
      if (const int n = e < p ? CountBefore(text, e, &b) : 0; n > 0) return n;
    }
  return 0;
}

// The digits of "2x" (or "2 x", "2×") ending at *b, the count of groups
// the count that starts at *b is one of; *b moves to their start. 0 (and
// *b unchanged) when none is written.
int GroupsBefore(const std::string& text, size_t* b) {
  size_t q = *b;
  while (q > 0 && text[q - 1] == ' ') --q;
  if (q >= 2 && text.compare(q - 2, 2, "\xC3\x97") == 0) q -= 2;
  else if (q > 0 && (text[q - 1] == 'x' || text[q - 1] == 'X')) --q;
  else return 0;
  while (q > 0 && text[q - 1] == ' ') --q;
  if (size_t w = q; NodeWord(WordBefore(text, q, &w))) {  // "3 hosts x 4 L4"
    q = w;
    while (q > 0 && text[q - 1] == ' ') --q;
  }
  size_t d = q;
  while (d > 0 && q - d < 4 && std::isdigit(static_cast<unsigned char>(text[d - 1]))) --d;
  if (d == q || (d > 0 && (std::isalnum(static_cast<unsigned char>(text[d - 1])) || text[d - 1] == '.'))) return 0;
  const int groups = std::atoi(text.substr(d, q - d).c_str());
  if (groups <= 0) return 0;
  *b = d;
  return groups;
}

// The count written before the GPU name at `p`: "8 B200", "8x B200",
// "8×B200", "eight H100s"; nodes ("2 nodes of 8xH100", "4 GB200 nodes, 4
// GPUs per node") multiply. 0 when none; -1 when the name counts nodes
// whose GPUs the text does not say.
int CountBeforeName(const std::string& text, size_t p, size_t n) {
  size_t b = BeforeVendor(text, p);  // "16x NVIDIA A100"
  while (b > 0 && text[b - 1] == ' ') --b;
  if (b >= 2 && text.compare(b - 2, 2, "\xC3\x97") == 0) b -= 2;
  else if (b > 0 && (text[b - 1] == 'x' || text[b - 1] == 'X')) --b;
  while (b > 0 && text[b - 1] == ' ') --b;  // "8 x A100"
  const size_t e = b;
  int count = CountBefore(text, e, &b);
  // "2x 8xH100", "2x8xB200", "4× 4×GB200": a count of groups before the count multiplies it.
  if (const int groups = count > 0 ? GroupsBefore(text, &b) : 0; groups > 0) count *= groups;
  else if (const int nodes = count > 0 ? HyphenNodes(text, b) : 0; nodes > 0) count *= nodes;  // "a 3-node 4xA100 pool"
  // The digits ending an ID ("CC-002 B200 canary") or a version ("v1.8 B200") count nothing.
  if (count > 0 && b > 0 && (text[b - 1] == '-' || text[b - 1] == '_' || text[b - 1] == '.' || text[b - 1] == '/' ||
                             std::isalnum(static_cast<unsigned char>(text[b - 1]))))
    count = 0;
  size_t w = p + n;
  if (w < text.size() && text[w] == 's') ++w;  // "H100s"
  std::string after = Lower(WordAt(text, w, &w));
  // A memory size or form factor after the name ("L40S 48GB per node").
  if (after.rfind("sxm", 0) == 0 || after == "pcie" ||
      (after.size() > 2 && after.compare(after.size() - 2, 2, "gb") == 0 && std::isdigit(static_cast<unsigned char>(after[0]))))
    after = Lower(WordAt(text, w, &w));
  if (after == "gpus" || after == "gpu") after = Lower(WordAt(text, w, &w));
  if (count > 0 && (after == "each" || after == "per")) {
    // "16 workers with four GB200 GPUs each": per node, times the nodes.
    const int nodes = NodeCount(text);
    return nodes > 0 ? count * nodes : -1;
  }
  if (count > 0 && (after == "node" || after == "nodes" || after == "hosts" || after == "workers" || after == "machines")) {
    bool total = false;
    const int per = PerNodeGpus(text, &total);
    return per == 0 ? -1 : total ? per : count * per;
  }
  // "2 nodes of 8xH100", "four replicas of four GB200 GPUs": the groups
  // before the count.
  size_t of = b;
  if (count > 0 && Lower(WordBefore(text, b, &of)) == "of") {
    size_t nb = of;
    const std::string nodes = Lower(WordBefore(text, of, &nb));
    size_t cb = 0;
    const int k = (nodes == "nodes" || nodes == "hosts" || nodes == "workers" || nodes == "machines" ||
                   nodes == "replicas") ? CountBefore(text, [&] {
      size_t t = nb;
      while (t > 0 && text[t - 1] == ' ') --t;
      return t;
    }(), &cb) : 0;
    if (k > 0) count *= k;
  }
  return count;
}


// The accelerator a text names, with its count: "B200x8" for "8 B200 GPUs",
// "8x B200", "B200 x8", "B200 (8 GPUs)", "eight B200s", "2 nodes of 8xH100"
// (x16); "v5p-8" for "v5p-8"; the name alone ("H100") when no count is
// written. "" when it names none. The names are data (hardware.json).
std::string AcceleratorIn(const std::string& text) {
  auto word_start = [&](size_t p) { return p == 0 || !std::isalnum(static_cast<unsigned char>(text[p - 1])); };
  for (const std::string& t : Hardware().tpu_slices) {
    for (size_t p = text.find(t); p != std::string::npos; p = text.find(t, p + 1)) {
      if (!word_start(p)) continue;
      size_t e = p + t.size();
      size_t d = e;
      while (d < text.size() && std::isdigit(static_cast<unsigned char>(text[d]))) ++d;
      if (d > e) return text.substr(p, d - p);
    }
  }
  std::string bare;
  std::vector<std::pair<size_t, size_t>> taken;  // names read: a shorter one inside them is no other
  for (const std::string& g : Hardware().accelerators) {
    const size_t n = g.size();
    for (size_t p = text.find(g); p != std::string::npos; p = text.find(g, p + 1)) {
      if (std::any_of(taken.begin(), taken.end(), [&](const auto& r) { return p >= r.first && p < r.second; })) continue;
      // "8xB200": a count glued by 'x' is read as "8x B200" is.
      const bool counted = p >= 2 && (text[p - 1] == 'x' || text[p - 1] == 'X' || text[p - 1] == '\x97') &&
                           (std::isdigit(static_cast<unsigned char>(text[p - 2])) || text[p - 2] == '\xC3');
      if ((!word_start(p) && !counted) || (p + n < text.size() && IsUpperOrDigit(text[p + n]))) continue;
      taken.emplace_back(p, p + n);
      int count = CountAfter(text, p + n);
      if (count == 0) count = CountBeforeName(text, p, n);
      if (count > 0) return g + "x" + std::to_string(count);
      if (bare.empty()) bare = g;
    }
  }
  return bare;
}

// The GPUs an accelerator value counts ("H100x16" -> 16), or 0 (a name
// alone, a TPU slice).
int AcceleratorCount(const std::string& accelerator) {
  const size_t x = accelerator.find_last_of('x');
  if (x == std::string::npos || x + 1 >= accelerator.size() || x == 0) return 0;
  for (size_t i = x + 1; i < accelerator.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(accelerator[i]))) return 0;
  const std::string name = accelerator.substr(0, x);
  const auto& names = Hardware().accelerators;
  if (std::find(names.begin(), names.end(), name) == names.end()) return 0;
  return std::atoi(accelerator.c_str() + x + 1);
}

// A word that starts a count of devices or a device's name: digits ("8",
// "8xA100", "2x"), a small number word, a name of hardware.json.
bool StartsHardware(const std::string& word) {
  if (word.empty()) return false;
  if (std::isdigit(static_cast<unsigned char>(word[0]))) return true;
  static const std::set<std::string> kCounts = {"two", "four", "eight", "sixteen", "thirty-two", "sixty-four"};
  if (kCounts.count(Lower(word))) return true;
  for (const auto& name : Hardware().accelerators)
    if (word.compare(0, std::min(word.size(), name.size()), name, 0, std::min(word.size(), name.size())) == 0 &&
        word.size() >= std::min<size_t>(name.size(), 2))
      return true;
  for (const auto& t : Hardware().tpu_slices)
    if (word.rfind(t, 0) == 0) return true;
  return false;
}

// How many different device names a text holds ("H100 and GB200": 2).
int NamesIn(const std::string& text) {
  std::vector<std::pair<size_t, size_t>> taken;
  for (const std::string& g : Hardware().accelerators)
    for (size_t p = text.find(g); p != std::string::npos; p = text.find(g, p + 1)) {
      const bool inside = std::any_of(taken.begin(), taken.end(), [&](const auto& r) { return p >= r.first && p < r.second; });
      if (!inside && (p + g.size() >= text.size() || !IsUpperOrDigit(text[p + g.size()]))) taken.emplace_back(p, p + g.size());
    }
  std::set<std::string> names;
  for (const auto& [b, e] : taken) names.insert(text.substr(b, e - b));
  return static_cast<int>(names.size());
}

// What a text states the runs' hardware to be: the accelerator after a
// label ("Hardware: 2x RTX 4090", "**Setup:** 4x H100 80GB") or right
// after a cue ("on 8xA100", "on my 2xRTX 4090 setup", "access to 2xRTX 4090
// GPUs"), each statement once. A name only mentioned ("the 8xH100
// leaderboard", "B200's peak") states nothing.
std::vector<std::string> HardwareStated(const std::string& text) {
  const HardwareWords& hw = Hardware();
  std::vector<std::string> out;
  auto add = [&](const std::string& a) {
    if (!a.empty() && std::find(out.begin(), out.end(), a) == out.end()) out.push_back(a);
  };
  std::string plain;
  for (char c : text)
    if (c != '*' && c != '`' && c != '_') plain += c;
  plain = parse_detail::Trim(plain);
  if (const size_t colon = plain.find(':'); colon != std::string::npos && colon <= 24 &&
                                            hw.labels.count(Lower(parse_detail::Trim(plain.substr(0, colon)))))
    add(AcceleratorIn(plain.substr(colon + 1)));
  const std::vector<std::string> words = Words(plain);
  std::vector<size_t> starts;  // where each word starts in `plain`
  for (size_t at = 0; const auto& w : words) starts.push_back(at = plain.find(w, at)), at += w.size();
  auto lower = [&](size_t i) {
    std::string w = Lower(words[i]);
    while (!w.empty() && std::strchr(",.;:(", w.back())) w.pop_back();
    return w;
  };
  for (size_t i = 0; i < words.size(); ++i) {
    size_t k = i + 1;
    if (i + 1 < words.size() && hw.cues.count(lower(i) + " " + lower(i + 1))) k = i + 2;
    else if (!hw.cues.count(lower(i))) continue;
    for (bool more = true; more && k < words.size();) {
      more = false;
      if (hw.skip.count(lower(k))) ++k, more = true;
      else if (k + 1 < words.size() && hw.skip.count(lower(k) + " " + lower(k + 1))) k += 2, more = true;
    }
    if (k >= words.size() || !StartsHardware(words[k])) continue;
    // The clause after the cue, up to its end ("on 8xA100, 80 GB each").
    const size_t from = starts[k];
    size_t to = plain.find_first_of(",;()", from);
    if (const size_t stop = plain.find(". ", from); stop < to) to = stop;
    const std::string clause = plain.substr(from, to == std::string::npos ? std::string::npos : to - from);
    if (NamesIn(clause) == 1) add(AcceleratorIn(clause));  // "on H100 and GB200" states neither
  }
  // "~0.14 ms (RTX 3090)": a parenthesis that is a device and its count only.
  for (size_t open = plain.find('('); open != std::string::npos; open = plain.find('(', open + 1)) {
    const size_t close = plain.find(')', open);
    if (close == std::string::npos) break;
    const std::string inside = plain.substr(open + 1, close - open - 1);
    const auto w = Words(inside);
    if (!w.empty() && w.size() <= 4 && StartsHardware(w[0]) && NamesIn(inside) == 1) add(AcceleratorIn(inside));
  }
  return out;
}

// The document's statements of its runs' hardware outside its entries, by
// line: its title ("Router benchmarks on 8xH100") and the text under it (a
// section without a heading), its sections' names and
// list items ("## Setup" over "- Hardware: 4x H100 80GB"). A text that
// states two states none.
std::vector<std::pair<int, std::string>> DocumentHardware(const Logbook& logbook) {
  std::vector<std::pair<int, std::string>> out;
  auto look = [&](int line, const std::string& text) {
    if (const std::vector<std::string> stated = HardwareStated(text); stated.size() == 1) out.emplace_back(line, stated.front());
  };
  look(logbook.title_line, logbook.title);
  // "`arm-b` (the random-data arm, on 8x H100)": a device named only in a
  // list item's parenthetical is that item's, not the document's.
  auto item = [&](int line, const std::string& text) {
    std::string outside;
    int depth = 0;
    for (char c : text) {
      depth += c == '(' ? 1 : c == ')' && depth > 0 ? -1 : 0;
      if (depth == 0 && c != ')') outside += c;
    }
    if (!HardwareStated(outside).empty() || AcceleratorIn(outside) == AcceleratorIn(text)) look(line, text);
  };
  std::function<void(const Bullet&)> walk = [&](const Bullet& b) {
    item(b.line, b.text);
    for (const auto& c : b.children) walk(c);
  };
  for (const auto& sec : logbook.sections) {
    look(sec.heading_line, sec.name);
    if (sec.heading_line == 0) {
      // The text under the title: a paragraph naming two machines ("1x
      // H100 for the kernels, 8x H100 for training") states none.
      for (const auto& b : sec.bullets) {
        std::set<std::string> named;
        std::string part;
        for (char c : b.text + ".") {
          if (c != ',' && c != ';' && c != '.') part += c;
          else if (const std::string a = AcceleratorIn(part); !a.empty()) named.insert(a), part.clear();
          else part.clear();
        }
        if (named.size() <= 1) look(b.line, b.text);
      }
      continue;
    }
    for (const auto& b : sec.bullets) walk(b);
  }
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

// The statement that holds at `line`: the last one above it (a later one
// overrides), "" when none.
std::string HardwareAt(const std::vector<std::pair<int, std::string>>& statements, int line) {
  std::string found;
  for (const auto& [at, a] : statements)
    if (at < line) found = a;
  return found;
}

namespace {

// An entry's own statements of its hardware, by line: its sentences, list
// items and sub-headings ("#### On 8xA100"). A line that states two holds
// none.
std::vector<std::pair<int, std::string>> EntryStatements(const Entry& e) {
  std::vector<std::pair<int, std::string>> out;
  auto look = [&](int line, const std::string& text) {
    if (const auto stated = HardwareStated(text); stated.size() == 1) out.emplace_back(line, stated.front());
  };
  for (const auto& p : e.paragraphs) {
    size_t from = 0;
    for (size_t i = 0; i <= p.line_starts.size(); ++i) {
      const size_t to = i < p.line_starts.size() ? p.line_starts[i] : p.text.size();
      if (to > from) look(p.line + static_cast<int>(i), p.text.substr(from, to - from));
      from = std::max(from, to);
    }
  }
  std::function<void(const Bullet&)> walk = [&](const Bullet& b) {
    look(b.line, b.text);
    for (const auto& c : b.children) walk(c);
  };
  for (const auto& b : e.notes) walk(b);
  for (const auto& f : e.fields) walk(f.bullet);
  for (const auto& h : e.subheadings) {
    look(h.line, h.text);
    const auto w = Words(h.text);
    if (!w.empty() && w.size() <= 3 && StartsHardware(w.front()) && !AcceleratorIn(h.text).empty())
      out.emplace_back(h.line, AcceleratorIn(h.text));  // "#### 8xH100"
  }
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

// Keys that count a run's devices already: no "gpus" beside them.
bool CountsDevices(const Config& cfg) {
  for (const char* k : {"gpus", "num_gpus", "n_gpus", "ngpus", "num_devices", "devices", "world_size",
                        "nproc_per_node", "nproc", "chips"})
    if (cfg.count(k)) return true;
  return false;
}

}  // namespace

// Each figure's hardware: the accelerator its entry's fields or commands
// name, else the entry's last statement above the figure (a later one
// overrides; figures above the first take it when the entry states one
// only), else the document's. Keyed as accelerator (name and count,
// "H100x16") and gpus (the count), unless the figure's keys say already.
void KeyHardware(const Entry& entry, const std::string& document, std::vector<RecordedFigure>* out) {
  const auto stated = EntryStatements(entry);
  std::set<std::string> distinct;
  for (const auto& [line, a] : stated) distinct.insert(a);
  for (auto& f : *out) {
    Config& cfg = f.run.config;
    std::string a = cfg.count("accelerator") ? cfg.at("accelerator") : HardwareAt(stated, f.line + 1);
    if (a.empty() && distinct.size() == 1) a = *distinct.begin();
    if (a.empty()) a = document;
    if (a.empty()) continue;
    cfg.emplace("accelerator", a);
    if (const int n = AcceleratorCount(cfg.at("accelerator")); n > 0 && !CountsDevices(cfg))
      cfg["gpus"] = std::to_string(n);
  }
}

// The one accelerator an entry names (heading, Config, commands), or "".
std::string EntryAccelerator(const Entry& e) {
  std::set<std::string> found;
  auto look = [&](const std::string& t) {
    if (std::string a = AcceleratorIn(t); !a.empty()) found.insert(a);
  };
  look(e.heading);
  if (const Field* f = e.FindField("Command")) look(f->bullet.text);
  // Fields that say what it ran on: "Config", "Hardware", "Hardware and topology", "Resources".
  for (const char* name : {"Config", "Hardware", "Hardware and topology", "Resources", "Cluster", "Setup"})
    if (const Field* f = e.FindField(name)) {
      look(f->bullet.text);
      for (const auto& c : f->bullet.children) look(c.text);
    }
  for (const auto& c : e.commands) look(c.joined);
  // "on B200" in the heading and "4 B200 GPUs" in the Config name one
  // machine: the name alone gives way to a count of it.
  for (auto it = found.begin(); it != found.end();) {
    const std::string counted = *it + "x";
    const bool has_count = std::any_of(found.begin(), found.end(), [&](const std::string& o) {
      return o.size() > counted.size() && o.compare(0, counted.size(), counted) == 0 &&
             std::all_of(o.begin() + static_cast<long>(counted.size()), o.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    });
    it = has_count ? found.erase(it) : std::next(it);
  }
  return found.size() == 1 ? *found.begin() : "";
}

}  // namespace reader

}  // namespace moelog::logbook
