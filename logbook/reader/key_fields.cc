// Reader stage key: a record's field labels and its settings lists
// (key_fields.h). Words: data/reader/fields.json.
#include "logbook/reader/key_fields.h"

#include <cctype>
#include <functional>
#include <set>

#include "logbook/doc/parse_logbook.h"
#include "logbook/reader/data_words.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {
namespace {

struct FieldWords {
  std::set<std::string> fields, lists;
};

const FieldWords& Vocab() {
  static const FieldWords w = [] {
    FieldWords f;
    f.fields = DataWords("data/reader/fields.json", "field_labels");
    f.lists = DataWords("data/reader/fields.json", "setting_lists");
    return f;
  }();
  return w;
}

// A label's words without markup, in lower case, its colon dropped.
std::string BareLabel(const std::string& label) {
  std::string out;
  for (char c : PlainLabel(label))
    if (c != '*' && c != '_' && c != ':') out += c;
  return parse_detail::Trim(out);
}

// The text of a label's colon, when it is all the bullet says ("**params**:").
bool OnlyALabel(const std::string& text, std::string* label) {
  const std::string t = parse_detail::Trim(text);
  if (t.empty() || t.back() != ':' || t.size() > 60) return false;
  *label = t.substr(0, t.size() - 1);
  return true;
}

// A settings item's name: letters, digits, '_', '-', '.' and spaces, at
// most three words, starting with a letter.
bool SettingName(const std::string& name) {
  if (name.empty() || name.size() > 40 || !std::isalpha(static_cast<unsigned char>(name[0]))) return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && std::string("_-. ").find(c) == std::string::npos) return false;
  return Words(name).size() <= 3;
}

}  // namespace

bool FieldLabel(const std::string& label) { return !label.empty() && Vocab().fields.count(BareLabel(label)) > 0; }

bool SettingsItem(const std::string& text, std::string* key, std::string* value) {
  const size_t colon = text.find(':');
  if (colon == std::string::npos) return false;
  std::string name;
  for (char c : text.substr(0, colon))
    if (c != '*' && c != '`') name += c;
  name = parse_detail::Trim(name);
  std::string rest = parse_detail::Trim(text.substr(colon + 1));
  if (!SettingName(name) || rest.empty() || rest.size() > 82) return false;
  if (rest.size() > 2 && rest.front() == '`' && rest.back() == '`' && rest.find('`', 1) == rest.size() - 1) {
    rest = rest.substr(1, rest.size() - 2);  // "`-O3 -march=native -mavx512f -mfma`": one value
  } else if (rest.size() > 40 || rest.find(' ') != std::string::npos || rest.find('`') != std::string::npos) {
    return false;  // "900 GB/s", a sentence: no setting
  }
  if (rest.empty()) return false;
  *key = SnakeKey(name);
  *value = rest;
  return !key->empty();
}

bool SettingsList(const Bullet& b) {
  std::string label;
  if (b.children.empty() || !OnlyALabel(b.text, &label) || !Vocab().lists.count(BareLabel(label))) return false;
  std::string k, v;
  for (const auto& c : b.children)
    if (!c.children.empty() || !SettingsItem(c.text, &k, &v)) return false;
  return true;
}

void SettingsListConfig(const Entry& entry, const Vars& vars, Config* fixed) {
  std::map<std::string, std::set<std::string>> given;
  std::function<void(const Bullet&)> visit = [&](const Bullet& b) {
    if (SettingsList(b)) {
      for (const auto& c : b.children)
        if (std::string k, v; SettingsItem(c.text, &k, &v)) given[k].insert(v);
      return;
    }
    for (const auto& c : b.children) visit(c);
  };
  for (const auto& b : entry.notes) visit(b);
  for (const auto& f : entry.fields) visit(f.bullet);  // "- **params**:" reads as a field's name
  for (const auto& [k, values] : given)
    if (values.size() == 1 && !vars.count(k)) fixed->emplace(k, *values.begin());
}

}  // namespace moelog::logbook::reader
