// layernorm baseline: one 256-thread block per row, three passes (mean,
// variance around the mean, normalise), each reduced in shared memory.
// eps = 1e-5, the biased (population) variance, as torch.nn.LayerNorm.
#define THREADS 256
#define EPS 1e-5f

__device__ float blockSum(float v, float* red) {
  red[threadIdx.x] = v;
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) red[threadIdx.x] += red[threadIdx.x + s];
    __syncthreads();
  }
  const float r = red[0];
  __syncthreads();  // red is reused by the next reduction
  return r;
}

extern "C" __global__ void layernorm_kernel(const float* __restrict__ x, const float* __restrict__ weight,
                                            const float* __restrict__ bias, float* __restrict__ y,
                                            long long M, long long N) {
  __shared__ float red[THREADS];
  const long long row = blockIdx.x;
  if (row >= M) return;
  const float* xr = x + row * N;
  float* yr = y + row * N;

  float s = 0.0f;
  for (long long j = threadIdx.x; j < N; j += THREADS) s += xr[j];
  const float mean = blockSum(s, red) / (float)N;

  float sq = 0.0f;
  for (long long j = threadIdx.x; j < N; j += THREADS) {
    const float d = xr[j] - mean;
    sq += d * d;
  }
  const float rstd = rsqrtf(blockSum(sq, red) / (float)N + EPS);

  for (long long j = threadIdx.x; j < N; j += THREADS) yr[j] = (xr[j] - mean) * rstd * weight[j] + bias[j];
}
