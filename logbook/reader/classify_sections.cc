// The classify stage's section rule: a part of a document that sits in a
// section naming a device's specifications ("## L4 GPU Specifications",
// "## Card specs" over "### Memory Hierarchy", "### Compute Resources")
// states the device's ratings (capacity, bandwidth, latency in cycles), not
// a run, when it runs no command. The words are spec_leads of
// vocabulary.json.
#include "logbook/reader/classify_sections.h"

#include <set>
#include <string>

#include "logbook/reader/data_words.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {
namespace {

// The name of the section that holds `entry` below its own heading, or "".
std::string EnclosingSection(const Logbook& logbook, const Entry& entry) {
  std::string name;
  for (const auto& s : logbook.sections)
    if (s.heading_line < entry.heading_line && entry.heading_line <= s.end_line) name = s.name;
  return name;
}

bool NamesSpecifications(const std::string& name) {
  static const auto* leads = new std::set<std::string>(DataWords("data/reader/vocabulary.json", "spec_leads"));
  for (std::string w : Words(Lower(name))) {
    while (!w.empty() && !std::isalnum(static_cast<unsigned char>(w.back()))) w.pop_back();
    if (leads->count(w)) return true;
  }
  return false;
}

}  // namespace

void DropUnderSpecSection(const Logbook& logbook, const Entry& entry, std::vector<RecordedFigure>* out,
                          std::vector<UnreadFigures>* unread) {
  if (out->empty() || !entry.commands.empty()) return;
  const std::string section = EnclosingSection(logbook, entry);
  if (section.empty() || !NamesSpecifications(section)) return;
  for (const auto& f : *out)
    if (unread && !(!unread->empty() && unread->back().line == f.line))
      unread->push_back({f.line, f.text, "a device's specifications (in the section \"" + section + "\"), not a run"});
  out->clear();
}

}  // namespace moelog::logbook::reader
