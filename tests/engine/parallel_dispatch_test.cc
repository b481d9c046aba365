// Dispatch plans: every real assignment lands exactly once on the owner of
// its expert, in its own expert's group; the padding sits in the last local
// group; a2a receive slots point back at the right tokens; analytic volumes
// agree with the textbook formulas.
#include <gtest/gtest.h>

#include <map>

#include "engine/parallel/dispatch_plan.h"
#include "engine/routing.h"

namespace moelog::engine::parallel {
namespace {

Routing MakeRouting(int64_t t, int64_t e, int64_t k, const std::string& dist, double null_frac = 0.0) {
  Logits lg = GenerateLogits(dist, t, e, 11, 0.98, 0.35);
  Routing r = TopK(lg, k);
  NullOptions o;
  o.frac = null_frac;
  o.key = 5;
  ApplyNullRouting(o, &r);
  return r;
}

// The local group (expert) of each row from the group sizes.
std::vector<int64_t> RowGroups(const DeviceDispatch& d) {
  std::vector<int64_t> g;
  for (size_t i = 0; i < d.group_sizes.size(); ++i)
    for (int64_t r = 0; r < d.group_sizes[i]; ++r) g.push_back(static_cast<int64_t>(i));
  return g;
}

struct Case {
  int data, expert;
  CommPath path;
  DispatchKind kind;
  double null_frac;
};

std::string CaseName(const Case& c) {
  std::string s = "data" + std::to_string(c.data) + "_expert" + std::to_string(c.expert) + "_" +
                  CommPathName(c.path) + (c.kind == DispatchKind::kCompact ? "_compact" : "_dense_masked");
  if (c.null_frac > 0) s += "_null";
  return s;
}
void PrintTo(const Case& c, std::ostream* os) { *os << CaseName(c); }

class DispatchPlanTest : public ::testing::TestWithParam<Case> {};

// Capacity drop: exactly the assignments of global rank >= cap inside their
// expert (flat order over the whole batch, whatever the mesh) lose their x
// and weight; every one keeps its row in its expert's group.
TEST(DispatchPlanDropTest, DropsTheGlobalRanksPastCapacity) {
  const int64_t t = 96, e = 8, k = 2, cap = 20;
  Routing r = MakeRouting(t, e, k, "runs");
  // Brute force: the kept flat positions of the single-device rule.
  std::vector<int64_t> count(static_cast<size_t>(e), 0);
  std::vector<uint8_t> want_keep(static_cast<size_t>(t * k), 0);
  for (int64_t p = 0; p < t * k; ++p) want_keep[static_cast<size_t>(p)] = count[static_cast<size_t>(r.ids[p])]++ < cap;
  int64_t expected_dropped = 0;
  for (int64_t c : count) expected_dropped += std::max<int64_t>(0, c - cap);
  ASSERT_GT(expected_dropped, 0) << "the skewed routing must overflow the capacity";
  for (DeviceMesh mesh : {DeviceMesh{1, 4}, DeviceMesh{2, 2}, DeviceMesh{4, 1}}) {
    for (CommPath path : {CommPath::kCompactPsum, CommPath::kA2a}) {
      SCOPED_TRACE(mesh.ToString() + " " + CommPathName(path));
      auto plan = BuildDispatchPlan(r, mesh, path, DispatchKind::kCompact, cap);
      ASSERT_TRUE(plan.ok()) << plan.status().ToString();
      auto nodrop = BuildDispatchPlan(r, mesh, path, DispatchKind::kCompact);
      ASSERT_TRUE(nodrop.ok());
      int64_t rows = 0, dropped = 0;
      for (size_t di = 0; di < plan->devices.size(); ++di) {
        const DeviceDispatch& d = plan->devices[di];
        EXPECT_EQ(d.group_sizes, nodrop->devices[di].group_sizes) << "groups unchanged";
        for (int64_t i = 0; i < d.count; ++i) {
          const size_t ri = static_cast<size_t>(i);
          ++rows;
          const bool keep = want_keep[static_cast<size_t>(d.flat[ri])];
          EXPECT_EQ(d.keep[ri] != 0, keep) << "flat " << d.flat[ri];
          if (!keep) {
            ++dropped;
            EXPECT_EQ(d.weight[ri], 0.0f);
          }
        }
      }
      EXPECT_EQ(rows, t * k);
      EXPECT_EQ(dropped, expected_dropped);
    }
  }
}

TEST_P(DispatchPlanTest, EveryAssignmentOnceWithItsOwnExpert) {
  const Case c = GetParam();
  const int64_t t = 96, e = 8, k = 3;
  Routing r = MakeRouting(t, e, k, "runs", c.null_frac);
  auto plan = BuildDispatchPlan(r, DeviceMesh{c.data, c.expert}, c.path, c.kind);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  std::map<int64_t, int> seen;
  for (const DeviceDispatch& d : plan->devices) {
    ASSERT_EQ(d.rows(), plan->local_cap);
    auto groups = RowGroups(d);
    ASSERT_EQ(static_cast<int64_t>(groups.size()), d.rows()) << "group sizes cover the buffer";
    for (int64_t row = 0; row < d.rows(); ++row) {
      const auto R = static_cast<size_t>(row);
      if (!d.keep[R]) {
        EXPECT_EQ(d.weight[R], 0.0f);
        EXPECT_GE(row, d.count) << "masked and padding rows come after the real rows";
        continue;
      }
      const int64_t p = d.flat[R];
      ASSERT_GE(p, d.token_begin * k);
      ASSERT_LT(p, (d.token_begin + d.token_count) * k);
      EXPECT_EQ(r.ids[static_cast<size_t>(p)], d.expert_begin + groups[R]) << "row multiplied by its own expert";
      EXPECT_EQ(d.weight[R], r.weights[static_cast<size_t>(p)]);
      if (c.path != CommPath::kA2a) {
        EXPECT_EQ(d.token[R], p / k - d.token_begin);
      }
      seen[p]++;
    }
  }
  int64_t real = 0;
  for (int64_t p = 0; p < t * k; ++p) {
    if (r.ids[static_cast<size_t>(p)] < e) {
      ++real;
      EXPECT_EQ(seen[p], 1) << "assignment " << p;
    }
  }
  EXPECT_EQ(static_cast<int64_t>(seen.size()), real);
  if (c.kind == DispatchKind::kCompact) {
    EXPECT_EQ(plan->local_cap % kLocalCapMultiple, 0);
    EXPECT_GE(plan->local_cap, plan->max_count);
    EXPECT_LT(plan->local_cap, plan->max_count + kLocalCapMultiple);
    for (const DeviceDispatch& d : plan->devices) {
      // All groups but the last hold exactly their real rows.
      int64_t before_last = 0;
      for (size_t g = 0; g + 1 < d.group_sizes.size(); ++g) before_last += d.group_sizes[g];
      EXPECT_EQ(d.group_sizes.back(), d.count - before_last + (plan->local_cap - d.count));
    }
  } else {
    EXPECT_EQ(plan->local_cap, t / c.data * k);
    for (const DeviceDispatch& d : plan->devices)
      EXPECT_EQ(static_cast<int64_t>(d.group_sizes.size()), d.expert_count + 1) << "dummy expert";
  }
}

TEST_P(DispatchPlanTest, A2aSlotsPointAtTheRowsToken) {
  const Case c = GetParam();
  if (c.path != CommPath::kA2a) GTEST_SKIP();
  const int64_t t = 96, e = 8, k = 3;
  Routing r = MakeRouting(t, e, k, "random", c.null_frac);
  auto plan = BuildDispatchPlan(r, DeviceMesh{c.data, c.expert}, c.path, c.kind);
  ASSERT_TRUE(plan.ok());
  const int b = c.expert;
  for (const DeviceDispatch& d : plan->devices) {
    const int a = plan->mesh.DataIndex(d.device), j = plan->mesh.ExpertIndex(d.device);
    // The receive buffer: for each source q, the tokens q sends to j.
    std::vector<int64_t> recv_token;
    for (int q = 0; q < b; ++q) {
      const DeviceDispatch& src = plan->devices[static_cast<size_t>(a * b + q)];
      ASSERT_EQ(static_cast<int64_t>(src.send_tokens[static_cast<size_t>(j)].size()), d.recv_counts[static_cast<size_t>(q)]);
      for (int32_t st : src.send_tokens[static_cast<size_t>(j)]) recv_token.push_back(src.shard_begin + st);
    }
    for (int64_t row = 0; row < d.count; ++row) {
      const int64_t slot = d.token[static_cast<size_t>(row)];
      ASSERT_LT(slot, static_cast<int64_t>(recv_token.size()));
      EXPECT_EQ(recv_token[static_cast<size_t>(slot)], d.flat[static_cast<size_t>(row)] / k - d.token_begin);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Meshes, DispatchPlanTest,
    ::testing::Values(Case{1, 4, CommPath::kCompactPsum, DispatchKind::kCompact, 0.0},
                      Case{1, 4, CommPath::kRingAgRs, DispatchKind::kCompact, 0.3},
                      Case{1, 4, CommPath::kA2a, DispatchKind::kCompact, 0.0},
                      Case{2, 2, CommPath::kA2a, DispatchKind::kCompact, 0.2},
                      Case{1, 2, CommPath::kCompactPsum, DispatchKind::kDenseMasked, 0.2},
                      Case{2, 2, CommPath::kRingAgRs, DispatchKind::kDenseMasked, 0.0},
                      Case{4, 1, CommPath::kCompactPsum, DispatchKind::kCompact, 0.0}),
    [](const auto& info) { return CaseName(info.param); });

TEST(DispatchPlanErrors, BadShapesAreInvalidArguments) {
  Routing r = MakeRouting(30, 6, 2, "random");
  EXPECT_EQ(BuildDispatchPlan(r, DeviceMesh{1, 4}, CommPath::kCompactPsum, DispatchKind::kCompact).status().code(),
            Status::Code::kInvalidArgument);  // 6 experts over 4
  EXPECT_EQ(BuildDispatchPlan(r, DeviceMesh{1, 3}, CommPath::kRingAgRs, DispatchKind::kCompact).status().code(),
            Status::Code::kOk);  // 30 tokens over 3
  EXPECT_EQ(BuildDispatchPlan(r, DeviceMesh{4, 1}, CommPath::kCompactPsum, DispatchKind::kCompact).status().code(),
            Status::Code::kInvalidArgument);  // 30 tokens over data 4
  EXPECT_EQ(BuildDispatchPlan(r, DeviceMesh{1, 2}, CommPath::kA2a, DispatchKind::kDenseMasked).status().code(),
            Status::Code::kInvalidArgument);
}

TEST(DispatchPlanVolumes, MatchTextbookFormulas) {
  const int64_t t = 256, h = 64, e = 8, k = 2;
  Routing r = MakeRouting(t, e, k, "random");
  StepVolumeInputs in;
  in.hidden = h;
  in.mlp_dim = 32;
  in.wire = Wire::kBF16;
  auto psum = BuildDispatchPlan(r, DeviceMesh{1, 4}, CommPath::kCompactPsum, DispatchKind::kCompact);
  ASSERT_TRUE(psum.ok());
  // compact_psum forward: one ring all-reduce of [T,H]: 2(P-1)/P T H bytes.
  for (const Volume& v : AnalyticStepVolumes(*psum, in)) EXPECT_EQ(v.sent, 2 * 3 * (t / 4) * h * 2);
  // ring_ag_rs forward: all-gather + reduce-scatter of [T/P,H] blocks: the same total.
  auto ring = BuildDispatchPlan(r, DeviceMesh{1, 4}, CommPath::kRingAgRs, DispatchKind::kCompact);
  ASSERT_TRUE(ring.ok());
  for (const Volume& v : AnalyticStepVolumes(*ring, in)) EXPECT_EQ(v.sent, 2 * 3 * (t / 4) * h * 2);
  // a2a sends each token at most once per remote owner, so never more than
  // the all-gather, and the dispatch plus combine are symmetric overall.
  auto a2a = BuildDispatchPlan(r, DeviceMesh{1, 4}, CommPath::kA2a, DispatchKind::kCompact);
  ASSERT_TRUE(a2a.ok());
  int64_t sent = 0, recv = 0;
  for (const Volume& v : AnalyticStepVolumes(*a2a, in)) {
    EXPECT_LE(v.sent, 2 * 3 * (t / 4) * h * 2);
    sent += v.sent;
    recv += v.recv;
  }
  EXPECT_EQ(sent, recv);
  EXPECT_GT(sent, 0);
  // Backward doubles the token exchange; DP adds the expert-gradient all-reduce.
  in.backward = true;
  for (const Volume& v : AnalyticStepVolumes(*psum, in)) EXPECT_EQ(v.sent, 2 * 2 * 3 * (t / 4) * h * 2);
  auto dp = BuildDispatchPlan(r, DeviceMesh{4, 1}, CommPath::kCompactPsum, DispatchKind::kCompact);
  ASSERT_TRUE(dp.ok());
  for (const Volume& v : AnalyticStepVolumes(*dp, in)) EXPECT_EQ(v.sent, 3 * 2 * 3 * (e * h * 32 / 4) * 2);
}

}  // namespace
}  // namespace moelog::engine::parallel
