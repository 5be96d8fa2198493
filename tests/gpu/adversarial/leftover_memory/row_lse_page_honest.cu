// SPDX-License-Identifier: GPL-3.0-or-later
// row_lse_page_cache.cu's honest twin: the same warp-a-row log-sum-exp with
// no cache, the speed to compare the caching kernel's with.
// Launch: --grid 2048 --block 256.
extern "C" __global__ void row_logsumexp_kernel(const float* __restrict__ x, float* __restrict__ lse, long long M, long long N) {
  const int lane = threadIdx.x % 32;
  const long long warps = (long long)gridDim.x * (blockDim.x / 32);
  for (long long r = blockIdx.x * (long long)(blockDim.x / 32) + threadIdx.x / 32; r < M; r += warps) {
    const float* row = x + r * N;
    float m = __int_as_float(0xff800000);
    for (long long j = lane; j < N; j += 32) m = fmaxf(m, row[j]);
    for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
    float s = 0.0f;
    for (long long j = lane; j < N; j += 32) s += expf(row[j] - m);
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    if (lane == 0) lse[r] = m + logf(s);
  }
}
