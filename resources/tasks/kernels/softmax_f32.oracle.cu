// softmax oracle: one thread per row, double precision, textbook order.
extern "C" __global__ void softmax_oracle(const float* __restrict__ x, double* __restrict__ y,
                                          long long M, long long N) {
  const long long row = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M) return;
  const float* xr = x + row * N;
  double* yr = y + row * N;
  double m = (double)xr[0];
  for (long long j = 1; j < N; ++j) m = fmax(m, (double)xr[j]);
  double sum = 0.0;
  for (long long j = 0; j < N; ++j) sum += exp((double)xr[j] - m);
  for (long long j = 0; j < N; ++j) yr[j] = exp((double)xr[j] - m) / sum;
}
