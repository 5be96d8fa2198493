// SPDX-License-Identifier: GPL-3.0-or-later
// A device tensor with guard regions on both sides, filled with a known
// pattern (NaN for floating dtypes): a kernel that reads past its buffer reads
// NaN, and one that writes past it changes a guard, which is checked. The
// allocation is whole pages that hold nothing else (DeviceBuffer::wholePages):
// the trailing guard runs to the end of the last page, so no byte of the
// pages is outside the tensor and its guards.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>
#include "backends/cuda/worker/gpu_context.h"
#include "backends/cuda/worker/host_tensor.h"

namespace crucible::cuda {

class GuardedBuffer {
public:
  // 256 KiB at least each side: more than one row of any task's widest axis,
  // and a multiple of 256 so the data keeps the allocation's alignment.
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
  // Bytes of the guards that no longer hold the pattern (downloads them: for
  // the verdict once a guard is known to have changed).
  std::int64_t damagedGuardBytes() const;
  // The two guards: kGuardBytes before the data, and from its end to the end of the last page.
  CUdeviceptr leadingGuard() const { return alloc_.get(); }
  CUdeviceptr trailingGuard() const { return data() + dataBytes(); }
  std::size_t trailingGuardBytes() const { return alloc_.extent() - kGuardBytes - dataBytes(); }
  // The whole allocation: both guards and the data.
  CUdeviceptr allocation() const { return alloc_.get(); }
  std::size_t allocationBytes() const { return alloc_.extent(); }

private:
  DType dtype_;
  std::int64_t count_;
  DeviceBuffer alloc_;
  std::vector<std::byte> pattern_;     // one element of the guard pattern
  std::vector<std::byte> guardImage_;  // the guard pattern, as long as the longer guard
};

}  // namespace crucible::cuda
