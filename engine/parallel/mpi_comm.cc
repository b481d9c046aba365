#include "engine/parallel/mpi_comm.h"

#include <fcntl.h>
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

namespace moelog::engine::parallel {
namespace {

using Clock = std::chrono::steady_clock;

// Counts one collective that started at t0 and moved the given bytes.
void Record(CommCounters* c, int64_t sent, int64_t recv, Clock::time_point t0) {
  c->bytes_sent += sent;
  c->bytes_recv += recv;
  c->calls += 1;
  c->seconds += std::chrono::duration<double>(Clock::now() - t0).count();
}

int EnvInt(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return -1;
  char* end = nullptr;
  long x = std::strtol(v, &end, 10);
  if (end == v || x < 0 || x > INT_MAX) return -1;
  return static_cast<int>(x);
}

// The watchdog: one thread per process that aborts the job when a collective
// has been running past its deadline.
struct Watchdog {
  std::atomic<int64_t> deadline_ns{0};  // 0: no collective in flight
  std::atomic<const char*> what{""};
  std::atomic<bool> stop{false};
  std::thread thread;
  bool thread_multiple = false;
};

Watchdog* g_watchdog = nullptr;
std::once_flag g_init_once;
Status g_init_status;
bool g_initialized = false;
int g_rank = 0;

int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
}

void WatchdogLoop(Watchdog* w) {
  while (!w->stop.load()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    int64_t dl = w->deadline_ns.load();
    if (dl != 0 && NowNs() > dl) {
      std::fprintf(stderr,
                   "moelog: rank %d: MPI %s did not complete within %.0f s (another rank failed, died or "
                   "hangs); aborting the job\n",
                   g_rank, w->what.load(), MpiCollectiveTimeoutSeconds());
      std::fflush(stderr);
      if (w->thread_multiple) MPI_Abort(MPI_COMM_WORLD, 1);
      _exit(1);  // mpirun ends the other ranks when one exits without finalizing
    }
  }
}

void FinalizeAtExit() {
  if (g_watchdog != nullptr) {
    g_watchdog->stop.store(true);
    if (g_watchdog->thread.joinable()) g_watchdog->thread.join();
    delete g_watchdog;
    g_watchdog = nullptr;
  }
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

// Arms the watchdog for the duration of one collective.
class Guard {
 public:
  explicit Guard(const char* what) {
    if (g_watchdog == nullptr) return;
    g_watchdog->what.store(what);
    g_watchdog->deadline_ns.store(NowNs() + static_cast<int64_t>(MpiCollectiveTimeoutSeconds() * 1e9));
  }
  ~Guard() {
    if (g_watchdog != nullptr) g_watchdog->deadline_ns.store(0);
  }
  Guard(const Guard&) = delete;
  Guard& operator=(const Guard&) = delete;
};

void Bf16Sum(void* in, void* inout, int* len, MPI_Datatype*) {
  const auto* a = static_cast<const uint16_t*>(in);
  auto* b = static_cast<uint16_t*>(inout);
  for (int i = 0; i < *len; ++i) b[i] = FloatToBf16(Bf16ToFloat(a[i]) + Bf16ToFloat(b[i]));
}

std::vector<uint16_t> Encode(std::span<const float> v) {
  std::vector<uint16_t> out(v.size());
  for (size_t i = 0; i < v.size(); ++i) out[i] = FloatToBf16(v[i]);
  return out;
}

void Decode(const std::vector<uint16_t>& v, std::span<float> out) {
  for (size_t i = 0; i < v.size(); ++i) out[i] = Bf16ToFloat(v[i]);
}

Status CheckRc(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return Status::Ok();
  char msg[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, msg, &len);
  return Status::Internal(std::string("MPI ") + what + " failed: " + std::string(msg, static_cast<size_t>(len)));
}

Status CheckCount(int64_t n, const char* what) {
  if (n > INT_MAX) return Status::NotSupported(std::string("MPI ") + what + ": more than 2^31 values in one call");
  return Status::Ok();
}

// MPI reads dense send buffers: rows of `buf` without data (live[r] == 0)
// are sent as zeros.
void ZeroDeadRows(float* buf, std::span<const uint8_t> live, int64_t row_len) {
  for (size_t r = 0; r < live.size(); ++r)
    if (live[r] == 0) std::fill_n(buf + static_cast<int64_t>(r) * row_len, row_len, 0.0f);
}

// Encodes `buf` as bf16 into `out`, rows without data as zeros.
void EncodeRowsBf16(const float* buf, std::span<const uint8_t> live, int64_t row_len, uint16_t* out) {
  for (size_t r = 0; r < live.size(); ++r) {
    const int64_t off = static_cast<int64_t>(r) * row_len;
    if (live[r] == 0) std::fill_n(out + off, row_len, uint16_t{0});
    else StoreBf16(buf + off, out + off, row_len);
  }
}

}  // namespace

int MpiWorldSizeFromEnv() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "MPI_LOCALNRANKS"}) {
    int v = EnvInt(name);
    if (v > 0) return v;
  }
  return 0;
}

