// matmul oracle (bf16 inputs): C = A @ B in double precision, each element's dot product
// accumulated over k in order, exactly as a one-thread-per-element kernel would. Tiled because
// the harness runs it for every validation draw (the naive kernel took 0.67 s at 8192^3): a
// 256-thread block computes a 128x128 tile of C, each thread an 8x8 sub-tile in registers; A and
// B pass through shared memory as doubles in 16-deep slices of K (zeros past the matrices'
// edges), and the next slice is read from global memory while this one is multiplied.
#include <cuda_bf16.h>

#define TILE_M 128
#define TILE_N 128
#define TILE_K 16
#define THREADS 256
// As holds A transposed (k-major); 2 doubles of padding keep its rows 16-byte aligned for the
// double2 reads and its transposing stores at 2-way bank conflicts (the minimum for 8-byte stores).
#define AS_STRIDE (TILE_M + 2)

extern "C" __global__ void __launch_bounds__(THREADS)
matmul_oracle(const __nv_bfloat16* __restrict__ A, const __nv_bfloat16* __restrict__ B, double* __restrict__ C,
              long long M, long long N, long long K) {
  __shared__ __align__(16) double As[TILE_K][AS_STRIDE];  // As[k][m] = A[row0 + m][k0 + k]
  __shared__ __align__(16) double Bs[TILE_K][TILE_N];     // Bs[k][n] = B[k0 + k][col0 + n]
  const int t = threadIdx.x;
  const long long row0 = (long long)blockIdx.y * TILE_M, col0 = (long long)blockIdx.x * TILE_N;
  // Loads: thread t reads A[row0 + a_m + 16*i][k0 + a_k] and B[k0 + b_k + 2*i][col0 + b_n], i < 8.
  const int a_k = t % TILE_K, a_m = t / TILE_K;
  const int b_n = t % TILE_N, b_k = t / TILE_N;
  float a_next[8], b_next[8];  // the next slice (bf16 -> float -> double is exact)
  auto fetch = [&](long long k0) {
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      const long long r = row0 + a_m + 16 * i, k = k0 + a_k;
      a_next[i] = (r < M && k < K) ? __bfloat162float(A[r * K + k]) : 0.0f;
    }
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      const long long k = k0 + b_k + 2 * i, c = col0 + b_n;
      b_next[i] = (k < K && c < N) ? __bfloat162float(B[k * N + c]) : 0.0f;
    }
  };
  // Thread (tx, ty) computes rows 32*(i/2) + 2*ty + i%2 and columns 32*(j/2) + 2*tx + j%2 of the tile.
  const int tx = t % 16, ty = t / 16;
  double acc[8][8];
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) acc[i][j] = 0.0;

  fetch(0);
  for (long long k0 = 0; k0 < K; k0 += TILE_K) {
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      As[a_k][a_m + 16 * i] = (double)a_next[i];
      Bs[b_k + 2 * i][b_n] = (double)b_next[i];
    }
    __syncthreads();
    if (k0 + TILE_K < K) fetch(k0 + TILE_K);
#pragma unroll
    for (int k = 0; k < TILE_K; ++k) {
      double a[8], b[8];
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        const double2 av = *reinterpret_cast<const double2*>(&As[k][32 * i + 2 * ty]);
        const double2 bv = *reinterpret_cast<const double2*>(&Bs[k][32 * i + 2 * tx]);
        a[2 * i] = av.x;
        a[2 * i + 1] = av.y;
        b[2 * i] = bv.x;
        b[2 * i + 1] = bv.y;
      }
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] += a[i] * b[j];
    }
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const long long row = row0 + 32 * (i / 2) + 2 * ty + i % 2;
    if (row >= M) continue;
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      const long long col = col0 + 32 * (j / 2) + 2 * tx + j % 2;
      if (col < N) C[row * N + col] = acc[i][j];
    }
  }
}
