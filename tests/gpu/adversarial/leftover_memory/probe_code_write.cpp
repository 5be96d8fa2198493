// SPDX-License-Identifier: GPL-3.0-or-later
// Runs probe_code_write_kernel's `touch` in one mode (0: the address only,
// 1: read the function's bytes, 2: write them back unchanged) and says whether
// the launch faulted and what it saw. A fault ends the process's context, so
// run each mode in a process of its own.
//   probe_code_write CUBIN MODE
#include <cuda.h>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#define CK(x) do { CUresult r = (x); if (r != CUDA_SUCCESS) { const char* s; cuGetErrorString(r, &s); printf("%s: %s\n", #x, s); return 1; } } while (0)
int main(int argc, char** argv) {
  if (argc < 3) { printf("usage: probe_code_write CUBIN MODE\n"); return 2; }
  int mode = atoi(argv[2]);
  CK(cuInit(0)); CUdevice dev; CK(cuDeviceGet(&dev, 0)); CUcontext ctx; CK(cuDevicePrimaryCtxRetain(&ctx, dev)); CK(cuCtxSetCurrent(ctx));
  std::ifstream f(argv[1], std::ios::binary); std::stringstream ss; ss << f.rdbuf(); std::string cubin = ss.str();
  CUmodule m; CK(cuModuleLoadData(&m, cubin.data()));
  CUfunction k; CK(cuModuleGetFunction(&k, m, "touch"));
  CUdeviceptr out; CK(cuMemAlloc(&out, 64)); CK(cuMemsetD8(out, 0, 64));
  void* params[] = {&mode, &out};
  CK(cuLaunchKernel(k, 1, 1, 1, 32, 1, 1, 0, 0, params, nullptr));
  CUresult r = cuCtxSynchronize();
  if (r != CUDA_SUCCESS) { const char* s; cuGetErrorString(r, &s); printf("mode %d: the launch failed: %s\n", mode, s); return 0; }
  unsigned long long got[6]; CK(cuMemcpyDtoH(got, out, sizeof got));
  printf("mode %d: function address 0x%llx; bytes %016llx %016llx %016llx %016llx; call gave %llu%s\n", mode, got[0],
         got[1], got[2], got[3], got[4], got[5], mode >= 2 ? " (the write did not fault)" : "");
  return 0;
}
