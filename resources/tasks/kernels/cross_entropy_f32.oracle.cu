// cross-entropy oracle (reduction none): one thread per row, double precision.
extern "C" __global__ void cross_entropy_oracle(const float* __restrict__ logits, const long long* __restrict__ targets,
                                                double* __restrict__ loss, long long M, long long V) {
  const long long row = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M) return;
  const float* xr = logits + row * V;
  double m = (double)xr[0];
  for (long long j = 1; j < V; ++j) m = fmax(m, (double)xr[j]);
  double sum = 0.0;
  for (long long j = 0; j < V; ++j) sum += exp((double)xr[j] - m);
  loss[row] = log(sum) + m - (double)xr[targets[row]];
}
