// SPDX-License-Identifier: GPL-3.0-or-later
// Kernels for probe_param_ring.cpp: where a launch's parameters lie (the
// generic address of a __grid_constant__ parameter, as TMA kernels take it for
// their tensor maps), and marks written into the driver's parameter memory.
struct Small { unsigned long long v[4]; };
struct Large { unsigned long long v[512]; };  // 4 KiB of parameters
extern "C" __global__ void where(const __grid_constant__ Small p, unsigned long long* out, int i) {
  if (threadIdx.x == 0 && blockIdx.x == 0) out[i] = (unsigned long long)&p.v[0];
}
extern "C" __global__ void whereLarge(const __grid_constant__ Large p, unsigned long long* out, int i) {
  if (threadIdx.x == 0 && blockIdx.x == 0) out[i] = (unsigned long long)&p.v[0] + p.v[511];
}
// Writes `mark ^ address` into every 8-byte word of [slot + from, slot + to) of every `stride`-byte slot of
// [begin, end), except the slot this launch's own parameters lie in; verify counts the words that differ.
extern "C" __global__ void markSlots(const __grid_constant__ Small p, unsigned long long begin, unsigned long long end,
                                     unsigned long long stride, unsigned from, unsigned to, unsigned long long mark,
                                     int verify, unsigned long long* bad) {
  const unsigned long long own = ((unsigned long long)&p.v[0]) & ~(stride - 1);
  const unsigned long long words = (to - from) / 8;
  const unsigned long long slots = (end - begin) / stride;
  unsigned long long count = 0;
  for (unsigned long long k = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; k < slots * words;
       k += (unsigned long long)gridDim.x * blockDim.x) {
    const unsigned long long slot = begin + (k / words) * stride;
    if (slot == own) continue;
    volatile unsigned long long* w = (volatile unsigned long long*)(slot + from + (k % words) * 8);
    const unsigned long long want = mark ^ (unsigned long long)w;
    if (verify) count += *w != want;
    else *w = want;
  }
  if (count) atomicAdd(bad, count);
}
