// SPDX-License-Identifier: GPL-3.0-or-later
// The kernel ABI of a task (see task_spec.h) spelled out in CUDA C++, for
// proposers that write kernels and for checks that a kernel follows it.
#pragma once
#include <string>
#include <vector>
#include "core/task/task_spec.h"

namespace crucible {

// A candidate or baseline writes outputs in their dtype; the oracle writes double.
enum class KernelRole { Candidate, Oracle };

struct KernelParameter {
  std::string type;   // "const float* __restrict__", "double* __restrict__", "long long"
  std::string name;   // the tensor's or the scalar's name
};

// Inputs (spec order), then outputs, then scalars.
std::vector<KernelParameter> kernelParameters(const TaskSpec& spec, KernelRole role);

// `extern "C" __global__ void <entry>(<parameters>)`, single-spaced.
std::string kernelSignature(const TaskSpec& spec, KernelRole role, const std::string& entry);

// True when `source`, with whitespace runs collapsed, contains kernelSignature().
bool sourceHasSignature(const std::string& source, const TaskSpec& spec, KernelRole role, const std::string& entry);

}  // namespace crucible
