// SPDX-License-Identifier: GPL-3.0-or-later
// Does a block a kernel mallocs (and never frees) stay readable at its next
// launch, and can that launch find it from its own malloc's address? Can the
// heap be resized after use? Arguments: SPAN [zero] (zero: set the heap to 0
// before any kernel runs).
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)
__device__ __forceinline__ unsigned tag(unsigned i) { return 0xFEED0000u ^ (i * 2654435761u); }
extern "C" __global__ void leave(unsigned long long* where) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    unsigned* p = (unsigned*)malloc(256);
    if (p) for (int i = 0; i < 64; ++i) p[i] = tag(i);
    where[0] = (unsigned long long)p;
  }
}
// Scans `span` bytes below (and above) its own 256-byte block for the tag.
extern "C" __global__ void find(unsigned long long span, unsigned long long* out) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    unsigned* q = (unsigned*)malloc(256);
    out[0] = (unsigned long long)q;
    out[1] = 0;
    if (!q) return;
    for (long long off = 4; off <= (long long)span; off += 4) {
      for (int dir = -1; dir <= 1; dir += 2) {
        const unsigned* c = (const unsigned*)((const char*)q + dir * off);
        if (c[0] == tag(0) && c[1] == tag(1) && c[63] == tag(63)) { out[1] = (unsigned long long)c; return; }
      }
    }
  }
}
int main(int argc, char** argv) {
  if (argc > 2) {  // a heap of 0 bytes, set before any kernel ran
    cudaError_t z = cudaDeviceSetLimit(cudaLimitMallocHeapSize, 0);
    size_t now = 1; cudaDeviceGetLimit(&now, cudaLimitMallocHeapSize);
    printf("heap set to 0 before any kernel: %s (now %zu)\n", cudaGetErrorString(z), now);
  }
  size_t heap = 0; CK(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
  printf("heap limit %zu bytes\n", heap);
  unsigned long long *where, *out; CK(cudaMalloc(&where, 8)); CK(cudaMalloc(&out, 16));
  for (int launch = 0; launch < 3; ++launch) {
    leave<<<1, 32>>>(where);
    cudaMemset(out, 0, 16);
    find<<<1, 32>>>(argc > 1 ? atoll(argv[1]) : 65536, out);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { printf("launch %d: %s\n", launch, cudaGetErrorString(e)); return 0; }
    unsigned long long w = 0, o[2] = {0, 0};
    CK(cudaMemcpy(&w, where, 8, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(o, out, 16, cudaMemcpyDeviceToHost));
    printf("round %d: first kernel's block at 0x%llx; second kernel's at 0x%llx found the tag at 0x%llx (%s)\n", launch, w, o[0],
           o[1], o[1] == w ? "the first kernel's block" : o[1] ? "elsewhere" : "not found");
  }
  // Can the heap be resized (a fresh heap) after kernels used it?
  cudaError_t e = cudaDeviceSetLimit(cudaLimitMallocHeapSize, heap * 2);
  printf("resizing the heap after use: %s\n", cudaGetErrorString(e));
  e = cudaDeviceSetLimit(cudaLimitMallocHeapSize, 0);
  size_t now = 0; cudaDeviceGetLimit(&now, cudaLimitMallocHeapSize);
  printf("setting the heap to 0: %s (now %zu)\n", cudaGetErrorString(e), now);
  return 0;
}
