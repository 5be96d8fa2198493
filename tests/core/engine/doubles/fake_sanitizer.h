// SPDX-License-Identifier: GPL-3.0-or-later
// A sanitizer double for engine tests: returns the report it is given (clean
// by default, so runs that expect seals get them) and counts its calls.
#pragma once
#include <atomic>
#include <mutex>
#include <string>
#include <vector>
#include "core/engine/interfaces.h"

namespace crucible::testing {

class FakeSanitizer : public Sanitizer {
public:
  SanitizerReport sanitize(const Task& task, const KernelBinary& kernel, int device) override;

  // Reports to hand out, for the tests that are not about a clean run.
  static SanitizerReport clean();
  static SanitizerReport unavailable(const std::string& reason);
  // `count` findings of `tool`, the first with `message`; the tool's summary reports `count`.
  static SanitizerReport withFindings(const std::string& tool, int count, const std::string& message);

  SanitizerReport report = clean();   // what every call returns
  int delayMicroseconds = 0;          // each call sleeps this long, as the tools' processes take time
  std::atomic<int> calls{0};
  std::vector<int> devices() const;   // the device of each call, in call order

private:
  mutable std::mutex mutex_;
  std::vector<int> devices_;
};

}  // namespace crucible::testing
