#include "engine/cpu/sliced_up.h"

#include <algorithm>
#include <vector>

#include "engine/cpu/kernels.h"

namespace moelog::engine::cpu {

int64_t UpSliceWidth(int64_t m) {
  for (int64_t w : {256, 128, 64})
    if (m % w == 0) return w;
  return 0;
}

int64_t SlicedUpScratch(int64_t m) { return 2 * kSlicedUpRows * UpSliceWidth(m); }

bool CanSliceUp(MatmulRunner* mm, const PackedMatrix& gate, int64_t gate_col0, const PackedMatrix& up,
                int64_t up_col0, int64_t m) {
  const int64_t w = UpSliceWidth(m);
  PackedMatrix g, u;
  return w > 0 && gate.dtype() == DType::kBF16 && up.dtype() == DType::kBF16 && gate.k() == up.k() &&
         mm->SliceColumns(gate, gate_col0, m, &g) && mm->SliceColumns(up, up_col0, m, &u) &&
         mm->SliceColumns(gate, gate_col0, w, &g);
}

bool SlicedUpSwiGlu(MatmulRunner* mm, const MatView& x, const PackedMatrix& gate, int64_t gate_col0,
                    const PackedMatrix& up, int64_t up_col0, int64_t m, const float* row_scale, bf16_t* h,
                    int64_t ldh, bf16_t* scratch) {
  const int64_t w = UpSliceWidth(m);
  if (w == 0 || x.dtype != DType::kBF16 || x.col_stride != 1) return false;
  const int64_t slices = m / w;
  std::vector<PackedMatrix> gs(static_cast<size_t>(slices)), us(static_cast<size_t>(slices));
  for (int64_t s = 0; s < slices; ++s)
    if (!mm->SliceColumns(gate, gate_col0 + s * w, w, &gs[static_cast<size_t>(s)]) ||
        !mm->SliceColumns(up, up_col0 + s * w, w, &us[static_cast<size_t>(s)]))
      return false;
  bf16_t* sg = scratch;
  bf16_t* su = scratch + kSlicedUpRows * w;
  for (int64_t r0 = 0; r0 < x.rows; r0 += kSlicedUpRows) {
    const int64_t n = std::min(kSlicedUpRows, x.rows - r0);
    const MatView xr{static_cast<const bf16_t*>(x.data) + r0 * x.row_stride, DType::kBF16, n, x.cols, x.row_stride,
                     1};
    for (int64_t s = 0; s < slices; ++s) {
      MatmulJob j;
      j.a = xr;
      j.packed = &gs[static_cast<size_t>(s)];
      j.c = OutView{sg, DType::kBF16, n, w, w};
      mm->RunHere(j);
      j.packed = &us[static_cast<size_t>(s)];
      j.c = OutView{su, DType::kBF16, n, w, w};
      mm->RunHere(j);
      SwiGluRows(sg, w, su - sg, n, w, row_scale != nullptr ? row_scale + r0 : nullptr, h + r0 * ldh + s * w, ldh);
    }
  }
  return true;
}

}  // namespace moelog::engine::cpu
