#include "engine/parallel/sim_comm.h"

#include <algorithm>
#include <chrono>
#include <numeric>

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

Status SimComm::AllReduceSum(Axis axis, std::span<const std::span<float>> bufs, Wire wire) {
  if (bufs.size() != local_.size()) return Status::Internal("SimComm::AllReduceSum: wrong buffer count");
  auto t0 = Clock::now();
  for (const auto& g : Groups(axis)) {
    const int p = static_cast<int>(g.size());
    const int64_t n = static_cast<int64_t>(bufs[static_cast<size_t>(g[0])].size());
    for (int d : g)
      if (static_cast<int64_t>(bufs[static_cast<size_t>(d)].size()) != n)
        return Status::Internal("SimComm::AllReduceSum: buffer lengths differ");
    if (p == 1) continue;
    auto buf = [&](int r) { return bufs[static_cast<size_t>(g[static_cast<size_t>(r)])].data(); };
    std::vector<std::vector<float>> msg(static_cast<size_t>(p));
    // Reduce-scatter: at step s rank r sends its partial of chunk r-1-s to
    // r+1, which adds it; after p-1 steps rank r holds the sum of chunk r.
    for (int s = 0; s < p - 1; ++s) {
      for (int r = 0; r < p; ++r) {
        int c = Mod(r - 1 - s, p);
        Pack(buf(r) + ChunkOffset(n, p, c), ChunkSize(n, p, c), wire, &msg[static_cast<size_t>(r)]);
        Count(g[static_cast<size_t>(r)], g[static_cast<size_t>(Mod(r + 1, p))], ChunkSize(n, p, c), wire);
      }
      for (int r = 0; r < p; ++r) {
        int dst = Mod(r + 1, p), c = Mod(r - 1 - s, p);
        AddInto(buf(dst) + ChunkOffset(n, p, c), msg[static_cast<size_t>(r)]);
      }
    }
    // The owner rounds its finished chunk so every device ends identical.
    for (int r = 0; r < p; ++r)
      RoundToWire(wire, std::span<float>(buf(r) + ChunkOffset(n, p, r), static_cast<size_t>(ChunkSize(n, p, r))));
    // All-gather: at step s rank r forwards chunk r-s to r+1.
    for (int s = 0; s < p - 1; ++s) {
      for (int r = 0; r < p; ++r) {
        int c = Mod(r - s, p);
        Pack(buf(r) + ChunkOffset(n, p, c), ChunkSize(n, p, c), wire, &msg[static_cast<size_t>(r)]);
        Count(g[static_cast<size_t>(r)], g[static_cast<size_t>(Mod(r + 1, p))], ChunkSize(n, p, c), wire);
      }
      for (int r = 0; r < p; ++r) {
        int dst = Mod(r + 1, p), c = Mod(r - s, p);
        std::copy(msg[static_cast<size_t>(r)].begin(), msg[static_cast<size_t>(r)].end(),
                  buf(dst) + ChunkOffset(n, p, c));
      }
    }
  }
  AddTime(std::chrono::duration<double>(Clock::now() - t0).count());
  return Status::Ok();
}

Status SimComm::AllGather(Axis axis, std::span<const std::span<const float>> in,
                          std::span<const std::span<float>> out, Wire wire) {
  if (in.size() != local_.size() || out.size() != local_.size())
    return Status::Internal("SimComm::AllGather: wrong buffer count");
  auto t0 = Clock::now();
  for (const auto& g : Groups(axis)) {
    const int p = static_cast<int>(g.size());
    const int64_t n = static_cast<int64_t>(in[static_cast<size_t>(g[0])].size());
    for (int d : g) {
      if (static_cast<int64_t>(in[static_cast<size_t>(d)].size()) != n ||
          static_cast<int64_t>(out[static_cast<size_t>(d)].size()) != n * p)
        return Status::Internal("SimComm::AllGather: buffer lengths differ");
    }
    auto obuf = [&](int r) { return out[static_cast<size_t>(g[static_cast<size_t>(r)])].data(); };
    for (int r = 0; r < p; ++r) {
      const float* src = in[static_cast<size_t>(g[static_cast<size_t>(r)])].data();
      std::copy(src, src + n, obuf(r) + r * n);
      RoundToWire(wire, std::span<float>(obuf(r) + r * n, static_cast<size_t>(n)));
    }
    std::vector<std::vector<float>> msg(static_cast<size_t>(p));
    for (int s = 0; s < p - 1; ++s) {
      for (int r = 0; r < p; ++r) {
        int b = Mod(r - s, p);
        Pack(obuf(r) + b * n, n, wire, &msg[static_cast<size_t>(r)]);
        Count(g[static_cast<size_t>(r)], g[static_cast<size_t>(Mod(r + 1, p))], n, wire);
      }
      for (int r = 0; r < p; ++r) {
        int dst = Mod(r + 1, p), b = Mod(r - s, p);
        std::copy(msg[static_cast<size_t>(r)].begin(), msg[static_cast<size_t>(r)].end(), obuf(dst) + b * n);
      }
    }
  }
  AddTime(std::chrono::duration<double>(Clock::now() - t0).count());
  return Status::Ok();
}

