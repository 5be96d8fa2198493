// SPDX-License-Identifier: GPL-3.0-or-later
// A run of device memory: where a module variable lies, or what a watch reads.
#pragma once
#include <cuda.h>
#include <cstddef>

namespace crucible::cuda {

struct DeviceSpan {
  CUdeviceptr begin = 0;
  std::size_t bytes = 0;
  CUdeviceptr end() const { return begin + bytes; }
};

}  // namespace crucible::cuda
