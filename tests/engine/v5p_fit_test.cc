// The fit recovers parameters from data the model itself generated, and the
// validation summary statistics are right.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "engine/bench.h"
#include "engine/metrics.h"
#include "engine/v5p/fit.h"

namespace moelog::engine::v5p {
namespace {

// A spread of configurations that exercises every parameter (single chip and
// EP, shared expert or not, gmm and ragged_dot, forward and fwd+bwd, sorts).
std::vector<Measurement> SyntheticRows(const Hardware& hw, const ModelParams& truth) {
  std::vector<Measurement> rows;
  std::map<std::string, Logits> logits;
  int id = 0;
  for (const char* pm : {"none", "ep"})
    for (int64_t k : {1, 2, 4, 8})
      for (int64_t shared : {0, 2048})
        for (const char* pass : {"forward", "forward_backward"})
          for (const char* backend : {"gmm", "ragged_dot"})
            for (int64_t f : {768, 1280}) {
              BenchConfig c;
              c.target = "v5p";
              c.tokens = 16384;
              c.hidden = 1024;
              c.mlp_dim = f;
              c.experts = 32;
              c.topk = k;
              c.shared_expert_dim = shared;
              c.impl = (id % 3 == 0) ? "baseline" : "fused_w13";
              c.distribution = "random";
              c.bench_pass = pass;
              c.backend = backend;
              c.parallel_mode = pm;
              c.routing_pack_strategy = (id % 2) ? "tuple_sort" : "argsort";
              if (std::string(pm) == "ep" && id % 4 == 1) c.ep_dispatch = "dense_masked";
              RunPoint p{"random", k, c.impl, 0.0, "full"};
              auto it = logits.find("r");
              if (it == logits.end())
                it = logits.emplace("r", GenerateLogits("random", c.tokens, c.experts, 0, 0.98, 0.35)).first;
              Routing r = RoutingForPoint(c, it->second, p);
              auto mc = MakeCase(c, p, GroupSizes(r), r.real_assignments, hw.chips);
              EXPECT_TRUE(mc.ok());
              Measurement m;
              m.id = "syn-" + std::to_string(id);
              m.entry = "group" + std::to_string(id % 7);
              m.family = "f" + std::to_string(f);
              m.metric = "time_s";
              m.config = c;
              m.point = p;
              m.model_case = *mc;
              m.time_s = Predict(hw, truth, m.model_case).time_s;
              rows.push_back(m);
              ++id;
            }
  return rows;
}

TEST(V5pFit, RecoversParametersFromModelGeneratedData) {
  auto hw = LoadHardwareByName("v5p");
  ASSERT_TRUE(hw.ok());
  ModelParams truth = ModelParams::Priors();
  truth[kEtaMxuGmm] = 0.72;
  truth[kEtaScatter] = 0.04;
  truth[kEtaPlacement] = 0.35;
  truth[kEtaGather] = 0.5;
  std::vector<Measurement> rows = SyntheticRows(*hw, truth);
  FitOptions o;
  o.prior_weight = 1e-6;
  o.max_iters = 200;
  FitResult f = Fit(*hw, rows, ModelParams::Priors(), o);
  // The synthetic data are reproduced, and the parameters that dominate some
  // rows come back (the ones moved away from their priors).
  EXPECT_LT(f.rms_log_error, 2e-3);
  for (int id : {kEtaMxuGmm, kEtaScatter, kEtaPlacement, kEtaGather})
    EXPECT_NEAR(f.params[id] / truth[id], 1.0, 0.05) << Info(id).name << " = " << f.params[id];
}

TEST(V5pFit, SummaryStatistics) {
  ErrorSummary s = Summarize({0.1, -0.2, 0.0, 0.05, -0.05});
  EXPECT_EQ(s.n, 5);
  EXPECT_NEAR(s.mape, 0.08, 1e-12);
  EXPECT_NEAR(s.median_abs, 0.05, 1e-12);
  EXPECT_NEAR(s.max_abs, 0.2, 1e-12);
  EXPECT_NEAR(s.p90_abs, 0.1 * 0.4 + 0.2 * 0.6, 1e-12);  // between the two largest
}

TEST(V5pFit, LoadsTheSeedCsvWithHarnessDefaults) {
  auto hw = LoadHardwareByName("v5p");
  ASSERT_TRUE(hw.ok());
  auto rows = LoadMeasurements(std::string(MOELOG_SOURCE_DIR) + "/data/seed_measurements.csv", *hw);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_GT(rows->size(), 80u);
  for (const auto& m : *rows) {
    EXPECT_GT(m.time_s, 1e-3) << m.id;
    EXPECT_LT(m.time_s, 1.0) << m.id;
    EXPECT_NE(m.id, "S2-059");  // dup_of rows are skipped
    // The launcher's LIBTPU_INIT_ARGS, as the notes record it, is part of the config.
    const bool vmem = m.id == "S2-127" || m.id == "S2-191";
    if (vmem || m.id == "S2-114") {
      EXPECT_EQ(m.config.xla_scoped_vmem_kib, vmem ? 50000 : 0) << m.id;
    }
  }
  EXPECT_FALSE(LoadMeasurements("/nonexistent.csv", *hw).ok());
}

// The shipped parameters are what `moelog model fit` computes from the
// shipped CSV: nobody tuned a number by hand.
TEST(V5pFit, ShippedParametersAreTheFitOfTheShippedCsv) {
  auto hw = LoadHardwareByName("v5p");
  ASSERT_TRUE(hw.ok());
  auto rows = LoadMeasurements(std::string(MOELOG_SOURCE_DIR) + "/data/seed_measurements.csv", *hw);
  ASSERT_TRUE(rows.ok());
  auto shipped = LoadParamsByName("");
  ASSERT_TRUE(shipped.ok());
  const FitResult f = Fit(*hw, *rows, ModelParams::Priors(), FitOptions());
  for (int i = 0; i < kNumParams; ++i)
    EXPECT_NEAR(f.params[i] / (*shipped)[i], 1.0, 1e-6) << Info(i).name << " (rerun `moelog model fit`)";
}

// Replicates: the same configuration measured in several entries. The
// spread is the 90th percentile over configurations of max/min - 1, so one
// noisy rerun among many does not set it.
TEST(V5pFit, ReplicateSpreadIsARobustRunToRunSpread) {
  std::vector<Measurement> rows;
  auto add = [&](int64_t tokens, double t) {
    Measurement m;
    m.config.tokens = tokens;
    m.time_s = t;
    rows.push_back(m);
  };
  EXPECT_EQ(ReplicateSpread(rows), 0.0);
  add(1, 1.0);
  EXPECT_EQ(ReplicateSpread(rows), 0.0);  // measured once: no spread
  for (int64_t c = 2; c <= 11; ++c) {
    add(c, 1.0);
    add(c, c == 11 ? 1.5 : 1.0 + 0.001 * static_cast<double>(c));  // ten replicated configs, one noisy
  }
  EXPECT_NEAR(ReplicateSpread(rows), 0.010, 1e-12);  // 9th of 10 sorted spreads, not the 50% outlier
}

TEST(V5pFit, RankCorrelationAndBestConfigPerEntry) {
  EXPECT_DOUBLE_EQ(SpearmanRho({1, 2, 3, 4}, {10, 20, 30, 40}), 1.0);
  EXPECT_DOUBLE_EQ(SpearmanRho({1, 2, 3, 4}, {4, 3, 2, 1}), -1.0);
  EXPECT_NEAR(SpearmanRho({1, 2, 3}, {1, 3, 2}), 0.5, 1e-12);
  EXPECT_NEAR(SpearmanRho({1, 1, 2}, {1, 1, 2}), 1.0, 1e-12);  // ties take mean ranks
  // Three TF/s rows of one entry: the model is 10% slow on the fastest row,
  // which flips the best configuration but keeps the other order.
  std::vector<Measurement> rows(3);
  const double tf[] = {100, 110, 111};
  for (int i = 0; i < 3; ++i) {
    rows[i].entry = "E";
    rows[i].metric = "tflops";
    rows[i].value = tf[i];
    rows[i].time_s = 1.0 / tf[i];
  }
  std::vector<double> predicted = {rows[0].time_s, rows[1].time_s, rows[2].time_s * 1.1};
  auto r = RankByEntry(rows, predicted);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].n, 3);
  EXPECT_FALSE(r[0].best_matches);
  EXPECT_NEAR(r[0].rho, 0.5, 1e-12);
  EXPECT_FALSE(r[0].best_tie);
  EXPECT_NEAR(r[0].best_gap, 1.0 - 110.0 / 111.0, 1e-12);
  // The model's pick measured 0.9% below the best: a tie when replicates of
  // one configuration spread by 1%, not when they spread by 0.5%.
  EXPECT_TRUE(RankByEntry(rows, predicted, 0.01)[0].best_tie);
  EXPECT_FALSE(RankByEntry(rows, predicted, 0.005)[0].best_tie);
  predicted[2] = rows[2].time_s;
  EXPECT_TRUE(RankByEntry(rows, predicted)[0].best_matches);
  EXPECT_FALSE(RankByEntry(rows, predicted, 0.01)[0].best_tie);  // same is not a tie
  // The model figures the two best equal: it does not pick between them, so
  // the measured best is its pick.
  predicted[1] = 1.0 / 111.0;  // both modeled at 111 TF/s (the first index would win a plain argmax)
  predicted[2] = 1.0 / 111.0;
  EXPECT_TRUE(RankByEntry(rows, predicted)[0].best_matches);
  rows.pop_back();
  predicted.pop_back();
  EXPECT_TRUE(RankByEntry(rows, predicted).empty());  // fewer than 3 rows: no ranking
}

}  // namespace
}  // namespace moelog::engine::v5p
