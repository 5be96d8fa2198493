// SPDX-License-Identifier: GPL-3.0-or-later
// A module with a __constant__ table and a __device__ variable. `poke` takes
// the constant's generic address with inline PTX (the compiler refuses a
// plain store through it) and writes or reads a mark there and 1 MiB past it;
// `sweep` reads every 8-byte word of a span from a start address (whether
// the pages around the module's variables are mapped from their start, for a
// small variable, a constant and an array of 3 MiB).
__constant__ unsigned long long ctab[4] = {1, 2, 3, 4};
__device__ unsigned long long dvar[4];
__device__ unsigned char big[3u << 20];  // larger than a page: where does the driver put it?
extern "C" __global__ void poke(int write, unsigned long long* out) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  unsigned long long c;
  asm volatile("cvta.const.u64 %0, ctab;" : "=l"(c));
  volatile unsigned long long* p = (volatile unsigned long long*)c;
  out[0] = c;
  out[1] = (unsigned long long)dvar;
  if (write) {
    p[0] = 0x4D41524B00000000ull;
    p[1 << 17] = 0x4D41524B00000001ull;
  }
  out[2] = p[0];
  out[3] = p[1 << 17];
  out[4] = ctab[0];  // through the constant cache
  out[5] = (unsigned long long)big + big[0];
}
extern "C" __global__ void sweep(const unsigned long long* from, long long words, unsigned long long* sum) {
  unsigned long long s = 0;
  for (long long i = blockIdx.x * blockDim.x + threadIdx.x; i < words; i += (long long)gridDim.x * blockDim.x) s += from[i];
  atomicAdd(sum, s);
}
