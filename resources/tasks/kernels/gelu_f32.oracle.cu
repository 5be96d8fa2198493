// gelu oracle (erf form): one thread per element, double precision.
extern "C" __global__ void gelu_oracle(const float* __restrict__ x, double* __restrict__ y, long long N) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  const double v = (double)x[i];
  y[i] = 0.5 * v * (1.0 + erf(v * 0.70710678118654752440));
}
