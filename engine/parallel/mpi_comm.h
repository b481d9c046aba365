// MpiComm: one device per MPI rank (`mpirun -np N moelog bench ...`).
// Collectives are MPI_Allreduce / MPI_Allgather / MPI_Reduce_scatter_block /
// MPI_Alltoallv on sub-communicators of the mesh axes; the bytes counted are
// those of the ring algorithms SimComm runs (communicator.h), so the two
// realizations report identical volumes.
//
// MPI is initialized only when the process was launched by mpirun/mpiexec
// (OpenMPI's OMPI_COMM_WORLD_SIZE, or PMI_SIZE / PMIX_RANK). Every collective
// runs under a watchdog: if it does not finish within the timeout (a rank
// died, hangs or failed before reaching it) the rank prints which collective
// stalled and aborts the whole job with MPI_Abort, so a job never hangs.
#ifndef MOELOG_ENGINE_PARALLEL_MPI_COMM_H_
#define MOELOG_ENGINE_PARALLEL_MPI_COMM_H_

#include <memory>

#include "engine/parallel/communicator.h"

namespace moelog::engine::parallel {

// World size and rank from the launcher's environment, without touching MPI.
// Size is 0 when the process was not launched by mpirun.
int MpiWorldSizeFromEnv();
int MpiWorldRankFromEnv();
inline bool LaunchedByMpi() { return MpiWorldSizeFromEnv() > 0; }

// Initializes MPI once per process (later calls are no-ops), starts the
// watchdog and arranges MPI_Finalize at exit. With quiet_ranks, ranks other
// than 0 send their stdout to /dev/null from here on (errors still go to
// stderr). REQUIRES: LaunchedByMpi().
Status EnsureMpiInitialized(bool quiet_ranks);
bool MpiInitialized();

// Seconds a collective may take before the watchdog aborts the job:
// MOELOG_MPI_TIMEOUT_S, default 300.
double MpiCollectiveTimeoutSeconds();

// Prints "moelog: rank R: <message>" to stderr and ends every rank of the job
// (MPI_Abort with exit_code). Without MPI it exits the process.
[[noreturn]] void MpiAbort(const std::string& message, int exit_code);

// Test hook: MOELOG_MPI_FAULT="<rank>:<kind>" makes that rank fail at the
// start of a parallel run. kind: error (returns an error -> MPI_Abort),
// hang (sleeps forever -> the others' watchdog aborts), exit (exits with
// status 1 without finalizing), kill (raises SIGKILL). Does nothing when the
// variable is unset or names another rank.
Status MaybeInjectFault(int rank);

class MpiComm final : public Communicator {
 public:
  // REQUIRES: MpiInitialized() and the world size equals mesh.Size().
  static Result<std::unique_ptr<MpiComm>> Create(DeviceMesh mesh);
  ~MpiComm() override;
  std::string Name() const override { return "mpi"; }
  int rank() const { return local_[0]; }

  Status AllReduceSum(Axis axis, std::span<const std::span<float>> bufs, Wire wire) override;
  Status AllReduceSumRows(Axis axis, std::span<const std::span<float>> bufs,
                          std::span<const std::span<const uint8_t>> live, int64_t row_len,
                          std::span<const ReduceLanding> out, Wire wire) override;
  Status AllGather(Axis axis, std::span<const std::span<const float>> in,
                   std::span<const std::span<float>> out, Wire wire) override;
  Status ReduceScatterSum(Axis axis, std::span<const std::span<const float>> in,
                          std::span<const std::span<float>> out, Wire wire) override;
  Status ReduceScatterSumRows(Axis axis, std::span<const std::span<float>> bufs,
                              std::span<const std::span<const uint8_t>> live, int64_t row_len,
                              std::span<const ReduceLanding> out, Wire wire) override;
  Status AllToAllV(Axis axis, std::span<const std::span<const float>> send,
                   const std::vector<std::vector<int64_t>>& send_counts, std::span<const std::span<float>> recv,
                   const std::vector<std::vector<int64_t>>& recv_counts, Wire wire) override;
  Status Barrier() override;
  bool spans_processes() const override { return true; }
  int process_rank() const override { return rank(); }
  double MaxOverProcesses(double v) override { return MaxOverWorld(v); }
  std::vector<int64_t> GatherOverProcesses(int64_t v) override { return AllGatherInt(v); }

  // Reductions of per-rank scalars over the world (used outside timed regions
  // to report the slowest rank and the largest volume).
  double MaxOverWorld(double v);
  int64_t MaxOverWorld(int64_t v);
  // Gathers one int64 per rank on every rank.
  std::vector<int64_t> AllGatherInt(int64_t v);

 private:
  MpiComm(DeviceMesh mesh, int rank);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace moelog::engine::parallel

#endif  // MOELOG_ENGINE_PARALLEL_MPI_COMM_H_
