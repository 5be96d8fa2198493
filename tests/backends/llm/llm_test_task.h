// SPDX-License-Identifier: GPL-3.0-or-later
// A task of a family no template design space knows (row-wise max of |x|),
// for the language-model proposer's tests, and kernels written against it.
#pragma once
#include <string>
#include "core/task/task_spec.h"

namespace crucible::llm::testing {

inline const char* kRowAbsMaxSpec = R"JSON({
  "format": 1,
  "name": "rowabsmax_f32_1024x2048",
  "family": "rowabsmax",
  "description": "Largest magnitude of each row of an MxN fp32 tensor: y[i] = max_j |x[i,j]|.",
  "axes": {"M": 1024, "N": 2048},
  "inputs": [{"name": "x", "dtype": "f32", "shape": ["M", "N"],
              "distribution": {"kind": "normal", "mean": 0.0, "stddev": 1.0}}],
  "outputs": [{"name": "y", "dtype": "f32", "shape": ["M"]}],
  "scalars": ["M", "N"],
  "tolerances": {"y": {"rtol": 0.0, "atol": 0.0}},
  "flops": "M*N",
  "minBytes": "4*M*N + 4*M",
  "entry": "rowabsmax_kernel",
  "libraryReference": "",
  "baseline": {
    "launch": {"entry": "rowabsmax_kernel", "grid": ["M"], "block": ["256"], "dynamicSmemBytes": "0"},
    "source": "extern \"C\" __global__ void rowabsmax_kernel(const float* __restrict__ x, float* __restrict__ y,\n    long long M, long long N) {\n  __shared__ float red[256];\n  const long long row = blockIdx.x;\n  float m = 0.0f;\n  for (long long j = threadIdx.x; j < N; j += 256) m = fmaxf(m, fabsf(x[row * N + j]));\n  red[threadIdx.x] = m;\n  __syncthreads();\n  for (int k = 128; k > 0; k >>= 1) {\n    if (threadIdx.x < k) red[threadIdx.x] = fmaxf(red[threadIdx.x], red[threadIdx.x + k]);\n    __syncthreads();\n  }\n  if (threadIdx.x == 0) y[row] = red[0];\n}\n"
  },
  "oracle": {
    "launch": {"entry": "rowabsmax_oracle", "grid": ["ceil_div(M, 128)"], "block": ["128"], "dynamicSmemBytes": "0"},
    "source": "extern \"C\" __global__ void rowabsmax_oracle(const float* __restrict__ x, double* __restrict__ y,\n    long long M, long long N) {\n  const long long row = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n  if (row >= M) return;\n  double m = 0.0;\n  for (long long j = 0; j < N; ++j) m = fmax(m, fabs((double)x[row * N + j]));\n  y[row] = m;\n}\n"
  }
})JSON";

inline TaskSpec rowAbsMaxSpec() { return parseTaskSpec(kRowAbsMaxSpec); }

// A warp per row, 16-byte loads, shuffles: a correct kernel for the task.
inline const char* kWarpPerRowKernel = R"CUDA(// warp per row
extern "C" __global__ void rowabsmax_kernel(const float* __restrict__ x, float* __restrict__ y,
                                            long long M, long long N) {
  const long long row = (long long)blockIdx.x * 4 + threadIdx.x / 32;
  if (row >= M) return;
  const float4* xr = reinterpret_cast<const float4*>(x + row * N);
  float m = 0.0f;
  for (long long j = threadIdx.x % 32; j < N / 4; j += 32) {
    const float4 v = xr[j];
    m = fmaxf(m, fmaxf(fmaxf(fabsf(v.x), fabsf(v.y)), fmaxf(fabsf(v.z), fabsf(v.w))));
  }
  for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
  if (threadIdx.x % 32 == 0) y[row] = m;
}
)CUDA";

inline const char* kWarpPerRowLaunch =
    R"J({"entry": "rowabsmax_kernel", "grid": ["ceil_div(M, 4)", "1", "1"], "block": ["128", "1", "1"], "dynamicSmemBytes": "0"})J";

}  // namespace crucible::llm::testing
