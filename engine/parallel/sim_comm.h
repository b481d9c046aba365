// SimComm: P simulated devices in one process. Each device owns its buffers;
// every collective is an explicit sequence of ring steps in which each device
// copies a chunk into a message buffer that the next device then copies or
// adds into its own buffer, so counted bytes are the bytes actually moved.
#ifndef MOELOG_ENGINE_PARALLEL_SIM_COMM_H_
#define MOELOG_ENGINE_PARALLEL_SIM_COMM_H_

#include "engine/parallel/communicator.h"

namespace moelog::engine::parallel {

class SimComm final : public Communicator {
 public:
  // Holds all mesh.Size() devices; local_devices() is 0..P-1.
  explicit SimComm(DeviceMesh mesh);
  std::string Name() const override { return "sim"; }
  Status AllReduceSum(Axis axis, std::span<const std::span<float>> bufs, Wire wire) override;
  Status AllReduceSumRows(Axis axis, std::span<const std::span<float>> bufs,
                          std::span<const std::span<const uint8_t>> live, int64_t row_len,
                          std::span<const ReduceLanding> out, Wire wire) override;
  Status AllReduceSumCompactRows(Axis axis, std::span<const std::span<const float>> bufs,
                                 std::span<const std::span<const int32_t>> rows, int64_t n_rows, int64_t row_len,
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
  Status Barrier() override { return Status::Ok(); }

 private:
  // The groups of `axis`, each in ring order; together they cover all devices.
  std::vector<std::vector<int>> Groups(Axis axis) const;
  // Counts one message of n values from device `from` to device `to`.
  void Count(int from, int to, int64_t n, Wire wire);
  void AddTime(double seconds);
  // Runs each(group) for the groups of `axis` in turn, stopping at the first
  // error; the time of the whole call is counted once.
  template <typename F>
  Status ForGroups(Axis axis, F each);
  // One pass around the ring of group `g`: at each of its p - 1 steps every
  // rank r packs block (r - lag - step) mod p into its message,
  // send(r, block, step, &message), which rank r + 1 then takes,
  // take(r + 1, block, message). The messages are counted as sent.
  // ForGroups for a collective of blocks: each device holds one block of n
  // values and the group's p blocks, `in` one and `out` all (gather) or the
  // other way round; each(group, n) once the lengths check.
  template <typename F>
  Status ForBlockGroups(const char* what, Axis axis, std::span<const std::span<const float>> in,
                        std::span<const std::span<float>> out, bool gather, F each);
  template <typename Send, typename Take>
  void RingPass(const std::vector<int>& g, int lag, Wire wire, Send send, Take take);
};

}  // namespace moelog::engine::parallel

#endif  // MOELOG_ENGINE_PARALLEL_SIM_COMM_H_
