// SPDX-License-Identifier: GPL-3.0-or-later
// Puts a loaded candidate's writable module-scope variables (cubin_globals.h)
// back to their load-time contents, queued on the stream before each launch:
// no state survives from one launch to the next, so launch counters, caches
// and timers kept in `__device__` variables see every launch as the first.
#pragma once
#include <cuda.h>
#include <cstdint>
#include <string>
#include <vector>
#include "backends/cuda/worker/gpu_context.h"

namespace crucible::cuda {

class ModuleGlobalsReset {
public:
  // Their total size is capped: the load-time image is kept on the device.
  static constexpr std::uint64_t kMaxBytes = 512ull << 20;

  // Finds every writable global of `cubin` in `module` (loaded from it) and
  // keeps its contents as loaded. Throws KernelFailure (Invalid) naming the
  // variable when one cannot be found or they exceed kMaxBytes, and
  // (CompileFailed) when the image cannot be read.
  ModuleGlobalsReset(CUmodule module, const std::string& cubin);

  // Queues the copies that restore every variable.
  void restore(CUstream stream) const;
  std::size_t count() const { return entries_.size(); }

private:
  struct Entry {
    CUdeviceptr where = 0;
    std::size_t bytes = 0;
    DeviceBuffer image;
  };
  std::vector<Entry> entries_;
};

// Throws KernelFailure (Invalid) naming the call when `cubin` calls the
// device heap (cubin_globals.h, deviceHeapCalls): a block one launch allocates
// outlives it and cannot be reset, so a kernel could pass results from one
// launch to the next there. (CompileFailed) when the image cannot be read.
void refuseDeviceHeap(const std::string& cubin);

}  // namespace crucible::cuda
