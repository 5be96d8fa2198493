// SPDX-License-Identifier: GPL-3.0-or-later
// Whether a kernel can write its module's __constant__ data through a generic
// address (cvta.const in inline PTX), whether the write outlives the launch,
// where the constant bank lies against the module's __device__ variables, and
// whether the whole 2 MiB pages holding them read without a fault: what a
// watch of the module's pages would have to cover and could read.
//   probe_module_constant CUBIN
#include <cuda.h>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#define CK(x) do { CUresult r = (x); if (r != CUDA_SUCCESS) { const char* s; cuGetErrorString(r, &s); printf("%s: %s\n", #x, s); return 1; } } while (0)
int main(int argc, char** argv) {
  if (argc < 2) { printf("usage: probe_module_constant CUBIN\n"); return 2; }
  CK(cuInit(0)); CUdevice dev; CK(cuDeviceGet(&dev, 0)); CUcontext ctx; CK(cuDevicePrimaryCtxRetain(&ctx, dev)); CK(cuCtxSetCurrent(ctx));
  std::ifstream f(argv[1], std::ios::binary); std::stringstream ss; ss << f.rdbuf(); std::string cubin = ss.str();
  CUmodule m; CK(cuModuleLoadData(&m, cubin.data()));
  CUdeviceptr c, d; size_t cb, db;
  CK(cuModuleGetGlobal(&c, &cb, m, "ctab")); CK(cuModuleGetGlobal(&d, &db, m, "dvar"));
  CUdeviceptr cBase, dBase; size_t cSize, dSize;
  CK(cuMemGetAddressRange(&cBase, &cSize, c)); CK(cuMemGetAddressRange(&dBase, &dSize, d));
  printf("constant ctab at 0x%llx (allocation 0x%llx, %zu bytes); __device__ dvar at 0x%llx (allocation 0x%llx, %zu bytes); ctab - dvar = %lld\n",
         (unsigned long long)c, (unsigned long long)cBase, cSize, (unsigned long long)d, (unsigned long long)dBase, dSize, (long long)(c - d));
  CUdeviceptr big; size_t bigBytes; CK(cuModuleGetGlobal(&big, &bigBytes, m, "big"));
  printf("__device__ big (%zu bytes) at 0x%llx: %llu bytes past a 2 MiB boundary; big - dvar = %lld\n", bigBytes,
         (unsigned long long)big, (unsigned long long)(big & ((2ull << 20) - 1)), (long long)(big - d));
  CUdeviceptr out; CK(cuMemAlloc(&out, 64)); CK(cuMemsetD8(out, 0, 64));
  CUfunction poke, sweep; CK(cuModuleGetFunction(&poke, m, "poke")); CK(cuModuleGetFunction(&sweep, m, "sweep"));
  // Each 2 MiB page from its start: do they read?
  const unsigned long long page = 2ull << 20;
  // The pages of dvar, of ctab, and every page big touches.
  for (CUdeviceptr at : {d, c, big, big + bigBytes - 1}) {
    CUdeviceptr start = at & ~(page - 1); long long words = (long long)(page / 8);
    void* p[] = {&start, &words, &out};
    CUresult r = cuLaunchKernel(sweep, 132, 1, 1, 256, 1, 1, 0, 0, p, nullptr);
    if (r == CUDA_SUCCESS) r = cuCtxSynchronize();
    const char* s = "ok"; if (r != CUDA_SUCCESS) cuGetErrorString(r, &s);
    printf("reading the 2 MiB page at 0x%llx (holding 0x%llx): %s\n", (unsigned long long)start, (unsigned long long)at, s);
    if (r != CUDA_SUCCESS) return 0;
  }
  for (int write : {1, 0}) {
    void* p[] = {&write, &out};
    CUresult r = cuLaunchKernel(poke, 1, 1, 1, 32, 1, 1, 0, 0, p, nullptr);
    if (r == CUDA_SUCCESS) r = cuCtxSynchronize();
    if (r != CUDA_SUCCESS) { const char* s; cuGetErrorString(r, &s); printf("poke(write=%d): %s\n", write, s); return 0; }
    unsigned long long h[5]; CK(cuMemcpyDtoH(h, out, sizeof h));
    printf("poke(write=%d): generic ctab 0x%llx, dvar 0x%llx; ctab[0] generic 0x%llx, +1 MiB 0x%llx, through the constant cache 0x%llx\n",
           write, h[0], h[1], h[2], h[3], h[4]);
  }
  unsigned long long host[4]; CK(cuMemcpyDtoH(host, c, sizeof host));
  printf("the driver's view of ctab after the launches: 0x%llx 0x%llx (loaded as 1 2)\n", host[0], host[1]);
  return 0;
}
