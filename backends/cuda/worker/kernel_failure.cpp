// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/worker/kernel_failure.h"
#include "backends/cuda/worker/driver_api.h"

namespace crucible::cuda {

CandidateStatus statusForError(CUresult rc) {
  switch (rc) {
    case CUDA_ERROR_ILLEGAL_ADDRESS:
    case CUDA_ERROR_MISALIGNED_ADDRESS:
    case CUDA_ERROR_INVALID_ADDRESS_SPACE:
    case CUDA_ERROR_INVALID_PC:
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    case CUDA_ERROR_HARDWARE_STACK_ERROR:
    case CUDA_ERROR_ASSERT:
    case CUDA_ERROR_LAUNCH_FAILED:
    case CUDA_ERROR_ECC_UNCORRECTABLE:
    case CUDA_ERROR_UNKNOWN:
      return CandidateStatus::Faulted;
    case CUDA_ERROR_LAUNCH_TIMEOUT:
      return CandidateStatus::TimedOut;
    case CUDA_ERROR_INVALID_IMAGE:
    case CUDA_ERROR_NO_BINARY_FOR_GPU:
    case CUDA_ERROR_INVALID_PTX:
    case CUDA_ERROR_UNSUPPORTED_PTX_VERSION:
    case CUDA_ERROR_NOT_FOUND:
    case CUDA_ERROR_INVALID_SOURCE:
      return CandidateStatus::CompileFailed;
    default:
      // LAUNCH_OUT_OF_RESOURCES, INVALID_VALUE (block or smem beyond limits),
      // OUT_OF_MEMORY, COOPERATIVE_LAUNCH_TOO_LARGE and the like.
      return CandidateStatus::ResourceError;
  }
}

std::string explainError(const std::string& what, CUresult rc) {
  std::string s = what + ": " + describe(rc);
  switch (rc) {
    case CUDA_ERROR_ILLEGAL_ADDRESS: s += "; the kernel read or wrote outside its buffers"; break;
    case CUDA_ERROR_MISALIGNED_ADDRESS: s += "; a vector access was not aligned to its width"; break;
    case CUDA_ERROR_LAUNCH_FAILED: s += "; the kernel trapped or faulted"; break;
    case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES: s += "; too many registers per thread for this block size"; break;
    case CUDA_ERROR_INVALID_VALUE: s += "; block size, grid size or shared memory is beyond the device's limits"; break;
    case CUDA_ERROR_NOT_FOUND: s += "; the kernel's entry name is not in the binary (missing extern \"C\"?)"; break;
    default: break;
  }
  return s;
}

}  // namespace crucible::cuda
