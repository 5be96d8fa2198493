// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/core/engine/doubles/fake_sanitizer.h"

#include <chrono>
#include <thread>

namespace crucible::testing {

SanitizerReport FakeSanitizer::sanitize(const Task&, const KernelBinary&, int device) {
  if (delayMicroseconds > 0) std::this_thread::sleep_for(std::chrono::microseconds(delayMicroseconds));
  ++calls;
  std::lock_guard lock(mutex_);
  devices_.push_back(device);
  return report;
}

std::vector<int> FakeSanitizer::devices() const {
  std::lock_guard lock(mutex_);
  return devices_;
}

SanitizerReport FakeSanitizer::clean() {
  SanitizerReport r;
  r.ran = true;
  r.clean = true;
  r.tools = {"memcheck", "racecheck", "initcheck", "synccheck"};
  for (const auto& t : r.tools) r.reportedErrors[t] = 0;
  r.seconds = 0;   // adds nothing to the run's GPU seconds the tests count
  return r;
}

SanitizerReport FakeSanitizer::unavailable(const std::string& reason) {
  SanitizerReport r;
  r.unavailableReason = reason;
  return r;
}

SanitizerReport FakeSanitizer::withFindings(const std::string& tool, int count, const std::string& message) {
  SanitizerReport r = clean();
  r.clean = false;
  r.reportedErrors[tool] = count;
  for (int i = 0; i < count; ++i)
    r.findings.push_back({tool, i == 0 ? message : message + " (" + std::to_string(i + 1) + ")"});
  r.log = "========= " + message + "\n";
  return r;
}

}  // namespace crucible::testing
