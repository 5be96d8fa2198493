// SPDX-License-Identifier: GPL-3.0-or-later
// What candidate kernels print with device printf. The driver writes it to
// the process's stdout when it flushes the printf FIFO (at launches and
// synchronisations); a hostile or careless kernel can print without end. The
// worker points stdout at an in-memory file, and after each evaluation takes
// the head of what was printed and empties the file, so the output stays
// bounded and is reported with the candidate that made it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace crucible::cuda {

struct DeviceOutput {
  std::int64_t bytes = 0;   // printed since the last take
  std::string head;         // the first bytes, for the report
  std::string describe() const;  // "the kernel printed 1234 bytes with printf: \"...\""
};

class DeviceOutputCapture {
public:
  // Replaces descriptor 1 (stdout) with an anonymous in-memory file. Throws
  // std::runtime_error if it cannot.
  DeviceOutputCapture();
  ~DeviceOutputCapture();
  DeviceOutputCapture(const DeviceOutputCapture&) = delete;
  DeviceOutputCapture& operator=(const DeviceOutputCapture&) = delete;

  // What was printed since the last call (at most `keep` bytes of it kept),
  // and starts over with an empty file.
  DeviceOutput take(std::size_t keep = 512);
  // Between launches: when more than `cap` bytes are held, keeps the head
  // and drops the rest (counted), so one evaluation holds at most about
  // cap + one printf buffer, however often the kernel prints.
  void trim(std::size_t cap = 1 << 20);

private:
  int fd_ = -1;
  std::int64_t dropped_ = 0;   // bytes trimmed since the last take
  std::string head_;           // the head kept when trimming
};

}  // namespace crucible::cuda
