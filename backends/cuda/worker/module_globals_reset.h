// SPDX-License-Identifier: GPL-3.0-or-later
// Puts a loaded candidate's writable module-scope variables (cubin_globals.h)
// back to their load-time contents, queued on the stream before each launch:
// no state survives from one launch to the next, so launch counters, caches
// and timers kept in `__device__` variables see every launch as the first.
//
// The load-time contents are never kept in device memory: a kernel could
// write into such a copy (it lay at a fixed distance from the variable, 74 MiB
// on the H100: tests/gpu/adversarial/results/2026-12-05-leftover-memory.md)
// and have its state restored from there. Zero-initialised variables are
// cleared with a memset; the others are copied from host memory the device
// cannot address (pageable, not pinned).
#pragma once
#include <cuda.h>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>
#include "backends/cuda/worker/gpu_context.h"
#include "backends/cuda/worker/device_span.h"

namespace crucible::cuda {

class ModuleGlobalsReset {
public:
  // Their total size is capped: every launch restores them.
  static constexpr std::uint64_t kMaxBytes = 512ull << 20;

  // Finds every writable global of `cubin` in `module` (loaded from it) and
  // keeps its contents as loaded. Throws KernelFailure (Invalid) naming the
  // variable when one cannot be found or they exceed kMaxBytes, and
  // (CompileFailed) when the image cannot be read.
  ModuleGlobalsReset(CUmodule module, const std::string& cubin);

  // Queues the copies that restore every variable.
  void restore(CUstream stream) const;
  std::size_t count() const { return entries_.size(); }
  // Where the variables lie: what their launches may change (DriverPagesWatch's own spans).
  std::vector<DeviceSpan> spans() const;

private:
  struct Entry {
    CUdeviceptr where = 0;
    std::size_t bytes = 0;
    std::vector<std::byte> initial;  // the load-time contents; empty for a zero-initialised variable
  };
  std::vector<Entry> entries_;
};

// Throws KernelFailure (Invalid) naming the call when `cubin` calls the
// device heap (cubin_globals.h, deviceHeapCalls): a block one launch allocates
// outlives it and cannot be reset, so a kernel could pass results from one
// launch to the next there. (CompileFailed) when the image cannot be read.
void refuseDeviceHeap(const std::string& cubin);

}  // namespace crucible::cuda
