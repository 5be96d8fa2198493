// SPDX-License-Identifier: GPL-3.0-or-later
// Emits an fp32 SIMT GEMM fed by a cp.async multistage pipeline: STAGES
// k-tiles in flight, copied global -> shared in 16-byte chunks with no
// register round trip, so no barrier waits for global memory once the
// pipeline is full. Because cp.async cannot transpose, A stays row-major in
// shared memory (rows padded by 4 floats): a thread reads 4 k-values of one of
// its rows with one LDS.128 and uses them over 4 k-steps, while B is read as
// 16-byte runs of 4 columns per k-step. A thread's rows are LANES_M apart (the
// padded pitch puts the lanes' rows in different banks); its columns come in
// runs of 4, stored as float4.
#include "backends/proposers/template/kernel_source.h"
#include "backends/proposers/template/spaces.h"

namespace crucible::templates {

std::int64_t gemmSimtAsyncSmemBytes(const Genome& g) {
  const std::int64_t bm = g.param("BLOCK_M"), bn = g.param("BLOCK_N"), bk = g.param("BLOCK_K");
  return g.param("STAGES") * (bm * (bk + 4) + bk * bn) * 4;
}

EmittedKernel emitGemmSimtAsync(const Genome& g, const KernelProblem& p) {
  const ProblemTensor& a = p.input("A");
  const ProblemTensor& c = p.output("C");
  const bool fused = p.family == "matmul_bias_relu";
  const std::int64_t threads =
      32 * (g.param("BLOCK_M") / g.param("WARP_M")) * (g.param("BLOCK_N") / g.param("WARP_N"));
  const std::map<std::string, std::string> vars = {
      {"M", p.extentCode(a, 0)},
      {"K", p.extentCode(a, 1)},
      {"N", p.extentCode(c, 1)},
      {"BIAS", fused ? "        const float bias_value = " + toFloat(p.input("bias").dtype, "bias[col]") + ";\n" : ""},
      {"EPILOGUE", fused ? "fmaxf(acc[i][j] + bias_value, 0.0f)" : "acc[i][j]"},
  };

  std::string src = headerComment(g, p,
                                  std::string(fused ? "GEMM + bias + ReLU" : "GEMM") + " on CUDA cores (fp32 FMA), " +
                                      std::to_string(g.param("STAGES")) +
                                      "-stage cp.async pipeline, A row-major in shared memory read 4 k-values at a "
                                      "time, B read as 16-byte runs");
  src += includes(p) + "\n";
  for (const char* name : {"BLOCK_M", "BLOCK_N", "BLOCK_K", "WARP_M", "WARP_N", "THREAD_M", "THREAD_N"})
    src += constant(name, g.param(name));
  src += constant("STAGES", g.param("STAGES"), "k-tiles in flight");
  src += constant("MIN_BLOCKS", g.param("MIN_BLOCKS"), "resident blocks per SM asked of the compiler (caps registers)");
  src += R"(constexpr int WARPS_N = BLOCK_N / WARP_N;
constexpr int THREADS = 32 * (BLOCK_M / WARP_M) * WARPS_N;
constexpr int LANES_M = WARP_M / THREAD_M;  // a warp's 32 lanes as LANES_M x LANES_N
constexpr int LANES_N = WARP_N / THREAD_N;
constexpr int A_STRIDE = BLOCK_K + 4;       // floats per shared row of A: the pad staggers banks
constexpr int A_STAGE = BLOCK_M * A_STRIDE;
constexpr int B_STAGE = BLOCK_K * BLOCK_N;
constexpr int A_CHUNKS = BLOCK_M * BLOCK_K / 4;  // 16-byte chunks per tile
constexpr int B_CHUNKS = BLOCK_K * BLOCK_N / 4;
)";
  src += cpAsyncHelpers();
  src += R"(
__device__ __forceinline__ float component(const float4& v, int i) {
  return i == 0 ? v.x : i == 1 ? v.y : i == 2 ? v.z : v.w;
}

)";
  src += p.signature("THREADS, MIN_BLOCKS") + " {\n";
  src += render(R"(  extern __shared__ __align__(16) float smem[];
  float* As = smem;                   // [STAGES][BLOCK_M][A_STRIDE]
  float* Bs = smem + STAGES * A_STAGE;  // [STAGES][BLOCK_K][BLOCK_N]
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warp_row = warp / WARPS_N * WARP_M, warp_col = warp % WARPS_N * WARP_N;
  const int lane_row = lane / LANES_N, lane_col = lane % LANES_N;
  const long long block_row = (long long)blockIdx.y * BLOCK_M;
  const long long block_col = (long long)blockIdx.x * BLOCK_N;

  // Issues the copies of k-tile `k_tile` into stage `stage`; chunks outside the matrices are zeros.
  auto load_tile = [&](long long k_tile, int stage) {
    const long long k0 = k_tile * BLOCK_K;
#pragma unroll
    for (int chunk = threadIdx.x; chunk < A_CHUNKS; chunk += THREADS) {
      const int r = chunk / (BLOCK_K / 4), kc = chunk % (BLOCK_K / 4) * 4;
      const long long row = block_row + r, k = k0 + kc;
      const bool valid = row < {{M}} && k < {{K}};
      cp_async_16(As + stage * A_STAGE + r * A_STRIDE + kc, valid ? A + row * {{K}} + k : A, valid);
    }
#pragma unroll
    for (int chunk = threadIdx.x; chunk < B_CHUNKS; chunk += THREADS) {
      const int r = chunk / (BLOCK_N / 4), nc = chunk % (BLOCK_N / 4) * 4;
      const long long k = k0 + r, col = block_col + nc;
      const bool valid = k < {{K}} && col < {{N}};
      cp_async_16(Bs + stage * B_STAGE + r * BLOCK_N + nc, valid ? B + k * {{N}} + col : B, valid);
    }
  };

  float acc[THREAD_M][THREAD_N] = {};
  auto compute_tile = [&](int stage) {
    const float* as = As + stage * A_STAGE + (warp_row + lane_row) * A_STRIDE;
    const float* bs = Bs + stage * B_STAGE + warp_col + lane_col * 4;
#pragma unroll
    for (int kq = 0; kq < BLOCK_K; kq += 4) {
      float4 a4[THREAD_M];  // 4 k-values of each of this thread's rows
#pragma unroll
      for (int i = 0; i < THREAD_M; ++i) a4[i] = *reinterpret_cast<const float4*>(as + i * LANES_M * A_STRIDE + kq);
#pragma unroll
      for (int kk = 0; kk < 4; ++kk) {
        float b[THREAD_N];
#pragma unroll
        for (int j = 0; j < THREAD_N / 4; ++j) {
          const float4 v = *reinterpret_cast<const float4*>(bs + (kq + kk) * BLOCK_N + j * (LANES_N * 4));
          b[4 * j] = v.x, b[4 * j + 1] = v.y, b[4 * j + 2] = v.z, b[4 * j + 3] = v.w;
        }
#pragma unroll
        for (int i = 0; i < THREAD_M; ++i)
#pragma unroll
          for (int j = 0; j < THREAD_N; ++j) acc[i][j] = fmaf(component(a4[i], kk), b[j], acc[i][j]);
      }
    }
  };

  const long long k_tiles = ({{K}} + BLOCK_K - 1) / BLOCK_K;
)",
                vars);
  src += cpAsyncMainLoop();
  src += render(simtFloat4Epilogue("i * LANES_M + lane_row", vars.at("BIAS")), vars);

  EmittedKernel k;
  k.source = std::move(src);
  k.launch.entry = p.entry;
  k.launch.grid[0] = "ceil_div(" + p.extentExpr(c, 1) + ", " + std::to_string(g.param("BLOCK_N")) + ")";
  k.launch.grid[1] = "ceil_div(" + p.extentExpr(a, 0) + ", " + std::to_string(g.param("BLOCK_M")) + ")";
  k.launch.block[0] = std::to_string(threads);
  k.launch.dynamicSmemBytes = std::to_string(gemmSimtAsyncSmemBytes(g));
  return k;
}

}  // namespace crucible::templates