int MpiWorldRankFromEnv() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"}) {
    int v = EnvInt(name);
    if (v >= 0) return v;
  }
  return 0;
}

double MpiCollectiveTimeoutSeconds() {
  const char* v = std::getenv("MOELOG_MPI_TIMEOUT_S");
  if (v != nullptr) {
    char* end = nullptr;
    double x = std::strtod(v, &end);
    if (end != v && x > 0) return x;
  }
  return 300.0;
}

bool MpiInitialized() { return g_initialized; }

Status EnsureMpiInitialized(bool quiet_ranks) {
  std::call_once(g_init_once, [quiet_ranks] {
    int provided = 0;
    int argc = 0;
    char** argv = nullptr;
    int rc = MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (rc != MPI_SUCCESS) {
      g_init_status = Status::Internal("MPI_Init_thread failed");
      return;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    g_initialized = true;
    g_watchdog = new Watchdog;
    g_watchdog->thread_multiple = provided >= MPI_THREAD_MULTIPLE;
    g_watchdog->thread = std::thread(WatchdogLoop, g_watchdog);
    std::atexit(FinalizeAtExit);
    if (quiet_ranks && g_rank != 0) {
      std::fflush(stdout);
      int fd = open("/dev/null", O_WRONLY);
      if (fd >= 0) {
        dup2(fd, STDOUT_FILENO);
        close(fd);
      }
    }
  });
  return g_init_status;
}

void MpiAbort(const std::string& message, int exit_code) {
  std::fprintf(stderr, "moelog: rank %d: %s\n", g_initialized ? g_rank : MpiWorldRankFromEnv(), message.c_str());
  std::fflush(stderr);
  if (g_initialized) MPI_Abort(MPI_COMM_WORLD, exit_code == 0 ? 1 : exit_code);
  _exit(exit_code == 0 ? 1 : exit_code);
}

Status MaybeInjectFault(int rank) {
  const char* v = std::getenv("MOELOG_MPI_FAULT");
  if (v == nullptr) return Status::Ok();
  std::string s(v);
  auto colon = s.find(':');
  if (colon == std::string::npos) return Status::Ok();
  if (std::atoi(s.substr(0, colon).c_str()) != rank) return Status::Ok();
  std::string kind = s.substr(colon + 1);
  if (kind == "error") return Status::Internal("injected fault (MOELOG_MPI_FAULT) on rank " + std::to_string(rank));
  if (kind == "hang") {
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  if (kind == "exit") _exit(1);
  if (kind == "kill") std::raise(SIGKILL);
  return Status::Ok();
}

struct MpiComm::Impl {
  MPI_Comm data = MPI_COMM_NULL;
  MPI_Comm expert = MPI_COMM_NULL;
  MPI_Op bf16_sum = MPI_OP_NULL;
  MPI_Comm Of(Axis a) const {
    switch (a) {
      case Axis::kWorld: return MPI_COMM_WORLD;
      case Axis::kData: return data;
      case Axis::kExpert: return expert;
    }
    return MPI_COMM_WORLD;
  }
};

MpiComm::MpiComm(DeviceMesh mesh, int rank) : Communicator(mesh, {rank}), impl_(std::make_unique<Impl>()) {}

MpiComm::~MpiComm() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  if (impl_->data != MPI_COMM_NULL) MPI_Comm_free(&impl_->data);
  if (impl_->expert != MPI_COMM_NULL) MPI_Comm_free(&impl_->expert);
  if (impl_->bf16_sum != MPI_OP_NULL) MPI_Op_free(&impl_->bf16_sum);
}

Result<std::unique_ptr<MpiComm>> MpiComm::Create(DeviceMesh mesh) {
  if (!g_initialized) return Status::Internal("MpiComm::Create: MPI is not initialized");
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != mesh.Size())
    return Status::InvalidArgument("the mesh " + mesh.ToString() + " has " + std::to_string(mesh.Size()) +
                                   " devices but the MPI world has " + std::to_string(size) + " ranks");
  std::unique_ptr<MpiComm> c(new MpiComm(mesh, g_rank));
  Guard g("MPI_Comm_split");
  MOELOG_RETURN_IF_ERROR(
      CheckRc(MPI_Comm_split(MPI_COMM_WORLD, mesh.ExpertIndex(g_rank), mesh.DataIndex(g_rank), &c->impl_->data),
              "MPI_Comm_split(data)"));
  MOELOG_RETURN_IF_ERROR(
      CheckRc(MPI_Comm_split(MPI_COMM_WORLD, mesh.DataIndex(g_rank), mesh.ExpertIndex(g_rank), &c->impl_->expert),
              "MPI_Comm_split(expert)"));
  MOELOG_RETURN_IF_ERROR(CheckRc(MPI_Op_create(&Bf16Sum, 1, &c->impl_->bf16_sum), "MPI_Op_create"));
  return c;
}

