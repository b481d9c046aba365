// Communicator: the collectives expert and data parallelism need (all-reduce,
// all-gather, reduce-scatter, all-to-all-v) over the axes of a device mesh,
// with exact per-device byte accounting.
//
// Two realizations share this interface and the same accounting:
//  - SimComm (sim_comm.h): P simulated devices in one process. Every
//    collective is an explicit ring of copies/reductions between the devices'
//    own buffers, and the bytes counted are the bytes actually copied.
//  - MpiComm (mpi_comm.h): one device per MPI rank; collectives are MPI calls
//    and the bytes counted are those of the same ring algorithms.
//
// Buffers are float32 in memory. The wire type says how values travel: bf16
// rounds every transferred value to bfloat16 (and counts 2 bytes per value),
// reductions accumulate in float32 after decoding.
#ifndef MOELOG_ENGINE_PARALLEL_COMMUNICATOR_H_
#define MOELOG_ENGINE_PARALLEL_COMMUNICATOR_H_

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "engine/status.h"

namespace moelog::engine::parallel {

enum class Wire { kF32, kBF16 };

// Bytes per value on the wire.
inline int64_t WireBytes(Wire w) { return w == Wire::kF32 ? 4 : 2; }
// "float32" -> kF32, anything else (bfloat16) -> kBF16.
Wire WireForDtype(const std::string& dtype);

// bfloat16 <-> float32, round to nearest even (NaN stays NaN).
inline uint16_t FloatToBf16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x40);
  u += 0x7fffu + ((u >> 16) & 1u);
  return static_cast<uint16_t>(u >> 16);
}
inline float Bf16ToFloat(uint16_t h) {
  uint32_t u = static_cast<uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
// Rounds every value to the wire's precision in place (no-op for kF32).
void RoundToWire(Wire wire, std::span<float> values);
// dst[i] = bfloat16 of src[i], rounded to nearest even as RoundToWire rounds
// (exact for values already on the bf16 wire).
void StoreBf16(const float* src, uint16_t* dst, int64_t n);

// Where one device's reduction result lands: exactly one pointer is set, to
// as many values as the device's result holds.
struct ReduceLanding {
  float* f32 = nullptr;
  uint16_t* bf16 = nullptr;  // bfloat16 bit patterns
};

// A 2-D device mesh data=A x expert=B. Device d sits at data index d / B and
// expert index d % B, so the devices of one expert group are consecutive.
struct DeviceMesh {
  int data = 1;
  int expert = 1;
  int Size() const { return data * expert; }
  int DataIndex(int d) const { return d / expert; }
  int ExpertIndex(int d) const { return d % expert; }
  std::string ToString() const;  // "data=A,expert=B"
};

// kWorld: all devices. kExpert: the B devices sharing a data index (one EP
// group). kData: the A devices sharing an expert index (one DP group).
enum class Axis { kWorld, kData, kExpert };
const char* AxisName(Axis axis);

// The members of `axis`'s group that contains device d, in ring order
// (ascending device id). The position of d in it is its rank in the group.
std::vector<int> AxisGroup(const DeviceMesh& mesh, Axis axis, int d);
int AxisRank(const DeviceMesh& mesh, Axis axis, int d);
int AxisSize(const DeviceMesh& mesh, Axis axis);

// What one device moved. Bytes count values that leave (sent) or arrive
// (received) at the device; copies a device makes to itself are not counted.
struct CommCounters {
  int64_t bytes_sent = 0;
  int64_t bytes_recv = 0;
  int64_t calls = 0;
  double seconds = 0;  // wall time spent inside collectives
};

// Analytic per-device volumes of the ring algorithms, in bytes, for a group
// of p devices (the device's rank r in it where it matters). These are exactly
// what the collectives count.
struct Volume {
  int64_t sent = 0;
  int64_t recv = 0;
};
// All-reduce of n values per device: n is split into p chunks (sizes differ by
// at most one; chunk c has n/p + (c < n%p)), then a ring reduce-scatter and a
// ring all-gather. Equals 2(p-1)/p * n * bytes each way when p divides n.
Volume RingAllReduceVolume(int64_t n, int p, int r, Wire wire);
// All-gather / reduce-scatter of p blocks of n values: (p-1) * n * bytes.
Volume RingAllGatherVolume(int64_t n, int p, Wire wire);
Volume RingReduceScatterVolume(int64_t n, int p, Wire wire);
// The size and offset of chunk c when n values are split into p chunks.
int64_t ChunkSize(int64_t n, int p, int c);
int64_t ChunkOffset(int64_t n, int p, int c);

class Communicator {
 public:
  virtual ~Communicator() = default;
  virtual std::string Name() const = 0;  // "sim" or "mpi"
  const DeviceMesh& mesh() const { return mesh_; }
  // The devices whose buffers this process holds: all of them for SimComm,
  // the rank's own device for MpiComm. Collective arguments are indexed by
  // position in this list.
  const std::vector<int>& local_devices() const { return local_; }

  // Every device of each `axis` group ends with the elementwise sum over the
  // group. REQUIRES: bufs.size() == local_devices().size(), equal lengths.
  virtual Status AllReduceSum(Axis axis, std::span<const std::span<float>> bufs, Wire wire) = 0;
  // The all-reduce of row-sparse partials into separate outputs, as a psum
  // over a replicated output runs: bufs[i] holds rows of row_len values, and
  // a row with live[i][row] == 0 holds no data (it is never read and counts
  // as zeros), so a device writes only the rows its own work produced. Every
  // device of the group ends with the group's sum in out[i], cast to the
  // landing's type as it arrives (bf16: rounded to nearest even), so no
  // separate pass over the output follows. bufs[i] is scratch afterwards;
  // an f32 landing may be bufs[i] itself (the result then replaces the
  // partial, and no second buffer is held).
  // Values and counted bytes are those of AllReduceSum over the dense
  // buffers followed by the cast: the wire carries every row.
  // REQUIRES: bufs.size() == live.size() == out.size() ==
  // local_devices().size(); bufs[i].size() == live[i].size() * row_len,
  // equal over the group; row_len > 0.
  virtual Status AllReduceSumRows(Axis axis, std::span<const std::span<float>> bufs,
                                  std::span<const std::span<const uint8_t>> live, int64_t row_len,
                                  std::span<const ReduceLanding> out, Wire wire) = 0;
  // The same all-reduce with each device's partial held compactly: bufs[i]
  // holds only the live rows of device i, rows[i][j] (ascending) the row of
  // its j-th; every other row of the [n_rows, row_len] sum counts as zeros.
  // out[i] (n_rows * row_len values) receives the group's sum, cast as it
  // arrives; devices may share one landing (the same values land on it). A
  // device holds its live rows and one chunk in flight, never a dense
  // partial: what simulated devices in one process need. Values and counted
  // bytes are those of AllReduceSumRows over the dense buffers. Only SimComm
  // implements it (NotSupported otherwise: a rank holds its dense partial).
  virtual Status AllReduceSumCompactRows(Axis axis, std::span<const std::span<const float>> bufs,
                                         std::span<const std::span<const int32_t>> rows, int64_t n_rows,
                                         int64_t row_len, std::span<const ReduceLanding> out, Wire wire);
  // out[i] (n * group size) receives member j's in block (n) at offset j*n.
  virtual Status AllGather(Axis axis, std::span<const std::span<const float>> in,
                           std::span<const std::span<float>> out, Wire wire) = 0;
  // in[i] has group-size blocks of n; out[i] (n) receives the sum over the
  // group of block AxisRank(device).
  virtual Status ReduceScatterSum(Axis axis, std::span<const std::span<const float>> in,
                                  std::span<const std::span<float>> out, Wire wire) = 0;
  // The reduce-scatter of row-sparse partials, landing cast: bufs[i] (group
  // size blocks of n values) holds rows of row_len values, only those with
  // live[i][row] != 0 hold data (the others are never read and count as
  // zeros). out[i] (n values) receives the group's sum of block
  // AxisRank(device), cast to the landing's type as it arrives. bufs[i] is
  // scratch afterwards. Values and counted bytes are those of
  // ReduceScatterSum over the dense buffers followed by the cast.
  // REQUIRES: as AllReduceSumRows; bufs[i].size() a multiple of the group
  // size.
  virtual Status ReduceScatterSumRows(Axis axis, std::span<const std::span<float>> bufs,
                                      std::span<const std::span<const uint8_t>> live, int64_t row_len,
                                      std::span<const ReduceLanding> out, Wire wire) = 0;
  // Personalized exchange inside each group. send[i] holds one block per group
  // member j (send_counts[i][j] values, in member order); recv[i] receives one
  // block from each member j (recv_counts[i][j] values, in member order).
  // REQUIRES: counts agree pairwise (what j sends to i is what i expects).
  virtual Status AllToAllV(Axis axis, std::span<const std::span<const float>> send,
                           const std::vector<std::vector<int64_t>>& send_counts,
                           std::span<const std::span<float>> recv,
                           const std::vector<std::vector<int64_t>>& recv_counts, Wire wire) = 0;
  // Blocks until every device arrived (no bytes counted).
  virtual Status Barrier() = 0;

  // Per-process scalars combined over every process of the run, outside
  // timed regions (the slowest rank, the largest volume). One process holds
  // every device (SimComm): the value itself.
  virtual bool spans_processes() const { return false; }
  virtual int process_rank() const { return 0; }
  virtual double MaxOverProcesses(double v) { return v; }
  // One int64 per process, on every process, in rank order.
  virtual std::vector<int64_t> GatherOverProcesses(int64_t v) { return {v}; }

  // Counters of local device i since the last reset.
  const CommCounters& counters(size_t i) const { return counters_[i]; }
  void ResetCounters();

 protected:
  Communicator(DeviceMesh mesh, std::vector<int> local);
  // The argument checks of the row-sparse reductions (their REQUIRES but the
  // equal lengths over a group): Internal "<what>: ..." when one fails.
  Status CheckRowArgs(const char* what, std::span<const std::span<float>> bufs,
                      std::span<const std::span<const uint8_t>> live, int64_t row_len,
                      std::span<const ReduceLanding> out) const;
  DeviceMesh mesh_;
  std::vector<int> local_;
  std::vector<CommCounters> counters_;
};

}  // namespace moelog::engine::parallel

#endif  // MOELOG_ENGINE_PARALLEL_COMMUNICATOR_H_
