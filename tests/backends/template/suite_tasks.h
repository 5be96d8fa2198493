// SPDX-License-Identifier: GPL-3.0-or-later
// Task specs of the suite's families at arbitrary shapes, built in code so the
// template tests can try shapes the built-in suite does not have (odd sizes
// that leave tails, tiny rows, wide rows).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>
#include "core/task/task_spec.h"

namespace crucible::testing_support {

// family: one of the suite's families; dtype: "f32" or "bf16" (GEMM, rmsnorm);
// axes: "M", "N", "K", "V" as the family needs.
TaskSpec makeTask(const std::string& family, DType dtype, const std::map<std::string, std::int64_t>& axes);

struct ShapeCase {
  std::string label;  // "softmax f32 1000x1000"
  TaskSpec spec;
};
// Small, large and ragged shapes for every family of the suite.
std::vector<ShapeCase> shapeCases(const std::string& family);
std::vector<std::string> suiteFamilies();

// `spec` with each tensor (inputs, then outputs) named as the family's code calls the
// next one ("A", "B", "C" -> "B", "C", "A"): every name a role, none its own, the most
// a kernel's names could shadow each other.
TaskSpec withTensorNamesRotated(TaskSpec spec);

// A matmul or matmul_bias_relu task of makeTask made batched: axis "Bt" = batch
// in front of A and C, and of B when `batchedB` (else every entry shares it).
TaskSpec batchedGemm(TaskSpec gemm, std::int64_t batch, bool batchedB);

}  // namespace crucible::testing_support