Status SimComm::ReduceScatterSum(Axis axis, std::span<const std::span<const float>> in,
                                 std::span<const std::span<float>> out, Wire wire) {
  if (in.size() != local_.size() || out.size() != local_.size())
    return Status::Internal("SimComm::ReduceScatterSum: wrong buffer count");
  auto t0 = Clock::now();
  for (const auto& g : Groups(axis)) {
    const int p = static_cast<int>(g.size());
    const int64_t n = static_cast<int64_t>(out[static_cast<size_t>(g[0])].size());
    for (int d : g) {
      if (static_cast<int64_t>(in[static_cast<size_t>(d)].size()) != n * p ||
          static_cast<int64_t>(out[static_cast<size_t>(d)].size()) != n)
        return Status::Internal("SimComm::ReduceScatterSum: buffer lengths differ");
    }
    // Each device accumulates in its own working copy of its input.
    std::vector<std::vector<float>> acc(static_cast<size_t>(p));
    for (int r = 0; r < p; ++r) {
      auto src = in[static_cast<size_t>(g[static_cast<size_t>(r)])];
      acc[static_cast<size_t>(r)].assign(src.begin(), src.end());
    }
    std::vector<std::vector<float>> msg(static_cast<size_t>(p));
    // Block b starts at rank b+1 and travels b+1 -> b+2 -> ... -> b.
    for (int s = 0; s < p - 1; ++s) {
      for (int r = 0; r < p; ++r) {
        int b = Mod(r - s - 1, p);
        Pack(acc[static_cast<size_t>(r)].data() + b * n, n, wire, &msg[static_cast<size_t>(r)]);
        Count(g[static_cast<size_t>(r)], g[static_cast<size_t>(Mod(r + 1, p))], n, wire);
      }
      for (int r = 0; r < p; ++r) {
        int dst = Mod(r + 1, p), b = Mod(r - s - 1, p);
        AddInto(acc[static_cast<size_t>(dst)].data() + b * n, msg[static_cast<size_t>(r)]);
      }
    }
    for (int r = 0; r < p; ++r) {
      const float* src = acc[static_cast<size_t>(r)].data() + r * n;
      auto o = out[static_cast<size_t>(g[static_cast<size_t>(r)])];
      std::copy(src, src + n, o.begin());
      RoundToWire(wire, o);
    }
  }
  AddTime(std::chrono::duration<double>(Clock::now() - t0).count());
  return Status::Ok();
}

Status SimComm::AllToAllV(Axis axis, std::span<const std::span<const float>> send,
                          const std::vector<std::vector<int64_t>>& send_counts,
                          std::span<const std::span<float>> recv,
                          const std::vector<std::vector<int64_t>>& recv_counts, Wire wire) {
  if (send.size() != local_.size() || recv.size() != local_.size() || send_counts.size() != local_.size() ||
      recv_counts.size() != local_.size())
    return Status::Internal("SimComm::AllToAllV: wrong buffer count");
  auto t0 = Clock::now();
  for (const auto& g : Groups(axis)) {
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
  }
  AddTime(std::chrono::duration<double>(Clock::now() - t0).count());
  return Status::Ok();
}

}  // namespace moelog::engine::parallel
