// SPDX-License-Identifier: GPL-3.0-or-later
// Element types of task tensors: names in spec files, CUDA spellings, sizes.
#include "core/task/task_spec.h"

namespace crucible {

const char* toString(DType d) {
  switch (d) {
    case DType::F32: return "f32";
    case DType::F16: return "f16";
    case DType::BF16: return "bf16";
    case DType::F64: return "f64";
    case DType::I32: return "i32";
    case DType::I64: return "i64";
  }
  return "?";
}

const char* cudaTypeName(DType d) {
  switch (d) {
    case DType::F32: return "float";
    case DType::F16: return "__half";
    case DType::BF16: return "__nv_bfloat16";
    case DType::F64: return "double";
    case DType::I32: return "int";
    case DType::I64: return "long long";
  }
  return "?";
}

std::size_t sizeOf(DType d) {
  switch (d) {
    case DType::F32: return 4;
    case DType::F16: return 2;
    case DType::BF16: return 2;
    case DType::F64: return 8;
    case DType::I32: return 4;
    case DType::I64: return 8;
  }
  return 0;
}

std::optional<DType> dtypeFromString(const std::string& s) {
  for (DType d : {DType::F32, DType::F16, DType::BF16, DType::F64, DType::I32, DType::I64})
    if (s == toString(d)) return d;
  return std::nullopt;
}

bool isFloating(DType d) {
  return d == DType::F32 || d == DType::F16 || d == DType::BF16 || d == DType::F64;
}

}  // namespace crucible
