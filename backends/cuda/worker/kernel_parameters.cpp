// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/worker/kernel_parameters.h"
#include <algorithm>
#include "backends/cuda/worker/driver_api.h"

namespace crucible::cuda {

std::vector<DeclaredParameter> declaredParameters(CUfunction fn) {
  std::vector<DeclaredParameter> out;
  // A kernel takes at most 32764 bytes of parameters, so at most 32764 of them.
  for (std::size_t i = 0; i < 32768; ++i) {
    DeclaredParameter p;
    const CUresult rc = driver().cuFuncGetParamInfo(fn, i, &p.offset, &p.bytes);
    if (rc == CUDA_ERROR_INVALID_VALUE) break;  // past the last parameter
    check(rc, "reading a kernel's parameters (cuFuncGetParamInfo)");
    out.push_back(p);
  }
  return out;
}

std::vector<std::size_t> abiParameterSizes(std::size_t arguments, std::size_t tensorMaps) {
  std::vector<std::size_t> sizes(arguments, sizeof(CUdeviceptr));
  static_assert(sizeof(CUdeviceptr) == sizeof(long long), "pointers and scalars are both passed as 8 bytes");
  sizes.insert(sizes.end(), tensorMaps, sizeof(CUtensorMap));
  return sizes;
}

std::size_t parameterBlockBytes(const std::vector<DeclaredParameter>& declared) {
  std::size_t end = 0;
  for (const DeclaredParameter& p : declared) end = std::max(end, p.offset + p.bytes);
  return end;
}

std::string parameterMismatch(const std::vector<DeclaredParameter>& declared, const std::vector<std::size_t>& passed,
                              const std::string& who) {
  auto sizes = [](auto first, auto last, auto bytes) {
    std::string s;
    for (auto it = first; it != last; ++it) s += (s.empty() ? "" : ", ") + std::to_string(bytes(*it));
    return "(" + s + ")";
  };
  const std::string declaredSizes =
      sizes(declared.begin(), declared.end(), [](const DeclaredParameter& p) { return p.bytes; });
  const std::string passedSizes = sizes(passed.begin(), passed.end(), [](std::size_t b) { return b; });
  const std::string tail = ": its binary declares parameters of " + declaredSizes + " bytes, the task passes " +
                           passedSizes + " (the driver would copy host memory past the arguments into the launch)";
  if (declared.size() != passed.size())
    return who + " takes " + std::to_string(declared.size()) + " parameter(s), not the task's " +
           std::to_string(passed.size()) + tail;
  for (std::size_t i = 0; i < passed.size(); ++i)
    if (declared[i].bytes != passed[i])
      return who + "'s parameter " + std::to_string(i + 1) + " is " + std::to_string(declared[i].bytes) +
             " bytes, not the " + std::to_string(passed[i]) + " the task passes" + tail;
  return {};
}

}  // namespace crucible::cuda
