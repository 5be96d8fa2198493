// SPDX-License-Identifier: GPL-3.0-or-later
// The Sanitizer of a machine with NVIDIA's compute-sanitizer: each tool
// (memcheck, racecheck, initcheck, synccheck) runs
//   compute-sanitizer --tool T ... crucible-worker --sanitize-run DIR
// in a process of its own, with a minimal environment, a deadline and a cap
// on what it may print. The worker launches the kernel in allocations of
// exactly each tensor's size, so a read one element past a tensor's end is
// outside every allocation and memcheck reports it.
#pragma once
#include <cstddef>
#include <string>
#include <vector>
#include "core/engine/interfaces.h"

namespace crucible {

struct ComputeSanitizerOptions {
  std::string executable;                       // empty: found on PATH, in toolkitBin, in $CUDA_HOME/bin
  std::string toolkitBin = "/usr/local/cuda/bin";
  std::string workerExecutable;                 // empty: crucible-worker beside this executable
  std::vector<std::string> tools = {"memcheck", "racecheck", "initcheck", "synccheck"};
  double toolTimeoutSeconds = 300;              // per tool
  std::size_t outputCap = 1 << 20;              // bytes kept of each tool's log and of the worker's output
  // The engine only needs to know that a seal is refused: the first tool
  // that objects ends the check. `crucible-cli eval --sanitize` runs them all.
  bool stopAtFirstFinding = true;
};

class ComputeSanitizer : public Sanitizer {
public:
  explicit ComputeSanitizer(ComputeSanitizerOptions options = {});
  // Thread-safe: each call works in a folder of its own.
  SanitizerReport sanitize(const Task& task, const KernelBinary& kernel, int device) override;

  // One line for a status bar or a log: where compute-sanitizer is and what
  // runs, or that it is missing and so nothing can be sealed.
  std::string status() const;

  // The command line of one tool's run.
  std::vector<std::string> commandFor(const std::string& sanitizer, const std::string& tool,
                                      const std::string& jobDir) const;

  static constexpr int kErrorExitCode = 99;

private:
  std::string locate(std::string& whyNot) const;   // compute-sanitizer's path, or "" and why not
  ComputeSanitizerOptions options_;
};

}  // namespace crucible
