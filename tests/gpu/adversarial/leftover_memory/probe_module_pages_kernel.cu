// SPDX-License-Identifier: GPL-3.0-or-later
// A candidate's module with one small variable, and a kernel that writes a
// mark at chosen distances past the variable's end (inside the allocation the
// driver reports for it) or reads back what it finds there.
__device__ unsigned long long state[4];
extern "C" __global__ void mark(const long long* offsets, int n, unsigned long long mark, int write,
                                unsigned long long* seen) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned long long* p = (unsigned long long*)((char*)state + offsets[i]);
  if (write) *p = mark + i;
  else seen[i] = *p;
}
