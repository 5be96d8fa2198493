// SPDX-License-Identifier: GPL-3.0-or-later
// Runs a program with only the environment it is given, its output captured
// up to a cap and a wall-clock deadline after which its whole process group
// is killed: compute-sanitizer runs the worker as its child, and a kernel
// that hangs under the tool must cost its time limit, not the run.
#pragma once
#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace crucible {

struct BoundedProcessOptions {
  std::vector<std::string> argv;                  // argv[0]: the executable's path
  std::map<std::string, std::string> environment; // the child's whole environment
  double timeoutSeconds = 300;
  std::size_t outputCap = 1 << 20;               // bytes of stdout+stderr kept (first and last halves)
};

struct BoundedProcessResult {
  bool started = false;
  std::string startError;   // why it could not be started
  bool timedOut = false;    // killed (with its process group) at the deadline
  int exitCode = -1;        // when it exited
  int signal = 0;           // the signal that ended it, 0 if it exited
  double seconds = 0;       // wall time
  std::string output;       // stdout and stderr as they came, capped
  std::size_t outputBytes = 0;   // all it wrote, kept or not
};

BoundedProcessResult runBounded(const BoundedProcessOptions& options);

}  // namespace crucible
