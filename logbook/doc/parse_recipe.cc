#include "logbook/doc/parse_recipe.h"

#include "logbook/file_util.h"
#include "logbook/doc/markdown.h"
#include "logbook/doc/parse_logbook.h"

namespace moelog::logbook {
namespace {

using namespace parse_detail;

void AddBlock(const MdDocument& doc, int idx, RecipeStep* step) {
  const MdNode& n = doc.nodes[idx];
  if (n.kind != MdKind::kCodeBlock || !n.fenced || !IsShellInfo(n.info)) return;
  FencedBlock f = BuildFenced(doc, idx, {});
  CommandText cmd = FencedCommand(doc, idx);
  step->blocks.push_back(f);
  step->end_line = std::max(step->end_line, f.end_line);
  if (!cmd.joined.empty()) step->commands.push_back(std::move(cmd));
}

// Shell blocks nested in a numbered item (indented under it).
void AddNested(const MdDocument& doc, int node, RecipeStep* step) {
  for (int c : doc.nodes[node].children) {
    const MdNode& n = doc.nodes[c];
    if (n.kind == MdKind::kCodeBlock) AddBlock(doc, c, step);
    else if (n.kind == MdKind::kList || n.kind == MdKind::kItem || n.kind == MdKind::kBlockQuote) AddNested(doc, c, step);
    else if (n.kind == MdKind::kParagraph && c != FirstParagraph(doc, node)) step->notes.push_back(Trim(InlineText(doc, c)));
  }
}

// The walk over a recipe's top-level blocks: sections by level-2 heading;
// steps from a numbered list, else one per heading whose first block is a
// shell code block; later blocks attach to the step before them.
struct RecipeWalk {
  const MdDocument& doc;
  const std::vector<std::string_view>& lines;
  Recipe* r;
  bool has_numbered = false;
  int sec = -1;
  int step = -1;              // the step later blocks attach to
  std::string heading;        // last heading text (heading-mode steps)
  int heading_line = 0;
  bool heading_has_step = false;

  RecipeWalk(const MdDocument& d, const std::vector<std::string_view>& l, Recipe* out) : doc(d), lines(l), r(out) {}

  void Heading(int idx) {
    const MdNode& n = doc.nodes[idx];
    const std::string h = Trim(InlineText(doc, idx));
    if (n.level == 1 && r->title.empty()) r->title = h;
    if (n.level == 2) {
      Section s;
      s.kind = SectionKindFromName(h);
      s.name = h;
      s.heading_line = n.start_line;
      r->sections.push_back(std::move(s));
      sec = static_cast<int>(r->sections.size()) - 1;
    }
    heading = h;
    heading_line = n.start_line;
    heading_has_step = false;
    step = -1;
  }

  void List(int idx) {
    const MdNode& n = doc.nodes[idx];
    if (!(n.ordered && has_numbered)) {
      for (int item : n.children) {
        if (doc.nodes[item].kind != MdKind::kItem) continue;
        if (sec >= 0) r->sections[sec].bullets.push_back(BuildBullet(doc, item));
      }
      if (step >= 0)
        for (int item : n.children)
          if (doc.nodes[item].kind == MdKind::kItem) r->steps[step].notes.push_back(BuildBullet(doc, item).text);
      return;
    }
    for (int item : n.children) {
      if (doc.nodes[item].kind != MdKind::kItem) continue;
      RecipeStep s;
      s.number = static_cast<int>(r->steps.size()) + 1;
      const int para = FirstParagraph(doc, item);
      s.title = para >= 0 ? Trim(InlineText(doc, para)) : "";
      s.line = doc.nodes[item].start_line;
      s.end_line = doc.nodes[item].end_line;
      AddNested(doc, item, &s);
      r->steps.push_back(std::move(s));
      step = static_cast<int>(r->steps.size()) - 1;
    }
  }

  void CodeBlock(int idx) {
    const MdNode& n = doc.nodes[idx];
    if (step < 0 && !has_numbered && n.fenced && IsShellInfo(n.info) && !heading_has_step) {
      RecipeStep s;
      s.number = static_cast<int>(r->steps.size()) + 1;
      s.title = heading;
      s.line = heading_line > 0 ? heading_line : n.start_line;
      s.end_line = n.end_line;
      r->steps.push_back(std::move(s));
      step = static_cast<int>(r->steps.size()) - 1;
      heading_has_step = true;
    }
    if (step >= 0) AddBlock(doc, idx, &r->steps[step]);
    else if (sec >= 0) r->sections[sec].blocks.push_back(BuildFenced(doc, idx, lines));
  }

  void Block(int idx) {
    switch (doc.nodes[idx].kind) {
      case MdKind::kHeading: Heading(idx); break;
      case MdKind::kList: List(idx); break;
      case MdKind::kCodeBlock: CodeBlock(idx); break;
      case MdKind::kParagraph:
        if (step >= 0) r->steps[step].notes.push_back(Trim(InlineText(doc, idx)));
        break;
      default: break;
    }
  }
};

}  // namespace

Recipe ParseRecipe(std::string_view text, const std::string& file) {
  Recipe r;
  r.file = file;
  const auto [lines, doc] = ReadDocument(text, file, &r.line_count, &r.diagnostics);
  RecipeWalk walk(doc, lines, &r);
  for (int idx : doc.root().children)
    if (doc.nodes[idx].kind == MdKind::kList && doc.nodes[idx].ordered) walk.has_numbered = true;
  for (int idx : doc.root().children) walk.Block(idx);
  for (auto& s : r.sections) {
    if (s.kind == SectionKind::kNotes)
      for (const auto& b : s.bullets) r.notes.push_back(b);
  }
  for (const auto& s : r.steps)
    if (s.commands.empty())
      r.diagnostics.push_back({file, s.line, "step " + std::to_string(s.number) + " has no shell block"});
  return r;
}

Result<Recipe> LoadRecipe(const std::string& path) { return ParseFile(path, ParseRecipe); }

}  // namespace moelog::logbook
