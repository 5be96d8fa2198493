// SPDX-License-Identifier: GPL-3.0-or-later
// The CUDA driver API, loaded at run time. The worker links no libcuda: it
// dlopens libcuda.so.1 and resolves every entry point through
// cuGetProcAddress at the ABI version of the headers it was built with, so the
// binary starts (and says why it cannot evaluate) where no driver exists.
#pragma once
#include <cuda.h>
#include <cudaTypedefs.h>
#include <stdexcept>
#include <string>

namespace crucible::cuda {

// Every driver entry point the worker uses. `decltype(&::f)` takes the
// prototype from cuda.h (where e.g. cuMemAlloc is a macro for cuMemAlloc_v2),
// and the string "#f" is the base name that cuGetProcAddress wants.
#define CRUCIBLE_CU_FUNCTIONS(X)                                                                      \
  X(cuInit) X(cuDriverGetVersion) X(cuDeviceGetCount) X(cuDeviceGet) X(cuDeviceGetName)               \
  X(cuDeviceGetAttribute) X(cuDeviceTotalMem) X(cuDeviceGetPCIBusId) X(cuDevicePrimaryCtxRetain)      \
  X(cuDevicePrimaryCtxRelease) X(cuCtxSetCurrent) X(cuCtxGetCurrent) X(cuCtxGetLimit) X(cuCtxSetLimit)              \
  X(cuGetErrorName) X(cuGetErrorString) X(cuMemAlloc) X(cuMemFree) X(cuMemcpyHtoD) X(cuMemcpyDtoH)    \
  X(cuMemcpyDtoD) X(cuMemcpyDtoDAsync) X(cuMemcpyHtoDAsync) X(cuMemHostRegister) X(cuMemHostUnregister) X(cuMemsetD8) X(cuMemsetD8Async) X(cuMemsetD16) X(cuMemsetD32) X(cuMemsetD32Async) X(cuMemGetInfo)                \
  X(cuModuleLoadData) X(cuModuleUnload) X(cuModuleGetFunction) X(cuModuleGetGlobal) X(cuFuncSetAttribute)                  \
  X(cuFuncGetAttribute) X(cuFuncGetParamInfo) X(cuLaunchKernel) X(cuStreamCreate) X(cuStreamDestroy) X(cuStreamQuery)       \
  X(cuStreamSynchronize) X(cuEventCreate) X(cuEventDestroy) X(cuEventRecord) X(cuEventQuery)          \
  X(cuEventSynchronize) X(cuEventElapsedTime) X(cuOccupancyMaxActiveBlocksPerMultiprocessor)      \
  X(cuTensorMapEncodeTiled) X(cuMemGetAllocationGranularity) X(cuMemCreate) X(cuMemRelease)  \
  X(cuMemAddressReserve) X(cuMemAddressFree) X(cuMemMap) X(cuMemUnmap) X(cuMemSetAccess)

// Entry points whose unversioned prototype in cuda.h is older than what
// cuGetProcAddress returns at CUDA_VERSION: cuda.h declares cuCtxGetDevice with
// one parameter, but at 13000 the driver hands out cuCtxGetDevice_v2, which
// also takes the context (a null context means the current one); the same for
// cuCtxSynchronize. Called through the old prototype, the context argument is
// whatever the register held. These take their type from cudaTypedefs.h's PFN for
// the version resolved. (tests/backends/gpu/driver_api_test.cpp checks every
// entry's parameter count against cudaTypedefs.h.)
#define CRUCIBLE_CU_VERSIONED_FUNCTIONS(Y) \
  Y(cuCtxGetDevice, PFN_cuCtxGetDevice_v13000) Y(cuCtxSynchronize, PFN_cuCtxSynchronize_v13000)

struct DriverApi {
#define CRUCIBLE_CU_MEMBER(f) decltype(&::f) f = nullptr;
  CRUCIBLE_CU_FUNCTIONS(CRUCIBLE_CU_MEMBER)
#undef CRUCIBLE_CU_MEMBER
#define CRUCIBLE_CU_VERSIONED_MEMBER(f, type) type f = nullptr;
  CRUCIBLE_CU_VERSIONED_FUNCTIONS(CRUCIBLE_CU_VERSIONED_MEMBER)
#undef CRUCIBLE_CU_VERSIONED_MEMBER
};

// Thrown when the driver cannot be loaded or a call fails. `code` is the
// CUresult (0 when the library itself is missing).
class DriverError : public std::runtime_error {
public:
  DriverError(CUresult code, const std::string& message) : std::runtime_error(message), code_(code) {}
  CUresult code() const { return code_; }
private:
  CUresult code_;
};

// The process-wide driver table, loaded on first use. Throws DriverError with
// a sentence a user can act on when libcuda.so.1 is missing or too old.
const DriverApi& driver();

// Set once this process's CUDA context is dead (a sticky fault, or a kernel
// that never ends). From then on destructors make no driver calls: unloading
// a module or freeing memory would wait for the hung kernel forever, and the
// process is about to exit anyway.
void markContextLost();
bool contextLost();

// "CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was encountered)".
std::string describe(CUresult rc);

// Throws DriverError naming `what` when rc is not CUDA_SUCCESS.
void check(CUresult rc, const char* what);

}  // namespace crucible::cuda
