// SPDX-License-Identifier: GPL-3.0-or-later
// What a kernel could find on the GPU that an earlier launch left, and which
// no output fill or module reset reaches: shared memory keeps its contents
// from one kernel to the next on an SM, and local memory (frames, spills, the
// stack) keeps its contents in every thread slot. Measured on the H200 and the
// H100 (tests/gpu/adversarial/results/2026-12-05-leftover-memory.md): all of both
// with only a memset between two launches; after the L2 flush's read, the
// first 10-20 KiB of a block's shared window and all of local memory. A kernel
// could keep its results there and, at its next launch on the same inputs
// (validation launches twice on the same inputs), copy them instead of
// computing. Before every launch the harness checks, times or profiles, of the
// candidate or the reference, both are overwritten with fresh values, and the
// harness's own result words (HarnessKernels::clearResults) are cleared.
#pragma once
#include <cuda.h>
#include <cstddef>
#include <initializer_list>
#include "backends/cuda/worker/gpu_context.h"

namespace crucible::cuda {

class HarnessKernels;
class KernelModule;

// The largest local frame of `kernels` (null entries skipped).
std::size_t largestFrameBytes(std::initializer_list<const KernelModule*> kernels);

class LeftoverScrub {
public:
  // `frameBytes`: the largest local frame of the kernels it protects.
  LeftoverScrub(const HarnessKernels& harness, const DeviceInfo& device, std::size_t frameBytes)
      : harness_(harness), device_(device), frameBytes_(frameBytes) {}
  // Queues both scrubs on `stream`, ahead of the launch they protect. Local
  // memory is overwritten as far as a launch can reach: the context's stack
  // limit as it is now (a kernel's dynamic stack, alloca, reaches all of it
  // and shows no frame; a kernel with a larger frame raises it) or the
  // largest frame, whichever is larger.
  void queue(CUstream stream) const;

private:
  const HarnessKernels& harness_;
  const DeviceInfo& device_;
  std::size_t frameBytes_;
};

}  // namespace crucible::cuda
