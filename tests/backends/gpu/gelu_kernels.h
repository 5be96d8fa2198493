// SPDX-License-Identifier: GPL-3.0-or-later
// Candidate kernels for the built-in task gelu_f32_1048576 (y = gelu(x), one
// float per element), each wrong in one known way. The launch used with them
// is grid ceil_div(N, 256), block 256 unless a test says otherwise.
#pragma once

namespace crucible::gputest {

inline constexpr const char* kGeluTask = "gelu_f32_1048576";
inline constexpr const char* kGeluEntry = "gelu_kernel";
inline constexpr const char* kGeluGrid = "ceil_div(N, 256)";

#define CRUCIBLE_GELU_PRELUDE                                                                          \
  "__device__ __forceinline__ float gelu(float v) { return 0.5f * v * (1.0f + erff(v * 0.70710678118654752f)); }\n"

inline constexpr const char* kCorrect = CRUCIBLE_GELU_PRELUDE R"(
extern "C" __global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ y, long long N) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) y[i] = gelu(x[i]);
})";

inline constexpr const char* kWritesZeros = R"(
extern "C" __global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ y, long long N) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) y[i] = 0.0f;
})";

// Correct code; the test launches one block too few.
inline constexpr const char* kSkipsTail = kCorrect;

inline constexpr const char* kWritesEvenOnly = CRUCIBLE_GELU_PRELUDE R"(
extern "C" __global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ y, long long N) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N && i % 2 == 0) y[i] = gelu(x[i]);
})";

// Warp 1 of each block overwrites the next block's first element with a value
// within tolerance, racing that block's own write; clock-driven delays make
// the winner vary from launch to launch.
inline constexpr const char* kRaces = CRUCIBLE_GELU_PRELUDE R"(
__device__ void jitter() {
  const long long t0 = clock64();
  const long long wait = (t0 >> 3) & 4095;
  while (clock64() - t0 < wait) {}
}
extern "C" __global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ y, long long N) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    if (threadIdx.x == 0) jitter();
    y[i] = gelu(x[i]);
  }
  if (threadIdx.x == 32) {
    jitter();
    const long long j = (long long)(blockIdx.x + 1) * blockDim.x;
    if (j < N) y[j] = gelu(x[j]) * (1.0f + 4e-6f);
  }
})";

// Reads one element past the end of x (0 * x[i+1] is not 0 when x[i+1] is NaN).
inline constexpr const char* kReadsPastEnd = CRUCIBLE_GELU_PRELUDE R"(
extern "C" __global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ y, long long N) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) y[i] = gelu(x[i]) + 0.0f * x[i + 1];
})";

inline constexpr const char* kWritesPastEnd = CRUCIBLE_GELU_PRELUDE R"(
extern "C" __global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ y, long long N) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) y[i] = gelu(x[i]);
  if (i == N - 1) y[N] = 1.0f;
})";

inline constexpr const char* kModifiesInput = CRUCIBLE_GELU_PRELUDE R"(
extern "C" __global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ y, long long N) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    const float v = x[i];
    y[i] = gelu(v);
    const_cast<float*>(x)[i] = v * 0.5f;
  }
})";

// Remembers each element's first result in device globals and replays it.
inline constexpr const char* kCachesResults = CRUCIBLE_GELU_PRELUDE R"(
__device__ float cached[1048576];
__device__ int have[1048576];
extern "C" __global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ y, long long N) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N || i >= 1048576) return;
  if (have[i]) { y[i] = cached[i]; return; }
  const float v = gelu(x[i]);
  cached[i] = v;
  have[i] = 1;
  y[i] = v;
})";

// Rounds the input through fp16: about 1e-3 relative error, over the 1e-5 tolerance.
inline constexpr const char* kHalfPrecision = R"(
#include <cuda_fp16.h>
extern "C" __global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ y, long long N) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  const __half h = __float2half(x[i]);
  const __half r = __hmul(__hmul(__float2half(0.5f), h),
                          __hadd(__float2half(1.0f), __float2half(erff(__half2float(h) * 0.70710678f))));
  y[i] = __half2float(r);
})";

// Three times the work of kCorrect (a slower but correct kernel).
inline constexpr const char* kSlowCorrect = CRUCIBLE_GELU_PRELUDE R"(
extern "C" __global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ y, long long N) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  float v = x[i], acc = 0.0f;
  for (int k = 0; k < 64; ++k) acc += gelu(v + k * 1e-30f);
  y[i] = acc * (1.0f / 64.0f);
})";

inline constexpr const char* kIllegalAddress = R"(
extern "C" __global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ y, long long N) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) y[i + (1LL << 40)] = x[i];
})";

inline constexpr const char* kTraps = R"(
extern "C" __global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ y, long long N) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0) __trap();
  if (i < N) y[i] = x[i];
})";

inline constexpr const char* kSpinsForever = R"(
__device__ volatile int keepGoing = 1;
extern "C" __global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ y, long long N) {
  while (keepGoing) {}
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) y[i] = x[i];
})";

}  // namespace crucible::gputest
