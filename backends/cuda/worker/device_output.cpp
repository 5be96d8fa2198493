// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/worker/device_output.h"
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace crucible::cuda {

std::string DeviceOutput::describe() const {
  std::string shown;
  for (char c : head) shown += (c == '\n') ? std::string("\\n") : (c >= 32 && c < 127) ? std::string(1, c) : "?";
  return "the kernel printed " + std::to_string(bytes) + " bytes with printf (first " + std::to_string(head.size()) +
         ": \"" + shown + "\")";
}

DeviceOutputCapture::DeviceOutputCapture() {
  fd_ = ::memfd_create("crucible-device-printf", MFD_CLOEXEC);
  if (fd_ < 0) throw std::runtime_error(std::string("cannot create the device-output file: ") + std::strerror(errno));
  std::fflush(stdout);
  if (::dup2(fd_, STDOUT_FILENO) < 0) {
    const int e = errno;
    ::close(fd_);
    fd_ = -1;
    throw std::runtime_error(std::string("cannot redirect stdout: ") + std::strerror(e));
  }
}

DeviceOutputCapture::~DeviceOutputCapture() {
  if (fd_ >= 0) ::close(fd_);
}

namespace {
std::int64_t heldBytes() {
  struct stat st{};
  return ::fstat(STDOUT_FILENO, &st) == 0 ? static_cast<std::int64_t>(st.st_size) : 0;
}
std::string readHead(std::size_t keep) {
  std::string head(keep, '\0');
  const ssize_t n = ::pread(STDOUT_FILENO, head.data(), head.size(), 0);
  head.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  return head;
}
// Starts over: descriptor 1 shares the file offset with fd_, so both rewind.
void empty() {
  if (::ftruncate(STDOUT_FILENO, 0) == 0) ::lseek(STDOUT_FILENO, 0, SEEK_SET);
}
}  // namespace

DeviceOutput DeviceOutputCapture::take(std::size_t keep) {
  DeviceOutput out;
  std::fflush(stdout);
  const std::int64_t held = heldBytes();
  out.bytes = held + dropped_;
  if (out.bytes <= 0) return out;
  out.head = head_.empty() ? readHead(std::min<std::size_t>(keep, static_cast<std::size_t>(held))) : head_;
  if (out.head.size() > keep) out.head.resize(keep);
  dropped_ = 0;
  head_.clear();
  empty();
  return out;
}

void DeviceOutputCapture::trim(std::size_t cap) {
  const std::int64_t held = heldBytes();
  if (held <= static_cast<std::int64_t>(cap)) return;
  if (head_.empty()) head_ = readHead(512);
  dropped_ += held;
  empty();
}

}  // namespace crucible::cuda
