// matmul + bias + ReLU oracle: one thread per output element, double precision.
#include <cuda_bf16.h>

extern "C" __global__ void matmul_bias_relu_oracle(const __nv_bfloat16* __restrict__ A,
                                                   const __nv_bfloat16* __restrict__ B,
                                                   const __nv_bfloat16* __restrict__ bias,
                                                   double* __restrict__ C,
                                                   long long M, long long N, long long K) {
  const long long col = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long row = (long long)blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= N) return;
  double acc = 0.0;
  for (long long k = 0; k < K; ++k)
    acc += (double)__bfloat162float(A[row * K + k]) * (double)__bfloat162float(B[k * N + col]);
  acc += (double)__bfloat162float(bias[col]);
  C[row * N + col] = acc > 0.0 ? acc : 0.0;
}
