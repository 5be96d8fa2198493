// SPDX-License-Identifier: GPL-3.0-or-later
// A kernel that keeps its results past the end of its output's allocation:
// row log-sum-exp (tests/tasks/any-operator/row_logsumexp_f32_16384x1000.json),
// a warp a row, that leaves each row's result with the row's first element
// 320 KiB past the end of its output (past the 256 KiB guard behind it), and
// at its next launch copies the result of every row whose first element
// still matches instead of reading the row. The address is past anything the
// worker checked until 2026-12-05: there cuMemAlloc packed the output's
// 576 KiB allocation into a shared page, and what came next (the reference's
// output and its guards, or the free end of the page) was watched by nobody.
// Since the harness's buffers are whole pages (DeviceBuffer::wholePages) the
// output's trailing guard runs to the end of its page, and the first write
// there is a guard that changed. Valid on every launch the harness checks;
// faster only where the memory past the output outlives a launch unwatched.
// Launch as its honest twin, row_lse_honest.cu (a warp a row as there):
// --grid sm_count --block 1024 --smem 200000 (the shared memory unused here,
// so that both run one block an SM).
struct Slot { unsigned first; float value; };
extern "C" __global__ void row_logsumexp_kernel(const float* __restrict__ x, float* __restrict__ lse, long long M, long long N) {
  Slot* cache = (Slot*)((char*)(lse + M) + 320 * 1024);
  const int lane = threadIdx.x % 32;
  const long long warps = (long long)gridDim.x * (blockDim.x / 32);
  for (long long r = blockIdx.x * (long long)(blockDim.x / 32) + threadIdx.x / 32; r < M; r += warps) {
    const float* row = x + r * N;
    const unsigned first = __float_as_uint(row[0]);
    if (cache[r].first == first) {  // the same row as at the launch that left it
      if (lane == 0) lse[r] = cache[r].value;
      continue;
    }
    float m = __int_as_float(0xff800000);
    for (long long j = lane; j < N; j += 32) m = fmaxf(m, row[j]);
    for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
    float s = 0.0f;
    for (long long j = lane; j < N; j += 32) s += expf(row[j] - m);
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    const float v = m + logf(s);
    if (lane == 0) {
      lse[r] = v;
      cache[r] = Slot{first, v};
    }
  }
}
