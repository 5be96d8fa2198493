// SPDX-License-Identifier: GPL-3.0-or-later
// Manual GPU check of resources/kernels/gemv/gemv.cu at one point (the -D
// defines): validates y = A x against a double-precision host reference at
// M=K=N (argv[1], default 4096) and M=N-3, with y poisoned by NaN first, and times it
// against the task's baseline (one warp per row). Built and run by
// run_points.sh on a GPU machine; not part of the ctest suite.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <algorithm>
#include "gemv.cu"

extern "C" __global__ void baseline_kernel(const float* __restrict__ A, const float* __restrict__ x,
    float* __restrict__ y, long long M, long long K) {
  const long long row = (long long)blockIdx.x * 8 + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  float acc = 0.0f;
  if (row < M)
    for (long long k = lane; k < K; k += 32) acc += A[row * K + k] * x[k];
  for (int offset = 16; offset > 0; offset >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, offset);
  if (lane == 0 && row < M) y[row] = acc;
}

static float uniform(unsigned long long& s) {
  s = s * 6364136223846793005ULL + 1442695040888963407ULL;
  return (float)((s >> 40) * (1.0 / 16777216.0)) * 2.0f - 1.0f;
}

template <typename Launch>
static float timeUs(Launch launch) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  for (int i = 0; i < 20; ++i) launch();
  std::vector<float> t;
  for (int r = 0; r < 50; ++r) {
    cudaEventRecord(a);
    launch();
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    t.push_back(ms * 1000.0f);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main(int argc, char** argv) {
  const long long K = argc > 1 ? std::atoll(argv[1]) : 4096, Mfull = K;
  std::vector<float> A(Mfull * K), x(K);
  unsigned long long s = 12345;
  for (auto& v : A) v = uniform(s);
  for (auto& v : x) v = uniform(s);
  float *dA, *dx, *dy;
  cudaMalloc(&dA, A.size() * 4);
  cudaMalloc(&dx, x.size() * 4);
  cudaMalloc(&dy, Mfull * 4);
  cudaMemcpy(dA, A.data(), A.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dx, x.data(), x.size() * 4, cudaMemcpyHostToDevice);
  if (std::getenv("COPY")) {  // the copy bandwidth, for comparison: read + write of A's bytes
    float* dB;
    cudaMalloc(&dB, A.size() * 4);
    const float t = timeUs([&] { cudaMemcpyAsync(dB, dA, A.size() * 4, cudaMemcpyDeviceToDevice); });
    std::printf("copy of %.0f MiB: %.2f us, %.0f GB/s (read + write)\n", A.size() * 4 / 1048576.0, t,
                2.0 * A.size() * 4 / t / 1e3);
    cudaFree(dB);
  }
  int failures = 0;
  for (long long M : {Mfull, Mfull - 3}) {
    cudaMemset(dy, 0xFF, Mfull * 4);  // NaN
    dim3 grid((unsigned)((M + ROWS - 1) / ROWS)), block(THREADS_PER_ROW, ROWS);
    gemv_kernel<<<grid, block>>>(dA, dx, dy, M, K);
    if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
      std::printf("ROWS=%d TPR=%d VEC=%d UNROLL=%d M=%lld: CUDA error %s\n", ROWS, THREADS_PER_ROW, VEC, UNROLL, M,
                  cudaGetErrorString(e));
      return 1;
    }
    std::vector<float> y(Mfull);
    cudaMemcpy(y.data(), dy, Mfull * 4, cudaMemcpyDeviceToHost);
    double worst = 0;
    for (long long i = 0; i < M; ++i) {
      double ref = 0;
      for (long long k = 0; k < K; ++k) ref += (double)A[i * K + k] * x[k];
      const double ratio = std::fabs(y[i] - ref) / (1e-3 + 1e-4 * std::fabs(ref));
      if (!(ratio <= 1.0)) ++failures;
      worst = std::max(worst, std::isnan(ratio) ? 1e30 : ratio);
    }
    for (long long i = M; i < Mfull; ++i)
      if (!std::isnan(y[i])) ++failures;  // rows past M must stay unwritten
    if (M != Mfull) continue;
    const float t = timeUs([&] { gemv_kernel<<<grid, block>>>(dA, dx, dy, M, K); });
    const float tb = timeUs([&] { baseline_kernel<<<(unsigned)((M + 7) / 8), 256>>>(dA, dx, dy, M, K); });
    const double bytes = 4.0 * M * K + 4.0 * K + 4.0 * M;
    std::printf("ROWS=%d TPR=%d VEC=%d UNROLL=%d: %s worst %.3f of tolerance, %.2f us (%.0f GB/s), baseline %.2f us, "
                "speedup %.2fx\n",
                ROWS, THREADS_PER_ROW, VEC, UNROLL, failures ? "FAIL" : "ok", worst, t, bytes / t / 1e3, tb, tb / t);
  }
  return failures ? 1 : 0;
}
