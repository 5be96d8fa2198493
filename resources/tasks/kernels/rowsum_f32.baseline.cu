// rowsum baseline: one 256-thread block per row, reduced in shared memory.
#define THREADS 256

extern "C" __global__ void rowsum_kernel(const float* __restrict__ x, float* __restrict__ y,
                                         long long M, long long N) {
  __shared__ float red[THREADS];
  const long long row = blockIdx.x;
  if (row >= M) return;
  const float* xr = x + row * N;
  float s = 0.0f;
  for (long long j = threadIdx.x; j < N; j += THREADS) s += xr[j];
  red[threadIdx.x] = s;
  __syncthreads();
  for (int k = THREADS / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k) red[threadIdx.x] += red[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) y[row] = red[0];
}
