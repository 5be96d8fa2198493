// SPDX-License-Identifier: GPL-3.0-or-later
// What lies around a module variable: the allocation the driver reports for it
// (cuMemGetAddressRange), whether a second module's variables share it (the
// harness's or the reference's modules beside a candidate's), and whether
// marks a kernel writes past its own variables, inside that allocation, are
// still there at its next launch and after the worker's reset of the
// variables (a memset of exactly the variables). The worker watches none of
// that memory as of 2026-12-05; this says whether it has to. With `page`, the
// marks go past the reported allocation instead, up to the end of the 2 MiB
// page the variable lies in (a fault there ends the context: its own process).
//   probe_module_pages CUBIN [page]
// CUBIN: probe_module_pages_kernel.cu built with nvcc -cubin.
#include <cuda.h>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#define CK(x) do { CUresult r = (x); if (r != CUDA_SUCCESS) { const char* s; cuGetErrorString(r, &s); printf("%s: %s\n", #x, s); return 1; } } while (0)
int main(int argc, char** argv) {
  if (argc < 2) { printf("usage: probe_module_pages CUBIN [page]\n"); return 2; }
  CK(cuInit(0)); CUdevice dev; CK(cuDeviceGet(&dev, 0)); CUcontext ctx; CK(cuDevicePrimaryCtxRetain(&ctx, dev)); CK(cuCtxSetCurrent(ctx));
  std::ifstream f(argv[1], std::ios::binary); std::stringstream ss; ss << f.rdbuf(); std::string cubin = ss.str();
  CUmodule a, b; CK(cuModuleLoadData(&a, cubin.data())); CK(cuModuleLoadData(&b, cubin.data()));
  CUdeviceptr va, vb; size_t bytes; CK(cuModuleGetGlobal(&va, &bytes, a, "state")); CK(cuModuleGetGlobal(&vb, &bytes, b, "state"));
  CUdeviceptr baseA, baseB; size_t sizeA, sizeB;
  CK(cuMemGetAddressRange(&baseA, &sizeA, va)); CK(cuMemGetAddressRange(&baseB, &sizeB, vb));
  printf("module A: variable at base %+lld of an allocation of %zu bytes (0x%llx)\n", (long long)(va - baseA), sizeA, (unsigned long long)baseA);
  printf("module B: variable at base %+lld of an allocation of %zu bytes; B's allocation %s A's (B - A = %lld)\n",
         (long long)(vb - baseB), sizeB, baseA == baseB ? "is" : "is not", (long long)(vb - va));
  // Offsets past A's variable, inside A's reported allocation.
  // Past the variable's own bytes only: what the worker's reset covers is not the question.
  std::vector<long long> offsets;
  const bool page = argc > 2 && std::string(argv[2]) == "page";
  const long long pageEnd = (long long)((va + (2ull << 20)) & ~((2ull << 20) - 1));
  const long long room = (page ? pageEnd : (long long)(baseA + sizeA)) - (long long)va;
  const long long first = page ? (((long long)(baseA + sizeA) - (long long)va + 7) & ~7ll) : (((long long)bytes + 7) & ~7ll);
  printf("%s: offsets %lld to %lld past the variable\n", page ? "past the reported allocation, to the page's end" : "inside the reported allocation", first, room - 8);
  for (long long d = first; d + 8 <= room; d = d * 4 + 64) offsets.push_back(d);
  if (room - 8 >= first && (offsets.empty() || offsets.back() != room - 8)) offsets.push_back(room - 8);
  const int n = (int)offsets.size();
  if (n == 0) { printf("nothing lies past the variable inside its allocation (%lld bytes of room)\n", room); return 0; }
  CUdeviceptr dOffsets, dSeen; CK(cuMemAlloc(&dOffsets, n * 8)); CK(cuMemAlloc(&dSeen, n * 8));
  CK(cuMemcpyHtoD(dOffsets, offsets.data(), n * 8));
  CUfunction k; CK(cuModuleGetFunction(&k, a, "mark"));
  unsigned long long markBase = 0x4D41524B00000000ull;
  auto launch = [&](int write) {
    void* params[] = {&dOffsets, (void*)&n, &markBase, &write, &dSeen};
    cuLaunchKernel(k, 1, 1, 1, 64, 1, 1, 0, 0, params, nullptr);
    return cuCtxSynchronize();
  };
  CUresult r = launch(1);
  if (r != CUDA_SUCCESS) { const char* s; cuGetErrorString(r, &s); printf("writing past the variable faulted: %s\n", s); return 0; }
  CK(cuMemsetD8(va, 0, bytes));  // the worker's reset of the variable
  CK(launch(0));
  std::vector<unsigned long long> seen(n); CK(cuMemcpyDtoH(seen.data(), dSeen, n * 8));
  int kept = 0;
  for (int i = 0; i < n; ++i) {
    const bool same = seen[i] == markBase + i;
    kept += same;
    printf("  variable %+lld: %s\n", offsets[i], same ? "the mark is still there" : "gone");
  }
  printf("%d of %d marks past the variable outlived the launch and the reset\n", kept, n);
  return 0;
}
