#include "engine/parallel/sim_comm.h"

#include <algorithm>
#include <chrono>
#include <numeric>
#include <string>

namespace moelog::engine::parallel {
namespace {

using Clock = std::chrono::steady_clock;

std::vector<int> AllDevices(const DeviceMesh& m) {
  std::vector<int> v(static_cast<size_t>(m.Size()));
  std::iota(v.begin(), v.end(), 0);
  return v;
}

int Mod(int v, int p) { return ((v % p) + p) % p; }

// out[i] += in[i].
void AddInto(float* out, const std::vector<float>& in) {
  const int64_t n = static_cast<int64_t>(in.size());
  const float* src = in.data();
#pragma omp parallel for schedule(static) if (n > 65536)
  for (int64_t i = 0; i < n; ++i) out[i] += src[i];
}

// Copies n values into a message, rounded to the wire precision.
void Pack(const float* src, int64_t n, Wire wire, std::vector<float>* msg) {
  msg->assign(src, src + n);
  RoundToWire(wire, *msg);
}

// Calls f(offset, length, row_live) for the pieces of values [off, off + n)
// that fall in one row each (a chunk may start or end inside a row).
template <typename F>
void ForRowPieces(int64_t off, int64_t n, int64_t row_len, const uint8_t* live, F f) {
  const int64_t end = off + n;
  while (off < end) {
    const int64_t row = off / row_len;
    const int64_t len = std::min(end, (row + 1) * row_len) - off;
    f(off, len, live[row] != 0);
    off += len;
  }
}

// A device's own raw partial of values [off, off + n) into a message: live
// rows copied, the others sent as the zeros they stand for.
void PackLive(const float* buf, int64_t off, int64_t n, int64_t row_len, const uint8_t* live, Wire wire,
              std::vector<float>* msg) {
  msg->resize(static_cast<size_t>(n));
  float* m = msg->data();
  ForRowPieces(off, n, row_len, live, [&](int64_t o, int64_t len, bool is_live) {
    if (is_live) std::copy(buf + o, buf + o + len, m + (o - off));
    else std::fill(m + (o - off), m + (o - off + len), 0.0f);
  });
  RoundToWire(wire, *msg);
}

// Adds a message into a device's raw partial of values [off, off + n): live
// rows add, the others take the message (their partial is zero). The range is
// dense afterwards.
void AddIntoLive(float* buf, int64_t off, int64_t row_len, const uint8_t* live, const std::vector<float>& msg) {
  ForRowPieces(off, static_cast<int64_t>(msg.size()), row_len, live, [&](int64_t o, int64_t len, bool is_live) {
    const float* m = msg.data() + (o - off);
    float* b = buf + o;
    if (is_live) {
#pragma omp simd
      for (int64_t i = 0; i < len; ++i) b[i] += m[i];
    } else {
      std::copy(m, m + len, b);
    }
  });
}

// Stores values [off, off + n) of a device's result at the same place of its
// landing, cast to the landing's type.
void Land(const ReduceLanding& out, int64_t off, const float* src, int64_t n) {
  if (out.bf16 != nullptr) StoreBf16(src, out.bf16 + off, n);
  else if (out.f32 + off != src) std::copy(src, src + n, out.f32 + off);  // in place: already there
}

// A device's compact rows (rows[j] the row of its j-th, ascending) over
// values [off, off + msg.size()) of the dense partial: copied into msg (the
// other values set to zero) when `first`, else added to it.
void CompactRowsInto(std::span<const float> buf, std::span<const int32_t> rows, int64_t row_len, int64_t off,
                     bool first, std::vector<float>* msg) {
  const int64_t n = static_cast<int64_t>(msg->size()), end = off + n;
  if (first) std::fill(msg->begin(), msg->end(), 0.0f);
  float* m = msg->data();
  auto j = static_cast<size_t>(std::lower_bound(rows.begin(), rows.end(), off / row_len) - rows.begin());
  for (; j < rows.size() && int64_t{rows[j]} * row_len < end; ++j) {
    const int64_t r0 = int64_t{rows[j]} * row_len;
    const int64_t lo = std::max(off, r0), hi = std::min(end, r0 + row_len);
    const float* src = buf.data() + static_cast<int64_t>(j) * row_len + (lo - r0);
    float* dst = m + (lo - off);
    if (first) {
      std::copy(src, src + (hi - lo), dst);
    } else {
#pragma omp simd
      for (int64_t i = 0; i < hi - lo; ++i) dst[i] += src[i];
    }
  }
}

}  // namespace

SimComm::SimComm(DeviceMesh mesh) : Communicator(mesh, AllDevices(mesh)) {}

std::vector<std::vector<int>> SimComm::Groups(Axis axis) const {
  std::vector<std::vector<int>> groups;
  std::vector<bool> seen(static_cast<size_t>(mesh_.Size()), false);
  for (int d = 0; d < mesh_.Size(); ++d) {
    if (seen[static_cast<size_t>(d)]) continue;
    groups.push_back(AxisGroup(mesh_, axis, d));
    for (int m : groups.back()) seen[static_cast<size_t>(m)] = true;
  }
  return groups;
}

void SimComm::Count(int from, int to, int64_t n, Wire wire) {
  if (from == to || n == 0) return;
  counters_[static_cast<size_t>(from)].bytes_sent += n * WireBytes(wire);
  counters_[static_cast<size_t>(to)].bytes_recv += n * WireBytes(wire);
}

void SimComm::AddTime(double seconds) {
  for (auto& c : counters_) {
    c.seconds += seconds;
    c.calls += 1;
  }
}

template <typename F>
Status SimComm::ForGroups(Axis axis, F each) {
  auto t0 = Clock::now();
  for (const auto& g : Groups(axis)) MOELOG_RETURN_IF_ERROR(each(g));
  AddTime(std::chrono::duration<double>(Clock::now() - t0).count());
  return Status::Ok();
}

template <typename Send, typename Take>
void SimComm::RingPass(const std::vector<int>& g, int lag, Wire wire, Send send, Take take) {
  const int p = static_cast<int>(g.size());
  std::vector<std::vector<float>> msg(static_cast<size_t>(p));
  for (int s = 0; s < p - 1; ++s) {
    for (int r = 0; r < p; ++r) {
      auto& m = msg[static_cast<size_t>(r)];
      send(r, Mod(r - lag - s, p), s, &m);
      Count(g[static_cast<size_t>(r)], g[static_cast<size_t>(Mod(r + 1, p))], static_cast<int64_t>(m.size()), wire);
    }
    for (int r = 0; r < p; ++r) take(Mod(r + 1, p), Mod(r - lag - s, p), msg[static_cast<size_t>(r)]);
  }
}

namespace {

// The length every device of group `g` holds in `bufs` (its first's), or -1
// when they differ.
template <typename T>
int64_t GroupLength(const std::vector<int>& g, std::span<const std::span<T>> bufs) {
  const int64_t n = static_cast<int64_t>(bufs[static_cast<size_t>(g[0])].size());
  for (int d : g)
    if (static_cast<int64_t>(bufs[static_cast<size_t>(d)].size()) != n) return -1;
  return n;
}

}  // namespace

template <typename F>
Status SimComm::ForBlockGroups(const char* what, Axis axis, std::span<const std::span<const float>> in,
                               std::span<const std::span<float>> out, bool gather, F each) {
  if (in.size() != local_.size() || out.size() != local_.size())
    return Status::Internal(std::string(what) + ": wrong buffer count");
  return ForGroups(axis, [&](const std::vector<int>& g) {
    const int64_t block = gather ? GroupLength(g, in) : GroupLength(g, out);
    const int64_t blocks = gather ? GroupLength(g, out) : GroupLength(g, in);
    if (block < 0 || blocks != block * static_cast<int64_t>(g.size()))
      return Status::Internal(std::string(what) + ": buffer lengths differ");
    each(g, block);
    return Status::Ok();
  });
}

Status SimComm::AllReduceSum(Axis axis, std::span<const std::span<float>> bufs, Wire wire) {
  if (bufs.size() != local_.size()) return Status::Internal("SimComm::AllReduceSum: wrong buffer count");
  return ForGroups(axis, [&](const std::vector<int>& g) {
    const int p = static_cast<int>(g.size());
    const int64_t n = GroupLength(g, bufs);
    if (n < 0) return Status::Internal("SimComm::AllReduceSum: buffer lengths differ");
    if (p == 1) return Status::Ok();
    auto buf = [&](int r) { return bufs[static_cast<size_t>(g[static_cast<size_t>(r)])].data(); };
    auto send = [&](int r, int c, int, std::vector<float>* m) {
      Pack(buf(r) + ChunkOffset(n, p, c), ChunkSize(n, p, c), wire, m);
    };
    // Reduce-scatter: at step s rank r sends its partial of chunk r-1-s to
    // r+1, which adds it; after p-1 steps rank r holds the sum of chunk r.
    RingPass(g, 1, wire, send,
             [&](int dst, int c, const std::vector<float>& m) { AddInto(buf(dst) + ChunkOffset(n, p, c), m); });
    // The owner rounds its finished chunk so every device ends identical.
    for (int r = 0; r < p; ++r)
      RoundToWire(wire, std::span<float>(buf(r) + ChunkOffset(n, p, r), static_cast<size_t>(ChunkSize(n, p, r))));
    // All-gather: at step s rank r forwards chunk r-s to r+1.
    RingPass(g, 0, wire, send, [&](int dst, int c, const std::vector<float>& m) {
      std::copy(m.begin(), m.end(), buf(dst) + ChunkOffset(n, p, c));
    });
    return Status::Ok();
  });
}

Status SimComm::AllReduceSumRows(Axis axis, std::span<const std::span<float>> bufs,
                                 std::span<const std::span<const uint8_t>> live, int64_t row_len,
                                 std::span<const ReduceLanding> out, Wire wire) {
  MOELOG_RETURN_IF_ERROR(CheckRowArgs("SimComm::AllReduceSumRows", bufs, live, row_len, out));
  return ForGroups(axis, [&](const std::vector<int>& g) {
    const int p = static_cast<int>(g.size());
    const int64_t n = GroupLength(g, bufs);
    if (n < 0) return Status::Internal("SimComm::AllReduceSumRows: buffer lengths differ");
    auto buf = [&](int r) { return bufs[static_cast<size_t>(g[static_cast<size_t>(r)])].data(); };
    auto mask = [&](int r) { return live[static_cast<size_t>(g[static_cast<size_t>(r)])].data(); };
    auto landing = [&](int r) -> const ReduceLanding& { return out[static_cast<size_t>(g[static_cast<size_t>(r)])]; };
    if (p == 1) {
      // Nothing travels (nor is rounded): the partial is the sum, zeros
      // where no row is live.
      std::vector<float> sum;
      PackLive(buf(0), 0, n, row_len, mask(0), Wire::kF32, &sum);
      Land(landing(0), 0, sum.data(), n);
      return Status::Ok();
    }
    // Reduce-scatter as in AllReduceSum. At step 0 every rank sends its raw
    // partial; each chunk a rank receives lands on its raw partial once.
    RingPass(
        g, 1, wire,
        [&](int r, int c, int s, std::vector<float>* m) {
          const int64_t off = ChunkOffset(n, p, c), len = ChunkSize(n, p, c);
          if (s == 0) PackLive(buf(r), off, len, row_len, mask(r), wire, m);
          else Pack(buf(r) + off, len, wire, m);
        },
        [&](int dst, int c, const std::vector<float>& m) {
          AddIntoLive(buf(dst), ChunkOffset(n, p, c), row_len, mask(dst), m);
        });
    // The owner rounds its finished chunk to the wire as it lands it.
    for (int r = 0; r < p; ++r) {
      const int64_t off = ChunkOffset(n, p, r);
      RoundToWire(wire, std::span<float>(buf(r) + off, static_cast<size_t>(ChunkSize(n, p, r))));
      Land(landing(r), off, buf(r) + off, ChunkSize(n, p, r));
    }
    // All-gather: at step s rank r forwards chunk r-s to r+1, which lands it.
    // After step 0 what a rank forwards is the message it just received.
    std::vector<std::vector<float>> msg(static_cast<size_t>(p));
    for (int r = 0; r < p; ++r) {
      const float* own = buf(r) + ChunkOffset(n, p, r);
      msg[static_cast<size_t>(r)].assign(own, own + ChunkSize(n, p, r));
    }
    for (int s = 0; s < p - 1; ++s) {
      if (s > 0) std::rotate(msg.begin(), msg.end() - 1, msg.end());
      for (int r = 0; r < p; ++r) {
        const int dst = Mod(r + 1, p), c = Mod(r - s, p);
        Count(g[static_cast<size_t>(r)], g[static_cast<size_t>(dst)], ChunkSize(n, p, c), wire);
        Land(landing(dst), ChunkOffset(n, p, c), msg[static_cast<size_t>(r)].data(), ChunkSize(n, p, c));
      }
    }
    return Status::Ok();
  });
}

Status SimComm::AllReduceSumCompactRows(Axis axis, std::span<const std::span<const float>> bufs,
                                        std::span<const std::span<const int32_t>> rows, int64_t n_rows,
                                        int64_t row_len, std::span<const ReduceLanding> out, Wire wire) {
  const size_t devices = local_.size();
  if (bufs.size() != devices || rows.size() != devices || out.size() != devices || row_len <= 0)
    return Status::Internal("SimComm::AllReduceSumCompactRows: one buffer, row list and landing per device");
  for (size_t i = 0; i < devices; ++i)
    if (bufs[i].size() != rows[i].size() * static_cast<size_t>(row_len) ||
        (out[i].f32 == nullptr) == (out[i].bf16 == nullptr))
      return Status::Internal("SimComm::AllReduceSumCompactRows: buffer, rows and landing disagree");
  const int64_t n = n_rows * row_len;
  return ForGroups(axis, [&](const std::vector<int>& g) {
    const int p = static_cast<int>(g.size());
    auto own = [&](int r, int c, bool first, std::vector<float>* m) {
      const size_t d = static_cast<size_t>(g[static_cast<size_t>(r)]);
      m->resize(static_cast<size_t>(ChunkSize(n, p, c)));
      CompactRowsInto(bufs[d], rows[d], row_len, ChunkOffset(n, p, c), first, m);
    };
    auto landing = [&](int r) -> const ReduceLanding& { return out[static_cast<size_t>(g[static_cast<size_t>(r)])]; };
    // work[r]: the one chunk rank r holds in flight (what it sends next).
    std::vector<std::vector<float>> work(static_cast<size_t>(p));
    if (p == 1) {  // nothing travels (nor is rounded)
      own(0, 0, true, &work[0]);
      Land(landing(0), 0, work[0].data(), n);
      return Status::Ok();
    }
    // Reduce-scatter: at step s rank r sends chunk r-1-s (its raw rows at
    // step 0, else the sum it received), rounded to the wire; r+1 adds its
    // own rows of that chunk to the message, which it forwards next.
    for (int r = 0; r < p; ++r) own(r, Mod(r - 1, p), true, &work[static_cast<size_t>(r)]);
    for (int s = 0; s < p - 1; ++s) {
      for (int r = 0; r < p; ++r) {
        auto& m = work[static_cast<size_t>(r)];
        RoundToWire(wire, m);
        Count(g[static_cast<size_t>(r)], g[static_cast<size_t>(Mod(r + 1, p))], static_cast<int64_t>(m.size()), wire);
      }
      std::rotate(work.begin(), work.end() - 1, work.end());  // rank r's message is now rank r+1's
      for (int r = 0; r < p; ++r) own(r, Mod(r - 2 - s, p), false, &work[static_cast<size_t>(r)]);
    }
    // Rank r now holds the sum of chunk r: rounded, landed, then forwarded
    // around the ring (all-gather), each rank landing what it receives.
    for (int r = 0; r < p; ++r) {
      RoundToWire(wire, work[static_cast<size_t>(r)]);
      Land(landing(r), ChunkOffset(n, p, r), work[static_cast<size_t>(r)].data(), ChunkSize(n, p, r));
    }
    for (int s = 0; s < p - 1; ++s) {
      if (s > 0) std::rotate(work.begin(), work.end() - 1, work.end());
      for (int r = 0; r < p; ++r) {
        const int dst = Mod(r + 1, p), c = Mod(r - s, p);
        Count(g[static_cast<size_t>(r)], g[static_cast<size_t>(dst)], ChunkSize(n, p, c), wire);
        Land(landing(dst), ChunkOffset(n, p, c), work[static_cast<size_t>(r)].data(), ChunkSize(n, p, c));
      }
    }
    return Status::Ok();
  });
}

Status SimComm::AllGather(Axis axis, std::span<const std::span<const float>> in,
                          std::span<const std::span<float>> out, Wire wire) {
  return ForBlockGroups("SimComm::AllGather", axis, in, out, /*gather=*/true,
                        [&](const std::vector<int>& g, int64_t n) {
    const int p = static_cast<int>(g.size());
    auto obuf = [&](int r) { return out[static_cast<size_t>(g[static_cast<size_t>(r)])].data(); };
    for (int r = 0; r < p; ++r) {
      const float* src = in[static_cast<size_t>(g[static_cast<size_t>(r)])].data();
      std::copy(src, src + n, obuf(r) + r * n);
      RoundToWire(wire, std::span<float>(obuf(r) + r * n, static_cast<size_t>(n)));
    }
    RingPass(
        g, 0, wire, [&](int r, int b, int, std::vector<float>* m) { Pack(obuf(r) + b * n, n, wire, m); },
        [&](int dst, int b, const std::vector<float>& m) { std::copy(m.begin(), m.end(), obuf(dst) + b * n); });
  });
}

Status SimComm::ReduceScatterSum(Axis axis, std::span<const std::span<const float>> in,
                                 std::span<const std::span<float>> out, Wire wire) {
  return ForBlockGroups("SimComm::ReduceScatterSum", axis, in, out, /*gather=*/false,
                        [&](const std::vector<int>& g, int64_t n) {
    const int p = static_cast<int>(g.size());
    // Each device accumulates in its own working copy of its input.
    std::vector<std::vector<float>> acc(static_cast<size_t>(p));
    for (int r = 0; r < p; ++r) {
      auto src = in[static_cast<size_t>(g[static_cast<size_t>(r)])];
      acc[static_cast<size_t>(r)].assign(src.begin(), src.end());
    }
    // Block b starts at rank b+1 and travels b+1 -> b+2 -> ... -> b.
    RingPass(
        g, 1, wire,
        [&](int r, int b, int, std::vector<float>* m) { Pack(acc[static_cast<size_t>(r)].data() + b * n, n, wire, m); },
        [&](int dst, int b, const std::vector<float>& m) { AddInto(acc[static_cast<size_t>(dst)].data() + b * n, m); });
    for (int r = 0; r < p; ++r) {
      const float* src = acc[static_cast<size_t>(r)].data() + r * n;
      auto o = out[static_cast<size_t>(g[static_cast<size_t>(r)])];
      std::copy(src, src + n, o.begin());
      RoundToWire(wire, o);
    }
  });
}

Status SimComm::ReduceScatterSumRows(Axis axis, std::span<const std::span<float>> bufs,
                                     std::span<const std::span<const uint8_t>> live, int64_t row_len,
                                     std::span<const ReduceLanding> out, Wire wire) {
  MOELOG_RETURN_IF_ERROR(CheckRowArgs("SimComm::ReduceScatterSumRows", bufs, live, row_len, out));
  return ForGroups(axis, [&](const std::vector<int>& g) {
    const int p = static_cast<int>(g.size());
    const int64_t total = GroupLength(g, bufs);
    if (total < 0 || total % p != 0)
      return Status::Internal("SimComm::ReduceScatterSumRows: buffer lengths differ or do not split");
    const int64_t n = total / p;
    auto buf = [&](int r) { return bufs[static_cast<size_t>(g[static_cast<size_t>(r)])].data(); };
    auto mask = [&](int r) { return live[static_cast<size_t>(g[static_cast<size_t>(r)])].data(); };
    // Block b starts at rank b+1 (its raw partial) and travels b+1 -> b+2 ->
    // ... -> b; each block a rank receives lands on its raw partial once.
    RingPass(
        g, 1, wire,
        [&](int r, int b, int s, std::vector<float>* m) {
          if (s == 0) PackLive(buf(r), b * n, n, row_len, mask(r), wire, m);
          else Pack(buf(r) + b * n, n, wire, m);
        },
        [&](int dst, int b, const std::vector<float>& m) { AddIntoLive(buf(dst), b * n, row_len, mask(dst), m); });
    std::vector<float> sum;
    for (int r = 0; r < p; ++r) {
      const ReduceLanding& l = out[static_cast<size_t>(g[static_cast<size_t>(r)])];
      float* own = buf(r) + r * n;
      if (p == 1) {
        // Nothing arrived: the raw partial is the sum, zeros in its dead rows.
        PackLive(buf(r), 0, n, row_len, mask(r), Wire::kF32, &sum);
        own = sum.data();
      }
      RoundToWire(wire, std::span<float>(own, static_cast<size_t>(n)));
      Land(l, 0, own, n);
    }
    return Status::Ok();
  });
}

Status SimComm::AllToAllV(Axis axis, std::span<const std::span<const float>> send,
                          const std::vector<std::vector<int64_t>>& send_counts,
                          std::span<const std::span<float>> recv,
                          const std::vector<std::vector<int64_t>>& recv_counts, Wire wire) {
  if (send.size() != local_.size() || recv.size() != local_.size() || send_counts.size() != local_.size() ||
      recv_counts.size() != local_.size())
    return Status::Internal("SimComm::AllToAllV: wrong buffer count");
  return ForGroups(axis, [&](const std::vector<int>& g) {
    const size_t p = g.size();
    for (size_t s = 0; s < p; ++s) {
      const size_t src = static_cast<size_t>(g[s]);
      if (send_counts[src].size() != p || recv_counts[src].size() != p)
        return Status::Internal("SimComm::AllToAllV: counts do not match the group size");
    }
    for (size_t s = 0; s < p; ++s) {
      const size_t src = static_cast<size_t>(g[s]);
      int64_t soff = 0;
      for (size_t d = 0; d < p; ++d) {
        const size_t dst = static_cast<size_t>(g[d]);
        int64_t n = send_counts[src][d];
        if (recv_counts[dst][s] != n) return Status::Internal("SimComm::AllToAllV: send and receive counts disagree");
        int64_t roff = 0;
        for (size_t j = 0; j < s; ++j) roff += recv_counts[dst][j];
        if (soff + n > static_cast<int64_t>(send[src].size()) || roff + n > static_cast<int64_t>(recv[dst].size()))
          return Status::Internal("SimComm::AllToAllV: block exceeds its buffer");
        const float* from = send[src].data() + soff;
        float* to = recv[dst].data() + roff;
        std::copy(from, from + n, to);
        RoundToWire(wire, std::span<float>(to, static_cast<size_t>(n)));
        Count(g[s], g[d], n, wire);
        soff += n;
      }
    }
    return Status::Ok();
  });
}

}  // namespace moelog::engine::parallel
