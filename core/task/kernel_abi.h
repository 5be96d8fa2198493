// SPDX-License-Identifier: GPL-3.0-or-later
// The kernel ABI of a task (see task_spec.h) spelled out in CUDA C++, for
// proposers that write kernels and for checks that a kernel follows it.
//
// A candidate's launch rule may ask for TMA tensor maps (LaunchRule::tensorMaps):
// each adds one parameter after the task's, `const __grid_constant__ CUtensorMap
// tmap_<tensor>`, which the worker encodes on the host for the tensor's buffer.
#pragma once
#include <cstdint>
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

// Inputs (spec order), then outputs, then scalars, then one CUtensorMap per
// tensor map rule (in rule order).
std::vector<KernelParameter> kernelParameters(const TaskSpec& spec, KernelRole role,
                                              const std::vector<TensorMapRule>& tensorMaps = {});

// `extern "C" __global__ void <entry>(<parameters>)`, single-spaced.
std::string kernelSignature(const TaskSpec& spec, KernelRole role, const std::string& entry,
                            const std::vector<TensorMapRule>& tensorMaps = {});

// True when `source`, with whitespace runs collapsed, contains kernelSignature(),
// allowing launch attributes (`__launch_bounds__(...)`, `__cluster_dims__(...)`)
// between `void` and the kernel's name.
bool sourceHasSignature(const std::string& source, const TaskSpec& spec, KernelRole role, const std::string& entry,
                        const std::vector<TensorMapRule>& tensorMaps = {});

// The tensor map parameter's type and name: "const __grid_constant__ CUtensorMap", "tmap_A".
std::string tensorMapParameterType();
std::string tensorMapParameterName(const TensorMapRule& rule);

// What a kernel source that takes tensor maps puts before its signature: NVRTC
// has no cuda.h, so the type is declared with the driver's size (128 bytes)
// and alignment (64).
std::string tensorMapTypeDeclaration();

// A tensor seen as the row-major matrix a tensor map describes: cols = its
// last axis, rows = the product of the others (1 for a vector).
struct TensorMatrix {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::size_t elementBytes = 0;
  std::int64_t rowStrideBytes() const { return cols * static_cast<std::int64_t>(elementBytes); }
};
// Throws std::invalid_argument when `tensor` is not an input or output of the spec.
TensorMatrix tensorMatrix(const TaskSpec& spec, const std::string& tensor);

// Swizzle span in bytes: "none" -> 0, "32B" -> 32, "64B" -> 64, "128B" -> 128; -1 for unknown text.
int swizzleBytes(const std::string& swizzle);

// Every reason a rule cannot be encoded by cuTensorMapEncodeTiled, each naming
// the rule ("tensorMaps[1] (B): box rows 300 outside 1..256"). Empty = all fine.
// The oracle never takes tensor maps: for KernelRole::Oracle every rule is a problem.
std::vector<std::string> tensorMapProblems(const TaskSpec& spec, const std::vector<TensorMapRule>& tensorMaps,
                                           KernelRole role = KernelRole::Candidate);

}  // namespace crucible
