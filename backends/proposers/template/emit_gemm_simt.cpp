// SPDX-License-Identifier: GPL-3.0-or-later
// Emits a SIMT GEMM on CUDA cores. A block computes a BLOCK_M x BLOCK_N tile
// of C, each warp a WARP_M x WARP_N part of it, each thread THREAD_M x
// THREAD_N outputs. With scalar loads (vector=1) a thread's outputs are spread
// LANES apart, so a warp's shared-memory reads are adjacent; with 16-byte
// loads (vector=4) they come in runs of 4, so each shared-memory read is one
// 16-byte LDS.128 feeding 4 rows or columns: 4x fewer shared-memory
// instructions per FMA, which is what keeps a CUDA-core GEMM FMA-bound.
// Tiles pass through registers into fp32 shared memory; A is stored k-major
// so a thread's rows sit side by side. Fused bias + ReLU when the task asks.
#include "backends/proposers/template/kernel_source.h"
#include "backends/proposers/template/spaces.h"

namespace crucible::templates {

std::string simtFloat4Epilogue(const std::string& rowOfI, const std::string& biasLine) {
  return R"(
  // N is a multiple of 4 (vector=4): a run of 4 columns is all in or all out.
#pragma unroll
  for (int i = 0; i < THREAD_M; ++i) {
    const long long row = block_row + warp_row + )" + rowOfI + R"(;
    if (row >= {{M}}) continue;
#pragma unroll
    for (int j0 = 0; j0 < THREAD_N; j0 += 4) {
      const long long col0 = block_col + warp_col + j0 / 4 * (LANES_N * 4) + lane_col * 4;
      if (col0 >= {{N}}) continue;
      float out[4];
#pragma unroll
      for (int j = j0; j < j0 + 4; ++j) {
        const long long col = col0 + j - j0;
)" + biasLine + R"(        out[j - j0] = {{EPILOGUE}};
      }
      *reinterpret_cast<float4*>(C + row * {{N}} + col0) = make_float4(out[0], out[1], out[2], out[3]);
    }
  }
}
)";
}

