// SPDX-License-Identifier: GPL-3.0-or-later
// Kernels for probe_param_header.cpp: a launch's copy of the driver's header
// before its parameters, where its local and shared variables lie, and a read
// of one word at an address the host gives.
struct Small { unsigned long long v[4]; };
__device__ unsigned long long moduleVariable[4];
extern "C" __global__ void header(const __grid_constant__ Small p, unsigned long long* out) {
  __shared__ unsigned long long sharedVariable[4];
  volatile unsigned long long localVariable[4];
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  unsigned long long at = (unsigned long long)&p.v[0];
  asm volatile("" : "+l"(at));
  for (int i = 0; i < 0x210 / 8; ++i) out[i] = ((const volatile unsigned long long*)(at - 0x210))[i];
  localVariable[0] = at;
  out[0x210 / 8] = at;
  out[0x210 / 8 + 1] = (unsigned long long)&localVariable[0];
  out[0x210 / 8 + 2] = (unsigned long long)&sharedVariable[0];
  out[0x210 / 8 + 3] = (unsigned long long)&moduleVariable[0];
  sharedVariable[0] = localVariable[0];
}
extern "C" __global__ void readWord(const unsigned long long* where, unsigned long long* out) {
  if (threadIdx.x == 0 && blockIdx.x == 0) *out = *(const volatile unsigned long long*)where;
}
