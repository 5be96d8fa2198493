// SPDX-License-Identifier: GPL-3.0-or-later
// A small 2-D task whose candidates read their input only through a TMA tensor
// map (cp.async.bulk.tensor into shared memory, completion on an mbarrier),
// for the tensor-map tests: y = 2 * x on a 200 x 72 fp32 matrix, a shape that
// is not a multiple of any box used here, so the last boxes of each row and
// column hang over the edge (TMA fills those elements with zeros; the kernels
// write only the elements inside the matrix).
// The kernels never read `x` through its pointer: only a correctly encoded
// and passed tensor map gives the right output.
#pragma once
#include <string>
#include "core/model/candidate.h"

namespace crucible::gputest {

inline constexpr const char* kTmaTaskJson = R"JSON({
  "format": 1,
  "name": "tma_scale_f32_200x72",
  "family": "scale",
  "description": "y = 2 * x on a 200 x 72 fp32 matrix: the tensor-map tests' task.",
  "axes": {"M": 200, "N": 72},
  "inputs": [{"name": "x", "dtype": "f32", "shape": ["M", "N"], "distribution": {"kind": "normal", "mean": 0.5, "stddev": 2.0}}],
  "outputs": [{"name": "y", "dtype": "f32", "shape": ["M", "N"]}],
  "scalars": ["M", "N"],
  "tolerances": {"y": {"rtol": 0, "atol": 0}},
  "flops": "M*N",
  "minBytes": "8*M*N",
  "entry": "tma_scale",
  "libraryReference": "",
  "baseline": {
    "source": ["extern \"C\" __global__ void tma_scale(const float* __restrict__ x, float* __restrict__ y, long long M, long long N) {",
               "  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;",
               "  if (i < M * N) y[i] = 2.0f * x[i];",
               "}", ""],
    "launch": {"entry": "tma_scale", "grid": ["ceil_div(M*N, 256)"], "block": [256], "dynamicSmemBytes": "0"}
  },
  "oracle": {
    "source": ["extern \"C\" __global__ void tma_scale_oracle(const float* __restrict__ x, double* __restrict__ y, long long M, long long N) {",
               "  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;",
               "  if (i < M * N) y[i] = 2.0 * (double)x[i];",
               "}", ""],
    "launch": {"entry": "tma_scale_oracle", "grid": ["ceil_div(M*N, 256)"], "block": [256], "dynamicSmemBytes": "0"}
  }
})JSON";

inline constexpr const char* kTmaEntry = "tma_scale";

// The mbarrier and bulk-copy steps every TMA kernel here shares, one PTX
// instruction each. CUtensorMap is declared as kernel_abi.h's
// tensorMapTypeDeclaration() spells it (NVRTC has no cuda.h).
inline constexpr const char* kTmaPrelude = R"(
struct alignas(64) CUtensorMap { unsigned long long opaque[16]; };

__device__ __forceinline__ unsigned smemAddress(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
// One arrival expected (the thread that issues the copy).
__device__ __forceinline__ void barrierInit(unsigned bar) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(bar) : "memory");
  // The barrier's initialisation must be visible to the copy engine (the async proxy).
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}
// Arrives and tells the barrier how many bytes the copy will deliver.
__device__ __forceinline__ void barrierExpectBytes(unsigned bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(bar), "r"(bytes) : "memory");
}
// One box of the 2-D tensor at element coordinates (col, row) into shared memory at `dst`.
__device__ __forceinline__ void loadBox(unsigned dst, const CUtensorMap* map, int col, int row, unsigned bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
      :: "r"(dst), "l"(map), "r"(col), "r"(row), "r"(bar) : "memory");
}
__device__ __forceinline__ bool barrierPhaseDone(unsigned bar, unsigned parity) {
  unsigned done;
  asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}"
               : "=r"(done) : "r"(bar), "r"(parity) : "memory");
  return done != 0;
}
)";

// One block per 32 x 16 box (no swizzle): thread 0 starts the copy, every
// thread waits for the barrier's first phase, then writes its elements of the box.
inline const std::string kTmaScaleKernel = std::string(kTmaPrelude) + R"(
constexpr int BOX_ROWS = 32, BOX_COLS = 16;

