// SPDX-License-Identifier: GPL-3.0-or-later
// Shared pieces of the GPU tests: skipping cleanly without a GPU, loading a
// task, compiling a kernel for the GPU at hand, one in-process evaluator.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>
#include "backends/cuda/worker/cuda_evaluator.h"
#include "core/engine/interfaces.h"
#include "core/task/task_spec.h"

namespace crucible::gputest {

// Empty when a GPU with a driver is present, else the reason to skip.
std::string whyNoGpu();

#define CRUCIBLE_REQUIRE_GPU()                                                         \
  do {                                                                                 \
    if (std::string why = ::crucible::gputest::whyNoGpu(); !why.empty())              \
      GTEST_SKIP() << "GPU test skipped: " << why;                                     \
  } while (0)

// A task from the built-in suite (resources/tasks) by name.
Task builtinTask(const std::string& name);
// A task from a spec document.
Task taskFromJson(const std::string& specJson);

// Compiles `source` for the first GPU's arch; fails the test (throws) with the
// compiler's log when it does not compile.
KernelBinary compileKernel(const std::string& source, const std::string& entry, const std::string& grid,
                           const std::string& block = "256", const std::string& smem = "0");

// Compiles `source` for the first GPU's arch with the whole launch rule (tensor maps included).
KernelBinary compileKernel(const std::string& source, const LaunchRule& launch);

// The task's baseline, compiled.
KernelBinary compileBaseline(const Task& task);

// `candidate` against `reference` for `task`: validated on seed 1, then timed.
EvaluationRequest timedRequest(const Task& task, const KernelBinary& candidate, const KernelBinary& reference);

// One evaluator for the whole test binary (creating a context costs time).
cuda::CudaEvaluator& sharedEvaluator();

// `candidate` for `task`, validated on `seeds` and timed against the task's
// baseline in the shared evaluator; the verdict is printed.
Evaluation evaluateTimed(const Task& task, const KernelBinary& candidate, const std::vector<std::uint64_t>& seeds);

}  // namespace crucible::gputest