EmittedKernel emitGemmSimt(const Genome& g, const KernelProblem& p) {
  const ProblemTensor& a = p.input("A");
  const ProblemTensor& c = p.output("C");
  const bool fused = p.family == "matmul_bias_relu";
  const bool doubleBuffer = g.gene("pipeline") == "double";
  const std::int64_t vec = std::stoll(g.gene("vector"));
  const std::int64_t threads =
      32 * (g.param("BLOCK_M") / g.param("WARP_M")) * (g.param("BLOCK_N") / g.param("WARP_N"));
  // Runs of 4 outputs per thread (LDS.128 reads, 16-byte stores) go with 16-byte global loads.
  const bool packed = vec == 4;
  const bool vectorStore = packed && c.dtype == DType::F32;
  const std::map<std::string, std::string> vars = {
      {"M", p.extentCode(a, 0)},
      {"K", p.extentCode(a, 1)},
      {"N", p.extentCode(c, 1)},
      {"STORE", fromFloat(c.dtype, "v")},
      {"BIAS", fused ? "      const float bias_value = " + toFloat(p.input("bias").dtype, "bias[col]") + ";\n" : ""},
      {"EPILOGUE", fused ? "fmaxf(acc[i][j] + bias_value, 0.0f)" : "acc[i][j]"},
      {"FRAGMENT_READS", packed ? R"(#pragma unroll
      for (int i = 0; i < THREAD_M / 4; ++i) {
        const float4 v = *reinterpret_cast<const float4*>(&As[stage][kk][warp_row + i * (LANES_M * 4) + lane_row * 4]);
        a[4 * i] = v.x, a[4 * i + 1] = v.y, a[4 * i + 2] = v.z, a[4 * i + 3] = v.w;
      }
#pragma unroll
      for (int j = 0; j < THREAD_N / 4; ++j) {
        const float4 v = *reinterpret_cast<const float4*>(&Bs[stage][kk][warp_col + j * (LANES_N * 4) + lane_col * 4]);
        b[4 * j] = v.x, b[4 * j + 1] = v.y, b[4 * j + 2] = v.z, b[4 * j + 3] = v.w;
      }
)" : R"(#pragma unroll
      for (int i = 0; i < THREAD_M; ++i) a[i] = As[stage][kk][warp_row + i * LANES_M + lane_row];
#pragma unroll
      for (int j = 0; j < THREAD_N; ++j) b[j] = Bs[stage][kk][warp_col + j * LANES_N + lane_col];
)"},
      {"ROW_OF_I", packed ? "i / 4 * (LANES_M * 4) + lane_row * 4 + i % 4" : "i * LANES_M + lane_row"},
      {"COL_OF_J", packed ? "j / 4 * (LANES_N * 4) + lane_col * 4 + j % 4" : "j * LANES_N + lane_col"},
  };

  std::string summary = std::string(fused ? "GEMM + bias + ReLU" : "GEMM") + " on CUDA cores (fp32 FMA), " +
                        (doubleBuffer ? "double-buffered shared memory with register prefetch"
                                      : "single-buffered shared memory") +
                        ", " + std::to_string(vec * sizeOf(a.dtype)) + "-byte global loads" +
                        (packed ? ", 16-byte shared-memory reads (runs of 4 outputs per thread)"
                                : ", scalar shared-memory reads (outputs LANES apart)");
  std::string src = headerComment(g, p, summary);
  src += includes(p) + "\n";
  for (const char* name : {"BLOCK_M", "BLOCK_N", "BLOCK_K", "WARP_M", "WARP_N", "THREAD_M", "THREAD_N"})
    src += constant(name, g.param(name));
  src += constant("VEC", vec, "elements per global load");
  src += constant("MIN_BLOCKS", g.param("MIN_BLOCKS"), "resident blocks per SM asked of the compiler (caps registers)");
  src += constant("STAGES", doubleBuffer ? 2 : 1, doubleBuffer ? "shared-memory buffers: load one, compute the other"
                                                                : "one shared-memory buffer");
  src += R"(constexpr int WARPS_N = BLOCK_N / WARP_N;
constexpr int THREADS = 32 * (BLOCK_M / WARP_M) * WARPS_N;
constexpr int LANES_M = WARP_M / THREAD_M;  // a warp's 32 lanes as LANES_M x LANES_N
constexpr int LANES_N = WARP_N / THREAD_N;
constexpr int A_PACKS = BLOCK_M * BLOCK_K / VEC;
constexpr int B_PACKS = BLOCK_K * BLOCK_N / VEC;
constexpr int A_LOADS = (A_PACKS + THREADS - 1) / THREADS;  // packs each thread moves per tile
constexpr int B_LOADS = (B_PACKS + THREADS - 1) / THREADS;

)";
  src += packHelpers(a.dtype) + "\n";
  src += p.signature("THREADS, MIN_BLOCKS") + " {\n";
  src += render(R"(  __shared__ __align__(16) float As[STAGES][BLOCK_K][BLOCK_M];
  __shared__ __align__(16) float Bs[STAGES][BLOCK_K][BLOCK_N];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warp_row = warp / WARPS_N * WARP_M, warp_col = warp % WARPS_N * WARP_N;
  const int lane_row = lane / LANES_N, lane_col = lane % LANES_N;
  const long long block_row = (long long)blockIdx.y * BLOCK_M;
  const long long block_col = (long long)blockIdx.x * BLOCK_N;

  // Global -> registers; elements outside the matrices read as zero.
  float a_regs[A_LOADS][VEC], b_regs[B_LOADS][VEC];
  auto fetch_tile = [&](long long k0) {
#pragma unroll
    for (int i = 0; i < A_LOADS; ++i) {
      const int pack = threadIdx.x + i * THREADS;
      const long long row = block_row + pack / (BLOCK_K / VEC);
      const long long k = k0 + pack % (BLOCK_K / VEC) * VEC;
#pragma unroll
      for (int e = 0; e < VEC; ++e) a_regs[i][e] = 0.0f;
      if (pack < A_PACKS && row < {{M}} && k < {{K}}) load_pack(A + row * {{K}} + k, a_regs[i]);
    }
#pragma unroll
    for (int i = 0; i < B_LOADS; ++i) {
      const int pack = threadIdx.x + i * THREADS;
      const long long k = k0 + pack / (BLOCK_N / VEC);
      const long long col = block_col + pack % (BLOCK_N / VEC) * VEC;
#pragma unroll
      for (int e = 0; e < VEC; ++e) b_regs[i][e] = 0.0f;
      if (pack < B_PACKS && k < {{K}} && col < {{N}}) load_pack(B + k * {{N}} + col, b_regs[i]);
    }
  };
  // Registers -> shared memory stage `stage`.
  auto store_tile = [&](int stage) {
#pragma unroll
    for (int i = 0; i < A_LOADS; ++i) {
      const int pack = threadIdx.x + i * THREADS;
      if (pack < A_PACKS) {
        const int r = pack / (BLOCK_K / VEC), k = pack % (BLOCK_K / VEC) * VEC;
#pragma unroll
        for (int e = 0; e < VEC; ++e) As[stage][k + e][r] = a_regs[i][e];
      }
    }
#pragma unroll
    for (int i = 0; i < B_LOADS; ++i) {
      const int pack = threadIdx.x + i * THREADS;
      if (pack < B_PACKS) {
        const int k = pack / (BLOCK_N / VEC), n = pack % (BLOCK_N / VEC) * VEC;
#pragma unroll
        for (int e = 0; e < VEC; ++e) Bs[stage][k][n + e] = b_regs[i][e];
      }
    }
  };
  float acc[THREAD_M][THREAD_N] = {};
  auto compute_tile = [&](int stage) {
#pragma unroll
    for (int kk = 0; kk < BLOCK_K; ++kk) {
      float a[THREAD_M], b[THREAD_N];
{{FRAGMENT_READS}}#pragma unroll
      for (int i = 0; i < THREAD_M; ++i)
#pragma unroll
        for (int j = 0; j < THREAD_N; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
  };

  const long long k_tiles = ({{K}} + BLOCK_K - 1) / BLOCK_K;
)",
                vars);
  if (doubleBuffer) {
    src += R"(  fetch_tile(0);
  store_tile(0);
  __syncthreads();
  for (long long t = 0; t < k_tiles; ++t) {
    const int stage = t % 2;
    const bool more = t + 1 < k_tiles;
    if (more) fetch_tile((t + 1) * BLOCK_K);  // global loads in flight during the math below
    compute_tile(stage);
    if (more) store_tile(stage ^ 1);  // the other buffer: last read before the previous barrier
    __syncthreads();
  }
)";
  } else {
    src += R"(  for (long long t = 0; t < k_tiles; ++t) {
    fetch_tile(t * BLOCK_K);
    store_tile(0);
    __syncthreads();
    compute_tile(0);
    __syncthreads();
  }
)";
  }
  if (vectorStore) {
    src += render(simtFloat4Epilogue(vars.at("ROW_OF_I"), fused ? "  " + vars.at("BIAS") : ""), vars);
  } else {
    src += render(R"(
#pragma unroll
  for (int i = 0; i < THREAD_M; ++i) {
    const long long row = block_row + warp_row + {{ROW_OF_I}};
    if (row >= {{M}}) continue;
#pragma unroll
    for (int j = 0; j < THREAD_N; ++j) {
      const long long col = block_col + warp_col + {{COL_OF_J}};
      if (col >= {{N}}) continue;
{{BIAS}}      const float v = {{EPILOGUE}};
      C[row * {{N}} + col] = {{STORE}};
    }
  }
}
)",
                  vars);
  }

  EmittedKernel k;
  k.source = std::move(src);
  k.launch.entry = p.entry;
  k.launch.grid[0] = "ceil_div(" + p.extentExpr(c, 1) + ", " + std::to_string(g.param("BLOCK_N")) + ")";
  k.launch.grid[1] = "ceil_div(" + p.extentExpr(a, 0) + ", " + std::to_string(g.param("BLOCK_M")) + ")";
  k.launch.block[0] = std::to_string(threads);
  return k;
}

}  // namespace crucible::templates
