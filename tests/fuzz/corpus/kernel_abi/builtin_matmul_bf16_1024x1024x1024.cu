// matmul baseline (bf16 in and out, fp32 accumulation): C = bf16(A @ B),
// row-major; 16x16 output tiles, one thread per output element, A and B staged
// through shared memory (as fp32) in 16-wide slices of K.
#include <cuda_bf16.h>
#define TILE 16

extern "C" __global__ void matmul_kernel(const __nv_bfloat16* __restrict__ A, const __nv_bfloat16* __restrict__ B,
                                         __nv_bfloat16* __restrict__ C, long long M, long long N, long long K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const long long row = (long long)blockIdx.y * TILE + ty;
  const long long col = (long long)blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (long long k0 = 0; k0 < K; k0 += TILE) {
    As[ty][tx] = (row < M && k0 + tx < K) ? __bfloat162float(A[row * K + k0 + tx]) : 0.0f;
    Bs[ty][tx] = (k0 + ty < K && col < N) ? __bfloat162float(B[(k0 + ty) * N + col]) : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k) acc = fmaf(As[ty][k], Bs[k][tx], acc);
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = __float2bfloat16(acc);
}
