// SPDX-License-Identifier: GPL-3.0-or-later
// Stand-ins for compute-sanitizer and crucible-worker, as shell scripts in a
// temporary folder: the fake compute-sanitizer records its arguments and
// environment, runs the worker it is given (like the real one), then does
// what the test's script body says with $tool, $log (its --log-file) and
// $status (the worker's exit status).
#pragma once
#include <filesystem>
#include <optional>
#include <string>

namespace crucible::testing {

class FakeTools {
public:
  FakeTools();
  ~FakeTools();
  FakeTools(const FakeTools&) = delete;
  FakeTools& operator=(const FakeTools&) = delete;

  const std::filesystem::path& dir() const { return dir_; }
  // Writes `dir()/compute-sanitizer` with this body after the common part.
  void sanitizer(const std::string& body) const;
  // Writes `dir()/crucible-worker`; by default it checks the job folder and exits 0.
  void worker(const std::string& body = "") const;
  std::string workerPath() const { return (dir_ / "crucible-worker").string(); }
  // What the fake compute-sanitizer recorded (every call appends).
  std::string arguments() const;
  std::string environment() const;

  // A body that writes a clean log for any tool and exits with the worker's status.
  static std::string cleanBody();

private:
  std::filesystem::path dir_;
};

// Sets (or unsets) an environment variable for one test, and restores it.
class ScopedEnv {
public:
  ScopedEnv(const char* name, const std::optional<std::string>& value);
  ~ScopedEnv();
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
  std::string name_;
  std::optional<std::string> old_;
};

std::string readText(const std::filesystem::path& path);

}  // namespace crucible::testing
