// SPDX-License-Identifier: GPL-3.0-or-later
// What the driver's header before a launch's parameters (0x210 bytes, on the
// H100 with driver 580) tells a kernel: a kernel reads it at its parameter's
// address less 0x210. Prints every word, marks those that look like device
// addresses and says where they lie against what is known (the stream's ring
// of parameter slots, the module's variables, the kernel's local and shared
// variables' generic addresses, an allocation of its own), then reads a word
// at each address that lies in none of them (a read that faults ends the
// probe: the word before it names the address).
//   probe_param_header CUBIN   (probe_param_page_kernel.cu's)
#include <cuda.h>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#define CK(x) do { CUresult r = (x); if (r != CUDA_SUCCESS) { const char* s; cuGetErrorString(r, &s); printf("%s: %s\n", #x, s); return 1; } } while (0)
struct Small { unsigned long long v[4]; };
using u64 = unsigned long long;
int main(int argc, char** argv) {
  if (argc < 2) { printf("usage: probe_param_header CUBIN\n"); return 2; }
  CK(cuInit(0)); CUdevice dev; CK(cuDeviceGet(&dev, 0)); CUcontext ctx; CK(cuDevicePrimaryCtxRetain(&ctx, dev)); CK(cuCtxSetCurrent(ctx));
  CUstream s; CK(cuStreamCreate(&s, CU_STREAM_DEFAULT));
  CK(cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, 1 << 20));
  std::ifstream f(argv[1], std::ios::binary); std::stringstream ss; ss << f.rdbuf(); std::string cubin = ss.str();
  CUmodule m; CK(cuModuleLoadData(&m, cubin.data()));
  CUfunction header, readWord; CK(cuModuleGetFunction(&header, m, "header")); CK(cuModuleGetFunction(&readWord, m, "readWord"));
  CUdeviceptr out; CK(cuMemAlloc(&out, 4096));
  Small small{{1, 2, 3, 4}};
  void* p[] = {&small, &out};
  CK(cuLaunchKernel(header, 2, 1, 1, 64, 1, 1, 1024, s, p, nullptr)); CK(cuStreamSynchronize(s));
  std::vector<u64> w(0x210 / 8 + 4); CK(cuMemcpyDtoH(w.data(), out, w.size() * 8));
  const u64 local = w[0x210 / 8], shared = w[0x210 / 8 + 1], var = w[0x210 / 8 + 2], param = w[0x210 / 8 + 3];
  printf("parameters at 0x%llx, a local variable at 0x%llx, a shared one at 0x%llx, a module variable at 0x%llx, "
         "an allocation at 0x%llx\n", param, local, shared, var, (u64)out);
  const u64 page = 2ull << 20;
  auto where = [&](u64 x) -> std::string {
    char b[96];
    auto near = [&](u64 anchor, const char* what) {
      if ((x & ~(page - 1)) == (anchor & ~(page - 1))) { snprintf(b, sizeof b, "in the page of %s (%+lld)", what, (long long)(x - anchor)); return true; }
      return false;
    };
    if (near(param, "the parameters") || near(var, "the module variable") || near((u64)out, "the allocation")) return b;
    if (x >= (local & ~0xFFFFFFull) && x < (local & ~0xFFFFFFull) + (1ull << 24)) return "near the local window";
    if (x >= (shared & ~0xFFFFFFull) && x < (shared & ~0xFFFFFFull) + (1ull << 24)) return "near the shared window";
    snprintf(b, sizeof b, "%+lld MiB from the parameters", (long long)(x - param) / (1 << 20));
    return b;
  };
  std::vector<u64> unknown;
  for (int i = 0; i < 0x210 / 8; ++i) {
    if (w[i] == 0) continue;
    const bool address = w[i] >= 0x7e0000000000ull && w[i] < 0x800000000000ull;
    std::string at = address ? where(w[i]) : "";
    printf("  +0x%03x: 0x%016llx %s\n", i * 8, w[i], at.c_str());
    if (address && at.find("in the page") == std::string::npos && at.find("window") == std::string::npos) unknown.push_back(w[i]);
  }
  for (u64 x : unknown) {
    printf("reading 0x%llx ...", x); fflush(stdout);
    u64 a = x & ~7ull; void* q[] = {&a, &out};
    CK(cuLaunchKernel(readWord, 1, 1, 1, 32, 1, 1, 0, s, q, nullptr)); CK(cuStreamSynchronize(s));
    u64 v = 0; CK(cuMemcpyDtoH(&v, out, 8)); printf(" 0x%llx\n", v);
  }
  return 0;
}
