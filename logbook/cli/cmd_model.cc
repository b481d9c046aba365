// moelog model fit | validate: calibrate the v5p model's efficiencies against a
// measurements CSV and report its accuracy (engine/v5p/fit.h does the work).
#include <CLI/CLI.hpp>

#include <cstdio>
#include <filesystem>
#include <iostream>

#include "engine/v5p/fit.h"
#include "engine/v5p/hardware.h"
#include "engine/v5p/params.h"
#include "logbook/cli/commands.h"
#include "logbook/file_util.h"

namespace moelog::cli {
namespace {

namespace v5p = engine::v5p;

int Fail(const Status& st) {
  PrintError("model", st.message());
  return st.code() == Status::Code::kInternal || st.code() == Status::Code::kIOError ? kExitError : kExitUsage;
}

// The calibration CSV, found like the model's other data files (bench's
// hardware and parameter files): $MOELOG_DATA_DIR, beside the executable,
// then the source tree -- from any working directory.
std::string DefaultCsv() {
  auto p = v5p::ResolveDataFile("seed_measurements", "", ".csv");
  return p.ok() ? *p : "data/seed_measurements.csv";
}

}  // namespace

int CmdModel(const Args& args) {
  CLI::App app{"moelog model: fit the v5p model's efficiencies to measurements, or validate them.\n"
               "  moelog model fit [--csv data/seed_measurements.csv] [--out data/v5p_params.json]\n"
               "  moelog model validate [--csv ...] [--params data/v5p_params.json] [--no-cv]",
               "moelog model"};
  app.require_subcommand(1);
  std::string csv, out = "data/v5p_params.json", params_name, hardware = "v5p";
  double prior_weight = v5p::FitOptions().prior_weight;
  bool no_cv = false;
  auto* fit = app.add_subcommand("fit", "fit the parameters (hillclimb rows) and write the parameter file");
  auto* val = app.add_subcommand("validate", "per-row predicted vs measured, in-sample and grouped-CV errors");
  for (auto* sub : {fit, val}) {
    sub->add_option("--csv", csv, "measurements CSV (default data/seed_measurements.csv)");
    sub->add_option("--hardware", hardware, "chip description: name in data/hardware or a .json path")
        ->capture_default_str();
    sub->add_option("--prior-weight", prior_weight, "ridge weight toward the priors (log space)")
        ->capture_default_str();
  }
  fit->add_option("--out", out, "parameter file to write")->capture_default_str();
  val->add_option("--params", params_name, "parameter file (default data/v5p_params.json)");
  val->add_flag("--no-cv", no_cv, "skip the grouped cross-validation refits");
  std::string bands_out;
  double tau = v5p::ShrinkagePrior().tau;
  val->add_option("--bands-out", bands_out,
                  "write the per-path error bands and the calibration prior (data/v5p_bands.json) from this validation");
  val->add_option("--calibration-tau", tau,
                  "prior sd of the log calibration factor across harness revisions or days (written with --bands-out)")
      ->capture_default_str();
  std::vector<std::string> rev(args.rbegin(), args.rend());
  try {
    app.parse(rev);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    PrintError("model", e.what());
    return kExitUsage;
  }
  if (csv.empty()) csv = DefaultCsv();
  auto hw = v5p::LoadHardwareByName(hardware);
  if (!hw.ok()) return Fail(Status::InvalidArgument(hw.status().message()));
  auto rows = v5p::LoadMeasurements(csv, *hw);
  if (!rows.ok()) return Fail(Status::InvalidArgument(rows.status().message()));
  v5p::FitOptions options;
  options.prior_weight = prior_weight;

  if (fit->parsed()) {
    v5p::FitResult f = v5p::Fit(*hw, *rows, v5p::ModelParams::Priors(), options);
    std::vector<double> rel;
    for (const auto& m : *rows) rel.push_back(v5p::Predict(*hw, f.params, m.model_case).time_s / m.time_s - 1);
    v5p::ErrorSummary s = v5p::Summarize(rel);
    Status st = logbook::AtomicWriteFile(out, v5p::ParamsToJson(f.params, hw->name, v5p::FitInfoJson(csv, f, s)));
    if (!st.ok()) return Fail(st);
    std::cout << "fitted " << v5p::kNumParams << " parameters on " << f.rows << " rows of " << csv << " in "
              << f.iterations << " iterations; wrote " << out << "\n";
    for (int i = 0; i < v5p::kNumParams; ++i)
      std::cout << "  " << v5p::Info(i).name << " = " << f.params[i] << "  (prior " << v5p::Info(i).prior << "; "
                << v5p::Info(i).unit << ")\n";
    std::printf("in-sample: mape=%.2f%% median_abs=%.2f%% p90_abs=%.2f%% max_abs=%.2f%%\n", 100 * s.mape,
                100 * s.median_abs, 100 * s.p90_abs, 100 * s.max_abs);
    return kExitOk;
  }
  auto params = v5p::LoadParamsByName(params_name);
  if (!params.ok()) return Fail(Status::InvalidArgument(params.status().message()));
  if (no_cv) {
    v5p::ValidationReport rep;
    std::vector<double> rel;
    for (const auto& m : *rows) {
      rep.predicted_s.push_back(v5p::Predict(*hw, *params, m.model_case).time_s);
      rel.push_back(rep.predicted_s.back() / m.time_s - 1);
    }
    rep.cv_entry_s = rep.cv_family_s = rep.predicted_s;
    rep.in_sample = rep.cv_entry = rep.cv_family = v5p::Summarize(rel);
    std::cout << v5p::FormatValidation(*rows, rep) << "(--no-cv: the cv columns repeat the in-sample prediction)\n";
    return kExitOk;
  }
  options.calibration_tau = tau;
  const v5p::ValidationReport rep = v5p::Validate(*hw, *rows, *params, options);
  std::cout << v5p::FormatValidation(*rows, rep);
  if (!bands_out.empty()) {
    if (!(tau > 0 && tau < 1)) return Fail(Status::InvalidArgument("--calibration-tau must be in (0, 1)"));
    const v5p::Uncertainty u = v5p::MakeUncertainty(*rows, rep, tau);
    const std::string about = "Error bands of the v5p model from `moelog model validate --bands-out` on " +
                              std::filesystem::path(csv).filename().string() + " with " +
                              std::filesystem::path(params->source).filename().string() +
                              ": per path, measured/modeled throughput at the 10th and 90th percentiles of its "
                              "chronological errors (leave-one-entry-out where a path has fewer than 8); the "
                              "within-entry ratio band; the calibration prior (tau: how far a harness revision or "
                              "day moves every figure, a physical prior; sigma_entry, sigma_within: the scatter of "
                              "entries and of figures, from the leave-one-entry-out errors).";
    Status st = logbook::AtomicWriteFile(bands_out, v5p::UncertaintyToJson(u, about));
    if (!st.ok()) return Fail(st);
    std::cout << "wrote " << bands_out << "\n";
  }
  return kExitOk;
}

}  // namespace moelog::cli
