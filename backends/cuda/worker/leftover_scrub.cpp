// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/worker/leftover_scrub.h"
#include <algorithm>
#include "backends/cuda/worker/driver_api.h"
#include "backends/cuda/worker/harness_kernels.h"
#include "backends/cuda/worker/kernel_module.h"

namespace crucible::cuda {

std::size_t largestFrameBytes(std::initializer_list<const KernelModule*> kernels) {
  std::size_t largest = 0;
  for (const KernelModule* k : kernels)
    if (k) largest = std::max(largest, static_cast<std::size_t>(std::max(k->attribute(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES), 0)));
  return largest;
}

void LeftoverScrub::queue(CUstream stream) const {
  std::size_t stack = 0;
  check(driver().cuCtxGetLimit(&stack, CU_LIMIT_STACK_SIZE), "reading the stack limit");
  harness_.scrubSharedMemory(device_, stream);
  harness_.scrubLocalMemory(device_, std::max(stack, frameBytes_), stream);
  harness_.clearResults(stream);
}

}  // namespace crucible::cuda
