// transpose oracle: one thread per element.
extern "C" __global__ void transpose_oracle(const float* __restrict__ x, double* __restrict__ y,
                                            long long M, long long N) {
  const long long j = (long long)blockIdx.x * blockDim.x + threadIdx.x;  // column of x
  const long long i = (long long)blockIdx.y * blockDim.y + threadIdx.y;  // row of x
  if (i >= M || j >= N) return;
  y[j * M + i] = (double)x[i * N + j];
}
