// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/worker/host_pinning.h"
#include "backends/cuda/worker/driver_api.h"

namespace crucible::cuda {

HostPinning::~HostPinning() {
  if (contextLost()) return;  // the process is about to exit; a driver call could wait forever
  for (void* p : ranges_) driver().cuMemHostUnregister(p);
}

void HostPinning::pin(void* data, std::size_t bytes) {
  if (!data || bytes < kMinBytes || contextLost()) return;
  const CUresult rc = driver().cuMemHostRegister(data, bytes, 0);
  if (rc == CUDA_SUCCESS) {
    ranges_.push_back(data);
    pinnedBytes_ += bytes;
    return;
  }
  if (note_.empty())
    note_ = "host buffers not page-locked (cuMemHostRegister of " + std::to_string(bytes >> 20) + " MiB: " +
            describe(rc) + "): transfers run at pageable speed";
}

}  // namespace crucible::cuda
