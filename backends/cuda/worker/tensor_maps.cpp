// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/worker/tensor_maps.h"
#include <stdexcept>
#include "backends/cuda/worker/driver_api.h"
#include "backends/cuda/worker/kernel_failure.h"
#include "core/task/kernel_abi.h"

namespace crucible::cuda {
namespace {

// TMA reads global memory from 16-byte aligned addresses (cuda.h,
// cuTensorMapEncodeTiled); the hardware reads the map itself at 64.
constexpr CUdeviceptr kGlobalAlignment = 16;
static_assert(alignof(CUtensorMap) >= 64, "cuLaunchKernel reads tensor map parameters from 64-byte aligned objects");
static_assert(sizeof(CUtensorMap) == 128, "the kernel side declares CUtensorMap as 128 bytes (kernel_abi.h)");

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += (out.empty() ? "" : "; ") + l;
  return out;
}

CUtensorMapSwizzle swizzleOf(const std::string& text) {
  switch (swizzleBytes(text)) {
    case 32: return CU_TENSOR_MAP_SWIZZLE_32B;
    case 64: return CU_TENSOR_MAP_SWIZZLE_64B;
    case 128: return CU_TENSOR_MAP_SWIZZLE_128B;
    default: return CU_TENSOR_MAP_SWIZZLE_NONE;
  }
}

DType dtypeOf(const TaskSpec& spec, const std::string& tensor) {
  for (const auto* list : {&spec.inputs, &spec.outputs})
    for (const TensorSpec& t : *list)
      if (t.name == tensor) return t.dtype;
  throw std::invalid_argument("'" + tensor + "' is not an input or output of task '" + spec.name + "'");
}

}  // namespace

CUtensorMapDataType tensorMapDataType(DType d) {
  switch (d) {
    case DType::F32: return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
    case DType::F16: return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
    case DType::BF16: return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
    case DType::F64: return CU_TENSOR_MAP_DATA_TYPE_FLOAT64;
    case DType::I32: return CU_TENSOR_MAP_DATA_TYPE_INT32;
    case DType::I64: return CU_TENSOR_MAP_DATA_TYPE_INT64;
  }
  throw std::invalid_argument(std::string("TMA has no data type for ") + toString(d));
}

TensorMapEncoding tensorMapEncoding(const TaskSpec& spec, const TensorMapRule& rule) {
  if (auto problems = tensorMapProblems(spec, {rule}); !problems.empty())
    throw std::invalid_argument(joined(problems));
  const TensorMatrix m = tensorMatrix(spec, rule.tensor);
  TensorMapEncoding e;
  e.dataType = tensorMapDataType(dtypeOf(spec, rule.tensor));
  e.globalDim[0] = static_cast<cuuint64_t>(m.cols);
  e.globalDim[1] = static_cast<cuuint64_t>(m.rows);
  e.globalStrides[0] = static_cast<cuuint64_t>(m.rowStrideBytes());
  e.boxDim[0] = static_cast<cuuint32_t>(rule.boxCols);
  e.boxDim[1] = static_cast<cuuint32_t>(rule.boxRows);
  e.swizzle = swizzleOf(rule.swizzle);
  return e;
}

TensorMaps::TensorMaps(const TaskSpec& spec, const std::vector<TensorMapRule>& rules,
                       const std::function<CUdeviceptr(const std::string&)>& bufferOf, const std::string& who,
                       TensorMapEncoder encode) {
  if (rules.empty()) return;
  if (auto problems = tensorMapProblems(spec, rules); !problems.empty())
    throw KernelFailure(CandidateStatus::ResourceError, who + "'s tensor maps cannot be encoded: " + joined(problems));
  if (!encode) encode = driver().cuTensorMapEncodeTiled;
  maps_.resize(rules.size());
  for (std::size_t i = 0; i < rules.size(); ++i) {
    const TensorMapRule& rule = rules[i];
    const std::string label = "tensorMaps[" + std::to_string(i) + "] (" + rule.tensor + ")";
    const CUdeviceptr address = bufferOf(rule.tensor);
    if (address % kGlobalAlignment != 0)
      throw KernelFailure(CandidateStatus::ResourceError,
                          who + "'s " + label + ": the tensor's device address is not 16-byte aligned, as TMA needs "
                                "(a worker bug: its buffers should be)");
    TensorMapEncoding e = tensorMapEncoding(spec, rule);
    const CUresult rc =
        encode(&maps_[i], e.dataType, e.rank, reinterpret_cast<void*>(address), e.globalDim, e.globalStrides, e.boxDim,
               e.elementStrides, e.interleave, e.swizzle, e.l2Promotion, e.oobFill);
    if (rc != CUDA_SUCCESS)
      throw KernelFailure(CandidateStatus::ResourceError,
                          who + "'s " + label + ": cuTensorMapEncodeTiled refused the map (" +
                              std::to_string(e.globalDim[1]) + " x " + std::to_string(e.globalDim[0]) +
                              " elements, box " + std::to_string(rule.boxRows) + " x " + std::to_string(rule.boxCols) +
                              ", swizzle " + rule.swizzle + "): " + describe(rc));
  }
}

void TensorMaps::appendParameters(std::vector<void*>& params) const {
  for (const CUtensorMap& m : maps_) params.push_back(const_cast<CUtensorMap*>(&m));
}

}  // namespace crucible::cuda
