#include "logbook/render/chart.h"
#include "logbook/text.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>

#include "engine/format.h"
#include "engine/target.h"
#include "logbook/file_util.h"
#include "logbook/render/chart_gnuplot.h"
#include "logbook/store/sha256.h"

namespace moelog::logbook {
namespace {

bool PathIsSafe(const std::string& p) {
  if (p.empty()) return false;
  for (unsigned char c : p)
    if (!(std::isalnum(c) || c == '/' || c == '.' || c == '_' || c == '-' || c == '+' || c == ',' || c == '@' ||
          c == '=' || c == '~' || c == ':' || c == ' '))
      return false;
  return true;
}

std::string DirOf(const std::string& path) {
  auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// A drawn chart is whole: an SVG's root element is closed, a PNG ends with
// its IEND chunk.
bool ChartComplete(const std::string& text, bool png) {
  if (png) {
    static const std::string kSig("\x89PNG\r\n\x1a\n", 8);
    static const std::string kEnd("IEND\xae\x42\x60\x82", 8);
    return text.size() > 16 && text.compare(0, 8, kSig) == 0 &&
           text.compare(text.size() - kEnd.size(), kEnd.size(), kEnd) == 0;
  }
  const size_t open = text.find("<svg");
  const size_t close = text.rfind("</svg>");
  if (open == std::string::npos || close == std::string::npos || close < open) return false;
  for (size_t i = close + 6; i < text.size(); ++i)
    if (!std::isspace(static_cast<unsigned char>(text[i]))) return false;
  return true;
}

}  // namespace

std::vector<ChartPoint> PointsFromRuns(const std::vector<StoredRun>& runs) {
  std::vector<ChartPoint> out;
  for (const auto& r : runs) {
    ChartPoint p;
    p.config = r.config;
    p.id = r.id;
    if (!r.target.empty()) p.config["target"] = r.target;
    p.metrics = r.metrics;
    const engine::Target& target = engine::TargetOrDefault(r.target);
    p.source = r.source.empty() || (r.source == "measured" && target.modeled) ? target.source : r.source;
    out.push_back(std::move(p));
  }
  return out;
}

namespace {

// The length of the valid UTF-8 character at text[i] that is no C1 control
// (U+0080-U+009F), or 0: no overlong form, surrogate or code point past U+10FFFF.
size_t Utf8Letter(const std::string& text, size_t i) {
  const auto b = [&](size_t k) { return k < text.size() ? static_cast<unsigned char>(text[k]) : 0; };
  const unsigned char c = b(i);
  size_t need = 0;
  unsigned char lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) need = 1, lo = c == 0xC2 ? 0xA0 : 0x80;
  else if (c >= 0xE0 && c <= 0xEF) need = 2, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
  else if (c >= 0xF0 && c <= 0xF4) need = 3, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
  if (need == 0 || b(i + 1) < lo || b(i + 1) > hi) return 0;
  for (size_t k = 2; k <= need; ++k)
    if (b(i + k) < 0x80 || b(i + k) > 0xBF) return 0;
  return need + 1;
}

}  // namespace

std::string GnuplotLabel(const std::string& text, size_t max_bytes) {
  std::string out;
  bool space = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (std::isspace(c)) {
      space = true;
      continue;
    }
    if (c == '`') continue;  // Markdown code marks carry no meaning in a label
    if (space && !out.empty()) out += ' ';
    space = false;
    // Letters outside ASCII stay ("Référence"): no byte of a valid UTF-8
    // character can close a single-quoted gnuplot string.
    if (const size_t n = c >= 0x80 ? Utf8Letter(text, i) : 0; n > 0) {
      out.append(text, i, n);
      i += n - 1;
      continue;
    }
    bool ok = std::isalnum(c) || std::string("_.,:;=+-/()%[]{}*#?@").find(static_cast<char>(c)) != std::string::npos;
    out += ok ? static_cast<char>(c) : '_';
  }
  return Utf8Prefix(out, max_bytes);
}