Status MpiComm::AllReduceSum(Axis axis, std::span<const std::span<float>> bufs, Wire wire) {
  if (bufs.size() != 1) return Status::Internal("MpiComm::AllReduceSum: one buffer per rank");
  auto buf = bufs[0];
  MOELOG_RETURN_IF_ERROR(CheckCount(static_cast<int64_t>(buf.size()), "MPI_Allreduce"));
  const int n = static_cast<int>(buf.size());
  auto t0 = Clock::now();
  {
    Guard g("MPI_Allreduce");
    if (wire == Wire::kF32) {
      MOELOG_RETURN_IF_ERROR(
          CheckRc(MPI_Allreduce(MPI_IN_PLACE, buf.data(), n, MPI_FLOAT, MPI_SUM, impl_->Of(axis)), "MPI_Allreduce"));
    } else {
      auto enc = Encode(buf);
      MOELOG_RETURN_IF_ERROR(CheckRc(
          MPI_Allreduce(MPI_IN_PLACE, enc.data(), n, MPI_UINT16_T, impl_->bf16_sum, impl_->Of(axis)), "MPI_Allreduce"));
      Decode(enc, buf);
    }
  }
  Volume v = RingAllReduceVolume(n, AxisSize(mesh_, axis), AxisRank(mesh_, axis, rank()), wire);
  Record(&counters_[0], v.sent, v.recv, t0);
  return Status::Ok();
}

