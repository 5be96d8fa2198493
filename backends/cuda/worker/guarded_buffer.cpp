// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/worker/guarded_buffer.h"
#include <algorithm>
#include <cstring>
#include <utility>
#include "backends/cuda/worker/driver_api.h"

namespace crucible::cuda {

namespace {

// Queues `pattern` repeated over the `bytes` at `where` (a multiple of its
// width): 1-, 2- and 4-byte patterns set on the device (cuMemsetD8/D16/D32),
// wider ones uploaded from `image` (at least `bytes` of the pattern). Like
// cuMemsetD8, ordered before later work on the context's stream (a blocking
// stream) and on the legacy stream the copies use.
void setPattern(CUdeviceptr where, std::size_t bytes, const std::vector<std::byte>& pattern,
                const std::vector<std::byte>& image) {
  const DriverApi& d = driver();
  const std::size_t w = pattern.size();
  if (w == 1) {
    check(d.cuMemsetD8(where, static_cast<unsigned char>(pattern[0]), bytes), "cuMemsetD8");
  } else if (w == 2) {
    std::uint16_t v;
    std::memcpy(&v, pattern.data(), sizeof v);
    check(d.cuMemsetD16(where, v, bytes / 2), "cuMemsetD16");
  } else if (w == 4) {
    std::uint32_t v;
    std::memcpy(&v, pattern.data(), sizeof v);
    check(d.cuMemsetD32(where, v, bytes / 4), "cuMemsetD32");
  } else {
    check(d.cuMemcpyHtoD(where, image.data(), bytes), "writing guard regions");
  }
}

}  // namespace

GuardedBuffer::GuardedBuffer(DType dtype, std::int64_t count)
    : dtype_(dtype), count_(count),
      alloc_(DeviceBuffer::wholePages(2 * kGuardBytes + static_cast<std::size_t>(count) * sizeOf(dtype))),
      pattern_(guardPattern(dtype)) {
  guardImage_.resize(std::max(kGuardBytes, trailingGuardBytes()));
  for (std::size_t off = 0; off < guardImage_.size(); off += pattern_.size())
    std::memcpy(guardImage_.data() + off, pattern_.data(), pattern_.size());
  writeGuards();
}

void GuardedBuffer::upload(const HostTensor& t) {
  if (t.byteSize() != dataBytes()) throw std::logic_error("GuardedBuffer::upload: size mismatch");
  check(driver().cuMemcpyHtoD(data(), t.bytes.data(), dataBytes()), "copying inputs to the GPU");
}

void GuardedBuffer::download(HostTensor& t) const {
  if (t.dtype != dtype_ || t.count != count_) t = HostTensor(dtype_, count_);
  download(t.bytes.data(), t.bytes.size());
}

void GuardedBuffer::download(void* host, std::size_t bytes) const {
  if (bytes != dataBytes()) throw std::logic_error("GuardedBuffer::download: size mismatch");
  check(driver().cuMemcpyDtoH(host, data(), dataBytes()), "copying outputs from the GPU");
}

void GuardedBuffer::fill(const std::vector<std::byte>& pattern) {
  if (pattern.size() <= 4) {
    setPattern(data(), dataBytes(), pattern, {});
    return;
  }
  // cuMemsetD16/D32 cannot write 8-byte patterns: build the image on the host.
  HostTensor image(dtype_, count_);
  fillPattern(image, pattern);
  upload(image);
}

void GuardedBuffer::writeGuards() {
  setPattern(leadingGuard(), kGuardBytes, pattern_, guardImage_);
  setPattern(trailingGuard(), trailingGuardBytes(), pattern_, guardImage_);
}

std::int64_t GuardedBuffer::damagedGuardBytes() const {
  const DriverApi& d = driver();
  std::vector<std::byte> seen(guardImage_.size());
  std::int64_t damaged = 0;
  for (auto [where, bytes] : {std::pair{leadingGuard(), kGuardBytes}, std::pair{trailingGuard(), trailingGuardBytes()}}) {
    check(d.cuMemcpyDtoH(seen.data(), where, bytes), "reading guard regions");
    for (std::size_t i = 0; i < bytes; ++i) damaged += seen[i] != guardImage_[i];
  }
  return damaged;
}

}  // namespace crucible::cuda
