// Collectives of SimComm (and of MpiComm when the test binary runs under
// mpirun): results against direct sums, counted bytes against the analytic
// ring volumes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <numeric>

#include "engine/parallel/mpi_comm.h"
#include "engine/parallel/sim_comm.h"
#include "engine/routing.h"

namespace moelog::engine::parallel {
namespace {

// Deterministic per-device data: value depends on device and index.
std::vector<std::vector<float>> DeviceData(int devices, int64_t n, uint64_t seed) {
  std::vector<std::vector<float>> v(static_cast<size_t>(devices));
  for (int d = 0; d < devices; ++d) {
    Rng rng(FoldIn(seed, static_cast<uint64_t>(d)));
    for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(d)].push_back(static_cast<float>(rng.Normal()));
  }
  return v;
}

std::vector<std::span<float>> Spans(std::vector<std::vector<float>>& v) {
  std::vector<std::span<float>> s;
  for (auto& x : v) s.emplace_back(x);
  return s;
}
std::vector<std::span<const float>> CSpans(const std::vector<std::vector<float>>& v) {
  std::vector<std::span<const float>> s;
  for (const auto& x : v) s.emplace_back(x);
  return s;
}

// The vectorized in-place rounding equals the scalar round trip, bit for
// bit: random bit patterns plus ties, NaNs, infinities, denormals, zeros.
TEST(ParallelCommTest, RoundToWireEqualsScalarRoundTrip) {
  std::vector<uint32_t> bits = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0x7f800001u,
                                0xffffffffu, 0x00000001u, 0x807fffffu, 0x3f808000u, 0x3f818000u, 0x3f80ffffu,
                                0x7f7fffffu, 0x477fe000u, 0x3f7f8000u};
  uint64_t x = 0x9e3779b97f4a7c15ull;
  for (int i = 0; i < 200000; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    bits.push_back(static_cast<uint32_t>(x));
  }
  std::vector<float> v(bits.size());
  for (size_t i = 0; i < bits.size(); ++i) std::memcpy(&v[i], &bits[i], 4);
  std::vector<float> want = v;
  for (float& f : want) f = Bf16ToFloat(FloatToBf16(f));
  RoundToWire(Wire::kBF16, v);
  for (size_t i = 0; i < v.size(); ++i) {
    uint32_t got, exp;
    std::memcpy(&got, &v[i], 4);
    std::memcpy(&exp, &want[i], 4);
    ASSERT_EQ(got, exp) << "input bits " << std::hex << bits[i];
  }
  std::vector<float> f32 = {1.0000001f, -3.3f};
  RoundToWire(Wire::kF32, f32);
  EXPECT_EQ(f32[0], 1.0000001f);
}

TEST(ParallelCommTest, AnalyticVolumesMatchTextbookFormulas) {
  // Ring all-reduce of n values over p devices: 2(p-1)/p * n * bytes.
  for (int p : {2, 3, 4, 8}) {
    int64_t n = 4096 * p;
    Volume v = RingAllReduceVolume(n, p, 0, Wire::kBF16);
    EXPECT_EQ(v.sent, 2 * (p - 1) * (n / p) * 2);
    EXPECT_EQ(v.recv, v.sent);
  }
  EXPECT_EQ(RingAllGatherVolume(100, 4, Wire::kF32).sent, 3 * 100 * 4);
  EXPECT_EQ(RingAllReduceVolume(100, 1, 0, Wire::kF32).sent, 0);
  // Chunks tile the buffer.
  int64_t total = 0;
  for (int c = 0; c < 3; ++c) {
    EXPECT_EQ(ChunkOffset(10, 3, c), total);
    total += ChunkSize(10, 3, c);
  }
  EXPECT_EQ(total, 10);
}

class SimCollectives : public ::testing::TestWithParam<std::tuple<int, int64_t, Wire>> {};