Status MpiComm::AllReduceSumRows(Axis axis, std::span<const std::span<float>> bufs,
                                 std::span<const std::span<const uint8_t>> live, int64_t row_len,
                                 std::span<const ReduceLanding> out, Wire wire) {
  MOELOG_RETURN_IF_ERROR(CheckRowArgs("MpiComm::AllReduceSumRows", bufs, live, row_len, out));
  auto buf = bufs[0];
  const ReduceLanding& land = out[0];
  MOELOG_RETURN_IF_ERROR(CheckCount(static_cast<int64_t>(buf.size()), "MPI_Allreduce"));
  const int n = static_cast<int>(buf.size());
  auto t0 = Clock::now();
  {
    Guard g("MPI_Allreduce");
    if (wire == Wire::kF32) {
      ZeroDeadRows(buf.data(), live[0], row_len);
      if (land.f32 != nullptr) {
        const void* send = land.f32 == buf.data() ? MPI_IN_PLACE : buf.data();  // landing in the partial itself
        MOELOG_RETURN_IF_ERROR(
            CheckRc(MPI_Allreduce(send, land.f32, n, MPI_FLOAT, MPI_SUM, impl_->Of(axis)), "MPI_Allreduce"));
      } else {
        MOELOG_RETURN_IF_ERROR(CheckRc(
            MPI_Allreduce(MPI_IN_PLACE, buf.data(), n, MPI_FLOAT, MPI_SUM, impl_->Of(axis)), "MPI_Allreduce"));
        StoreBf16(buf.data(), land.bf16, n);
      }
    } else {
      // The bf16 wire buffer is the result's storage: a bf16 landing receives
      // the reduction directly.
      std::vector<uint16_t> enc;
      uint16_t* wire_buf = land.bf16;
      if (wire_buf == nullptr) {
        enc.resize(static_cast<size_t>(n));
        wire_buf = enc.data();
      }
      EncodeRowsBf16(buf.data(), live[0], row_len, wire_buf);
      MOELOG_RETURN_IF_ERROR(CheckRc(
          MPI_Allreduce(MPI_IN_PLACE, wire_buf, n, MPI_UINT16_T, impl_->bf16_sum, impl_->Of(axis)), "MPI_Allreduce"));
      if (land.f32 != nullptr)
        for (int i = 0; i < n; ++i) land.f32[i] = Bf16ToFloat(wire_buf[i]);
    }
  }
  Volume v = RingAllReduceVolume(n, AxisSize(mesh_, axis), AxisRank(mesh_, axis, rank()), wire);
  Record(&counters_[0], v.sent, v.recv, t0);
  return Status::Ok();
}

Status MpiComm::AllGather(Axis axis, std::span<const std::span<const float>> in,
                          std::span<const std::span<float>> out, Wire wire) {
  if (in.size() != 1 || out.size() != 1) return Status::Internal("MpiComm::AllGather: one buffer per rank");
  const int p = AxisSize(mesh_, axis);
  const int64_t n64 = static_cast<int64_t>(in[0].size());
  if (static_cast<int64_t>(out[0].size()) != n64 * p) return Status::Internal("MpiComm::AllGather: bad output size");
  MOELOG_RETURN_IF_ERROR(CheckCount(n64 * p, "MPI_Allgather"));
  const int n = static_cast<int>(n64);
  auto t0 = Clock::now();
  {
    Guard g("MPI_Allgather");
    if (wire == Wire::kF32) {
      MOELOG_RETURN_IF_ERROR(CheckRc(
          MPI_Allgather(in[0].data(), n, MPI_FLOAT, out[0].data(), n, MPI_FLOAT, impl_->Of(axis)), "MPI_Allgather"));
    } else {
      auto enc = Encode(in[0]);
      std::vector<uint16_t> all(static_cast<size_t>(n64 * p));
      MOELOG_RETURN_IF_ERROR(CheckRc(
          MPI_Allgather(enc.data(), n, MPI_UINT16_T, all.data(), n, MPI_UINT16_T, impl_->Of(axis)), "MPI_Allgather"));
      Decode(all, out[0]);
    }
  }
  Volume v = RingAllGatherVolume(n64, p, wire);
  Record(&counters_[0], v.sent, v.recv, t0);
  return Status::Ok();
}

