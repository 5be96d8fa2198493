// SPDX-License-Identifier: GPL-3.0-or-later
// Where a __grid_constant__ kernel parameter's generic address points, and whether a kernel can read and write the
// driver's memory around it, with marks that outlive the launch.
#include <cstdio>
#include <cuda_runtime.h>
struct P { unsigned long long v[4]; };
__constant__ unsigned long long ctab[2] = {7, 8};
__global__ void where(const __grid_constant__ P p, unsigned long long* out) {
  if (threadIdx.x || blockIdx.x) return;
  const unsigned long long* a = &p.v[0];
  out[0] = (unsigned long long)a;
  out[1] = __isGlobal(a);
  out[2] = __isConstant(a);
  out[3] = p.v[1];
}
__global__ void readAt(unsigned long long at, unsigned long long* out) {
  if (threadIdx.x || blockIdx.x) return;
  out[0] = *(volatile unsigned long long*)at;
}
__global__ void writeAt(unsigned long long at, unsigned long long v) {
  if (threadIdx.x || blockIdx.x) return;
  *(volatile unsigned long long*)at = v;
}
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); return 0; } } while (0)
int main() {
  unsigned long long* out; CK(cudaMallocManaged(&out, 64));
  P p = {{1, 2, 3, 4}};
  unsigned long long first = 0;
  for (int i = 0; i < 6; ++i) {
    p.v[1] = 100 + i;
    where<<<1, 32>>>(p, out); CK(cudaDeviceSynchronize());
    printf("launch %d: &p at 0x%llx, isGlobal %llu, isConstant %llu, p.v[1] %llu\n", i, out[0], out[1], out[2], out[3]);
    if (i == 0) first = out[0];
  }
  cudaPointerAttributes attr; cudaError_t e = cudaPointerGetAttributes(&attr, (void*)first);
  void* c = nullptr; CK(cudaGetSymbolAddress(&c, ctab));
  printf("a module constant at %p: &p - constant = %lld\n", c, (long long)(first - (unsigned long long)c));
  printf("pointer attributes: %s, type %d\n", cudaGetErrorString(e), (int)attr.type);
  const long long offs[] = {0, 64, 4096, 65536, 1 << 20, -4096};
  for (long long off : offs) {
    readAt<<<1, 32>>>(first + off, out);
    cudaError_t r = cudaDeviceSynchronize();
    printf("read &p%+lld: %s 0x%llx\n", off, cudaGetErrorString(r), r == cudaSuccess ? out[0] : 0ull);
    if (r != cudaSuccess) return 0;
  }
  for (long long off : {4096LL, 65536LL, 1LL << 20}) {
    const unsigned long long mark = 0x4D41524B00000000ull | (unsigned long long)off;
    writeAt<<<1, 32>>>(first + off, mark);
    cudaError_t r = cudaDeviceSynchronize();
    printf("write &p%+lld: %s\n", off, cudaGetErrorString(r));
    if (r != cudaSuccess) return 0;
    for (int i = 0; i < 200; ++i) where<<<1, 32>>>(p, out);
    CK(cudaDeviceSynchronize());
    readAt<<<1, 32>>>(first + off, out); CK(cudaDeviceSynchronize());
    printf("  after 200 more launches: 0x%llx (%s)\n", out[0], out[0] == mark ? "the mark survived" : "overwritten");
  }
  return 0;
}
