// The driver of `moelog update` and `moelog run`: the steps of steps.h in
// order, each either going on or ending the session with an exit code.
#include "logbook/update/session.h"

#include "engine/target.h"
#include "logbook/update/steps.h"

namespace moelog::logbook {
namespace {

Stop CheckOptions(const SessionOptions& opt, std::ostream& err) {
  if (engine::FindTarget(opt.target) != nullptr) return std::nullopt;
  err << "moelog: error: --target must be cpu or v5p (got '" << opt.target << "')\n";
  return kExitUsage;
}

Stop LockDocument(const std::string& path, FileLock* lock, std::ostream& err) {
  Status st = lock->Acquire(path);
  if (st.ok()) return std::nullopt;
  err << path << ": " << st.ToString() << "\n";
  return st.ExitCode();
}

}  // namespace

SessionSummary RunSession(const std::string& path, DocumentKind kind, const SessionOptions& opt, std::ostream& out,
                          std::ostream& err) {
  SessionSummary sum;
  auto end = [&sum](int code) {
    sum.exit_code = code;
    return sum;
  };
  const bool writes = opt.write && !opt.check && !opt.dry_run;
  FileLock lock;  // released (and its file removed) on every return
  LoadedDocument doc;
  std::unique_ptr<RunStore> store;
  LauncherTable launchers;
  PlanOptions popt;
  Stop stop = CheckOptions(opt, err);
  if (!stop && writes) stop = LockDocument(path, &lock, err);
  if (!stop) stop = LoadDocument(path, kind, &doc, err);
  if (!stop) stop = CheckUnitIds(doc, opt.entries, err);
  if (!stop) stop = OpenStore(doc, opt, &store, err);
  if (!stop) stop = MakePlanOptions(opt, &launchers, &popt, err);
  if (stop) return end(*stop);

  ModelView model;
  model.calibrate = opt.calibrate && kind == DocumentKind::kLogbook;
  // The bands ship beside the parameters; without the file, tables show
  // no band and calibration uses the default prior.
  if (auto u = engine::v5p::LoadUncertaintyByName(""); u.ok()) {
    model.bands = std::move(u).value();
    model.have_bands = true;
  }
  std::vector<UnitWork> work = PlanWork(doc, opt, popt, store.get(), &sum, err, &model);
  if (opt.stale) DropUpToDate(doc, &work, err);
  sum.units = static_cast<int>(work.size());
  if (!opt.allow_shell && !opt.dry_run) sum.needs_consent = ReportNeedsConsent(doc, work, err);
  if (opt.dry_run) {
    PrintPlan(work, &sum, out);
    return end(kExitOk);
  }
  CountWork(work, &sum);
  if (!opt.check)
    if (Stop s = RunMissing(doc, opt, store.get(), &work, &sum, err)) return end(*s);
  WarnSharedIds(doc, store.get(), err);
  if (model.calibrate) LearnCalibration(work, &model, /*fresh_only=*/true);  // this session's runs too

  std::vector<RegionEdit> edits = RenderEdits(doc, opt, writes, work, &sum, out, err);
  if (kind == DocumentKind::kLogbook) AddCriteriaStatus(doc, store.get(), popt.launchers, &edits, &sum, err);
  const SpliceResult res = SpliceEdits(doc, edits, opt, &sum, err);
  if (opt.check) return end(ReportCheck(doc, res, &sum, out));
  if (writes && sum.changed)
    if (Stop s = WriteDocument(doc, res, err)) return end(*s);
  return end(ReportUpdate(doc, res, writes, &sum, out));
}

}  // namespace moelog::logbook
