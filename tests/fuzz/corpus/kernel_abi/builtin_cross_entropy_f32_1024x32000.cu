// cross-entropy baseline (reduction none): one 256-thread block per row;
// max and sum of exponentials reduced in shared memory, then
// loss = log(sum exp(x - max)) + max - x[target].
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

extern "C" __global__ void cross_entropy_kernel(const float* __restrict__ logits, const long long* __restrict__ targets,
                                                float* __restrict__ loss, long long M, long long V) {
  __shared__ float red[THREADS];
  const long long row = blockIdx.x;
  if (row >= M) return;
  const float* xr = logits + row * V;

  float m = -__int_as_float(0x7f800000);  // -infinity
  for (long long j = threadIdx.x; j < V; j += THREADS) m = fmaxf(m, xr[j]);
  const float rowMax = blockMax(m, red);

  float s = 0.0f;
  for (long long j = threadIdx.x; j < V; j += THREADS) s += expf(xr[j] - rowMax);
  const float sum = blockSum(s, red);

  if (threadIdx.x == 0) loss[row] = logf(sum) + rowMax - xr[targets[row]];
}