TEST_P(SimCollectives, AllReduceSumsAndCountsRingBytes) {
  auto [p, n, wire] = GetParam();
  SimComm comm(DeviceMesh{1, p});
  auto data = DeviceData(p, n, 1);
  std::vector<double> want(static_cast<size_t>(n), 0.0);
  for (const auto& d : data)
    for (int64_t i = 0; i < n; ++i) want[static_cast<size_t>(i)] += d[static_cast<size_t>(i)];
  auto spans = Spans(data);
  ASSERT_TRUE(comm.AllReduceSum(Axis::kExpert, spans, wire).ok());
  const double tol = wire == Wire::kF32 ? 1e-5 : 3e-2;
  for (int d = 0; d < p; ++d) {
    for (int64_t i = 0; i < n; ++i) {
      float got = data[static_cast<size_t>(d)][static_cast<size_t>(i)];
      ASSERT_NEAR(got, want[static_cast<size_t>(i)], tol * (1 + std::abs(want[static_cast<size_t>(i)])));
      // Every device holds bit-identical results.
      ASSERT_EQ(got, data[0][static_cast<size_t>(i)]);
    }
    Volume v = RingAllReduceVolume(n, p, d, wire);
    EXPECT_EQ(comm.counters(static_cast<size_t>(d)).bytes_sent, v.sent) << "device " << d;
    EXPECT_EQ(comm.counters(static_cast<size_t>(d)).bytes_recv, v.recv) << "device " << d;
  }
  if (n % p == 0) {
    EXPECT_EQ(comm.counters(0).bytes_sent, 2 * (p - 1) * (n / p) * WireBytes(wire));
  }
}

