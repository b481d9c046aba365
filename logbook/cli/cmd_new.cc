// moelog new: start a logbook, a recipe or an entry from templates.
//   moelog new logbook --topic T --prefix P [--goal G] [--out FILE]
//   moelog new recipe [--topic T] [--out FILE]
//   moelog new entry LOGBOOK --label L [--command CMD] [--hypothesis H]
// --templates DIR overrides the shipped templates (DIR/logbook.md, ...);
// --date fixes the date (logbook, recipe: YYYY-MM-DD; entry: YYYY-MM-DD HH:MM).
#include <sys/stat.h>

#include <cctype>
#include <ctime>
#include <iostream>

#include "logbook/cli/cli_parse.h"
#include "logbook/cli/commands.h"
#include "logbook/doc/entry_ids.h"
#include "logbook/doc/parse_logbook.h"
#include "logbook/file_util.h"
#include "logbook/render/templates.h"

namespace moelog::cli {
namespace {

using logbook::CheckSlotValue;

std::string Now(const char* format) {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  localtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), format, &tm);
  return buf;
}

// "YYYY-MM-DD" (with_time false) or "YYYY-MM-DD HH:MM".
bool ValidDate(const std::string& s, bool with_time) {
  const std::string shape = with_time ? "dddd-dd-dd dd:dd" : "dddd-dd-dd";
  if (s.size() != shape.size()) return false;
  for (size_t i = 0; i < s.size(); ++i)
    if (shape[i] == 'd' ? !std::isdigit(static_cast<unsigned char>(s[i])) : s[i] != shape[i]) return false;
  return true;
}

bool Exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

int Fail(const Status& s) {
  PrintError("new", s.ToString());
  return s.ExitCode();
}

// Writes `text` to `out` (stdout when empty); never overwrites unless forced.
int Emit(const std::string& text, const std::string& out, bool force) {
  if (out.empty()) {
    std::cout << text;
    return kExitOk;
  }
  if (Exists(out) && !force) return Fail(Status::InvalidArgument(out + " exists (use --force to replace it)"));
  Status s = logbook::AtomicWriteFile(out, text);
  if (!s.ok()) return Fail(s);
  std::cerr << "wrote " << out << "\n";
  return kExitOk;
}

Result<std::string> Render(const std::string& name, const std::string& dir,
                           const std::map<std::string, std::string>& values) {
  auto tmpl = logbook::LoadTemplate(name, dir);
  if (!tmpl.ok()) return tmpl.status();
  return logbook::FillTemplate(*tmpl, values, name + ".md");
}

struct NewFlags {
  std::string templates, date, out, topic, prefix, goal = "state the question this logbook answers.";
  std::string logbook_path, label, command, hypothesis = "pending.", config = "N/A";
  bool force = false;
  CLI::App* lb = nullptr;
  CLI::App* rc = nullptr;
  CLI::App* en = nullptr;

  void Add(CLI::App& app) {
    app.require_subcommand(1);
    lb = app.add_subcommand("logbook", "write a new logbook (Scope, Links, Baseline, Stop Criteria, "
                                       "Experiment Matrix, ID prefix, Experiment Log)");
    lb->add_option("--topic", topic, "the logbook's topic (its title)")->required();
    lb->add_option("--prefix", prefix, "entry ID prefix, e.g. MOE-I8")->required();
    lb->add_option("--goal", goal, "the Scope's goal line");
    lb->add_option("LOGBOOK", out, "file to write (the same as --out; default: standard output)");
    lb->add_option("--out", out, "file to write (default: standard output)");
    lb->add_option("--date", date, "baseline date YYYY-MM-DD (default: today)");
    lb->add_flag("--force", force, "replace an existing --out file");
    lb->add_option("--templates", templates, "directory whose logbook.md replaces the shipped template");

    rc = app.add_subcommand("recipe", "write a new recipe (workflow of moelog bench steps)");
    rc->add_option("--topic", topic, "the recipe's title")->default_val("MoE benchmark research loop");
    rc->add_option("RECIPE", out, "file to write (the same as --out; default: standard output)");
    rc->add_option("--out", out, "file to write (default: standard output)");
    rc->add_option("--date", date, "date YYYY-MM-DD (default: today)");
    rc->add_flag("--force", force, "replace an existing --out file");
    rc->add_option("--templates", templates, "directory whose recipe.md replaces the shipped template");

    en = app.add_subcommand("entry", "append a dated entry with the next free ID to a logbook's Experiment Log");
    en->add_option("LOGBOOK", logbook_path, "the logbook to append to")->required();
    en->add_option("--label", label, "the entry's title")->required();
    en->add_option("--command", command, "the entry's benchmark command");
    en->add_option("--hypothesis", hypothesis, "the Hypothesis field");
    en->add_option("--config", config, "the Config field");
    en->add_option("--date", date, "entry time 'YYYY-MM-DD HH:MM' (default: now)");
    en->add_option("--templates", templates, "directory whose entry.md replaces the shipped template");
  }
};

