// matmul baseline (fp32, no TF32): C = A @ B, row-major; 16x16 output tiles,
// one thread per output element, A and B staged through shared memory in
// 16-wide slices of K; fp32 FMA accumulation.
#define TILE 16

extern "C" __global__ void matmul_kernel(const float* __restrict__ A, const float* __restrict__ B,
                                         float* __restrict__ C, long long M, long long N, long long K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const long long row = (long long)blockIdx.y * TILE + ty;
  const long long col = (long long)blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (long long k0 = 0; k0 < K; k0 += TILE) {
    As[ty][tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : 0.0f;
    Bs[ty][tx] = (k0 + ty < K && col < N) ? B[(k0 + ty) * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k) acc = fmaf(As[ty][k], Bs[k][tx], acc);
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = acc;
}
