// SPDX-License-Identifier: GPL-3.0-or-later
// Whether a kernel reads host memory at its host address: a buffer the host
// page-locks with cuMemHostRegister(flags 0), as the worker does for its
// staging buffers and the oracle's host results, and a plain malloc'd one
// (readable only under HMM or ATS). The kernel gets each address as a number,
// as a kernel that had guessed it would. A fault ends the context, so the
// plain buffer is read in a second process (`probe_host_read pageable`).
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
__global__ void peek(unsigned long long address, unsigned long long* out) { *out = *(volatile unsigned long long*)address; }
int main(int argc, char** argv) {
  const bool pageable = argc > 1 && std::strcmp(argv[1], "pageable") == 0;
  int canUse = 0, pageableAccess = 0;
  cudaDeviceGetAttribute(&canUse, cudaDevAttrCanUseHostPointerForRegisteredMem, 0);
  cudaDeviceGetAttribute(&pageableAccess, cudaDevAttrPageableMemoryAccess, 0);
  auto* host = static_cast<unsigned long long*>(std::aligned_alloc(4096, 1 << 20));
  host[0] = 0x5EEDF00DCAFEull;
  if (!pageable && cuMemHostRegister(host, 1 << 20, 0) != CUDA_SUCCESS) { std::printf("register failed\n"); return 1; }
  unsigned long long* out;
  cudaMalloc(&out, 8);
  cudaMemset(out, 0, 8);
  peek<<<1, 1>>>(reinterpret_cast<unsigned long long>(host), out);
  const cudaError_t e = cudaDeviceSynchronize();
  unsigned long long got = 0;
  if (e == cudaSuccess) cudaMemcpy(&got, out, 8, cudaMemcpyDeviceToHost);
  std::printf("%s host memory (canUseHostPointerForRegisteredMem %d, pageableMemoryAccess %d): %s\n",
              pageable ? "pageable" : "page-locked", canUse, pageableAccess,
              e != cudaSuccess ? cudaGetErrorString(e) : got == host[0] ? "the kernel read it at its host address" : "read something else");
  return 0;
}
