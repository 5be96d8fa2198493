// softmax baseline: one 256-thread block per row, three passes over the row
// (max, sum of exponentials, normalise), each reduced in shared memory.
#define THREADS 256

__device__ float blockMax(float v, float* red) {
  red[threadIdx.x] = v;
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) red[threadIdx.x] = fmaxf(red[threadIdx.x], red[threadIdx.x + s]);
    __syncthreads();
  }
  const float r = red[0];
  __syncthreads();  // red is reused by the next reduction
  return r;
}

__device__ float blockSum(float v, float* red) {
  red[threadIdx.x] = v;
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) red[threadIdx.x] += red[threadIdx.x + s];
    __syncthreads();
  }
  const float r = red[0];
  __syncthreads();
  return r;
}

extern "C" __global__ void softmax_kernel(const float* __restrict__ x, float* __restrict__ y,
                                          long long M, long long N) {
  __shared__ float red[THREADS];
  const long long row = blockIdx.x;
  if (row >= M) return;
  const float* xr = x + row * N;
  float* yr = y + row * N;

  float m = -__int_as_float(0x7f800000);  // -infinity
  for (long long j = threadIdx.x; j < N; j += THREADS) m = fmaxf(m, xr[j]);
  const float rowMax = blockMax(m, red);

  float s = 0.0f;
  for (long long j = threadIdx.x; j < N; j += THREADS) s += expf(xr[j] - rowMax);
  const float inv = 1.0f / blockSum(s, red);

  for (long long j = threadIdx.x; j < N; j += THREADS) yr[j] = expf(xr[j] - rowMax) * inv;
}
