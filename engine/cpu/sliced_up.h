// The up projection and SwiGLU of a tile of rows, computed in column slices
// of the gate and up weights: h = SiLU(x W_gate) * (x W_up), without the
// [rows, 2M] pre-activations ever leaving the core's L2.
//
// One matmul [rows, H] x [H, 2M] streams the whole 2M-column weight (2 MiB
// at H=1024, M=512, bf16) through L2 for every block of rows, and its output
// is written out only for SwiGLU to read it back. Sliced, each pair of
// matmuls [rows, H] x [H, w] (gate columns, then the same up columns) keeps
// its weight slice in L2 for all rows and writes into a scratch tile that
// SwiGLU reads while it is hot. Measured on one core at the full AMX rate
// against the unsliced call plus SwiGLU (16 experts' weights, 512-row
// tiles): 0.90-0.96 of a dense matmul's per-FLOP speed against 0.79-0.81;
// the separate up stage on two cores: 0.785 against 0.72 (BENCHMARKS.md).
#ifndef MOELOG_ENGINE_CPU_SLICED_UP_H_
#define MOELOG_ENGINE_CPU_SLICED_UP_H_

#include <cstdint>

#include "engine/cpu/matmul.h"
#include "engine/cpu/tensor.h"

namespace moelog::engine::cpu {

// Rows per matmul pair: the scratch tiles and the row block of x stay in L2.
inline constexpr int64_t kSlicedUpRows = 512;

// Width of the column slices for an m-column gate/up pair: 256, 128 or 64,
// the largest that divides m; 0 when none does (no slicing).
int64_t UpSliceWidth(int64_t m);

// Elements of bf16 scratch SlicedUpSwiGlu needs for mlp width m.
int64_t SlicedUpScratch(int64_t m);

// Whether SlicedUpSwiGlu can run on these prepacked weights (their layout
// allows column slices; the same for every expert of one shape). Call it
// before running SlicedUpSwiGlu on worker threads: it caches the layout
// checks, which SlicedUpSwiGlu then only looks up.
bool CanSliceUp(MatmulRunner* mm, const PackedMatrix& gate, int64_t gate_col0, const PackedMatrix& up,
                int64_t up_col0, int64_t m);

// h[r, j] = SiLU(g) * u * scale_r for the bf16 rows x [rows, H], where g and
// u are column j of x W_gate and x W_up, W_gate = columns [gate_col0,
// gate_col0 + m) of gate and W_up = columns [up_col0, up_col0 + m) of up
// (prepacked [H, *] weights), and scale_r = row_scale[r] or 1. h has row
// stride ldh. The matmuls run on the calling thread (MatmulRunner::RunHere).
// scratch: SlicedUpScratch(m) elements, this thread's own, best 64-byte
// aligned (the matmuls write their rows there; unaligned rows measured about
// 5% slower). The result is the same as the unsliced matmul followed by
// SwiGluRows: each output element has the same K reduction. False, with
// nothing written, unless CanSliceUp holds and x is bf16.
bool SlicedUpSwiGlu(MatmulRunner* mm, const MatView& x, const PackedMatrix& gate, int64_t gate_col0,
                    const PackedMatrix& up, int64_t up_col0, int64_t m, const float* row_scale, bf16_t* h,
                    int64_t ldh, bf16_t* scratch);

}  // namespace moelog::engine::cpu

#endif  // MOELOG_ENGINE_CPU_SLICED_UP_H_
