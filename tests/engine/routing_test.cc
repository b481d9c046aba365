#include "engine/routing.h"

#include <cmath>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace moelog::engine {
namespace {

TEST(RoutingTest, TopKWeightsAreSoftmaxOverSelected) {
  Logits l{1, 4, {0.5f, 2.0f, -1.0f, 1.0f}};
  Routing r = TopK(l, 2);
  ASSERT_EQ(r.ids.size(), 2u);
  EXPECT_EQ(r.ids[0], 1);
  EXPECT_EQ(r.ids[1], 3);
  double e = std::exp(-1.0);
  EXPECT_NEAR(r.weights[0], 1.0 / (1.0 + e), 1e-6);
  EXPECT_NEAR(r.weights[1], e / (1.0 + e), 1e-6);
}

// TopK against a full sort by (logit descending, expert ascending), with
// logits rounded so that ties are frequent.
TEST(RoutingTest, TopKMatchesAFullSortIncludingTies) {
  for (int64_t E : {1, 5, 16, 64}) {
    Logits l = GenerateLogits("random", 257, E, 11 + E, 0.98, 0.5);
    for (auto& v : l.values) v = std::round(v * 2.0f) / 2.0f;
    for (int64_t K : {int64_t{1}, std::min<int64_t>(2, E), std::min<int64_t>(8, E), E}) {
      Routing r = TopK(l, K);
      for (int64_t t = 0; t < l.tokens; ++t) {
        const float* row = &l.values[t * E];
        std::vector<int32_t> order(static_cast<size_t>(E));
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [row](int32_t a, int32_t b) { return row[a] > row[b]; });
        for (int64_t k = 0; k < K; ++k) ASSERT_EQ(r.ids[t * K + k], order[k]) << "E=" << E << " K=" << K << " t=" << t;
      }
    }
  }
}

// FillNormal (split over threads when large) gives the values of Normal()
// called in turn and leaves the generator where they would: with a spare
// pending, odd and even counts, and a fill large enough to be split.
TEST(RoutingTest, FillNormalIsNormalCalledInTurn) {
  for (size_t n : {size_t{0}, size_t{1}, size_t{7}, size_t{1} << 21, (size_t{1} << 21) + 3}) {
    for (bool spare : {false, true}) {
      Rng a(42 + n), b(42 + n);
      if (spare) a.Normal(), b.Normal();
      std::vector<float> fill(n), turn(n);
      a.FillNormal(fill.data(), n, 0.5);
      for (auto& x : turn) x = static_cast<float>(0.5 * b.Normal());
      EXPECT_TRUE(std::equal(fill.begin(), fill.end(), turn.begin())) << n << " " << spare;
      EXPECT_EQ(a.Normal(), b.Normal()) << n << " " << spare;
      EXPECT_EQ(a.NextU64(), b.NextU64()) << n << " " << spare;
    }
  }
}

TEST(RoutingTest, RunsMeanRunLengthNearFifty) {
  Logits l = GenerateLogits("runs", 65536, 60, 0, 0.98, 0.35);
  Routing r = TopK(l, 2);
  RunStats s = ComputeRunStats(r);
  EXPECT_GT(s.mean, 40.0);
  EXPECT_LT(s.mean, 60.0);
  // Load-aware: top-1 loads nearly equal.
  std::vector<int64_t> top1(60, 0);
  for (int64_t t = 0; t < r.tokens; ++t) ++top1[r.ids[t * 2]];
  LoadStats ls = ComputeLoadStats(top1);
  EXPECT_LT(ls.cv, 0.1);
}

TEST(RoutingTest, RandomRunsAreShort) {
  Routing r = TopK(GenerateLogits("random", 8192, 16, 0, 0.98, 0.35), 2);
  RunStats s = ComputeRunStats(r);
  EXPECT_LT(s.mean, 1.2);
}

TEST(RoutingTest, LogitsIdenticalAcrossTopkSweep) {
  Logits l = GenerateLogits("random", 256, 8, 7, 0.98, 0.35);
  Routing r2 = TopK(l, 2), r4 = TopK(l, 4);
  for (int64_t t = 0; t < 256; ++t) {
    EXPECT_EQ(r2.ids[t * 2], r4.ids[t * 4]);
    EXPECT_EQ(r2.ids[t * 2 + 1], r4.ids[t * 4 + 1]);
  }
}

TEST(RoutingTest, RealizedNullFractionNearTarget) {
  for (double f : {0.1, 0.3, 0.5, 0.9}) {
    Routing r = TopK(GenerateLogits("random", 65536, 16, 0, 0.98, 0.35), 2);
    NullOptions o;
    o.frac = f;
    o.key = 42;
    ApplyNullRouting(o, &r);
    EXPECT_NEAR(r.null_realized, f, 0.003) << f;
    EXPECT_EQ(r.null_assignments + r.real_assignments, 65536 * 2);
    int64_t M = std::max<int64_t>(1, std::llround(16 * f / (1 - f)));
    EXPECT_NEAR(r.null_experts, M, 1);
    for (size_t p = 0; p < r.ids.size(); ++p) {
      if (r.ids[p] >= 16) {
        EXPECT_EQ(r.weights[p], 0.0f);
      }
    }
  }
}

