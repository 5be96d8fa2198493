// SPDX-License-Identifier: GPL-3.0-or-later
// The driver's memory for launch parameters, as a kernel can reach it. A
// __grid_constant__ parameter's address is a generic global address (TMA
// kernels pass their tensor maps' this way), and on the H100 with driver
// 580 each launch's parameters lay 0x210 bytes into its own 64 KiB slot of a
// ring, the next launch in the next slot; marks written past the parameters
// survived 200 later launches (session 32, probe_param.cu). Asks what a watch
// of that memory would need: does the driver say where the ring lies and how
// large it is; how many slots it has before they are reused; and whether the
// driver ever writes a slot past its parameters (4 KiB ones included).
//   probe_param_ring CUBIN
#include <cuda.h>
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>
#define CK(x) do { CUresult r = (x); if (r != CUDA_SUCCESS) { const char* s; cuGetErrorString(r, &s); printf("%s: %s\n", #x, s); return 1; } } while (0)
struct Small { unsigned long long v[4]; };
struct Large { unsigned long long v[512]; };
int main(int argc, char** argv) {
  if (argc < 2) { printf("usage: probe_param_ring CUBIN\n"); return 2; }
  CK(cuInit(0)); CUdevice dev; CK(cuDeviceGet(&dev, 0)); CUcontext ctx; CK(cuDevicePrimaryCtxRetain(&ctx, dev)); CK(cuCtxSetCurrent(ctx));
  std::ifstream f(argv[1], std::ios::binary); std::stringstream ss; ss << f.rdbuf(); std::string cubin = ss.str();
  CUmodule m; CK(cuModuleLoadData(&m, cubin.data()));
  CUfunction where, whereLarge, markSlots;
  CK(cuModuleGetFunction(&where, m, "where")); CK(cuModuleGetFunction(&whereLarge, m, "whereLarge")); CK(cuModuleGetFunction(&markSlots, m, "markSlots"));
  const int n = 6000;
  CUdeviceptr out; CK(cuMemAlloc(&out, n * 8)); CUdeviceptr bad; CK(cuMemAlloc(&bad, 8));
  Small small{{1, 2, 3, 4}}; Large large{}; 
  for (int i = 0; i < n; ++i) {
    void* p[] = {&small, &out, &i};
    CK(cuLaunchKernel(where, 1, 1, 1, 32, 1, 1, 0, 0, p, nullptr));
  }
  CK(cuCtxSynchronize());
  std::vector<unsigned long long> at(n); CK(cuMemcpyDtoH(at.data(), out, n * 8));
  std::set<unsigned long long> distinct(at.begin(), at.end());
  int period = 0;
  for (int i = 1; i < n && !period; ++i) if (at[i] == at[0]) period = i;
  printf("%d launches: &p from 0x%llx to 0x%llx, %zu distinct, first repeat after %d launches; steps:", n,
         *distinct.begin(), *distinct.rbegin(), distinct.size(), period);
  for (int i = 1; i < 8; ++i) printf(" %lld", (long long)(at[i] - at[i - 1]));
  printf("\n");
  CUdeviceptr base = 0; size_t size = 0;
  CUresult r = cuMemGetAddressRange(&base, &size, (CUdeviceptr)at[0]);
  const char* s; cuGetErrorString(r, &s);
  printf("cuMemGetAddressRange(&p): %s, 0x%llx + %zu\n", s, (unsigned long long)base, size);
  unsigned int type = 0; r = cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)at[0]);
  cuGetErrorString(r, &s); printf("CU_POINTER_ATTRIBUTE_MEMORY_TYPE: %s, %u\n", s, type);
  const unsigned long long stride = 64 * 1024, lo = *distinct.begin() & ~(stride - 1), hi = (*distinct.rbegin() & ~(stride - 1)) + stride;
  // Marks past the largest parameters (0x210 + 4 KiB, rounded up) and between small parameters and that.
  struct Region { unsigned from, to; const char* what; } regions[] = {{0x2000, 0x10000, "past 8 KiB"}, {0x300, 0x2000, "0x300 to 8 KiB"}};
  for (const Region& g : regions) {
    CK(cuMemsetD8(bad, 0, 8));
    unsigned long long mark = 0x4D41524B00000000ull + g.from; int verify = 0;
    void* mp[] = {&small, (void*)&lo, (void*)&hi, (void*)&stride, (void*)&g.from, (void*)&g.to, &mark, &verify, &bad};
    CK(cuLaunchKernel(markSlots, 264, 1, 1, 256, 1, 1, 0, 0, mp, nullptr)); CK(cuCtxSynchronize());
    for (int i = 0; i < n; ++i) {
      large.v[511] = 0; void* p[] = {&large, &out, &i}; void* q[] = {&small, &out, &i};
      CK(cuLaunchKernel(i % 2 ? whereLarge : where, 1, 1, 1, 32, 1, 1, 0, 0, i % 2 ? p : q, nullptr));
    }
    CK(cuCtxSynchronize());
    verify = 1; CK(cuLaunchKernel(markSlots, 264, 1, 1, 256, 1, 1, 0, 0, mp, nullptr)); CK(cuCtxSynchronize());
    unsigned long long b = 0; CK(cuMemcpyDtoH(&b, bad, 8));
    printf("marks %s of every slot in [0x%llx, 0x%llx), after %d launches (half with 4 KiB of parameters): %llu words changed of %llu\n",
           g.what, lo, hi, n, b, (unsigned long long)((hi - lo) / stride) * (g.to - g.from) / 8);
  }
  return 0;
}