Status MpiComm::ReduceScatterSum(Axis axis, std::span<const std::span<const float>> in,
                                 std::span<const std::span<float>> out, Wire wire) {
  if (in.size() != 1 || out.size() != 1) return Status::Internal("MpiComm::ReduceScatterSum: one buffer per rank");
  const int p = AxisSize(mesh_, axis);
  const int64_t n64 = static_cast<int64_t>(out[0].size());
  if (static_cast<int64_t>(in[0].size()) != n64 * p)
    return Status::Internal("MpiComm::ReduceScatterSum: bad input size");
  MOELOG_RETURN_IF_ERROR(CheckCount(n64 * p, "MPI_Reduce_scatter_block"));
  const int n = static_cast<int>(n64);
  auto t0 = Clock::now();
  {
    Guard g("MPI_Reduce_scatter_block");
    if (wire == Wire::kF32) {
      MOELOG_RETURN_IF_ERROR(
          CheckRc(MPI_Reduce_scatter_block(in[0].data(), out[0].data(), n, MPI_FLOAT, MPI_SUM, impl_->Of(axis)),
                  "MPI_Reduce_scatter_block"));
    } else {
      auto enc = Encode(in[0]);
      std::vector<uint16_t> mine(static_cast<size_t>(n));
      MOELOG_RETURN_IF_ERROR(CheckRc(
          MPI_Reduce_scatter_block(enc.data(), mine.data(), n, MPI_UINT16_T, impl_->bf16_sum, impl_->Of(axis)),
          "MPI_Reduce_scatter_block"));
      Decode(mine, out[0]);
    }
  }
  Volume v = RingReduceScatterVolume(n64, p, wire);
  Record(&counters_[0], v.sent, v.recv, t0);
  return Status::Ok();
}

Status MpiComm::ReduceScatterSumRows(Axis axis, std::span<const std::span<float>> bufs,
                                     std::span<const std::span<const uint8_t>> live, int64_t row_len,
                                     std::span<const ReduceLanding> out, Wire wire) {
  MOELOG_RETURN_IF_ERROR(CheckRowArgs("MpiComm::ReduceScatterSumRows", bufs, live, row_len, out));
  auto buf = bufs[0];
  const ReduceLanding& land = out[0];
  const int p = AxisSize(mesh_, axis);
  const int64_t total = static_cast<int64_t>(buf.size());
  if (total % p != 0)
    return Status::Internal("MpiComm::ReduceScatterSumRows: the buffer does not split over the group");
  MOELOG_RETURN_IF_ERROR(CheckCount(total, "MPI_Reduce_scatter_block"));
  const int64_t n64 = total / p;
  const int n = static_cast<int>(n64);
  auto t0 = Clock::now();
  {
    Guard g("MPI_Reduce_scatter_block");
    if (wire == Wire::kF32) {
      ZeroDeadRows(buf.data(), live[0], row_len);
      std::vector<float> mine;
      float* dst = land.f32;
      if (dst == nullptr) {
        mine.resize(static_cast<size_t>(n));
        dst = mine.data();
      }
      MOELOG_RETURN_IF_ERROR(
          CheckRc(MPI_Reduce_scatter_block(buf.data(), dst, n, MPI_FLOAT, MPI_SUM, impl_->Of(axis)),
                  "MPI_Reduce_scatter_block"));
      if (land.bf16 != nullptr) StoreBf16(dst, land.bf16, n);
    } else {
      std::vector<uint16_t> enc(static_cast<size_t>(total));
      EncodeRowsBf16(buf.data(), live[0], row_len, enc.data());
      // A bf16 landing receives the reduced block directly.
      std::vector<uint16_t> mine;
      uint16_t* dst = land.bf16;
      if (dst == nullptr) {
        mine.resize(static_cast<size_t>(n));
        dst = mine.data();
      }
      MOELOG_RETURN_IF_ERROR(CheckRc(
          MPI_Reduce_scatter_block(enc.data(), dst, n, MPI_UINT16_T, impl_->bf16_sum, impl_->Of(axis)),
          "MPI_Reduce_scatter_block"));
      if (land.f32 != nullptr)
        for (int i = 0; i < n; ++i) land.f32[i] = Bf16ToFloat(dst[i]);
    }
  }
  Volume v = RingReduceScatterVolume(n64, p, wire);
  Record(&counters_[0], v.sent, v.recv, t0);
  return Status::Ok();
}