TEST_P(SimCollectives, AllGatherAndReduceScatter) {
  auto [p, n, wire] = GetParam();
  SimComm comm(DeviceMesh{1, p});
  auto in = DeviceData(p, n, 2);
  std::vector<std::vector<float>> out(static_cast<size_t>(p), std::vector<float>(static_cast<size_t>(n * p)));
  auto outs = Spans(out);
  ASSERT_TRUE(comm.AllGather(Axis::kWorld, CSpans(in), outs, wire).ok());
  for (int d = 0; d < p; ++d)
    for (int j = 0; j < p; ++j)
      for (int64_t i = 0; i < n; ++i) {
        float src = in[static_cast<size_t>(j)][static_cast<size_t>(i)];
        if (wire == Wire::kBF16) src = Bf16ToFloat(FloatToBf16(src));
        ASSERT_EQ(out[static_cast<size_t>(d)][static_cast<size_t>(j * n + i)], src);
      }
  for (int d = 0; d < p; ++d) EXPECT_EQ(comm.counters(static_cast<size_t>(d)).bytes_sent, RingAllGatherVolume(n, p, wire).sent);

  comm.ResetCounters();
  auto big = DeviceData(p, n * p, 3);
  std::vector<std::vector<float>> mine(static_cast<size_t>(p), std::vector<float>(static_cast<size_t>(n)));
  auto mines = Spans(mine);
  ASSERT_TRUE(comm.ReduceScatterSum(Axis::kWorld, CSpans(big), mines, wire).ok());
  const double tol = wire == Wire::kF32 ? 1e-5 : 3e-2;
  for (int d = 0; d < p; ++d) {
    for (int64_t i = 0; i < n; ++i) {
      double want = 0;
      for (int j = 0; j < p; ++j) want += big[static_cast<size_t>(j)][static_cast<size_t>(d * n + i)];
      ASSERT_NEAR(mine[static_cast<size_t>(d)][static_cast<size_t>(i)], want, tol * (1 + std::abs(want)));
    }
    EXPECT_EQ(comm.counters(static_cast<size_t>(d)).bytes_recv, RingReduceScatterVolume(n, p, wire).recv);
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, SimCollectives,
                         ::testing::Values(std::make_tuple(4, int64_t{64}, Wire::kF32),
                                           std::make_tuple(4, int64_t{67}, Wire::kBF16),
                                           std::make_tuple(3, int64_t{10}, Wire::kF32),
                                           std::make_tuple(2, int64_t{1}, Wire::kBF16),
                                           std::make_tuple(1, int64_t{5}, Wire::kF32)),
                         [](const auto& info) {
                           std::string name = "p";
                           name.append(std::to_string(std::get<0>(info.param)))
                               .append("_n")
                               .append(std::to_string(std::get<1>(info.param)))
                               .append(std::get<2>(info.param) == Wire::kF32 ? "_f32" : "_bf16");
                           return name;
                         });

TEST(ParallelCommTest, MeshAxesReduceOnlyInsideTheirGroups) {
  DeviceMesh mesh{2, 3};  // devices 0..5: expert groups {0,1,2} {3,4,5}; data groups {0,3} {1,4} {2,5}
  EXPECT_EQ(AxisGroup(mesh, Axis::kExpert, 4), (std::vector<int>{3, 4, 5}));
  EXPECT_EQ(AxisGroup(mesh, Axis::kData, 4), (std::vector<int>{1, 4}));
  SimComm comm(mesh);
  std::vector<std::vector<float>> v;
  for (int d = 0; d < 6; ++d) v.push_back({static_cast<float>(1 << d)});
  auto s = Spans(v);
  ASSERT_TRUE(comm.AllReduceSum(Axis::kData, s, Wire::kF32).ok());
  EXPECT_EQ(v[1][0], 2 + 16);
  EXPECT_EQ(v[4][0], 2 + 16);
  ASSERT_TRUE(comm.AllReduceSum(Axis::kExpert, s, Wire::kF32).ok());
  EXPECT_EQ(v[0][0], (1 + 8) + (2 + 16) + (4 + 32));
}

TEST(ParallelCommTest, AllToAllVDeliversBlocksAndCountsOffDeviceBytes) {
  const int p = 3;
  SimComm comm(DeviceMesh{1, p});
  // Device s sends (s+1)*(d+1) values of value 10*s+d to device d.
  std::vector<std::vector<float>> send(p), recv(p);
  std::vector<std::vector<int64_t>> sc(p, std::vector<int64_t>(p)), rc(p, std::vector<int64_t>(p));
  for (int s = 0; s < p; ++s)
    for (int d = 0; d < p; ++d) {
      sc[s][d] = (s + 1) * (d + 1);
      rc[d][s] = sc[s][d];
      for (int i = 0; i < sc[s][d]; ++i) send[s].push_back(static_cast<float>(10 * s + d));
    }
  for (int d = 0; d < p; ++d) recv[d].resize(static_cast<size_t>(std::accumulate(rc[d].begin(), rc[d].end(), int64_t{0})));
  auto rs = Spans(recv);
  ASSERT_TRUE(comm.AllToAllV(Axis::kWorld, CSpans(send), sc, rs, rc, Wire::kF32).ok());
  for (int d = 0; d < p; ++d) {
    size_t off = 0;
    int64_t want_recv = 0, want_sent = 0;
    for (int s = 0; s < p; ++s) {
      for (int64_t i = 0; i < rc[d][s]; ++i) ASSERT_EQ(recv[d][off++], static_cast<float>(10 * s + d));
      if (s != d) {
        want_recv += rc[d][s] * 4;
        want_sent += sc[d][s] * 4;
      }
    }
    EXPECT_EQ(comm.counters(d).bytes_recv, want_recv);
    EXPECT_EQ(comm.counters(d).bytes_sent, want_sent);
  }
}

// Row masks for p devices: device d's row r is live unless (r + d) % 3 == 0,
// plus one row dead on every device.
std::vector<std::vector<uint8_t>> RowMasks(int p, int64_t rows) {
  std::vector<std::vector<uint8_t>> m(static_cast<size_t>(p), std::vector<uint8_t>(static_cast<size_t>(rows)));
  for (int d = 0; d < p; ++d)
    for (int64_t r = 0; r < rows; ++r) m[static_cast<size_t>(d)][static_cast<size_t>(r)] = (r + d) % 3 != 0 && r != 1;
  return m;
}

// The row-sparse all-reduce equals the dense all-reduce of the partials with
// zeros in the dead rows (bit for bit, f32 landing; as StoreBf16 of it, bf16
// landing), never reads the dead rows (they hold NaN), and counts the dense
// ring's bytes. Chunk boundaries fall inside rows (rows * row_len not a
// multiple of p).
TEST(ParallelCommTest, AllReduceSumRowsEqualsDenseAllReduce) {
  for (int p : {1, 2, 3, 4}) {
    for (auto [rows, row_len] : {std::pair<int64_t, int64_t>{7, 5}, {16, 4}, {1, 3}}) {
      for (Wire wire : {Wire::kF32, Wire::kBF16}) {
        for (bool bf16_out : {false, true}) {
          SCOPED_TRACE("p=" + std::to_string(p) + " rows=" + std::to_string(rows) + " row_len=" +
                       std::to_string(row_len) + " wire=" + std::to_string(static_cast<int>(wire)) +
                       " bf16_out=" + std::to_string(bf16_out));
          const int64_t n = rows * row_len;
          auto masks = RowMasks(p, rows);
          auto dense = DeviceData(p, n, 11);
          auto sparse = dense;
          for (int d = 0; d < p; ++d)
            for (int64_t r = 0; r < rows; ++r)
              if (!masks[static_cast<size_t>(d)][static_cast<size_t>(r)])
                for (int64_t j = 0; j < row_len; ++j) {
                  dense[static_cast<size_t>(d)][static_cast<size_t>(r * row_len + j)] = 0.0f;
                  sparse[static_cast<size_t>(d)][static_cast<size_t>(r * row_len + j)] = std::nanf("");
                }
          SimComm ref(DeviceMesh{1, p});
          auto ds = Spans(dense);
          ASSERT_TRUE(ref.AllReduceSum(Axis::kExpert, ds, wire).ok());

          SimComm comm(DeviceMesh{1, p});
          std::vector<std::vector<float>> out32(static_cast<size_t>(p), std::vector<float>(static_cast<size_t>(n), -7));
          std::vector<std::vector<uint16_t>> out16(static_cast<size_t>(p),
                                                   std::vector<uint16_t>(static_cast<size_t>(n), 0x7fff));
          std::vector<ReduceLanding> land;
          std::vector<std::span<const uint8_t>> live;
          for (int d = 0; d < p; ++d) {
            ReduceLanding l;
            if (bf16_out) l.bf16 = out16[static_cast<size_t>(d)].data();
            else l.f32 = out32[static_cast<size_t>(d)].data();
            land.push_back(l);
            live.emplace_back(masks[static_cast<size_t>(d)]);
          }
          auto ss = Spans(sparse);
          ASSERT_TRUE(comm.AllReduceSumRows(Axis::kExpert, ss, live, row_len, land, wire).ok());
          for (int d = 0; d < p; ++d) {
            const auto& want = dense[static_cast<size_t>(d)];
            for (int64_t i = 0; i < n; ++i) {
              const size_t k = static_cast<size_t>(i);
              if (bf16_out) {
                uint16_t w;
                StoreBf16(&want[k], &w, 1);
                ASSERT_EQ(out16[static_cast<size_t>(d)][k], w) << "device " << d << " value " << i;
              } else {
                ASSERT_EQ(out32[static_cast<size_t>(d)][k], want[k]) << "device " << d << " value " << i;
              }
            }
            EXPECT_EQ(comm.counters(static_cast<size_t>(d)).bytes_sent, ref.counters(static_cast<size_t>(d)).bytes_sent);
            EXPECT_EQ(comm.counters(static_cast<size_t>(d)).bytes_recv, ref.counters(static_cast<size_t>(d)).bytes_recv);
            Volume v = RingAllReduceVolume(n, p, d, wire);
            EXPECT_EQ(comm.counters(static_cast<size_t>(d)).bytes_sent, v.sent);
            EXPECT_EQ(comm.counters(static_cast<size_t>(d)).bytes_recv, v.recv);
          }
        }
      }
    }
  }
}

// The all-reduce of compact partials (each device holds its live rows only)
// lands what the dense all-reduce of the masked partials gives, bit for bit,
// on every device's landing or on one landing the group shares, and counts
// the dense ring's bytes; chunk boundaries fall inside rows.
TEST(ParallelCommTest, AllReduceSumCompactRowsEqualsDenseAllReduce) {
  for (int p : {1, 2, 3, 4}) {
    for (auto [rows, row_len] : {std::pair<int64_t, int64_t>{7, 5}, {16, 4}, {1, 3}}) {
      for (Wire wire : {Wire::kF32, Wire::kBF16}) {
        for (int landing : {0, 1, 2}) {  // f32 each, bf16 each, one shared f32
          SCOPED_TRACE("p=" + std::to_string(p) + " rows=" + std::to_string(rows) + " row_len=" +
                       std::to_string(row_len) + " wire=" + std::to_string(static_cast<int>(wire)) +
                       " landing=" + std::to_string(landing));
          const int64_t n = rows * row_len;
          auto masks = RowMasks(p, rows);
          auto dense = DeviceData(p, n, 11);
          std::vector<std::vector<float>> compact(static_cast<size_t>(p));
          std::vector<std::vector<int32_t>> live_rows(static_cast<size_t>(p));
          for (int d = 0; d < p; ++d)
            for (int64_t r = 0; r < rows; ++r)
              for (int64_t j = 0; j < row_len; ++j) {
                float& v = dense[static_cast<size_t>(d)][static_cast<size_t>(r * row_len + j)];
                if (!masks[static_cast<size_t>(d)][static_cast<size_t>(r)]) {
                  v = 0.0f;
                  continue;
                }
                if (j == 0) live_rows[static_cast<size_t>(d)].push_back(static_cast<int32_t>(r));
                compact[static_cast<size_t>(d)].push_back(v);
              }
          SimComm ref(DeviceMesh{1, p});
          auto ds = Spans(dense);
          ASSERT_TRUE(ref.AllReduceSum(Axis::kExpert, ds, wire).ok());

          SimComm comm(DeviceMesh{1, p});
          std::vector<std::vector<float>> out32(static_cast<size_t>(p), std::vector<float>(static_cast<size_t>(n), -7));
          std::vector<std::vector<uint16_t>> out16(static_cast<size_t>(p),
                                                   std::vector<uint16_t>(static_cast<size_t>(n), 0x7fff));
          std::vector<ReduceLanding> land;
          std::vector<std::span<const float>> bufs;
          std::vector<std::span<const int32_t>> rl;
          for (int d = 0; d < p; ++d) {
            ReduceLanding l;
            if (landing == 1) l.bf16 = out16[static_cast<size_t>(d)].data();
            else l.f32 = out32[landing == 2 ? 0 : static_cast<size_t>(d)].data();
            land.push_back(l);
            bufs.emplace_back(compact[static_cast<size_t>(d)]);
            rl.emplace_back(live_rows[static_cast<size_t>(d)]);
          }
          ASSERT_TRUE(comm.AllReduceSumCompactRows(Axis::kExpert, bufs, rl, rows, row_len, land, wire).ok());
          for (int d = 0; d < p; ++d) {
            const auto& want = dense[static_cast<size_t>(d)];
            const size_t at = landing == 2 ? 0 : static_cast<size_t>(d);
            for (int64_t i = 0; i < n; ++i) {
              const size_t k = static_cast<size_t>(i);
              if (landing == 1) {
                uint16_t w;
                StoreBf16(&want[k], &w, 1);
                ASSERT_EQ(out16[at][k], w) << "device " << d << " value " << i;
              } else {
                ASSERT_EQ(out32[at][k], want[k]) << "device " << d << " value " << i;
              }
            }
            EXPECT_EQ(comm.counters(static_cast<size_t>(d)).bytes_sent, ref.counters(static_cast<size_t>(d)).bytes_sent);
            EXPECT_EQ(comm.counters(static_cast<size_t>(d)).bytes_recv, ref.counters(static_cast<size_t>(d)).bytes_recv);
          }
          if (landing == 2) {
            for (int d = 1; d < p; ++d) EXPECT_EQ(out32[static_cast<size_t>(d)][0], -7) << "only the shared landing is written";
          }
        }
      }
    }
  }
}

// The row-sparse reduce-scatter equals the dense one of the masked partials
// (bit for bit into f32, as StoreBf16 of it into bf16), never reads dead rows
// and counts the dense ring's bytes; blocks need not align with rows.
TEST(ParallelCommTest, ReduceScatterSumRowsEqualsDenseReduceScatter) {
  for (int p : {1, 2, 3, 4}) {
    for (auto [rows, row_len] : {std::pair<int64_t, int64_t>{5, 4}, {6, 5}, {8, 3}, {12, 2}}) {
      const int64_t total = rows * row_len;
      if (total % p != 0) continue;
      const int64_t n = total / p;
      for (Wire wire : {Wire::kF32, Wire::kBF16}) {
        for (bool bf16_out : {false, true}) {
          SCOPED_TRACE("p=" + std::to_string(p) + " rows=" + std::to_string(rows) + " row_len=" +
                       std::to_string(row_len) + " wire=" + std::to_string(static_cast<int>(wire)) +
                       " bf16_out=" + std::to_string(bf16_out));
          auto masks = RowMasks(p, rows);
          auto dense = DeviceData(p, total, 13);
          auto sparse = dense;
          for (int d = 0; d < p; ++d)
            for (int64_t r = 0; r < rows; ++r)
              if (!masks[static_cast<size_t>(d)][static_cast<size_t>(r)])
                for (int64_t j = 0; j < row_len; ++j) {
                  dense[static_cast<size_t>(d)][static_cast<size_t>(r * row_len + j)] = 0.0f;
                  sparse[static_cast<size_t>(d)][static_cast<size_t>(r * row_len + j)] = std::nanf("");
                }
          SimComm ref(DeviceMesh{1, p});
          std::vector<std::vector<float>> want(static_cast<size_t>(p), std::vector<float>(static_cast<size_t>(n)));
          auto ws = Spans(want);
          ASSERT_TRUE(ref.ReduceScatterSum(Axis::kExpert, CSpans(dense), ws, wire).ok());

          SimComm comm(DeviceMesh{1, p});
          std::vector<std::vector<float>> out32(static_cast<size_t>(p), std::vector<float>(static_cast<size_t>(n), -7));
          std::vector<std::vector<uint16_t>> out16(static_cast<size_t>(p),
                                                   std::vector<uint16_t>(static_cast<size_t>(n), 0x7fff));
          std::vector<ReduceLanding> land;
          std::vector<std::span<const uint8_t>> live;
          for (int d = 0; d < p; ++d) {
            ReduceLanding l;
            if (bf16_out) l.bf16 = out16[static_cast<size_t>(d)].data();
            else l.f32 = out32[static_cast<size_t>(d)].data();
            land.push_back(l);
            live.emplace_back(masks[static_cast<size_t>(d)]);
          }
          auto ss = Spans(sparse);
          ASSERT_TRUE(comm.ReduceScatterSumRows(Axis::kExpert, ss, live, row_len, land, wire).ok());
          for (int d = 0; d < p; ++d) {
            for (int64_t i = 0; i < n; ++i) {
              const size_t k = static_cast<size_t>(i);
              const float w = want[static_cast<size_t>(d)][k];
              if (bf16_out) {
                uint16_t wb;
                StoreBf16(&w, &wb, 1);
                ASSERT_EQ(out16[static_cast<size_t>(d)][k], wb) << "device " << d << " value " << i;
              } else {
                ASSERT_EQ(out32[static_cast<size_t>(d)][k], w) << "device " << d << " value " << i;
              }
            }
            EXPECT_EQ(comm.counters(static_cast<size_t>(d)).bytes_sent, ref.counters(static_cast<size_t>(d)).bytes_sent);
            EXPECT_EQ(comm.counters(static_cast<size_t>(d)).bytes_recv, ref.counters(static_cast<size_t>(d)).bytes_recv);
          }
        }
      }
    }
  }
}

TEST(ParallelCommTest, AllReduceSumRowsRejectsBadArguments) {
  SimComm comm(DeviceMesh{1, 2});
  std::vector<std::vector<float>> bufs(2, std::vector<float>(6));
  std::vector<std::vector<uint8_t>> masks(2, std::vector<uint8_t>(3, 1));
  std::vector<std::vector<float>> out(2, std::vector<float>(6));
  std::vector<std::span<const uint8_t>> live{masks[0], masks[1]};
  std::vector<ReduceLanding> land{{out[0].data(), nullptr}, {out[1].data(), nullptr}};
  auto s = Spans(bufs);
  EXPECT_TRUE(comm.AllReduceSumRows(Axis::kWorld, s, live, 2, land, Wire::kF32).ok());
  EXPECT_FALSE(comm.AllReduceSumRows(Axis::kWorld, s, live, 3, land, Wire::kF32).ok());  // 6 != 3 * 3
  std::vector<ReduceLanding> none(2);
  EXPECT_FALSE(comm.AllReduceSumRows(Axis::kWorld, s, live, 2, none, Wire::kF32).ok());
  std::vector<std::vector<float>> half(2, std::vector<float>(3));
  std::vector<ReduceLanding> rs_land{{half[0].data(), nullptr}, {half[1].data(), nullptr}};
  EXPECT_TRUE(comm.ReduceScatterSumRows(Axis::kWorld, s, live, 2, rs_land, Wire::kF32).ok());
  EXPECT_FALSE(comm.ReduceScatterSumRows(Axis::kWorld, s, live, 3, rs_land, Wire::kF32).ok());
  EXPECT_FALSE(comm.ReduceScatterSumRows(Axis::kWorld, s, live, 2, none, Wire::kF32).ok());
}

// Runs only under `mpirun -np 4 moelog_tests --gtest_filter=ParallelMpi*`
// (tests/mpi.cmake); skipped in the plain unit-test run.
TEST(ParallelMpiTest, CollectivesMatchSimComm) {
  if (!LaunchedByMpi()) GTEST_SKIP() << "not launched by mpirun";
  ASSERT_TRUE(EnsureMpiInitialized(false).ok());
  const int p = MpiWorldSizeFromEnv();
  DeviceMesh mesh{1, p};
  auto made = MpiComm::Create(mesh);
  ASSERT_TRUE(made.ok()) << made.status().ToString();
  MpiComm& mpi = **made;
  SimComm sim(mesh);
  const int me = mpi.rank();
  for (Wire wire : {Wire::kF32, Wire::kBF16}) {
    const int64_t n = 37;
    auto all = DeviceData(p, n, 7);
    auto sim_data = all;
    sim.ResetCounters();
    auto ss = Spans(sim_data);
    ASSERT_TRUE(sim.AllReduceSum(Axis::kWorld, ss, wire).ok());
    std::vector<float> mine = all[static_cast<size_t>(me)];
    std::vector<std::span<float>> ms{std::span<float>(mine)};
    mpi.ResetCounters();
    ASSERT_TRUE(mpi.AllReduceSum(Axis::kWorld, ms, wire).ok());
    const double tol = wire == Wire::kF32 ? 1e-5 : 3e-2;
    for (int64_t i = 0; i < n; ++i)
      ASSERT_NEAR(mine[static_cast<size_t>(i)], sim_data[static_cast<size_t>(me)][static_cast<size_t>(i)],
                  tol * (1 + std::abs(sim_data[0][static_cast<size_t>(i)])));
    EXPECT_EQ(mpi.counters(0).bytes_sent, sim.counters(static_cast<size_t>(me)).bytes_sent);

    // Row-sparse all-reduce landing as f32 and as bf16: the values of the
    // dense all-reduce of the masked partials, the same bytes.
    {
      const int64_t rows = 8, row_len = 5;
      auto masks = RowMasks(p, rows);
      auto part = DeviceData(p, rows * row_len, 9);
      auto dense = part;
      for (int d = 0; d < p; ++d)
        for (int64_t r = 0; r < rows; ++r)
          if (!masks[static_cast<size_t>(d)][static_cast<size_t>(r)])
            std::fill_n(dense[static_cast<size_t>(d)].begin() + r * row_len, row_len, 0.0f);
      auto ds = Spans(dense);
      ASSERT_TRUE(sim.AllReduceSum(Axis::kWorld, ds, wire).ok());
      for (bool bf16_out : {false, true}) {
        std::vector<float> buf = part[static_cast<size_t>(me)];
        std::vector<float> o32(static_cast<size_t>(rows * row_len));
        std::vector<uint16_t> o16(static_cast<size_t>(rows * row_len));
        std::vector<std::span<float>> bs{std::span<float>(buf)};
        std::vector<std::span<const uint8_t>> lv{std::span<const uint8_t>(masks[static_cast<size_t>(me)])};
        std::vector<ReduceLanding> land{bf16_out ? ReduceLanding{nullptr, o16.data()} : ReduceLanding{o32.data(), nullptr}};
        mpi.ResetCounters();
        Status st = mpi.AllReduceSumRows(Axis::kWorld, bs, lv, row_len, land, wire);
        ASSERT_TRUE(st.ok()) << st.ToString();
        for (int64_t i = 0; i < rows * row_len; ++i) {
          const float want = dense[static_cast<size_t>(me)][static_cast<size_t>(i)];
          const float got = bf16_out ? Bf16ToFloat(o16[static_cast<size_t>(i)]) : o32[static_cast<size_t>(i)];
          ASSERT_NEAR(got, want, 3e-2 * (1 + std::abs(want))) << "value " << i;
        }
        Volume v = RingAllReduceVolume(rows * row_len, p, me, wire);
        EXPECT_EQ(mpi.counters(0).bytes_sent, v.sent);
        EXPECT_EQ(mpi.counters(0).bytes_recv, v.recv);
      }
    }
    // Row-sparse reduce-scatter: rank me receives block me of the dense sum.
    {
      const int64_t rows = 2 * p + 1, row_len = 4, total = rows * row_len;
      if (total % p == 0) {
        const int64_t n = total / p;
        auto masks = RowMasks(p, rows);
        auto part = DeviceData(p, total, 17);
        std::vector<double> sum(static_cast<size_t>(total), 0.0);
        for (int d = 0; d < p; ++d)
          for (int64_t i = 0; i < total; ++i)
            if (masks[static_cast<size_t>(d)][static_cast<size_t>(i / row_len)])
              sum[static_cast<size_t>(i)] += part[static_cast<size_t>(d)][static_cast<size_t>(i)];
        for (bool bf16_out : {false, true}) {
          std::vector<float> buf = part[static_cast<size_t>(me)];
          for (int64_t r = 0; r < rows; ++r)
            if (!masks[static_cast<size_t>(me)][static_cast<size_t>(r)])
              std::fill_n(buf.begin() + r * row_len, row_len, std::nanf(""));
          std::vector<float> o32(static_cast<size_t>(n));
          std::vector<uint16_t> o16(static_cast<size_t>(n));
          std::vector<std::span<float>> bs{std::span<float>(buf)};
          std::vector<std::span<const uint8_t>> lv{std::span<const uint8_t>(masks[static_cast<size_t>(me)])};
          std::vector<ReduceLanding> land{bf16_out ? ReduceLanding{nullptr, o16.data()}
                                                   : ReduceLanding{o32.data(), nullptr}};
          mpi.ResetCounters();
          Status st = mpi.ReduceScatterSumRows(Axis::kWorld, bs, lv, row_len, land, wire);
          ASSERT_TRUE(st.ok()) << st.ToString();
          for (int64_t i = 0; i < n; ++i) {
            const double want = sum[static_cast<size_t>(me * n + i)];
            const float got = bf16_out ? Bf16ToFloat(o16[static_cast<size_t>(i)]) : o32[static_cast<size_t>(i)];
            ASSERT_NEAR(got, want, 3e-2 * p * (1 + std::abs(want))) << "value " << i;
          }
          Volume v = RingReduceScatterVolume(n, p, wire);
          EXPECT_EQ(mpi.counters(0).bytes_sent, v.sent);
          EXPECT_EQ(mpi.counters(0).bytes_recv, v.recv);
        }
      }
    }

    // All-gather and reduce-scatter.
    std::vector<float> gathered(static_cast<size_t>(n * p));
    std::vector<std::span<const float>> in{std::span<const float>(all[static_cast<size_t>(me)])};
    std::vector<std::span<float>> out{std::span<float>(gathered)};
    ASSERT_TRUE(mpi.AllGather(Axis::kWorld, in, out, wire).ok());
    for (int j = 0; j < p; ++j)
      ASSERT_NEAR(gathered[static_cast<size_t>(j * n)], all[static_cast<size_t>(j)][0], tol * 4);
    std::vector<float> part(static_cast<size_t>(n));
    std::vector<std::span<const float>> gin{std::span<const float>(gathered)};
    std::vector<std::span<float>> pout{std::span<float>(part)};
    ASSERT_TRUE(mpi.ReduceScatterSum(Axis::kWorld, gin, pout, wire).ok());
    // Every rank contributed the same gathered buffer: block me times p.
    for (int64_t i = 0; i < n; ++i)
      ASSERT_NEAR(part[static_cast<size_t>(i)], p * gathered[static_cast<size_t>(me * n + i)],
                  tol * p * (1 + std::abs(gathered[static_cast<size_t>(me * n + i)])));
  }
  // All-to-all-v: rank s sends s+d+1 values (10s+d) to rank d.
  std::vector<float> send;
  std::vector<std::vector<int64_t>> sc(1, std::vector<int64_t>(static_cast<size_t>(p))), rc = sc;
  for (int d = 0; d < p; ++d) {
    sc[0][static_cast<size_t>(d)] = me + d + 1;
    rc[0][static_cast<size_t>(d)] = d + me + 1;
    for (int i = 0; i < me + d + 1; ++i) send.push_back(static_cast<float>(10 * me + d));
  }
  std::vector<float> recv(static_cast<size_t>(std::accumulate(rc[0].begin(), rc[0].end(), int64_t{0})));
  std::vector<std::span<const float>> sv{std::span<const float>(send)};
  std::vector<std::span<float>> rv{std::span<float>(recv)};
  ASSERT_TRUE(mpi.AllToAllV(Axis::kWorld, sv, sc, rv, rc, Wire::kF32).ok());
  size_t off = 0;
  for (int s = 0; s < p; ++s)
    for (int i = 0; i < s + me + 1; ++i) ASSERT_EQ(recv[off++], static_cast<float>(10 * s + me));
}

}  // namespace
}  // namespace moelog::engine::parallel