TEST(RoutingTest, TakeUntilNullKeepsPrefix) {
  Routing r = TopK(GenerateLogits("random", 50000, 8, 0, 0.98, 0.35), 4);
  NullOptions o;
  o.frac = 0.4;
  o.mode = "take_until_null";
  o.key = 3;
  ApplyNullRouting(o, &r);
  EXPECT_NEAR(r.null_realized, 0.4, 0.003);
  for (int64_t t = 0; t < r.tokens; ++t)
    for (int64_t k = 1; k < 4; ++k) {
      if (r.ids[t * 4 + k - 1] >= 8) {
        EXPECT_GE(r.ids[t * 4 + k], 8);
      }
    }
}

TEST(RoutingTest, CapacityDropsMatchBruteForce) {
  Routing r = TopK(GenerateLogits("runs", 4096, 8, 1, 0.98, 0.35), 2);
  auto g = GroupSizes(r);
  CapacityStats s = ComputeCapacityStats(g, 4096, 2, 0.8);
  int64_t cap = static_cast<int64_t>(std::ceil(0.8 * 4096 * 2 / 8.0));
  EXPECT_EQ(s.cap, cap);
  // Brute force: walk assignments in flat order, count each expert's overflow.
  std::vector<int64_t> seen(8, 0);
  int64_t dropped = 0;
  for (int32_t id : r.ids)
    if (++seen[id] > cap) ++dropped;
  EXPECT_EQ(s.dropped, dropped);
}

// A narrower selection taken from a wider one is TopK's own, bit for bit:
// ids and weights, for the insertion path (K <= 16) and the partial sort
// (K > 16), on both distributions (runs has ties of equal logits).
TEST(Routing, TopKPrefixIsTopK) {
  for (const char* dist : {"random", "runs"}) {
    const Logits l = GenerateLogits(dist, 2048, 40, 3, 0.98, 0.35);
    for (int64_t wide_k : {8, 24}) {
      const Routing wide = TopK(l, wide_k);
      for (int64_t k = 1; k <= wide_k; k += 3) {
        const Routing want = TopK(l, k), got = TopKPrefix(l, wide, k);
        EXPECT_EQ(got.ids, want.ids) << dist << " K=" << wide_k << " k=" << k;
        EXPECT_EQ(got.weights, want.weights) << dist << " K=" << wide_k << " k=" << k;
        EXPECT_EQ(got.real_assignments, want.real_assignments);
        EXPECT_EQ(got.topk, k);
      }
    }
  }
}


// `random` logits of T tokens are the first rows of those of more tokens, so
// growing them draws what a fresh generation would: odd and even value
// counts, growth by one token, and a growth large enough to be split over
// threads.
TEST(Routing, GrownRandomLogitsAreGeneratedLogits) {
  for (int64_t E : {1, 7, 60}) {
    for (auto [t1, t2] : {std::pair<int64_t, int64_t>{1, 2}, {3, 5}, {100, 101}, {333, 1000}, {16, 40000}}) {
      Logits grown = GenerateLogits("random", t1, E, 5, 0.98, 0.35);
      GrowRandomLogits(&grown, t2, 5);
      const Logits want = GenerateLogits("random", t2, E, 5, 0.98, 0.35);
      EXPECT_EQ(grown.tokens, t2);
      EXPECT_EQ(grown.experts, E);
      ASSERT_EQ(grown.values.size(), want.values.size());
      EXPECT_TRUE(grown.values == want.values) << "E=" << E << " " << t1 << " -> " << t2;
      GrowRandomLogits(&grown, t1, 5);  // fewer tokens: unchanged
      EXPECT_EQ(grown.tokens, t2);
    }
  }
}

// A selection grown with its logits, or cut to its first tokens, is the
// selection of those tokens.
TEST(Routing, GrownAndCutSelectionsAreTopK) {
  for (int64_t K : {1, 2, 8, 20}) {
    Logits l = GenerateLogits("random", 300, 24, 9, 0.98, 0.35);
    Routing r = TopK(l, K);
    GrowRandomLogits(&l, 1100, 9);
    GrowTopK(l, &r);
    const Routing want = TopK(l, K);
    EXPECT_EQ(r.tokens, want.tokens);
    EXPECT_EQ(r.ids, want.ids) << K;
    EXPECT_EQ(r.weights, want.weights) << K;
    EXPECT_EQ(r.real_assignments, want.real_assignments);
    for (int64_t t : {1, 299, 300, 777, 1100}) {
      const Logits first = GenerateLogits("random", t, 24, 9, 0.98, 0.35);
      const Routing cut = FirstTokens(want, t), direct = TopK(first, K);
      EXPECT_EQ(cut.tokens, t);
      EXPECT_EQ(cut.ids, direct.ids) << K << " " << t;
      EXPECT_EQ(cut.weights, direct.weights) << K << " " << t;
      EXPECT_EQ(cut.real_assignments, direct.real_assignments);
      EXPECT_EQ(GroupSizes(cut), GroupSizes(direct));
    }
  }
}