// new logbook | new recipe: the template filled, to --out or stdout.
int NewDocument(const NewFlags& f) {
  for (auto [what, v] : {std::pair{"--topic", &f.topic}, std::pair{"--goal", &f.goal}})
    if (Status s = CheckSlotValue(what, *v); !s.ok()) return Fail(s);
  std::map<std::string, std::string> values = {{"topic", f.topic}, {"date", f.date}, {"goal", f.goal}};
  if (f.lb->parsed()) {
    if (Status s = logbook::CheckIdPrefix(f.prefix); !s.ok()) return Fail(s);
    values["prefix"] = f.prefix;
  }
  auto text = Render(f.lb->parsed() ? "logbook" : "recipe", f.templates, values);
  if (!text.ok()) return Fail(text.status());
  return Emit(*text, f.out, f.force);
}

// new entry: appends a dated entry with the next free ID (under the lock).
int NewEntry(const NewFlags& f) {
  for (auto [what, v] : {std::pair{"--label", &f.label}, std::pair{"--hypothesis", &f.hypothesis},
                         std::pair{"--config", &f.config}})
    if (Status s = CheckSlotValue(what, *v); !s.ok()) return Fail(s);
  // A benchmark command is as long as it is (one line, no control characters).
  if (Status s = CheckSlotValue("--command", f.command, std::string::npos); !s.ok()) return Fail(s);
  if (f.label.empty()) return Fail(Status::InvalidArgument("--label must not be empty"));
  logbook::FileLock lock;
  if (Status s = lock.Acquire(f.logbook_path); !s.ok()) return Fail(s);
  auto doc = logbook::ReadFile(f.logbook_path);
  if (!doc.ok()) return Fail(doc.status());
  // The prefix `moelog ids` derives IDs from: the Experiment ID Prefix, else
  // the title's, else LOG.
  const std::string prefix_found = logbook::EffectiveIdPrefix(logbook::ParseLogbook(*doc, f.logbook_path));
  if (!logbook::CheckIdPrefix(prefix_found).ok())
    return Fail(Status::ParseError(f.logbook_path + ":1: no valid ID prefix (set one under '## Experiment ID Prefix')"));
  const std::string id = logbook::NextEntryId(*doc, prefix_found);
  auto entry = Render("entry", f.templates,
                      {{"datetime", f.date}, {"id", id}, {"label", f.label}, {"hypothesis", f.hypothesis},
                       {"command", f.command.empty() ? "N/A (planned)" : logbook::InlineCode(f.command)},
                       {"config", f.config}});
  if (!entry.ok()) return Fail(entry.status());
  auto updated = logbook::InsertEntry(*doc, *entry, f.logbook_path);
  if (!updated.ok()) return Fail(updated.status());
  if (Status s = logbook::AtomicWriteFile(logbook::WrittenPath(f.logbook_path), *updated); !s.ok()) return Fail(s);
  std::cout << id << "\n";
  return kExitOk;
}

}  // namespace

int CmdNew(const Args& args) {
  CLI::App app{"Create a logbook, recipe or entry from templates (plain Markdown with {{slot}} names)", "moelog new"};
  NewFlags f;
  f.Add(app);
  if (auto code = ParseCommandLine(app, args)) return *code;
  const bool is_entry = f.en->parsed();
  if (f.date.empty()) f.date = Now(is_entry ? "%Y-%m-%d %H:%M" : "%Y-%m-%d");
  if (!ValidDate(f.date, is_entry))
    return Fail(Status::InvalidArgument(std::string("--date must look like ") + (is_entry ? "'2026-02-10 10:40'" : "2026-02-10")));
  return is_entry ? NewEntry(f) : NewDocument(f);
}

}  // namespace moelog::cli