extern "C" __global__ void tma_scale(const float* __restrict__ x, float* __restrict__ y, long long M, long long N,
                                     const __grid_constant__ CUtensorMap tmap_x) {
  __shared__ alignas(128) float tile[BOX_ROWS * BOX_COLS];
  __shared__ alignas(8) unsigned long long bar;
  const int col0 = blockIdx.x * BOX_COLS, row0 = blockIdx.y * BOX_ROWS;
  if (threadIdx.x == 0) barrierInit(smemAddress(&bar));
  __syncthreads();
  if (threadIdx.x == 0) {
    // The whole box arrives, the part outside the matrix as zeros.
    barrierExpectBytes(smemAddress(&bar), BOX_ROWS * BOX_COLS * sizeof(float));
    loadBox(smemAddress(tile), &tmap_x, col0, row0, smemAddress(&bar));
  }
  while (!barrierPhaseDone(smemAddress(&bar), 0)) {
  }
  for (int i = threadIdx.x; i < BOX_ROWS * BOX_COLS; i += blockDim.x) {
    const long long row = row0 + i / BOX_COLS, col = col0 + i % BOX_COLS;
    if (row < M && col < N) y[row * N + col] = 2.0f * tile[i];
  }
}
)";

inline LaunchRule tmaScaleLaunch() {
  LaunchRule rule;
  rule.entry = kTmaEntry;
  rule.grid[0] = "ceil_div(N, 16)";
  rule.grid[1] = "ceil_div(M, 32)";
  rule.block[0] = "128";
  rule.tensorMaps = {{"x", 32, 16, "none"}};
  return rule;
}

// The same with 16 x 32 boxes (32 floats = 128 bytes a row) loaded with the
// 128-byte swizzle: within each 1024-byte group of 8 rows, the 16-byte chunk c
// of row r lies at chunk c ^ (r % 8). The tile is 1024-byte aligned, as that
// swizzle needs.
inline const std::string kTmaScaleSwizzledKernel = std::string(kTmaPrelude) + R"(
constexpr int BOX_ROWS = 16, BOX_COLS = 32;

extern "C" __global__ void tma_scale(const float* __restrict__ x, float* __restrict__ y, long long M, long long N,
                                     const __grid_constant__ CUtensorMap tmap_x) {
  __shared__ alignas(1024) float tile[BOX_ROWS * BOX_COLS];
  __shared__ alignas(8) unsigned long long bar;
  const int col0 = blockIdx.x * BOX_COLS, row0 = blockIdx.y * BOX_ROWS;
  if (threadIdx.x == 0) barrierInit(smemAddress(&bar));
  __syncthreads();
  if (threadIdx.x == 0) {
    barrierExpectBytes(smemAddress(&bar), BOX_ROWS * BOX_COLS * sizeof(float));
    loadBox(smemAddress(tile), &tmap_x, col0, row0, smemAddress(&bar));
  }
  while (!barrierPhaseDone(smemAddress(&bar), 0)) {
  }
  for (int i = threadIdx.x; i < BOX_ROWS * BOX_COLS; i += blockDim.x) {
    const int r = i / BOX_COLS, c = i % BOX_COLS;
    const int chunk = c / 4, within = c % 4;  // 4 floats per 16-byte chunk
    const float v = tile[r * BOX_COLS + (chunk ^ (r % 8)) * 4 + within];
    const long long row = row0 + r, col = col0 + c;
    if (row < M && col < N) y[row * N + col] = 2.0f * v;
  }
}
)";

inline LaunchRule tmaScaleSwizzledLaunch() {
  LaunchRule rule;
  rule.entry = kTmaEntry;
  rule.grid[0] = "ceil_div(N, 32)";
  rule.grid[1] = "ceil_div(M, 16)";
  rule.block[0] = "128";
  rule.tensorMaps = {{"x", 16, 32, "128B"}};
  return rule;
}

}  // namespace crucible::gputest
