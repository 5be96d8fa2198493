// SPDX-License-Identifier: GPL-3.0-or-later
// The candidate: a module variable with a recognisable load-time image, and a
// kernel that looks for a copy of that image near the variable (the worker's
// copy it restores the variable from) and reports where.
__device__ unsigned long long state[4] = {0x5EED00005EED0001ull, 0x5EED00005EED0002ull, 0x5EED00005EED0003ull, 0x5EED00005EED0004ull};
extern "C" __global__ void look(long long span, long long step, long long* found) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  const long long base = (long long)state, aligned = base & ~(step - 1);
  found[0] = 0;
  for (long long d = step; d <= span; d += step) {
    for (int dir = -1; dir <= 1; dir += 2) {
      const long long a = aligned + dir * d;
      if (a == base) continue;
      const unsigned long long* p = (const unsigned long long*)a;
      if (p[0] == 0x5EED00005EED0001ull && p[1] == 0x5EED00005EED0002ull && p[3] == 0x5EED00005EED0004ull) { found[0] = a - base; return; }
    }
  }
}
