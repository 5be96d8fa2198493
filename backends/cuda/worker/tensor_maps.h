// SPDX-License-Identifier: GPL-3.0-or-later
// TMA tensor maps a candidate asks for (LaunchRule::tensorMaps), encoded on
// the host with cuTensorMapEncodeTiled for the task's device buffers and
// passed by value after the task's parameters (core/task/kernel_abi.h).
#pragma once
#include <cuda.h>
#include <functional>
#include <string>
#include <vector>
#include "core/task/task_spec.h"

namespace crucible::cuda {

// The arguments of cuTensorMapEncodeTiled for one rule: a rank-2 view of the
// tensor, innermost dimension first (TMA's order), every element of the box
// loaded, no interleave, 256-byte L2 promotion, out-of-bounds elements read as zeros.
struct TensorMapEncoding {
  CUtensorMapDataType dataType = CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  cuuint32_t rank = 2;
  cuuint64_t globalDim[2] = {0, 0};   // {cols, rows}
  cuuint64_t globalStrides[1] = {0};  // bytes from one row to the next
  cuuint32_t boxDim[2] = {0, 0};      // {boxCols, boxRows}
  cuuint32_t elementStrides[2] = {1, 1};
  CUtensorMapInterleave interleave = CU_TENSOR_MAP_INTERLEAVE_NONE;
  CUtensorMapSwizzle swizzle = CU_TENSOR_MAP_SWIZZLE_NONE;
  CUtensorMapL2promotion l2Promotion = CU_TENSOR_MAP_L2_PROMOTION_L2_256B;
  CUtensorMapFloatOOBfill oobFill = CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;
};

CUtensorMapDataType tensorMapDataType(DType d);

// The encoding of `rule`, which must have no tensorMapProblems() (throws
// std::invalid_argument with them otherwise).
TensorMapEncoding tensorMapEncoding(const TaskSpec& spec, const TensorMapRule& rule);

// The signature of cuTensorMapEncodeTiled (a test passes a stand-in).
using TensorMapEncoder = decltype(&::cuTensorMapEncodeTiled);

// One kernel's tensor maps, in rule order: host objects (CUtensorMap is 64-byte
// aligned) whose addresses go into cuLaunchKernel's parameter array. They hold
// device addresses: valid while the buffers they were encoded for live.
class TensorMaps {
public:
  TensorMaps() = default;  // none: a kernel that takes no tensor maps

  // Checks the rules (tensorMapProblems) and encodes each for the buffer
  // `bufferOf(tensor)` returns. Throws KernelFailure (ResourceError) naming
  // `who` and every problem, a misaligned buffer, or the failed encode's
  // CUresult. `encode` defaults to the driver's cuTensorMapEncodeTiled.
  TensorMaps(const TaskSpec& spec, const std::vector<TensorMapRule>& rules,
             const std::function<CUdeviceptr(const std::string&)>& bufferOf, const std::string& who,
             TensorMapEncoder encode = nullptr);

  bool empty() const { return maps_.empty(); }
  std::size_t size() const { return maps_.size(); }
  const CUtensorMap& map(std::size_t i) const { return maps_[i]; }

  // Appends the address of each map to `params` (the task's parameters).
  // cuLaunchKernel copies the values when it queues the launch, so the array
  // only needs to live until then; the maps must live as long as `params` is used.
  void appendParameters(std::vector<void*>& params) const;

private:
  std::vector<CUtensorMap> maps_;
};

}  // namespace crucible::cuda
