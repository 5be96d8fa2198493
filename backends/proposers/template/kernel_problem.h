// SPDX-License-Identifier: GPL-3.0-or-later
// What the template emitters need to know about a task: its family, the
// tensors in ABI order with their role names, the axes and which of them
// arrive as kernel scalars. Built from a TaskSpec; a spec whose tensors do not
// match the family's layout is rejected with a message naming the mismatch.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>
#include "core/task/task_spec.h"

namespace crucible::templates {

struct ProblemTensor {
  std::string role;                 // the emitter's name for it: "x", "weight", "A"...
  DType dtype = DType::F32;
  std::vector<std::string> shape;   // axis names or integer literals, from the spec
};

struct KernelProblem {
  std::string taskName;
  std::string family;               // TaskSpec::family
  std::string entry;                // the __global__ function's name
  std::map<std::string, std::int64_t> axes;
  std::vector<ProblemTensor> inputs;
  std::vector<ProblemTensor> outputs;
  std::vector<std::string> scalars; // axis names passed as `long long`, in order

  const ProblemTensor& input(const std::string& role) const;
  const ProblemTensor& output(const std::string& role) const;

  // The value of a tensor dimension at the task's shapes.
  std::int64_t extent(const ProblemTensor& t, int dim) const;
  // How kernel code names that dimension: the scalar parameter when the axis
  // is passed ("N"), otherwise its value as a literal ("4096LL").
  std::string extentCode(const ProblemTensor& t, int dim) const;
  // How a launch rule names it: the axis name or the literal.
  std::string extentExpr(const ProblemTensor& t, int dim) const;

  // `extern "C" __global__ void <entry>(const float* __restrict__ x, ..., long long M, ...)`
  // A non-empty `launchBounds` ("THREADS") adds __launch_bounds__(launchBounds).
  // Each role in `tensorMaps` appends `const __grid_constant__ CUtensorMap tmap_<role>`
  // (core/task/kernel_abi.h), for a launch rule that asks the worker for those maps.
  std::string signature(const std::string& launchBounds, const std::vector<std::string>& tensorMaps = {}) const;
  bool usesDType(DType d) const;
};

// Throws std::invalid_argument naming the spec field that does not fit the family.
KernelProblem problemFromSpec(const TaskSpec& spec);

}  // namespace crucible::templates
