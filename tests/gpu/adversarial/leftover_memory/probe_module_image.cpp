// SPDX-License-Identifier: GPL-3.0-or-later
// Where a module variable's load-time copy lands when it is kept the way the
// worker kept it until 2026-12-05 (cuModuleLoadData, cuModuleGetGlobal, a
// cuMemAlloc'd buffer copied from the variable), and whether the module's own
// kernel finds it by scanning SPAN bytes either side of the variable.
//   probe_module_image SPAN STEP [EXTRA_ALLOCS [CUBIN]]
// CUBIN: probe_module_image_kernel.cu built with nvcc -cubin.
#include <cuda.h>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#define CK(x) do { CUresult r = (x); if (r != CUDA_SUCCESS) { const char* s; cuGetErrorString(r, &s); printf("%s: %s\n", #x, s); return 1; } } while (0)
int main(int argc, char** argv) {
  long long span = atoll(argv[1]), step = atoll(argv[2]);
  int extraAllocs = argc > 3 ? atoi(argv[3]) : 0;
  CK(cuInit(0)); CUdevice dev; CK(cuDeviceGet(&dev, 0)); CUcontext ctx; CK(cuDevicePrimaryCtxRetain(&ctx, dev)); CK(cuCtxSetCurrent(ctx));
  // Some buffers first, as the worker has (task buffers, the flush buffer).
  for (int i = 0; i < extraAllocs; ++i) { CUdeviceptr p; CK(cuMemAlloc(&p, (64ull << 20))); }
  std::ifstream f(argc > 4 ? argv[4] : "probe_module_image_kernel.cubin", std::ios::binary); std::stringstream ss; ss << f.rdbuf(); std::string cubin = ss.str();
  CUmodule m; CK(cuModuleLoadData(&m, cubin.data()));
  CUdeviceptr var; size_t bytes; CK(cuModuleGetGlobal(&var, &bytes, m, "state"));
  CUdeviceptr image; CK(cuMemAlloc(&image, bytes)); CK(cuMemcpyDtoD(image, var, bytes));
  CUdeviceptr found; CK(cuMemAlloc(&found, 8));
  CUfunction k; CK(cuModuleGetFunction(&k, m, "look"));
  void* params[] = {&span, &step, &found};
  CK(cuLaunchKernel(k, 1, 1, 1, 32, 1, 1, 0, 0, params, nullptr));
  CUresult r = cuCtxSynchronize();
  if (r != CUDA_SUCCESS) { const char* s; cuGetErrorString(r, &s); printf("span %lld: the scan faulted (%s); var 0x%llx image 0x%llx (image - var = %lld)\n", span, s, (unsigned long long)var, (unsigned long long)image, (long long)(image - var)); return 0; }
  long long off = 0; CK(cuMemcpyDtoH(&off, found, 8));
  printf("span %lld: var 0x%llx, image 0x%llx (image - var = %lld); the kernel found the image at var %+lld%s\n", span,
         (unsigned long long)var, (unsigned long long)image, (long long)(image - var), off, off == (long long)(image - var) && off ? " (the worker's copy)" : off ? " (another copy)" : " (not found)");
  return 0;
}
