// SPDX-License-Identifier: GPL-3.0-or-later
// Queries on a parsed TaskSpec.
#include "core/task/task_spec.h"

#include "core/task/expression.h"

namespace crucible {

std::vector<std::int64_t> resolveShape(const TaskSpec& spec, const TensorSpec& t) {
  std::vector<std::int64_t> dims;
  for (const auto& d : t.shape) dims.push_back(evalExpression(d, spec.axes));
  return dims;
}

std::int64_t elementCount(const TaskSpec& spec, const TensorSpec& t) {
  std::int64_t n = 1;
  for (std::int64_t d : resolveShape(spec, t))
    if (__builtin_mul_overflow(n, d, &n)) throw TaskSpecError(t.name, "element count overflows 64 bits");
  return n;
}

const std::vector<std::string>& knownLibraryReferences() {
  static const std::vector<std::string> known = {"", "cublas_sgemm", "cublaslt_bf16_gemm",
                                                 "cublaslt_bf16_gemm_bias_relu"};
  return known;
}

}  // namespace crucible
