// SlicedUpSwiGlu (engine/cpu/sliced_up.h): the up projection and SwiGLU in
// column slices of the prepacked weights give bit for bit the unsliced
// matmul followed by SwiGluRows, for fused gate|up and separate weights, row
// scales, row counts that are not multiples of the AMX tile or above the
// 512-row block, and every slice width.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "engine/cpu/isa.h"
#include "engine/cpu/kernels.h"
#include "engine/cpu/matmul.h"
#include "engine/cpu/sliced_up.h"
#include "engine/cpu/tensor.h"
#include "tests/engine/cpu_test_fill.h"

namespace moelog::engine::cpu {
namespace {

TEST(SlicedUp, SliceWidthIsTheLargestOf256_128_64ThatDividesM) {
  EXPECT_EQ(UpSliceWidth(512), 256);
  EXPECT_EQ(UpSliceWidth(1408), 128);
  EXPECT_EQ(UpSliceWidth(192), 64);
  EXPECT_EQ(UpSliceWidth(96), 0);
  EXPECT_EQ(SlicedUpScratch(512), 2 * kSlicedUpRows * 256);
}

TEST(SlicedUp, SliceColumnsRefusesWhatIsNotAWholeRunOfBlocks) {
  MatmulRunner mm;
  Tensor w(DType::kBF16, {256, 512});
  Fill(&w, 1, 256.0f);
  PackedMatrix p = mm.Pack(MatView::RowMajor(w.data(), DType::kBF16, 256, 512, 512)), s;
  if (!p.vnni64()) {
    EXPECT_FALSE(mm.SliceColumns(p, 128, 256, &s));
    GTEST_SKIP() << "oneDNN picks another weight layout on this CPU (" << Caps().Describe() << ")";
  }
  ASSERT_TRUE(mm.SliceColumns(p, 128, 256, &s));
  EXPECT_EQ(s.k(), 256);
  EXPECT_EQ(s.n(), 256);
  EXPECT_FALSE(mm.SliceColumns(p, 32, 64, &s));    // not on a block boundary
  EXPECT_FALSE(mm.SliceColumns(p, 0, 96, &s));     // not whole blocks
  EXPECT_FALSE(mm.SliceColumns(p, 384, 256, &s));  // past the last column
  Tensor f(DType::kF32, {256, 512});
  Fill(&f, 2, 256.0f);
  PackedMatrix pf = mm.Pack(MatView::RowMajor(f.data(), DType::kF32, 256, 512, 512));
  EXPECT_FALSE(mm.SliceColumns(pf, 0, 256, &s));  // f32 layout
}

struct Case {
  int64_t rows, h, m;
  bool fused, scaled;
};

class SlicedUpCase : public ::testing::TestWithParam<Case> {};

TEST_P(SlicedUpCase, EqualsTheUnslicedMatmulAndSwiGlu) {
  const Case c = GetParam();
  MatmulRunner mm;
  Tensor x(DType::kBF16, {c.rows, c.h}), w13(DType::kBF16, {c.h, 2 * c.m}), w1(DType::kBF16, {c.h, c.m}),
      w3(DType::kBF16, {c.h, c.m});
  Fill(&x, 3, 256.0f);
  Fill(&w13, 4, 256.0f);
  // Separate weights: the two column halves of w13.
  for (int64_t i = 0; i < c.h; ++i)
    for (int64_t j = 0; j < c.m; ++j) {
      w1.Set(i * c.m + j, w13.Get(i * 2 * c.m + j));
      w3.Set(i * c.m + j, w13.Get(i * 2 * c.m + c.m + j));
    }
  std::vector<float> scale(static_cast<size_t>(c.rows));
  for (int64_t r = 0; r < c.rows; ++r) scale[static_cast<size_t>(r)] = 0.25f + 0.01f * static_cast<float>(r % 50);
  const float* rs = c.scaled ? scale.data() : nullptr;

  // Reference: one matmul into [rows, 2M] gate|up, then SwiGluRows.
  PackedMatrix p13 = mm.Pack(MatView::RowMajor(w13.data(), DType::kBF16, c.h, 2 * c.m, 2 * c.m));
  Tensor ab(DType::kBF16, {c.rows, 2 * c.m}), want(DType::kBF16, {c.rows, c.m});
  mm.Run(MatView::RowMajor(x.data(), DType::kBF16, c.rows, c.h, c.h), p13,
         OutView{ab.data(), DType::kBF16, c.rows, 2 * c.m, 2 * c.m});
  SwiGluRows(ab.as<bf16_t>(), 2 * c.m, c.m, c.rows, c.m, rs, want.as<bf16_t>(), c.m);

  PackedMatrix p1 = mm.Pack(MatView::RowMajor(w1.data(), DType::kBF16, c.h, c.m, c.m));
  PackedMatrix p3 = mm.Pack(MatView::RowMajor(w3.data(), DType::kBF16, c.h, c.m, c.m));
  const PackedMatrix& gate = c.fused ? p13 : p1;
  const PackedMatrix& up = c.fused ? p13 : p3;
  const int64_t up_col0 = c.fused ? c.m : 0;
  if (!p13.vnni64()) {
    EXPECT_FALSE(CanSliceUp(&mm, gate, 0, up, up_col0, c.m));
    GTEST_SKIP() << "oneDNN picks another weight layout on this CPU (" << Caps().Describe() << ")";
  }
  ASSERT_TRUE(CanSliceUp(&mm, gate, 0, up, up_col0, c.m));
  // h with a wider row stride: the slices write only their columns.
  const int64_t ldh = c.m + 64;
  Tensor got(DType::kBF16, {c.rows, ldh});
  for (int64_t i = 0; i < got.numel(); ++i) got.Set(i, -7.0f);
  std::vector<bf16_t> scratch(static_cast<size_t>(SlicedUpScratch(c.m)));
  ASSERT_TRUE(SlicedUpSwiGlu(&mm, MatView::RowMajor(x.data(), DType::kBF16, c.rows, c.h, c.h), gate, 0, up, up_col0,
                             c.m, rs, got.as<bf16_t>(), ldh, scratch.data()));
  ASSERT_TRUE(mm.status().ok()) << mm.status().ToString();
  int64_t mismatches = 0;
  for (int64_t r = 0; r < c.rows; ++r) {
    mismatches += std::memcmp(got.as<bf16_t>() + r * ldh, want.as<bf16_t>() + r * c.m,
                              static_cast<size_t>(c.m) * sizeof(bf16_t)) != 0;
    for (int64_t j = c.m; j < ldh; ++j) ASSERT_EQ(got.Get(r * ldh + j), -7.0f) << "row " << r << " col " << j;
  }
  EXPECT_EQ(mismatches, 0) << "rows differing from the unsliced result";
}

INSTANTIATE_TEST_SUITE_P(All, SlicedUpCase,
                         ::testing::Values(Case{512, 1024, 512, true, false},   // the benchmark shape's tile
                                           Case{700, 1024, 512, true, true},    // two row blocks, tail of 188
                                           Case{37, 256, 192, false, false},    // 64-column slices
                                           Case{1, 128, 128, true, true},       // one row
                                           Case{300, 512, 384, false, true}),   // 128-column slices
                         [](const ::testing::TestParamInfo<Case>& i) {
                           const Case& c = i.param;
                           return "rows" + std::to_string(c.rows) + "_h" + std::to_string(c.h) + "_m" +
                                  std::to_string(c.m) + (c.fused ? "_fused" : "_split") + (c.scaled ? "_scaled" : "");
                         });

TEST(SlicedUp, RefusesWeightsThatCannotBeSliced) {
  MatmulRunner mm;
  Tensor w(DType::kF32, {64, 256});
  Fill(&w, 5, 256.0f);
  PackedMatrix p = mm.Pack(MatView::RowMajor(w.data(), DType::kF32, 64, 256, 256));
  EXPECT_FALSE(CanSliceUp(&mm, p, 0, p, 128, 128));
  Tensor x(DType::kF32, {4, 64}), h(DType::kBF16, {4, 128});
  std::vector<bf16_t> scratch(static_cast<size_t>(SlicedUpScratch(128)));
  EXPECT_FALSE(SlicedUpSwiGlu(&mm, MatView::RowMajor(x.data(), DType::kF32, 4, 64, 64), p, 0, p, 128, 128, nullptr,
                              h.as<bf16_t>(), 128, scratch.data()));
}

}  // namespace
}  // namespace moelog::engine::cpu
