#include "engine/parallel/communicator.h"

namespace moelog::engine::parallel {

Wire WireForDtype(const std::string& dtype) { return dtype == "float32" ? Wire::kF32 : Wire::kBF16; }

void RoundToWire(Wire wire, std::span<float> values) {
  if (wire == Wire::kF32) return;
  float* v = values.data();
  const int64_t n = static_cast<int64_t>(values.size());
  // Bf16ToFloat(FloatToBf16(x)) without branches, so the loop vectorizes:
  // NaN keeps its high half with the quiet bit set, anything else rounds to
  // nearest even on the low 16 bits.
#pragma omp parallel for simd schedule(static) if (n > 65536)
  for (int64_t i = 0; i < n; ++i) {
    uint32_t u;
    std::memcpy(&u, &v[i], 4);
    const bool nan = (u & 0x7fffffffu) > 0x7f800000u;
    const uint32_t r = (nan ? (u | 0x00400000u) : (u + 0x7fffu + ((u >> 16) & 1u))) & 0xffff0000u;
    std::memcpy(&v[i], &r, 4);
  }
}

void StoreBf16(const float* src, uint16_t* dst, int64_t n) {
#pragma omp parallel for simd schedule(static) if (n > 65536)
  for (int64_t i = 0; i < n; ++i) {
    uint32_t u;
    std::memcpy(&u, &src[i], 4);
    const bool nan = (u & 0x7fffffffu) > 0x7f800000u;
    const uint32_t r = nan ? (u | 0x00400000u) : (u + 0x7fffu + ((u >> 16) & 1u));
    dst[i] = static_cast<uint16_t>(r >> 16);
  }
}

std::string DeviceMesh::ToString() const {
  return "data=" + std::to_string(data) + ",expert=" + std::to_string(expert);
}

const char* AxisName(Axis axis) {
  switch (axis) {
    case Axis::kWorld: return "world";
    case Axis::kData: return "data";
    case Axis::kExpert: return "expert";
  }
  return "?";
}

std::vector<int> AxisGroup(const DeviceMesh& m, Axis axis, int d) {
  std::vector<int> g;
  switch (axis) {
    case Axis::kWorld:
      for (int i = 0; i < m.Size(); ++i) g.push_back(i);
      break;
    case Axis::kExpert:
      for (int e = 0; e < m.expert; ++e) g.push_back(m.DataIndex(d) * m.expert + e);
      break;
    case Axis::kData:
      for (int a = 0; a < m.data; ++a) g.push_back(a * m.expert + m.ExpertIndex(d));
      break;
  }
  return g;
}

int AxisRank(const DeviceMesh& m, Axis axis, int d) {
  switch (axis) {
    case Axis::kWorld: return d;
    case Axis::kExpert: return m.ExpertIndex(d);
    case Axis::kData: return m.DataIndex(d);
  }
  return 0;
}

int AxisSize(const DeviceMesh& m, Axis axis) {
  switch (axis) {
    case Axis::kWorld: return m.Size();
    case Axis::kExpert: return m.expert;
    case Axis::kData: return m.data;
  }
  return 1;
}

int64_t ChunkSize(int64_t n, int p, int c) { return n / p + (c < n % p ? 1 : 0); }
int64_t ChunkOffset(int64_t n, int p, int c) {
  int64_t rem = n % p;
  return c * (n / p) + (c < rem ? c : rem);
}

Volume RingAllReduceVolume(int64_t n, int p, int r, Wire wire) {
  if (p <= 1) return {};
  auto mod = [p](int v) { return ((v % p) + p) % p; };
  // Reduce-scatter sends every chunk but r and receives every chunk but r-1;
  // all-gather sends every chunk but r+1 and receives every chunk but r.
  int64_t sent = (n - ChunkSize(n, p, r)) + (n - ChunkSize(n, p, mod(r + 1)));
  int64_t recv = (n - ChunkSize(n, p, mod(r - 1))) + (n - ChunkSize(n, p, r));
  return {sent * WireBytes(wire), recv * WireBytes(wire)};
}

Volume RingAllGatherVolume(int64_t n, int p, Wire wire) {
  int64_t b = (p - 1) * n * WireBytes(wire);
  return {b, b};
}

Volume RingReduceScatterVolume(int64_t n, int p, Wire wire) { return RingAllGatherVolume(n, p, wire); }

Communicator::Communicator(DeviceMesh mesh, std::vector<int> local)
    : mesh_(mesh), local_(std::move(local)), counters_(local_.size()) {}

Status Communicator::CheckRowArgs(const char* what, std::span<const std::span<float>> bufs,
                                  std::span<const std::span<const uint8_t>> live, int64_t row_len,
                                  std::span<const ReduceLanding> out) const {
  const size_t devices = local_.size();
  if (bufs.size() != devices || live.size() != devices || out.size() != devices)
    return Status::Internal(std::string(what) + ": one buffer, row mask and landing per local device");
  if (row_len <= 0) return Status::Internal(std::string(what) + ": row_len must be positive");
  for (size_t i = 0; i < bufs.size(); ++i) {
    if (static_cast<int64_t>(bufs[i].size()) != static_cast<int64_t>(live[i].size()) * row_len)
      return Status::Internal(std::string(what) + ": buffer and row mask disagree");
    if ((out[i].f32 == nullptr) == (out[i].bf16 == nullptr))
      return Status::Internal(std::string(what) + ": a landing needs exactly one destination");
  }
  return Status::Ok();
}

Status Communicator::AllReduceSumCompactRows(Axis, std::span<const std::span<const float>>,
                                             std::span<const std::span<const int32_t>>, int64_t, int64_t,
                                             std::span<const ReduceLanding>, Wire) {
  return Status::NotSupported(Name() + ": the all-reduce of compact row partials");
}

void Communicator::ResetCounters() {
  for (auto& c : counters_) c = CommCounters{};
}

}  // namespace moelog::engine::parallel
