// SPDX-License-Identifier: GPL-3.0-or-later
// A user's starting kernels read from disk and checked against a task, for
// every front end: `crucible-cli run --kernel K.cu [--tune K.tune.json]`
// (app/cli/starting_kernels.h words the errors as options) and the GUI's
// "Add starting kernel..." in Run control. The format is resources/tasks/
// README.md, "Tunable kernels".
#pragma once
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>
#include "backends/proposers/tunable/tunable_proposer.h"

namespace crucible {

// A starting kernel that cannot be read, or does not fit the task: what()
// names the file and the field (or the kernel and the reason).
class StartingKernelError : public std::runtime_error {
public:
  explicit StartingKernelError(const std::string& what, bool noLaunchRule = false)
      : std::runtime_error(what), noLaunchRule_(noLaunchRule) {}
  // Nothing gave the kernel a launch rule (no tune file given, none beside it,
  // no crucible-tune comment): the front end says how to give one.
  bool noLaunchRule() const { return noLaunchRule_; }

private:
  bool noLaunchRule_;
};

// The tune file beside a kernel: K.tune.json for K.cu (the same stem).
std::string tuneFileBeside(const std::string& kernelPath);

// "gemv.cu" -> "gemv": a starting kernel's name, from its file's stem
// (characters a kernel name cannot have become '_').
std::string startingKernelName(const std::string& kernelPath);

// Reads a kernel and its parameters and launch rule, first found wins:
//   1. tunePath, when not empty;
//   2. K.tune.json beside K.cu (tuneFileBeside);
//   3. a `/* crucible-tune { ...the same JSON... } */` comment in K.cu.
// Files are read with bounded work (core/io/bounded_file.h). Throws
// StartingKernelError naming the file and the field; with none of the three,
// noLaunchRule() is set and the message says what to add.
StartingKernel readStartingKernel(const std::string& kernelPath, const std::string& tunePath = "");

// Why the kernels cannot compete in one run: two of them share a name
// ("two starting kernels are named 'gemv' (a.cu, b/gemv.cu): rename one
// file"), or "" when their names are distinct.
std::string startingKernelNameClash(const std::vector<StartingKernel>& kernels);

// Why each kernel does not fit the task (signature, names, no legal starting
// point), in the kernels' order: "" for a kernel that fits. The same check
// the tunable proposer makes when it seeds a run, so a kernel accepted here
// is the run's first candidate. Throws StartingKernelError when the task's
// spec does not parse.
std::vector<std::string> startingKernelProblems(const std::vector<StartingKernel>& kernels,
                                                const std::string& taskSpecJson);

// Every kernel checked against the task before a run is created: a
// StartingKernelError listing each kernel that does not fit (one a line),
// with the reason.
void checkStartingKernelsFit(const std::vector<StartingKernel>& kernels, const std::string& taskSpecJson);

// A starting kernel as a front end names it: its .cu file and its tune file
// ("" = found as readStartingKernel finds it).
struct StartingKernelFile {
  std::string kernel;
  std::string tune;
};
// What became of one such file for one task.
struct StartingKernelFit {
  std::string name;                       // its name (from the file's stem even when it cannot be read)
  std::optional<StartingKernel> kernel;   // read, when it could be
  std::string problem;                    // why it cannot start a run of the task; "" when it fits
};
// Each file read (readStartingKernel) and checked against the task
// (startingKernelProblems), a name taken by an earlier kernel refused
// (startingKernelNameClash): one fit per file, in order. Never throws for a
// file or the task's spec: each problem lands on the kernels it concerns.
// Bounded work: each file is read with its size limit and each check is
// bounded (core/task/tunable_kernel.h).
std::vector<StartingKernelFit> fitStartingKernels(const std::vector<StartingKernelFile>& files,
                                                  const std::string& taskSpecJson);

}  // namespace crucible
