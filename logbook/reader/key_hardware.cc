#include "logbook/reader/internal.h"

namespace moelog::logbook {

namespace reader {

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
  size_t b = p;
  while (b > 0 && text[b - 1] == ' ') --b;
  if (b >= 2 && text.compare(b - 2, 2, "\xC3\x97") == 0) b -= 2;
  else if (b > 0 && (text[b - 1] == 'x' || text[b - 1] == 'X')) --b;
  while (b > 0 && text[b - 1] == ' ') --b;  // "8 x A100"
  const size_t e = b;
  int count = CountBefore(text, e, &b);
  // "2x 8xH100", "2x8xB200", "4× 4×GB200": a count of groups before the count multiplies it.
  if (const int groups = count > 0 ? GroupsBefore(text, &b) : 0; groups > 0) count *= groups;
  // The digits ending an ID ("CC-002 B200 canary") or a version ("v1.8 B200") count nothing.
  if (count > 0 && b > 0 && (text[b - 1] == '-' || text[b - 1] == '_' || text[b - 1] == '.' || text[b - 1] == '/' ||
                             std::isalnum(static_cast<unsigned char>(text[b - 1]))))
    count = 0;
  size_t w = p + n;
  if (w < text.size() && text[w] == 's') ++w;  // "H100s"
  std::string after = Lower(WordAt(text, w, &w));
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
// written. "" when it names none.
std::string AcceleratorIn(const std::string& text) {
  static const char* kGpus[] = {"GB200", "B200", "H100", "H200", "A100", "MI300X", "MI250X", "L40S"};
  static const char* kTpus[] = {"v4-", "v5p-", "v5e-", "v5litepod-", "v6e-"};
  auto word_start = [&](size_t p) { return p == 0 || !std::isalnum(static_cast<unsigned char>(text[p - 1])); };
  for (const char* t : kTpus) {
    for (size_t p = text.find(t); p != std::string::npos; p = text.find(t, p + 1)) {
      if (!word_start(p)) continue;
      size_t e = p + std::strlen(t);
      size_t d = e;
      while (d < text.size() && std::isdigit(static_cast<unsigned char>(text[d]))) ++d;
      if (d > e) return text.substr(p, d - p);
    }
  }
  std::string bare;
  for (const char* g : kGpus) {
    const size_t n = std::strlen(g);
    for (size_t p = text.find(g); p != std::string::npos; p = text.find(g, p + 1)) {
      // "8xB200": a count glued by 'x' is read as "8x B200" is.
      const bool counted = p >= 2 && (text[p - 1] == 'x' || text[p - 1] == 'X' || text[p - 1] == '\x97') &&
                           (std::isdigit(static_cast<unsigned char>(text[p - 2])) || text[p - 2] == '\xC3');
      if ((!word_start(p) && !counted) || (p + n < text.size() && IsUpperOrDigit(text[p + n]))) continue;
      int count = CountAfter(text, p + n);
      if (count == 0) count = CountBeforeName(text, p, n);
      if (count > 0) return std::string(g) + "x" + std::to_string(count);
      if (bare.empty()) bare = g;
    }
  }
  return bare;
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
