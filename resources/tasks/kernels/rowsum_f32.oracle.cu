// rowsum oracle: one thread per row, double precision.
extern "C" __global__ void rowsum_oracle(const float* __restrict__ x, double* __restrict__ y,
                                         long long M, long long N) {
  const long long row = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M) return;
  const float* xr = x + row * N;
  double s = 0.0;
  for (long long j = 0; j < N; ++j) s += (double)xr[j];
  y[row] = s;
}
