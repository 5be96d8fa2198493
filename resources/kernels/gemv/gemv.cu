// SPDX-License-Identifier: GPL-3.0-or-later
// y = A x (A: M x K, row-major, f32): a tunable kernel for Crucible, in the
// manner of Kernel Tuner. Its parameters (gemv.tune.json) arrive as #define
// lines before this text:
//   ROWS             rows per block (threadIdx.y picks the row)
//   THREADS_PER_ROW  threads sharing one row (a multiple of 32: whole warps)
//   VEC              floats per load (1, 2 or 4; K % VEC == 0 keeps loads aligned)
//   UNROLL           unroll factor of the loop over K
// Launch (from the tune file): grid = ceil_div(M, ROWS), block = (THREADS_PER_ROW, ROWS).

#if VEC == 4
typedef float4 vec_t;
__device__ __forceinline__ float dotVec(vec_t a, vec_t b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
#elif VEC == 2
typedef float2 vec_t;
__device__ __forceinline__ float dotVec(vec_t a, vec_t b) { return a.x * b.x + a.y * b.y; }
#else
typedef float vec_t;
__device__ __forceinline__ float dotVec(vec_t a, vec_t b) { return a * b; }
#endif

#define CRUCIBLE_PRAGMA(x) _Pragma(#x)
#define CRUCIBLE_UNROLL(n) CRUCIBLE_PRAGMA(unroll n)

extern "C" __global__ void __launch_bounds__(THREADS_PER_ROW * ROWS)
gemv_kernel(const float* __restrict__ A, const float* __restrict__ x, float* __restrict__ y, long long M, long long K) {
  const int lane = threadIdx.x;
  const long long row = (long long)blockIdx.x * ROWS + threadIdx.y;
  float acc = 0.0f;
  if (row < M) {
    const vec_t* a = reinterpret_cast<const vec_t*>(A + row * K);
    const vec_t* xv = reinterpret_cast<const vec_t*>(x);
    const long long n = K / VEC;
    CRUCIBLE_UNROLL(UNROLL)
    for (long long k = lane; k < n; k += THREADS_PER_ROW) acc += dotVec(__ldg(a + k), __ldg(xv + k));
  }
  // Each warp lies inside one row (THREADS_PER_ROW is a multiple of 32).
  for (int offset = 16; offset > 0; offset >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, offset);
#if THREADS_PER_ROW > 32
  __shared__ float partial[ROWS][THREADS_PER_ROW / 32];
  if ((lane & 31) == 0) partial[threadIdx.y][lane / 32] = acc;
  __syncthreads();
  if (lane == 0) {
    acc = 0.0f;
    for (int w = 0; w < THREADS_PER_ROW / 32; ++w) acc += partial[threadIdx.y][w];
  }
#endif
  if (lane == 0 && row < M) y[row] = acc;
}
