// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/worker/guarded_buffer.h"
#include <cstring>
#include "backends/cuda/worker/driver_api.h"

namespace crucible::cuda {

GuardedBuffer::GuardedBuffer(DType dtype, std::int64_t count)
    : dtype_(dtype), count_(count), alloc_(2 * kGuardBytes + static_cast<std::size_t>(count) * sizeOf(dtype)) {
  const std::vector<std::byte> pattern = guardPattern(dtype);
  guardImage_.resize(kGuardBytes);
  for (std::size_t off = 0; off < kGuardBytes; off += pattern.size())
    std::memcpy(guardImage_.data() + off, pattern.data(), pattern.size());
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
  const DriverApi& d = driver();
  const std::size_t w = pattern.size();
  if (w == 1) {
    check(d.cuMemsetD8(data(), static_cast<unsigned char>(pattern[0]), dataBytes()), "cuMemsetD8");
    return;
  }
  // Like cuMemsetD8 above: ordered before later work on the context's stream
  // (a blocking stream) and on the legacy stream the copies use.
  if (w == 2) {
    std::uint16_t v;
    std::memcpy(&v, pattern.data(), sizeof v);
    check(d.cuMemsetD16(data(), v, static_cast<std::size_t>(count_)), "cuMemsetD16");
    return;
  }
  if (w == 4) {
    std::uint32_t v;
    std::memcpy(&v, pattern.data(), sizeof v);
    check(d.cuMemsetD32(data(), v, static_cast<std::size_t>(count_)), "cuMemsetD32");
    return;
  }
  // cuMemsetD16/D32 cannot write 8-byte patterns: build the image on the host.
  HostTensor image(dtype_, count_);
  fillPattern(image, pattern);
  upload(image);
}

void GuardedBuffer::writeGuards() {
  const DriverApi& d = driver();
  check(d.cuMemcpyHtoD(alloc_.get(), guardImage_.data(), kGuardBytes), "writing guard regions");
  check(d.cuMemcpyHtoD(data() + dataBytes(), guardImage_.data(), kGuardBytes), "writing guard regions");
}

std::int64_t GuardedBuffer::damagedGuardBytes() const {
  const DriverApi& d = driver();
  std::vector<std::byte> seen(kGuardBytes);
  std::int64_t damaged = 0;
  for (CUdeviceptr where : {alloc_.get(), data() + dataBytes()}) {
    check(d.cuMemcpyDtoH(seen.data(), where, kGuardBytes), "reading guard regions");
    for (std::size_t i = 0; i < kGuardBytes; ++i) damaged += seen[i] != guardImage_[i];
  }
  return damaged;
}

}  // namespace crucible::cuda
