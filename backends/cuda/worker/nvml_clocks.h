// SPDX-License-Identifier: GPL-3.0-or-later
// SM and memory clocks from NVML, loaded at run time (libnvidia-ml.so.1), so
// timings can say at what clock they were taken and warm-up can wait for the
// clock to leave idle. Where NVML is missing, available() is false and the
// reason says so; callers fall back to a time-based warm-up.
#pragma once
#include <string>

namespace crucible::cuda {

class NvmlClocks {
public:
  explicit NvmlClocks(const std::string& pciBusId);
  bool available() const { return device_ != nullptr; }
  const std::string& unavailableReason() const { return reason_; }
  double smClockMHz() const;      // current; 0 when unavailable
  double memClockMHz() const;
  double maxSmClockMHz() const;
  const std::string& driverVersion() const { return driverVersion_; }  // "580.159.04", or empty

private:
  void* device_ = nullptr;
  std::string reason_;
  std::string driverVersion_;
};

}  // namespace crucible::cuda
