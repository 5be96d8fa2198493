// SPDX-License-Identifier: GPL-3.0-or-later
// A kernel's parameters as its binary declares them, against what the worker
// passes.
//
// cuLaunchKernel copies each parameter from the host pointer the caller gives,
// with the size the *kernel* declares. A kernel that declares one parameter
// more than the task's ABI, or a larger one, makes the driver copy host
// memory past the worker's arguments into its launch: the worker's heap, where
// the keys of the hashes and masks live. The source's signature is checked by
// text when it is compiled (kernel_abi.h), which a comment or a second kernel
// can satisfy; the binary is what runs, so its parameters are checked before
// its first launch.
#pragma once
#include <cuda.h>
#include <cstddef>
#include <string>
#include <vector>

namespace crucible::cuda {

struct DeclaredParameter {
  std::size_t offset = 0;
  std::size_t bytes = 0;
};

// The parameters `fn` declares, in order (cuFuncGetParamInfo). Throws
// DriverError when the driver cannot say.
std::vector<DeclaredParameter> declaredParameters(CUfunction fn);

// The bytes of `fn`'s parameter block: the end of its last parameter (0 for none).
std::size_t parameterBlockBytes(const std::vector<DeclaredParameter>& declared);

// The sizes the task's ABI passes (kernel_abi.h): `arguments` of 8 bytes
// (device pointers, then long long scalars), then `tensorMaps` of 128.
std::vector<std::size_t> abiParameterSizes(std::size_t arguments, std::size_t tensorMaps);

// "" when `declared` has exactly the sizes in `passed`, in order; else a
// sentence naming the first difference, for `who` ("the candidate 'k'").
std::string parameterMismatch(const std::vector<DeclaredParameter>& declared, const std::vector<std::size_t>& passed,
                              const std::string& who);

// parameterMismatch of what `fn` declares against the task's ABI with
// `arguments` arguments and `tensorMaps` maps: the check before a kernel's
// first launch (the evaluator's, the profiler's and the sanitizers' runs).
std::string parameterProblem(CUfunction fn, std::size_t arguments, std::size_t tensorMaps, const std::string& who);

}  // namespace crucible::cuda