Status MpiComm::AllToAllV(Axis axis, std::span<const std::span<const float>> send,
                          const std::vector<std::vector<int64_t>>& send_counts,
                          std::span<const std::span<float>> recv,
                          const std::vector<std::vector<int64_t>>& recv_counts, Wire wire) {
  if (send.size() != 1 || recv.size() != 1 || send_counts.size() != 1 || recv_counts.size() != 1)
    return Status::Internal("MpiComm::AllToAllV: one buffer per rank");
  const int p = AxisSize(mesh_, axis);
  const int me = AxisRank(mesh_, axis, rank());
  if (static_cast<int>(send_counts[0].size()) != p || static_cast<int>(recv_counts[0].size()) != p)
    return Status::Internal("MpiComm::AllToAllV: counts do not match the group size");
  std::vector<int> sc(static_cast<size_t>(p)), sd(static_cast<size_t>(p)), rc(static_cast<size_t>(p)),
      rd(static_cast<size_t>(p));
  int64_t so = 0, ro = 0, sent = 0, recvd = 0;
  for (int j = 0; j < p; ++j) {
    const auto J = static_cast<size_t>(j);
    MOELOG_RETURN_IF_ERROR(CheckCount(so + send_counts[0][J], "MPI_Alltoallv"));
    MOELOG_RETURN_IF_ERROR(CheckCount(ro + recv_counts[0][J], "MPI_Alltoallv"));
    sc[J] = static_cast<int>(send_counts[0][J]);
    sd[J] = static_cast<int>(so);
    rc[J] = static_cast<int>(recv_counts[0][J]);
    rd[J] = static_cast<int>(ro);
    so += send_counts[0][J];
    ro += recv_counts[0][J];
    if (j != me) {
      sent += send_counts[0][J];
      recvd += recv_counts[0][J];
    }
  }
  if (so > static_cast<int64_t>(send[0].size()) || ro > static_cast<int64_t>(recv[0].size()))
    return Status::Internal("MpiComm::AllToAllV: counts exceed the buffers");
  auto t0 = Clock::now();
  {
    Guard g("MPI_Alltoallv");
    if (wire == Wire::kF32) {
      MOELOG_RETURN_IF_ERROR(CheckRc(MPI_Alltoallv(send[0].data(), sc.data(), sd.data(), MPI_FLOAT, recv[0].data(),
                                                   rc.data(), rd.data(), MPI_FLOAT, impl_->Of(axis)),
                                     "MPI_Alltoallv"));
    } else {
      auto enc = Encode(send[0].subspan(0, static_cast<size_t>(so)));
      std::vector<uint16_t> got(static_cast<size_t>(ro));
      MOELOG_RETURN_IF_ERROR(CheckRc(MPI_Alltoallv(enc.data(), sc.data(), sd.data(), MPI_UINT16_T, got.data(),
                                                   rc.data(), rd.data(), MPI_UINT16_T, impl_->Of(axis)),
                                     "MPI_Alltoallv"));
      Decode(got, recv[0]);
    }
  }
  Record(&counters_[0], sent * WireBytes(wire), recvd * WireBytes(wire), t0);
  return Status::Ok();
}

Status MpiComm::Barrier() {
  Guard g("MPI_Barrier");
  return CheckRc(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
}

double MpiComm::MaxOverWorld(double v) {
  Guard g("MPI_Allreduce(max)");
  double out = v;
  MPI_Allreduce(&v, &out, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return out;
}

int64_t MpiComm::MaxOverWorld(int64_t v) {
  Guard g("MPI_Allreduce(max)");
  int64_t out = v;
  MPI_Allreduce(&v, &out, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
  return out;
}

std::vector<int64_t> MpiComm::AllGatherInt(int64_t v) {
  Guard g("MPI_Allgather(int)");
  std::vector<int64_t> out(static_cast<size_t>(mesh_.Size()));
  MPI_Allgather(&v, 1, MPI_INT64_T, out.data(), 1, MPI_INT64_T, MPI_COMM_WORLD);
  return out;
}

}  // namespace moelog::engine::parallel
