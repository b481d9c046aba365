// moelog model fit | validate: calibrate the v5p model's efficiencies against a
// measurements CSV and report its accuracy (engine/v5p/fit.h does the work).
#include <CLI/CLI.hpp>

#include <cstdio>
#include <filesystem>
#include <iostream>

#include "engine/v5p/fit.h"
#include "engine/v5p/hardware.h"
#include "engine/v5p/params.h"
#include "logbook/cli/cli_parse.h"
#include "logbook/cli/commands.h"
#include "logbook/cli/model_gpu.h"
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

struct ModelFlags {
  std::string csv, out = "data/v5p_params.json", params_name, hardware = "v5p", bands_out;
  double prior_weight = v5p::FitOptions().prior_weight;
  double tau = v5p::ShrinkagePrior().tau;
  bool no_cv = false;
  CLI::App* fit = nullptr;

  void Add(CLI::App& app) {
    app.require_subcommand(1);
    fit = app.add_subcommand("fit", "fit the parameters (hillclimb rows) and write the parameter file");
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
    val->add_option("--bands-out", bands_out,
                    "write the per-path error bands and the calibration prior (data/v5p_bands.json) from this "
                    "validation");
    val->add_option("--calibration-tau", tau,
                    "prior sd of the log calibration factor across harness revisions or days (written with --bands-out)")
        ->capture_default_str();
  }
};

using Rows = std::vector<v5p::Measurement>;

// model fit: fits, writes the parameter file and prints the fit.
int RunFit(const ModelFlags& f, const v5p::Hardware& hw, const Rows& rows, const v5p::FitOptions& options) {
  v5p::FitResult fit = v5p::Fit(hw, rows, v5p::ModelParams::Priors(), options);
  std::vector<double> rel;
  for (const auto& m : rows) rel.push_back(v5p::Predict(hw, fit.params, m.model_case).time_s / m.time_s - 1);
  v5p::ErrorSummary s = v5p::Summarize(rel);
  Status st = logbook::AtomicWriteFile(f.out, v5p::ParamsToJson(fit.params, hw.name, v5p::FitInfoJson(f.csv, fit, s)));
  if (!st.ok()) return Fail(st);
  std::cout << "fitted " << v5p::kNumParams << " parameters on " << fit.rows << " rows of " << f.csv << " in "
            << fit.iterations << " iterations; wrote " << f.out << "\n";
  for (int i = 0; i < v5p::kNumParams; ++i)
    std::cout << "  " << v5p::Info(i).name << " = " << fit.params[i] << "  (prior " << v5p::Info(i).prior << "; "
              << v5p::Info(i).unit << ")\n";
  std::printf("in-sample: mape=%.2f%% median_abs=%.2f%% p90_abs=%.2f%% max_abs=%.2f%%\n", 100 * s.mape,
              100 * s.median_abs, 100 * s.p90_abs, 100 * s.max_abs);
  return kExitOk;
}

// model validate --no-cv: the in-sample predictions only.
int RunValidateInSample(const v5p::Hardware& hw, const Rows& rows, const v5p::ModelParams& params) {
  v5p::ValidationReport rep;
  std::vector<double> rel;
  for (const auto& m : rows) {
    rep.predicted_s.push_back(v5p::Predict(hw, params, m.model_case).time_s);
    rel.push_back(rep.predicted_s.back() / m.time_s - 1);
  }
  rep.cv_entry_s = rep.cv_family_s = rep.predicted_s;
  rep.in_sample = rep.cv_entry = rep.cv_family = v5p::Summarize(rel);
  std::cout << v5p::FormatValidation(rows, rep) << "(--no-cv: the cv columns repeat the in-sample prediction)\n";
  return kExitOk;
}

// --bands-out: the error bands and calibration prior of a validation.
int WriteBands(const ModelFlags& f, const Rows& rows, const v5p::ModelParams& params,
               const v5p::ValidationReport& rep) {
  if (!(f.tau > 0 && f.tau < 1)) return Fail(Status::InvalidArgument("--calibration-tau must be in (0, 1)"));
  const v5p::Uncertainty u = v5p::MakeUncertainty(rows, rep, f.tau);
  const std::string about = "Error bands of the v5p model from `moelog model validate --bands-out` on " +
                            std::filesystem::path(f.csv).filename().string() + " with " +
                            std::filesystem::path(params.source).filename().string() +
                            ": per path, measured/modeled throughput at the 10th and 90th percentiles of its "
                            "chronological errors (leave-one-entry-out where a path has fewer than 8); the "
                            "within-entry ratio band; the calibration prior (tau: how far a harness revision or "
                            "day moves every figure, a physical prior; sigma_entry, sigma_within: the scatter of "
                            "entries and of figures, from the leave-one-entry-out errors).";
  Status st = logbook::AtomicWriteFile(f.bands_out, v5p::UncertaintyToJson(u, about));
  if (!st.ok()) return Fail(st);
  std::cout << "wrote " << f.bands_out << "\n";
  return kExitOk;
}

}  // namespace

int CmdModel(const Args& args) {
  if (!args.empty() && args[0] == "predict") return CmdModelPredict(Args(args.begin() + 1, args.end()));
  if (!args.empty() && (args[0] == "fit" || args[0] == "validate") && NamesGpuTarget(args))
    return CmdModelGpu(args[0], Args(args.begin() + 1, args.end()));
  CLI::App app{"moelog model: fit the v5p model's efficiencies to measurements, or validate them; the GPU model's\n"
               "predictions, fit and validation.\n"
               "  moelog model fit [--csv data/seed_measurements.csv] [--out data/v5p_params.json]\n"
               "  moelog model validate [--csv ...] [--params data/v5p_params.json] [--no-cv]\n"
               "  moelog model predict --target h100 --json --kernel ep_dispatch ... (moelog model predict --help)\n"
               "  moelog model fit|validate --target gpu [--csv data/gpu_fit_measurements.csv]",
               "moelog model"};
  ModelFlags f;
  f.Add(app);
  if (auto code = ParseCommandLine(app, args)) return *code;
  if (f.csv.empty()) f.csv = DefaultCsv();
  auto hw = v5p::LoadHardwareByName(f.hardware);
  if (!hw.ok()) return Fail(Status::InvalidArgument(hw.status().message()));
  auto rows = v5p::LoadMeasurements(f.csv, *hw);
  if (!rows.ok()) return Fail(Status::InvalidArgument(rows.status().message()));
  v5p::FitOptions options;
  options.prior_weight = f.prior_weight;
  if (f.fit->parsed()) return RunFit(f, *hw, *rows, options);
  auto params = v5p::LoadParamsByName(f.params_name);
  if (!params.ok()) return Fail(Status::InvalidArgument(params.status().message()));
  if (f.no_cv) return RunValidateInSample(*hw, *rows, *params);
  options.calibration_tau = f.tau;
  const v5p::ValidationReport rep = v5p::Validate(*hw, *rows, *params, options);
  std::cout << v5p::FormatValidation(*rows, rep);
  return f.bands_out.empty() ? kExitOk : WriteBands(f, *rows, *params, rep);
}

}  // namespace moelog::cli
