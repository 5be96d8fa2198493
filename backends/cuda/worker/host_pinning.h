// SPDX-License-Identifier: GPL-3.0-or-later
// Page-locks the host buffers that validation copies to and from the GPU on
// every trial (inputs, downloaded outputs, the oracle's doubles): copies from
// pageable memory go through the driver's staging buffers at a fraction of the
// bus's speed, and hundreds of MiB move per trial on the suite's shapes.
// Buffers are registered in place (cuMemHostRegister), so the code that fills
// and compares them is unchanged; they must not be reallocated while
// registered, and the registrations end before the buffers are freed.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace crucible::cuda {

class HostPinning {
public:
  HostPinning() = default;
  HostPinning(const HostPinning&) = delete;
  HostPinning& operator=(const HostPinning&) = delete;
  ~HostPinning();  // unregisters every range (no driver call once the context is lost)

  // Registers [data, data + bytes). Ranges under kMinBytes are left pageable
  // (pinning costs more than it saves there). A failure is remembered, not
  // thrown: the copies still work from pageable memory, only slower, and
  // note() says so.
  void pin(void* data, std::size_t bytes);
  // "" when every range asked for is page-locked; else why not, in words.
  const std::string& note() const { return note_; }
  std::size_t pinnedBytes() const { return pinnedBytes_; }

  static constexpr std::size_t kMinBytes = std::size_t{1} << 20;

private:
  std::vector<void*> ranges_;
  std::size_t pinnedBytes_ = 0;
  std::string note_;
};

}  // namespace crucible::cuda
