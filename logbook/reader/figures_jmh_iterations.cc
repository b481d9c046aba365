// Reader stage figures, JMH's per-iteration lines (figures_frameworks.h):
// `Iteration   3: 9611.032 ops/s` are samples of the one measurement the
// run's `Result "...":` (or its result table's row) reports below them, so
// they go on that row, each named apart (iteration_3_ops_per_s); with no
// result after them they are one row of their own. A warm-up iteration
// (`# Warmup Iteration   1: ...`) measures nothing: listed, not tabled.
// The leads are data: bench_printouts.json framework_tables.jmh.
#include <nlohmann/json.hpp>

#include "logbook/reader/data_words.h"
#include "logbook/reader/figures_frameworks.h"
#include "logbook/reader/figures_output_words.h"
#include "logbook/reader/internal.h"

namespace moelog::logbook::reader {
namespace {

struct IterationLeads {
  std::string measured, warmup;  // "Iteration ", "# Warmup Iteration "
};

const IterationLeads& Leads() {
  static const IterationLeads w = [] {
    IterationLeads out;
    const nlohmann::json& j = ReaderDataJson("data/reader/bench_printouts.json");
    if (!j.is_object() || !j.contains("framework_tables") || !j["framework_tables"].contains("jmh")) return out;
    const nlohmann::json& t = j["framework_tables"]["jmh"];
    out.measured = t.value("iteration_lead", ""), out.warmup = t.value("warmup_lead", "");
    return out;
  }();
  return w;
}

struct Sample {
  std::string number, digits, unit;
  int line = 0;
};

// "<lead>  3: 9611.032 ops/s": the iteration's number and its figure.
bool IterationAt(const std::string& t, const std::string& lead, Sample* s) {
  if (lead.empty() || t.rfind(lead, 0) != 0) return false;
  const size_t colon = t.find(':', lead.size());
  if (colon == std::string::npos) return false;
  s->number = parse_detail::Trim(t.substr(lead.size(), colon - lead.size()));
  const auto toks = SpaceWords(t.substr(colon + 1));
  std::string glued;
  bool approx = false;
  if (!IsNumber(s->number) || toks.size() != 2 || !NumberToken(toks[0], &s->digits, &glued, &approx) || !glued.empty()) return false;
  s->unit = toks[1];
  UnitInfo info{};
  return OutputUnit(s->unit, "", &info) && !info.derived;
}

// The samples onto `run`, each named apart; the lines they were read from join `f`.
void AddSamples(const std::vector<Sample>& samples, RecordedFigure* f) {
  for (const Sample& s : samples) {
    UnitInfo info{};
    const auto v = ParseNumber(s.digits);
    if (!v || !OutputUnit(s.unit, "", &info)) continue;
    const std::string m = QualifiedMetricName("iteration_" + s.number, info.metric);
    f->run.metrics[m] = ToStored(*v, info.factor), f->run.units[m] = s.unit, f->run.decimals[m] = WrittenDecimals(s.digits);
    if (s.line != f->line) f->joined_lines.push_back(s.line);
    f->written += s.digits + "\n";  // its digits as printed (no thousands grouping)
  }
}

// One run's samples: onto the first row read after them that holds their
// metric (its result), else a row of their own.
void KeepSamples(const std::vector<Sample>& samples, const Config& context, const EntryCtx& x, std::vector<RecordedFigure>* out) {
  if (samples.empty()) return;
  UnitInfo info{};
  OutputUnit(samples[0].unit, "", &info);
  RecordedFigure* result = nullptr;
  for (auto& f : *out)
    if (f.line > samples.back().line && f.run.metrics.count(info.metric) && (!result || f.line < result->line)) result = &f;
  if (result) return AddSamples(samples, result);
  if (out->size() > kMaxFiguresPerEntry) return;
  RecordedFigure own{NewRecorded(x, context, samples[0].line), samples[0].line, ""};
  AddSamples(samples, &own);
  if (!own.run.metrics.empty()) out->push_back(std::move(own));
}

}  // namespace

void JmhIterations(const std::vector<PrintedLine>& lines, const Config& context, const EntryCtx& x,
                   std::vector<RecordedFigure>* out, std::set<int>* read, std::vector<UnreadFigures>* unread) {
  std::vector<Sample> run;
  for (const auto& l : lines) {
    if (read->count(l.line)) continue;
    Sample s;
    if (IterationAt(l.text, Leads().warmup, &s)) {
      read->insert(l.line);
      if (unread) unread->push_back({l.line, l.text, "a warm-up iteration: no measurement"});
      continue;
    }
    if (!IterationAt(l.text, Leads().measured, &s)) continue;
    if (!run.empty() && (s.unit != run.back().unit || s.number == "1")) KeepSamples(run, context, x, out), run.clear();
    s.line = l.line;
    run.push_back(s);
    read->insert(l.line);
  }
  KeepSamples(run, context, x, out);
}

}  // namespace moelog::logbook::reader
