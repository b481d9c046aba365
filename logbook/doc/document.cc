#include "logbook/doc/document.h"

namespace moelog::logbook {

std::string Diagnostic::ToString() const {
  return file + ":" + std::to_string(line) + ": " + message;
}

const Field* Entry::FindField(const std::string& name) const {
  for (const auto& f : fields)
    if (f.name == name) return &f;
  return nullptr;
}

int Paragraph::LineAt(size_t offset) const {
  int l = line;
  for (size_t b : line_starts)
    if (b <= offset) ++l;
  return l;
}

namespace {
void CollectNumbered(const Bullet& b, std::vector<const Bullet*>* out) {
  if (!b.numbers.empty()) out->push_back(&b);
  for (const auto& c : b.children) CollectNumbered(c, out);
}
}  // namespace

std::vector<const Bullet*> Entry::RecordedBullets() const {
  std::vector<const Bullet*> out;
  for (const auto& f : fields) {
    if (f.name != "Result") continue;
    if (!f.bullet.numbers.empty()) out.push_back(&f.bullet);
    for (const auto& c : f.bullet.children) CollectNumbered(c, &out);
  }
  return out;
}

bool Entry::HasNonPlannedCommand() const {
  for (const auto& c : commands)
    if (!c.planned) return true;
  return false;
}

const Section* Logbook::FindSection(SectionKind kind) const {
  for (const auto& s : sections)
    if (s.kind == kind) return &s;
  return nullptr;
}

const Entry* Logbook::FindEntry(const std::string& id) const {
  for (const auto& e : entries)
    if (e.id == id) return &e;
  return nullptr;
}

const char* SectionKindName(SectionKind kind) {
  switch (kind) {
    case SectionKind::kScope: return "Scope";
    case SectionKind::kLinks: return "Links";
    case SectionKind::kBaseline: return "Baseline";
    case SectionKind::kStopCriteria: return "Stop Criteria";
    case SectionKind::kExperimentMatrix: return "Experiment Matrix";
    case SectionKind::kCommandTemplates: return "Command Templates";
    case SectionKind::kExperimentIdPrefix: return "Experiment ID Prefix";
    case SectionKind::kExperimentLog: return "Experiment Log";
    case SectionKind::kNegativeResultsIndex: return "Negative Results Index";
    case SectionKind::kCurrentStatus: return "Current Status";
    case SectionKind::kOverview: return "Overview";
    case SectionKind::kPrerequisites: return "Prerequisites";
    case SectionKind::kNotes: return "Notes";
    case SectionKind::kUnknown: return "unknown";
  }
  return "unknown";
}

}  // namespace moelog::logbook
