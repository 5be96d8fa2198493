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
  std::vector<std::size_t> sizes;
  for (const DeclaredParameter& p : declared) sizes.push_back(p.bytes);
  if (sizes == passed) return {};
  auto list = [](const std::vector<std::size_t>& bytes) {
    std::string s;
    for (std::size_t b : bytes) s += (s.empty() ? "" : ", ") + std::to_string(b);
    return "(" + s + ")";
  };
  const std::string tail = ": its binary declares parameters of " + list(sizes) + " bytes, the task passes " +
                           list(passed) + " (the driver would copy host memory past the arguments into the launch)";
  if (sizes.size() != passed.size())
    return who + " takes " + std::to_string(sizes.size()) + " parameter(s), not the task's " +
           std::to_string(passed.size()) + tail;
  std::size_t i = 0;
  while (sizes[i] == passed[i]) ++i;  // they differ somewhere: sizes != passed
  return who + "'s parameter " + std::to_string(i + 1) + " is " + std::to_string(sizes[i]) + " bytes, not the " +
         std::to_string(passed[i]) + " the task passes" + tail;
}

std::string parameterProblem(CUfunction fn, std::size_t arguments, std::size_t tensorMaps, const std::string& who) {
  return parameterMismatch(declaredParameters(fn), abiParameterSizes(arguments, tensorMaps), who);
}

}  // namespace crucible::cuda
