// SPDX-License-Identifier: GPL-3.0-or-later
// Tasks that state their operator as expressions (TaskSpec::operation), for the
// template tests: the user-written files of tests/tasks/any-operator, and
// specs built in code at shapes those files do not have (odd lengths,
// broadcasts of every kind, each dtype).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>
#include "core/task/task_spec.h"

namespace crucible::testing_support {

// The .json files of tests/tasks/any-operator, sorted.
std::vector<std::string> anyOperatorTaskFiles();
TaskSpec loadTaskFile(const std::string& path);

struct OperatorTensor {
  std::string name;
  DType dtype;
  std::vector<std::string> shape;
};
// A spec (no baseline or oracle kernels: the proposer does not read them) whose
// scalars are every axis, in name order.
TaskSpec makeOperatorTask(const std::string& name, const OperatorSpec& op, const std::vector<OperatorTensor>& inputs,
                          const OperatorTensor& output, const std::map<std::string, std::int64_t>& axes);

struct OperatorCase {
  std::string label;
  TaskSpec spec;
};
// Elementwise operators: one to three inputs, every broadcast kind, f32/f16/bf16
// and mixed, lengths that are and are not multiples of 8.
std::vector<OperatorCase> elementwiseOperatorCases();
// Rowwise operators: log-softmax, layernorm, rmsnorm with a residual, row
// log-sum-exp, a per-row-scaled variant; odd, short, long and single rows.
std::vector<OperatorCase> rowwiseOperatorCases();

// Batched GEMMs (family matmul / matmul_bias_relu with rank-3 A and C): f32 and
// bf16, B batched or shared, whole and ragged tiles.
std::vector<OperatorCase> batchedGemmCases();

}  // namespace crucible::testing_support
