// SPDX-License-Identifier: GPL-3.0-or-later
// A loaded cubin and one of its kernels, with its launch geometry resolved
// from the task's axes and checked against the function's and the device's
// limits before anything is launched.
#pragma once
#include <cuda.h>
#include <cstdint>
#include <map>
#include <string>
#include <vector>
#include "backends/cuda/worker/gpu_context.h"
#include "backends/cuda/worker/shared_carveout.h"
#include "core/model/candidate.h"

namespace crucible::cuda {

struct LaunchGeometry {
  unsigned grid[3] = {1, 1, 1};
  unsigned block[3] = {1, 1, 1};
  unsigned dynamicSmemBytes = 0;
  std::int64_t threadsPerBlock() const { return std::int64_t{block[0]} * block[1] * block[2]; }
  std::string describe() const;  // "grid (128,1,1) block (256,1,1) smem 0 B"
};

// Evaluates the rule's expressions over the axes and sm_count = `smCount`, the
// SM count of the GPU it launches on (DeviceInfo::smCount). Throws KernelFailure
// (ResourceError) naming the expression that fails or gives a value the
// hardware cannot take, with the SM count when the rule uses it.
LaunchGeometry resolveGeometry(const LaunchRule& rule, const std::map<std::string, std::int64_t>& axes, int smCount);

class KernelModule {
public:
  // Loads `cubin` and finds `entry`. Throws KernelFailure (CompileFailed) when
  // the image does not load on this GPU or has no such kernel.
  KernelModule(const std::string& cubin, const std::string& entry);
  ~KernelModule();
  KernelModule(const KernelModule&) = delete;
  KernelModule& operator=(const KernelModule&) = delete;

  CUfunction function() const { return fn_; }
  CUmodule module() const { return module_; }
  const std::string& entry() const { return entry_; }
  int attribute(CUfunction_attribute a) const;

  // Checks the geometry against this kernel and device (threads, shared
  // memory), raises the dynamic shared-memory limit when it exceeds 48 KiB and
  // sets the function's shared-memory carveout preference, if one is given
  // (shared_carveout.h). Throws KernelFailure (ResourceError) with the limit
  // that is exceeded or the driver's refusal.
  void prepare(const LaunchGeometry& g, const DeviceInfo& device, const CarveoutPreference& carveout = {});

  // Queues one launch; returns the driver's answer (not the kernel's outcome).
  CUresult launch(const LaunchGeometry& g, CUstream stream, void** params) const;

  // Blocks per SM the occupancy calculator allows at this geometry.
  int maxActiveBlocksPerSm(const LaunchGeometry& g) const;

private:
  // The one occupancy query: prepare() names a refusal as the kernel's
  // resource error, maxActiveBlocksPerSm() as the harness's.
  CUresult queryActiveBlocksPerSm(const LaunchGeometry& g, int& blocks) const;
  void setCarveout(const LaunchGeometry& g, const DeviceInfo& device, int staticSmem, const CarveoutPreference& carveout);

  CUmodule module_ = nullptr;
  CUfunction fn_ = nullptr;
  std::string entry_;
};

}  // namespace crucible::cuda
