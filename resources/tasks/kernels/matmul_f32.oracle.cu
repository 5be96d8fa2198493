// matmul oracle: one thread per output element, double precision dot product.
extern "C" __global__ void matmul_oracle(const float* __restrict__ A, const float* __restrict__ B,
                                         double* __restrict__ C, long long M, long long N, long long K) {
  const long long col = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long row = (long long)blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= N) return;
  double acc = 0.0;
  for (long long k = 0; k < K; ++k) acc += (double)A[row * K + k] * (double)B[k * N + col];
  C[row * N + col] = acc;
}
