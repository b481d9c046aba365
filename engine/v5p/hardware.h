// Hardware: the fixed constants of one TPU chip and its slice, loaded from a
// description file (data/hardware/<name>.json). The model never fits these.
#ifndef MOELOG_ENGINE_V5P_HARDWARE_H_
#define MOELOG_ENGINE_V5P_HARDWARE_H_

#include <cstdint>
#include <string>

#include "engine/status.h"

namespace moelog::engine::v5p {

struct Hardware {
  std::string name;            // "v5p"
  std::string path;            // the file it came from
  bool validated = false;      // false: constants from specs only, never checked against measurements
  double peak_bf16_flops = 0;  // FLOP/s per chip
  double peak_int8_ops = 0;    // OP/s per chip
  double hbm_bytes = 0;        // bytes per chip
  double hbm_bw = 0;           // bytes/s per chip, nominal
  double ici_link_bw = 0;      // bytes/s one way per link
  int64_t ici_links = 0;       // usable links per chip inside the slice
  double ici_hop_latency_s = 0;
  int64_t chips = 0;           // chips per slice
  int64_t cores_per_chip = 1;  // TensorCores per JAX device
  int64_t mxu_dim = 128;
  double vmem_bytes_per_core = 0;
  double xla_scoped_vmem_default = 0;  // bytes: XLA's scoped VMEM limit when no flag sets it
  int64_t tile_m = 512, tile_k = 1024, tile_n = 1024;  // gmm tiling before capping
  int64_t ep_cap_multiple = 512;
};

// Resolves a data file. `name_or_path` containing '/' or ending in ".json" is
// used as given; otherwise it is `<subdir>/<name><extension>` (subdir may be
// empty) searched in $MOELOG_DATA_DIR, <dir of executable>/../share/moelog/data,
// then the compile-time source tree's data/. NotFound lists the places searched.
Result<std::string> ResolveDataFile(const std::string& name_or_path, const std::string& subdir,
                                    const std::string& extension = ".json");

// Whether ResolveDataFile takes `name_or_path` as a file path (it contains
// '/' or ends in ".json") rather than the name of one of moelog's data files.
bool IsDataFilePath(const std::string& name_or_path);

// Parses a hardware description file. Every constant must be present as
// {"value": number, "source": "..."}; InvalidArgument names the file and key.
Result<Hardware> LoadHardware(const std::string& path);

// ResolveDataFile(name, "hardware") then LoadHardware.
Result<Hardware> LoadHardwareByName(const std::string& name_or_path);

}  // namespace moelog::engine::v5p

#endif  // MOELOG_ENGINE_V5P_HARDWARE_H_
