// SPDX-License-Identifier: GPL-3.0-or-later
// Sets (or unsets) an environment variable for one test and restores it
// (CUDA_VISIBLE_DEVICES in the dispatcher tests).
#pragma once
#include <cstdlib>
#include <optional>
#include <string>

namespace crucible::testing_support {

class ScopedEnv {
public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) ::setenv(name, value, 1);
    else ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_) ::setenv(name_, old_->c_str(), 1);
    else ::unsetenv(name_);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
  const char* name_;
  std::optional<std::string> old_;
};

}  // namespace crucible::testing_support
