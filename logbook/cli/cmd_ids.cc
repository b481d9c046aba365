// moelog ids LOGBOOK [--write]: list entry IDs; --write adds the derived ID
// to every entry heading that has none (nothing else in the file changes).
#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>

#include "logbook/cli/cli_parse.h"
#include "logbook/cli/commands.h"
#include "logbook/cli/store_flags.h"
#include "logbook/doc/entry_ids.h"
#include "logbook/file_util.h"
#include "logbook/doc/parse_logbook.h"

namespace moelog::cli {

int CmdIds(const Args& args) {
  CLI::App app{"List a logbook's entry IDs: the explicit ID of each entry heading, or the stable ID\n"
               "derived from the logbook's Experiment ID Prefix and the entry's date-time.\n"
               "Output columns: ID, heading line, explicit|derived, date time, label.",
               "moelog ids"};
  std::string path;
  bool write = false;
  app.add_option("logbook", path, "logbook Markdown file")->required();
  app.add_flag("--write", write, "insert the derived ID into headings that have none (atomic; nothing else changes)");
  if (auto code = ParseCommandLine(app, args)) return *code;
  LogbookFile file;  // IDs are written into the text as it is, line ends and all
  if (auto code = file.Open("ids", path, write, /*to_lf=*/false)) return *code;
  const std::string* text = &file.text;
  const logbook::Logbook lb = logbook::ParseLogbook(*text, path);
  // Through the streams: main shows a terminal's control bytes in the text as '?'.
  for (const auto& d : lb.diagnostics) std::cerr << d.ToString() << "\n";
  for (const auto& e : lb.entries)
    std::cout << e.id << "\t" << e.heading_line << "\t" << (e.explicit_id.empty() ? "derived" : "explicit") << "\t"
              << e.date << " " << e.time << "\t" << e.label << "\n";
  if (!write) return kExitOk;
  int added = 0;
  const std::string out = logbook::AddMissingIds(lb, *text, &added);
  if (added == 0) {
    std::fprintf(stderr, "%s: every entry already has an explicit ID\n", path.c_str());
    return kExitOk;
  }
  // The rewrite must keep every ID: re-parse and compare before replacing.
  const logbook::Logbook check = logbook::ParseLogbook(out, path);
  bool same = check.entries.size() == lb.entries.size();
  for (size_t i = 0; same && i < lb.entries.size(); ++i)
    same = check.entries[i].id == lb.entries[i].id && !check.entries[i].explicit_id.empty();
  if (!same) {
    PrintError("ids", path + ": adding IDs would change an entry's ID; file left unchanged");
    return kExitParse;
  }
  if (auto code = file.Write("ids", out)) return *code;
  std::fprintf(stderr, "%s: added %d explicit ID%s\n", path.c_str(), added, added == 1 ? "" : "s");
  return kExitOk;
}

}  // namespace moelog::cli
