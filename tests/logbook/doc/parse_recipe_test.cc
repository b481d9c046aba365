#include "logbook/doc/parse_recipe.h"

#include <gtest/gtest.h>

#include "tests/logbook/seed_docs.h"

namespace moelog::logbook {
namespace {

using moelog::testing::Lines;
using moelog::testing::SeedPath;
using moelog::testing::Slurp;

TEST(ParseRecipeTest, SeedRecipeSteps) {
  const std::string text = Slurp(SeedPath("agent_research_recipe.md"));
  const Recipe r = ParseRecipe(text, "recipe.md");
  const auto lines = Lines(text);
  EXPECT_EQ(r.title, "Recipe: Agent Research Loop (MoE EP + Int8)");
  ASSERT_EQ(r.steps.size(), 4u);
  for (size_t i = 0; i < r.steps.size(); ++i) {
    const RecipeStep& s = r.steps[i];
    EXPECT_EQ(s.number, static_cast<int>(i) + 1);
    // The step's line is its numbered item "N. ...".
    EXPECT_EQ(lines[s.line - 1].rfind(std::to_string(i + 1) + ". ", 0), 0u) << lines[s.line - 1];
    ASSERT_EQ(s.commands.size(), 1u);
    EXPECT_TRUE(s.commands[0].fenced);
    EXPECT_EQ(lines[s.commands[0].line - 1], "```bash");
    EXPECT_EQ(lines[s.commands[0].end_line - 1], "```");
    EXPECT_EQ(s.end_line, s.commands[0].end_line);
    EXPECT_EQ(s.commands[0].joined.find('\\'), std::string::npos);
    EXPECT_EQ(s.commands[0].joined.find('\n'), std::string::npos);
  }
  EXPECT_NE(r.steps[0].title.find("Allocate a dev TPU"), std::string::npos);
  EXPECT_NE(r.steps[3].commands[0].joined.find("--topk-list 1,2,4,6,8"), std::string::npos);
  EXPECT_EQ(r.notes.size(), 4u);
  EXPECT_TRUE(r.diagnostics.empty());
}

TEST(ParseRecipeTest, HeadingSteps) {
  const std::string text = "# R\n\n## Build\n\n```sh\nmake\n```\n\n## Run\ntext\n\n```bash\n./run\n```\n\n## About\nnone\n";
  const Recipe r = ParseRecipe(text, "r.md");
  ASSERT_EQ(r.steps.size(), 2u);
  EXPECT_EQ(r.steps[0].title, "Build");
  EXPECT_EQ(r.steps[1].title, "Run");
  EXPECT_EQ(r.steps[1].commands[0].joined, "./run");
}

}  // namespace
}  // namespace moelog::logbook
