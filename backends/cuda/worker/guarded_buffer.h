// SPDX-License-Identifier: GPL-3.0-or-later
// A device tensor with guard regions on both sides, filled with a known
// pattern (NaN for floating dtypes): a kernel that reads past its buffer reads
// NaN, and one that writes past it changes a guard, which is checked.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>
#include "backends/cuda/worker/gpu_context.h"
#include "backends/cuda/worker/host_tensor.h"

namespace crucible::cuda {

class GuardedBuffer {
public:
  // 256 KiB each side: more than one row of any task's widest axis, and a
  // multiple of 256 so the data keeps the allocation's alignment.
  static constexpr std::size_t kGuardBytes = 256 * 1024;

  GuardedBuffer(DType dtype, std::int64_t count);
  CUdeviceptr data() const { return alloc_.get() + kGuardBytes; }
  DType dtype() const { return dtype_; }
  std::int64_t count() const { return count_; }
  std::size_t dataBytes() const { return static_cast<std::size_t>(count_) * sizeOf(dtype_); }

  void upload(const HostTensor& t);         // synchronous
  void download(HostTensor& t) const;       // synchronous; t is resized (its storage reused when it fits)
  void download(void* host, std::size_t bytes) const;  // synchronous; bytes must be dataBytes()
  // The data region. 1-, 2- and 4-byte patterns are set on the device
  // (cuMemsetD8/D16/D32), wider ones uploaded from a host image.
  void fill(const std::vector<std::byte>& pattern);
  void writeGuards();
  // Bytes of the guards that no longer hold the pattern.
  std::int64_t damagedGuardBytes() const;

private:
  DType dtype_;
  std::int64_t count_;
  DeviceBuffer alloc_;
  std::vector<std::byte> guardImage_;  // kGuardBytes of the guard pattern
};

}  // namespace crucible::cuda