std::string ChartStem(const std::string& entry_id) {
  std::string out;
  for (unsigned char c : entry_id) {
    if (std::isalnum(c) || c == '_' || c == '-') out += static_cast<char>(c);
    else if (!out.empty() && out.back() != '-') out += '-';
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  if (out == entry_id && out.size() <= 60) return out;
  // Changed or cut: a hash of the whole ID keeps two entries' files apart.
  uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (unsigned char c : entry_id) h = (h ^ c) * 1099511628211ull;
  const std::string hex = engine::Hex16(h);
  if (out.size() > 51) out.resize(51);
  while (!out.empty() && out.back() == '-') out.pop_back();
  return (out.empty() ? std::string("chart") : out) + "-" + hex.substr(0, 8);
}

std::string FormatChartStamp(const ChartStamp& stamp) {
  return "<!-- moelog:chart inputs=" + stamp.inputs + " chart=" + stamp.chart + " -->\n";
}

std::optional<ChartStamp> FindChartStamp(std::string_view region_text) {
  static constexpr std::string_view kOpen = "<!-- moelog:chart inputs=";
  const size_t at = region_text.find(kOpen);
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view rest = region_text.substr(at + kOpen.size());
  auto hex = [](std::string_view v) {
    return v.size() == 16 && std::all_of(v.begin(), v.end(), [](char c) {
             return std::isdigit(static_cast<unsigned char>(c)) || (c >= 'a' && c <= 'f');
           });
  };
  static constexpr std::string_view kChart = " chart=", kClose = " -->";
  if (rest.size() < 16 + kChart.size() + 16 + kClose.size()) return std::nullopt;
  ChartStamp st{std::string(rest.substr(0, 16)), std::string(rest.substr(16 + kChart.size(), 16))};
  if (!hex(st.inputs) || !hex(st.chart) || rest.substr(16, kChart.size()) != kChart ||
      rest.substr(32 + kChart.size(), kClose.size()) != kClose)
    return std::nullopt;
  return st;
}

namespace {

std::string ShortHash(std::string_view bytes) { return Sha256Hex(bytes).substr(0, 16); }

// The hash of the chart file at `path`, "" when it is missing or not whole.
std::string InstalledChartHash(const std::string& path, bool png) {
  auto text = ReadOwnFile(path);
  return text.ok() && ChartComplete(*text, png) ? ShortHash(*text) : std::string();
}

// Runs gnuplot on `script` in `dir`: with the update's shared process when a
// SharedGnuplot scope lives (chart_gnuplot.h), else with one of its own.
// Returns gnuplot's messages.
Result<std::string> RunGnuplot(const std::string& dir, const std::string& script) {
  if (GnuplotSession* shared = SharedGnuplot::Current()) return shared->Run(dir, script);
  GnuplotSession own;
  return own.Run(dir, script);
}

// Draws the chart into a fresh file of moelog's (mkstemps: created here,
// never an existing name or link) and installs it only when it is complete:
// an SVG that ends its root element, a PNG that ends with its IEND chunk (a
// full disk or a killed gnuplot leaves a truncated file, which never
// replaces the chart). Returns the installed chart's hash.
Result<std::string> DrawAndInstall(const ChartPlan& plan, const ChartFiles& files, const std::string& dir,
                                   const std::string& base, bool png) {
  const std::string ext = png ? ".png" : ".svg";
  std::string tmp_buf = dir + "/." + base + ".moelog-tmp-XXXXXX" + ext;
  const int tmp_fd = ::mkstemps(tmp_buf.data(), static_cast<int>(ext.size()));
  if (tmp_fd < 0) return Status::IOError(dir + ": cannot create a temporary chart file");
  // Readable by everyone who can read the logbook (a chart drawn by an older
  // moelog as 0600 is opened up), otherwise the old chart's mode.
  ::fchmod(tmp_fd, ReplacementMode(files.chart) | 0644);
  ::close(tmp_fd);
  const std::string tmp_path = tmp_buf;
  auto why = RunGnuplot(dir, ChartScript(plan, base + ".dat", tmp_path.substr(dir.size() + 1), png));
  auto drawn = ReadFile(tmp_path);
  if (!why.ok() || !drawn.ok() || !ChartComplete(*drawn, png)) {
    ::unlink(tmp_path.c_str());
    // Whatever state the script left gnuplot in, the next chart gets a new one.
    if (GnuplotSession* shared = SharedGnuplot::Current()) shared->Retire();
    if (!why.ok()) return why.status();
    return Status::IOError("gnuplot produced an incomplete chart " + files.chart + (why->empty() ? "" : ": " + *why));
  }
  if (std::rename(tmp_path.c_str(), files.chart.c_str()) != 0) {
    ::unlink(tmp_path.c_str());
    return Status::IOError("cannot rename the chart to " + files.chart);
  }
  return ShortHash(*drawn);
}

}  // namespace

Result<ChartFiles> DrawChart(const ChartPlan& plan, const std::string& dir, const std::string& base, bool png,
                             const ChartDraw& how) {
  const bool base_ok = !base.empty() && base.size() <= 200 && std::all_of(base.begin(), base.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
  if (!PathIsSafe(dir) || !base_ok)
    return Status::InvalidArgument("chart path '" + dir + "/" + base +
                                   "' has characters moelog does not pass to gnuplot (allowed: letters, digits, "
                                   "space and /._-+,@=~:)");
  bool any = false;
  for (const auto& p : plan.panels)
    for (const auto& se : p.series)
      for (const auto* v : {&se.y, &se.recorded})
        for (const auto& y : *v) any = any || y.has_value();
  if (!any) return Status::InvalidArgument("the chart " + dir + "/" + base + " has no figure to draw");
  ChartFiles files;
  const std::string ext = png ? ".png" : ".svg";
  files.chart = dir + "/" + base + ext;
  files.data = dir + "/" + base + ".dat";
  files.script = dir + "/" + base + ".gp";
  // Each is moelog's own file or absent: a FIFO would hang the read, a hard
  // link would carry the rewrite to wherever else the file is.
  for (const std::string* f : {&files.chart, &files.data, &files.script}) MOELOG_RETURN_IF_ERROR(CheckOwnFile(*f));
  const std::string data = ChartData(plan);
  const std::string saved_script = ChartScript(plan, base + ".dat", base + ext, png);
  files.stamp.inputs = ShortHash(data + "\n" + saved_script);
  files.stamp.chart = InstalledChartHash(files.chart, png);
  auto same = [](const std::string& path, const std::string& text) {
    auto old = ReadOwnFile(path);
    return old.ok() && *old == text;
  };
  // The chart on disk is the one the region recorded, drawn from these very
  // inputs, and the inputs beside it are whole: nothing to redraw (a warm
  // update must not run gnuplot for every entry).
  files.current = how.recorded && *how.recorded == files.stamp && same(files.data, data) &&
                  same(files.script, saved_script);
  if (files.current || !how.write) return files;
  MOELOG_RETURN_IF_ERROR(MakeRealDir(dir));
  // Not synced: the stamp records their hashes and an update compares them
  // before it trusts the chart (as the chart itself, installed by rename).
  MOELOG_RETURN_IF_ERROR(AtomicWriteFile(files.data, data, /*sync=*/false));
  MOELOG_RETURN_IF_ERROR(AtomicWriteFile(files.script, saved_script, /*sync=*/false));
  auto hash = DrawAndInstall(plan, files, dir, base, png);
  if (!hash.ok()) return hash.status();
  files.stamp.chart = *hash;
  files.current = true;
  return files;
}

bool ChartFileComplete(const std::string& path) {
  auto text = ReadOwnFile(path);
  return text.ok() && ChartComplete(*text, path.size() > 4 && path.compare(path.size() - 4, 4, ".png") == 0);
}

std::string FigureFolder(const std::string& logbook_path) {
  std::string name = logbook_path.substr(logbook_path.rfind('/') + 1);  // npos + 1 == 0
  if (name.size() > 3 && name.compare(name.size() - 3, 3, ".md") == 0) name.resize(name.size() - 3);
  return ChartStem(name.empty() ? "logbook" : name);
}

Result<EntryChart> DrawEntryChart(const std::string& logbook_path, const std::string& entry_id,
                                  const std::vector<ChartPoint>& points, const ChartOptions& options,
                                  const std::string& suffix, const ChartDraw& how) {
  ChartOptions opts = options;
  if (opts.id.empty()) opts.id = entry_id;
  auto plan = PlanChart(points, opts);
  if (!plan.ok()) return plan.status();
  std::string base = ChartStem(entry_id);
  if (!suffix.empty()) base.append("-").append(ChartStem(suffix));
  EntryChart out;
  const std::string folder = FigureFolder(logbook_path);
  const std::string dir = DirOf(logbook_path) + "/figures/" + folder;
  if (how.write) MOELOG_RETURN_IF_ERROR(MakeRealDir(DirOf(logbook_path) + "/figures"));
  auto files = DrawChart(*plan, dir, base, opts.png, how);
  if (!files.ok()) return files.status();
  out.files = *files;
  // The alt text says what is plotted; the entry's heading above names it.
  std::string alt = (plan->prediction ? "Prediction: " : "") + plan->what;
  for (char& c : alt)
    if (c == '[' || c == ']') c = ' ';
  out.markdown = "![" + alt + "](figures/" + folder + "/" + base + (opts.png ? ".png" : ".svg") + ")\n" +
                 FormatChartStamp(files->stamp);
  // What the chart leaves out, said where the reader looks for it.
  for (const auto& note : plan->notes) out.markdown.append("\n").append(NoteLine(note)).append("\n");
  return out;
}

}  // namespace moelog::logbook
