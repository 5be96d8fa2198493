// SPDX-License-Identifier: GPL-3.0-or-later
// Kernels for probe_param_page.cpp and probe_param_header.cpp: where a launch's parameters lie, a copy
// of the driver's memory around them, and launches that do what the worker's
// and a candidate's do (large parameters, a cluster, printf).
#include <cstdio>
#include "probe_param_ring_kernel.cu"  // Small, Large, where, whereLarge
extern "C" __global__ void copyOut(const unsigned long long* from, unsigned long long* to, unsigned long long words) {
  for (unsigned long long k = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; k < words;
       k += (unsigned long long)gridDim.x * blockDim.x)
    to[k] = ((const volatile unsigned long long*)from)[k];
}
extern "C" __global__ void __cluster_dims__(2, 1, 1) clustered(unsigned long long* out) {
  if (threadIdx.x == 0) out[blockIdx.x] = blockIdx.x;
}
extern "C" __global__ void prints(int i) {
  if (threadIdx.x == 0 && blockIdx.x == 0) printf("launch %d\n", i);
}
// The driver's header before this launch's parameters (0x210 bytes on the H100), and where a local, a shared
// and a module variable lie (the generic windows the header also names; probe_param_header.cpp).
__device__ unsigned long long moduleVariable[4];
extern "C" __global__ void header(const __grid_constant__ Small p, unsigned long long* out) {
  __shared__ unsigned long long sharedVariable[1];
  volatile unsigned long long localVariable[1];
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  unsigned long long at = (unsigned long long)&p.v[0];
  asm volatile("" : "+l"(at));
  for (int i = 0; i < 0x210 / 8; ++i) out[i] = ((const volatile unsigned long long*)(at - 0x210))[i];
  localVariable[0] = at;
  sharedVariable[0] = localVariable[0];
  out[0x210 / 8] = (unsigned long long)&localVariable[0];
  out[0x210 / 8 + 1] = (unsigned long long)&sharedVariable[0];
  out[0x210 / 8 + 2] = (unsigned long long)&moduleVariable[0];
  out[0x210 / 8 + 3] = at;
}
// One word at an address the host gives.
extern "C" __global__ void readWord(const unsigned long long* where, unsigned long long* out) {
  if (threadIdx.x == 0 && blockIdx.x == 0) *out = *(const volatile unsigned long long*)where;
}
