// GPU hardware: the physical figures of one GPU and its scale-up and
// scale-out fabrics, loaded from a description file (data/hardware/<name>.json
// with "class": "gpu"). Efficiency levels are fitted elsewhere (params.h);
// a file gives peaks, bandwidths, latencies and the shape of its size curves.
#ifndef MOELOG_ENGINE_GPU_HARDWARE_H_
#define MOELOG_ENGINE_GPU_HARDWARE_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "engine/status.h"

namespace moelog::engine::gpu {

// A piecewise-linear curve y(x) over ascending x; flat outside its points.
struct Curve {
  std::vector<std::pair<double, double>> points;
  double At(double x) const;
};

struct Hardware {
  std::string name, path, description;
  bool validated = false;
  std::string vendor = "nvidia";        // nvidia | amd: picks the matmul efficiency class
  std::string scaleup_kind = "nvlink";  // nvlink | xgmi
  std::string interconnect = "ib";      // default scale-out fabric
  double peak_bf16 = 0, peak_fp8 = 0, peak_fp4 = 0;  // FLOP/s dense; fp4 0 = none
  double hbm_bytes = 0, hbm_bw = 0;
  double scaleup_bw = 0;        // bytes/s per GPU per direction
  double scaleup_peer_bw = 0;   // 0: a switch (any peer at scaleup_bw); else per peer link
  int64_t scaleup_domain = 8;
  double scaleup_latency_s = 0;
  int64_t nics_per_gpu = 1;
  double nic_bw = 0;            // bytes/s per NIC per direction
  double scaleout_latency_s = 0;
  int64_t sms = 0;
  double launch_latency_s = 0;
  Curve matmul_size;            // multiplier by GEMM size in GFLOP
  Curve scaleup_msg, scaleout_msg;  // multiplier by message bytes (collectives)

  double PeakFor(const std::string& dtype) const;  // 0 when the dtype has no peak
};

// "gpu" or "tpu" (a file without "class" is a TPU file); errors name the file.
Result<std::string> HardwareClass(const std::string& path);

// Parses a GPU hardware file; InvalidArgument names the file and the key.
Result<Hardware> LoadHardware(const std::string& path);

// Resolves a name (data/hardware/<name>.json) or a path, then loads it.
Result<Hardware> LoadHardwareByName(const std::string& name_or_path);

}  // namespace moelog::engine::gpu

#endif  // MOELOG_ENGINE_GPU_HARDWARE_H_