// FillNormal's fast sine and cosine are within a relative 2^-46 of glibc's
// (its floats are glibc's as long as they are within 2^-40), uniformly over
// [0, 2 pi) and at the doubles nearest the zeros of sin and cos, where only
// a careful reduction keeps the relative error small.
TEST(Routing, SinCosNearIsWithinAFewUlpsOfGlibc) {
  std::vector<double> xs = {0.0, 1e-300, 1e-20, 1e-8};
  Rng g(123);
  for (int i = 0; i < 2000000; ++i) xs.push_back(2.0 * M_PI * g.Uniform());
  for (int q = 1; q <= 4; ++q) {
    double x = 2.0 * M_PI * (q / 4.0);  // as the fill computes them
    for (int i = 0; i < 64; ++i) x = std::nextafter(x, 0.0);
    for (int i = 0; i < 128; ++i, x = std::nextafter(x, 10.0))
      if (x < 2.0 * M_PI) xs.push_back(x);
  }
  double worst = 0;
  for (double x : xs) {
    double s = 0, c = 0;
    SinCosNear(x, &s, &c);
    const double gs = std::sin(x), gc = std::cos(x);
    const double es = gs == 0 ? std::abs(s) : std::abs(s - gs) / std::abs(gs);
    const double ec = gc == 0 ? std::abs(c) : std::abs(c - gc) / std::abs(gc);
    worst = std::max({worst, es, ec});
    ASSERT_LE(es, 0x1.0p-46) << "sin " << x;
    ASSERT_LE(ec, 0x1.0p-46) << "cos " << x;
  }
  EXPECT_LT(worst, 0x1.0p-48);
}

// A large fill (the router logits of 32768 tokens x 128 experts) is Normal()
// called in turn, value for value, at the scales the routers use.
TEST(Routing, LargeFillIsNormalInTurn) {
  for (double scale : {1.0, 0.35}) {
    const size_t n = size_t{1} << 22;
    Rng a(7), b(7);
    std::vector<float> fill(n);
    a.FillNormal(fill.data(), n, scale);
    size_t differ = 0;
    for (size_t i = 0; i < n; ++i) differ += fill[i] != static_cast<float>(scale * b.Normal());
    EXPECT_EQ(differ, 0u) << scale;
  }
}


// Run statistics by selection equal those of a full sort (runs of every
// length: `runs` routing, random, and null slots); a routing that carries its
// stats reads the same figures; null routing that changes ids drops them.
TEST(Routing, RunStatsAndSharedStatsMatchTheirDefinition) {
  auto by_sort = [](const Routing& r) {
    std::vector<int64_t> lens;
    int64_t cur = 1;
    for (int64_t t = 1; t < r.tokens; ++t) {
      if (r.ids[t * r.topk] == r.ids[(t - 1) * r.topk]) ++cur;
      else lens.push_back(cur), cur = 1;
    }
    lens.push_back(cur);
    std::sort(lens.begin(), lens.end());
    const double pos = 0.95 * static_cast<double>(lens.size() - 1);
    const size_t lo = static_cast<size_t>(std::floor(pos)), hi = std::min(lo + 1, lens.size() - 1);
    return std::make_pair(lens.back(), lens[lo] + (pos - lo) * (lens[hi] - lens[lo]));
  };
  for (const char* dist : {"random", "runs"})
    for (int64_t T : {1, 2, 19, 1000, 4099}) {
      Routing r = TopK(GenerateLogits(dist, T, 16, 4, 0.98, 0.35), 2);
      for (double frac : {0.0, 0.3}) {
        Routing x = r;
        NullOptions o;
        o.frac = frac;
        o.key = 99;
        x.stats = std::make_shared<const RoutingStats>(StatsOf(x));
        ApplyNullRouting(o, &x);
        EXPECT_EQ(x.stats == nullptr, frac > 0) << "stats kept only while ids are unchanged";
        const RunStats s = ComputeRunStats(x);
        const auto [max, p95] = by_sort(x);
        EXPECT_EQ(s.max, max) << dist << " " << T << " " << frac;
        EXPECT_EQ(s.p95, p95) << dist << " " << T << " " << frac;
        Routing shared = x;
        shared.stats = std::make_shared<const RoutingStats>(StatsOf(x));
        shared.token_scale = x.token_scale = 2.5;
        EXPECT_EQ(GroupSizes(shared), GroupSizes(x));
        EXPECT_EQ(ComputeRunStats(shared).p95, s.p95);
        EXPECT_EQ(ComputeRunStats(shared).runs, s.runs);
      }
    }
}

}  // namespace
}  // namespace moelog::engine
