// SPDX-License-Identifier: GPL-3.0-or-later
// What GPUs this machine has, found by loading the CUDA driver at run time
// (dlopen), so every binary starts where no driver exists.
#pragma once
#include <string>
#include <vector>

namespace crucible {

struct GpuInfo {
  int ordinal = 0;
  std::string name;          // "NVIDIA H200"
  int ccMajor = 0, ccMinor = 0;
  std::string arch() const { return "sm_" + std::to_string(ccMajor) + std::to_string(ccMinor); }
};

struct GpuProbe {
  bool driverFound = false;
  std::string driverVersion;  // "13.0" (the CUDA version the driver supports)
  std::vector<GpuInfo> gpus;
  std::string message;        // a sentence for status bars and --version
};

// Never throws; safe to call from any thread.
GpuProbe probeGpus();

}  // namespace crucible
