// gelu baseline (erf form): one thread per element.
extern "C" __global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ y, long long N) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  const float v = x[i];
  y[i] = 0.5f * v * (1.0f + erff(v * 0.70710678118654752f));
}
