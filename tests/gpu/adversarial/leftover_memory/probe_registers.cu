// SPDX-License-Identifier: GPL-3.0-or-later
// Do registers keep a kernel's values until the next kernel's warps read
// registers they never wrote?
#include <cstdio>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)
extern "C" __global__ void __launch_bounds__(1024, 2) leave(unsigned seed, unsigned* sink) {
  unsigned v[24];
#pragma unroll
  for (int i = 0; i < 24; ++i) v[i] = 0xC0DE0000u | ((seed + i * 7u + threadIdx.x) & 0xFFFFu);
  // keep all 24 live in registers until the end
  asm volatile("" :: "r"(v[0]), "r"(v[1]), "r"(v[2]), "r"(v[3]), "r"(v[4]), "r"(v[5]), "r"(v[6]), "r"(v[7]),
               "r"(v[8]), "r"(v[9]), "r"(v[10]), "r"(v[11]), "r"(v[12]), "r"(v[13]), "r"(v[14]), "r"(v[15]),
               "r"(v[16]), "r"(v[17]), "r"(v[18]), "r"(v[19]), "r"(v[20]), "r"(v[21]), "r"(v[22]), "r"(v[23]));
  if (seed == 12345u) sink[threadIdx.x] = v[threadIdx.x % 24];
}
// Reads 8 PTX registers it never writes.
extern "C" __global__ void __launch_bounds__(1024, 2) peek(unsigned long long* hits) {
  unsigned a, b, c, d, e, f, g, h;
  asm volatile("{\n .reg .u32 u0, u1, u2, u3, u4, u5, u6, u7;\n"
               " mov.u32 %0, u0; mov.u32 %1, u1; mov.u32 %2, u2; mov.u32 %3, u3;\n"
               " mov.u32 %4, u4; mov.u32 %5, u5; mov.u32 %6, u6; mov.u32 %7, u7;\n}"
               : "=r"(a), "=r"(b), "=r"(c), "=r"(d), "=r"(e), "=r"(f), "=r"(g), "=r"(h));
  unsigned long long n = 0;
  for (unsigned v : {a, b, c, d, e, f, g, h}) n += (v & 0xFFFF0000u) == 0xC0DE0000u;
  atomicAdd(hits, n);
}
int main() {
  int sms = 0; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  unsigned long long* hits; unsigned* sink; CK(cudaMalloc(&hits, 8)); CK(cudaMalloc(&sink, 4096 * 4));
  for (int round = 0; round < 3; ++round) {
    CK(cudaMemset(hits, 0, 8));
    leave<<<sms * 2, 1024>>>(round, sink);
    peek<<<sms * 2, 1024>>>(hits);
    CK(cudaDeviceSynchronize());
    unsigned long long h = 0; CK(cudaMemcpy(&h, hits, 8, cudaMemcpyDeviceToHost));
    printf("round %d: %llu of %llu never-written register reads hold the earlier kernel's values\n", round, h, 8ull * sms * 2048);
  }
  return 0;
}
