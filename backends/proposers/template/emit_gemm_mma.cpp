// SPDX-License-Identifier: GPL-3.0-or-later
// Emits a bf16 tensor-core GEMM: mma.sync m16n8k16 (fp32 accumulate) fed by
// ldmatrix from padded shared-memory tiles. A block computes BLOCK_M x BLOCK_N
// of C; each warp WARP_M x WARP_N as (WARP_M/16) x (WARP_N/8) mma tiles.
// Shared-memory rows are padded by 16 bytes so the eight rows an ldmatrix
// phase reads fall in different banks. Tiles arrive through a cp.async
// multistage pipeline, or are staged through registers (single or double
// buffer). Requires K and N to be multiples of 8 so a 16-byte chunk is wholly
// inside or outside the matrix; M is free (rows past the end read as zero).
#include "backends/proposers/template/kernel_source.h"
#include "backends/proposers/template/spaces.h"

namespace crucible::templates {

std::string bf16PairStore(const KernelProblem& p) {
  const bool fused = p.family == "matmul_bias_relu";
  const std::string bias = fused ? "      const float bias0 = " + toFloat(p.input("bias").dtype, "bias[col]") +
                                       ", bias1 = " + toFloat(p.input("bias").dtype, "bias[col + 1]") + ";\n"
                                 : "";
  return bias + R"(#pragma unroll
      for (int half = 0; half < 2; ++half)
        if (row + half * 8 < {{M}})
          *reinterpret_cast<__nv_bfloat162*>(C + (row + half * 8) * {{N}} + col) = __floats2bfloat162_rn({{V0}}, {{V1}});
)";
}

EmittedKernel emitGemmMma(const Genome& g, const KernelProblem& p) {
  const ProblemTensor& a = p.input("A");
  const ProblemTensor& c = p.output("C");
  const bool fused = p.family == "matmul_bias_relu";
  const std::string& pipeline = g.gene("pipeline");
  const bool cpAsync = pipeline == "cp_async";
  const bool smemEpilogue = g.gene("epilogue") == "smem";
  const std::int64_t stages = pipeline == "single" ? 1 : pipeline == "double" ? 2 : g.param("STAGES");
  const bool sliced = g.gene("split_k") == "sliced";
  std::map<std::string, std::string> vars = {
      {"M", p.extentCode(a, 0)},
      {"K", p.extentCode(a, 1)},
      {"N", p.extentCode(c, 1)},
  };
  // The epilogue value of accumulator element `e` at column `col`.
  auto epilogueValue = [&](const std::string& e, const std::string& biasName) {
    return fused ? "fmaxf(acc[i][j][" + e + "] + " + biasName + ", 0.0f)" : "acc[i][j][" + e + "]";
  };

  std::string summary = std::string(fused ? "GEMM + bias + ReLU" : "GEMM") +
                        " on tensor cores (mma.sync m16n8k16 bf16, fp32 accumulate, ldmatrix), ";
  summary += cpAsync ? std::to_string(stages) + "-stage cp.async pipeline"
             : pipeline == "double" ? "register-staged double buffer"
                                    : "register-staged single buffer";
  if (sliced) summary += ", sliced-K over " + std::to_string(g.param("SPLIT_K")) + " warp groups";
  summary += smemEpilogue ? ", epilogue staged through shared memory" : ", epilogue stored from registers";

  std::string src = headerComment(g, p, summary);
  src += includes(p) + "\n";
  for (const char* name : {"BLOCK_M", "BLOCK_N", "BLOCK_K", "WARP_M", "WARP_N"}) src += constant(name, g.param(name));
  src += constant("STAGES", stages, cpAsync ? "tiles in flight" : pipeline == "double" ? "load one, compute the other"
                                                                                     : "one shared-memory buffer");
  if (sliced) src += constant("SPLIT_K", g.param("SPLIT_K"), "warp groups sharing each k-tile");
  src += std::string(R"(constexpr int WARPS_N = BLOCK_N / WARP_N;
constexpr int WARPS = (BLOCK_M / WARP_M) * WARPS_N;  // warps covering the output tile
)") + (sliced ? "constexpr int THREADS = 32 * WARPS * SPLIT_K;\nconstexpr int K_SLICE = BLOCK_K / SPLIT_K;  // k per warp group per tile\n"
              : "constexpr int THREADS = 32 * WARPS;\n") + R"(
constexpr int MMA_TILES_M = WARP_M / 16;  // m16n8k16 tiles per warp
constexpr int MMA_TILES_N = WARP_N / 8;
constexpr int A_STRIDE = BLOCK_K + 8;     // smem row pitch (elements): +16 bytes keeps ldmatrix conflict-free
constexpr int B_STRIDE = BLOCK_N + 8;
constexpr int A_STAGE = BLOCK_M * A_STRIDE;
constexpr int B_STAGE = BLOCK_K * B_STRIDE;
constexpr int A_CHUNKS = BLOCK_M * BLOCK_K / 8;  // 16-byte chunks per tile
constexpr int B_CHUNKS = BLOCK_K * BLOCK_N / 8;
)";
  if (!cpAsync)
    src += "constexpr int A_LOADS = (A_CHUNKS + THREADS - 1) / THREADS;  // chunks each thread stages\n"
           "constexpr int B_LOADS = (B_CHUNKS + THREADS - 1) / THREADS;\n";
  if (smemEpilogue) src += "constexpr int C_STRIDE = BLOCK_N + 8;\n";
  if (cpAsync)
    src += cpAsyncHelpers();
  else
    src += R"(
__device__ __forceinline__ unsigned smem_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
)";
  src += R"(
// Four 8x8 b16 matrices; lane l gives the address of row l % 8 of matrix l / 8.
__device__ __forceinline__ void ldmatrix_x4(unsigned (&r)[4], const void* p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(smem_address(p)));
}

// The same, transposed: turns k-major rows of B into mma's column fragments.
__device__ __forceinline__ void ldmatrix_x4_trans(unsigned (&r)[4], const void* p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(smem_address(p)));
}

// d += a (16x16, row) * b (16x8, col), bf16 inputs, fp32 accumulators.
__device__ __forceinline__ void mma_16816(float (&d)[4], const unsigned (&a)[4], const unsigned (&b)[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

)";
  src += p.signature("THREADS") + " {\n";
  src += R"(  extern __shared__ __align__(16) unsigned char smem[];
  __nv_bfloat16* As = reinterpret_cast<__nv_bfloat16*>(smem);  // [STAGES][BLOCK_M][A_STRIDE]
  __nv_bfloat16* Bs = As + STAGES * A_STAGE;                     // [STAGES][BLOCK_K][B_STRIDE]
  const int warp = threadIdx.x / 32)" + std::string(sliced ? " % WARPS" : "") + R"(, lane = threadIdx.x % 32;
)" + (sliced ? "  const int slice = threadIdx.x / 32 / WARPS;  // this warp group's share of every k-tile\n" : "") + R"(  const int warp_row = warp / WARPS_N * WARP_M, warp_col = warp % WARPS_N * WARP_N;
  const long long block_row = (long long)blockIdx.y * BLOCK_M;
  const long long block_col = (long long)blockIdx.x * BLOCK_N;

)";
  if (cpAsync) {
    src += render(R"(  // Issues the copies of k-tile `k_tile` into stage `stage`.
  auto load_tile = [&](long long k_tile, int stage) {
    const long long k0 = k_tile * BLOCK_K;
    for (int chunk = threadIdx.x; chunk < A_CHUNKS; chunk += THREADS) {
      const int r = chunk / (BLOCK_K / 8), kc = chunk % (BLOCK_K / 8) * 8;
      const long long row = block_row + r, k = k0 + kc;
      const bool valid = row < {{M}} && k < {{K}};
      cp_async_16(As + stage * A_STAGE + r * A_STRIDE + kc, valid ? A + row * {{K}} + k : A, valid);
    }
    for (int chunk = threadIdx.x; chunk < B_CHUNKS; chunk += THREADS) {
      const int r = chunk / (BLOCK_N / 8), nc = chunk % (BLOCK_N / 8) * 8;
      const long long k = k0 + r, col = block_col + nc;
      const bool valid = k < {{K}} && col < {{N}};
      cp_async_16(Bs + stage * B_STAGE + r * B_STRIDE + nc, valid ? B + k * {{N}} + col : B, valid);
    }
  };
)",
                  vars);
  } else {
    src += render(R"(  // Global -> registers, 16 bytes at a time; chunks outside the matrices are zero.
  uint4 a_regs[A_LOADS], b_regs[B_LOADS];
  auto fetch_tile = [&](long long k_tile) {
    const long long k0 = k_tile * BLOCK_K;
#pragma unroll
    for (int i = 0; i < A_LOADS; ++i) {
      const int chunk = threadIdx.x + i * THREADS;
      const long long row = block_row + chunk / (BLOCK_K / 8), k = k0 + chunk % (BLOCK_K / 8) * 8;
      a_regs[i] = chunk < A_CHUNKS && row < {{M}} && k < {{K}} ? *reinterpret_cast<const uint4*>(A + row * {{K}} + k)
                                                               : make_uint4(0, 0, 0, 0);
    }
#pragma unroll
    for (int i = 0; i < B_LOADS; ++i) {
      const int chunk = threadIdx.x + i * THREADS;
      const long long k = k0 + chunk / (BLOCK_N / 8), col = block_col + chunk % (BLOCK_N / 8) * 8;
      b_regs[i] = chunk < B_CHUNKS && k < {{K}} && col < {{N}} ? *reinterpret_cast<const uint4*>(B + k * {{N}} + col)
                                                               : make_uint4(0, 0, 0, 0);
    }
  };
  // Registers -> shared memory stage `stage`.
  auto store_tile = [&](int stage) {
#pragma unroll
    for (int i = 0; i < A_LOADS; ++i) {
      const int chunk = threadIdx.x + i * THREADS;
      if (chunk < A_CHUNKS)
        *reinterpret_cast<uint4*>(As + stage * A_STAGE + chunk / (BLOCK_K / 8) * A_STRIDE + chunk % (BLOCK_K / 8) * 8) =
            a_regs[i];
    }
#pragma unroll
    for (int i = 0; i < B_LOADS; ++i) {
      const int chunk = threadIdx.x + i * THREADS;
      if (chunk < B_CHUNKS)
        *reinterpret_cast<uint4*>(Bs + stage * B_STAGE + chunk / (BLOCK_N / 8) * B_STRIDE + chunk % (BLOCK_N / 8) * 8) =
            b_regs[i];
    }
  };
)",
                  vars);
  }
  src += R"(
  float acc[MMA_TILES_M][MMA_TILES_N][4] = {};
  auto compute_tile = [&](int stage) {
    const __nv_bfloat16* a_tile = As + stage * A_STAGE;
    const __nv_bfloat16* b_tile = Bs + stage * B_STAGE;
#pragma unroll
    for (int kk = )" + std::string(sliced ? "slice * K_SLICE; kk < (slice + 1) * K_SLICE" : "0; kk < BLOCK_K") + R"(; kk += 16) {
      unsigned a[MMA_TILES_M][4], b[MMA_TILES_N][2];
#pragma unroll
      for (int i = 0; i < MMA_TILES_M; ++i)  // rows lane % 16, k half lane / 16
        ldmatrix_x4(a[i], a_tile + (warp_row + i * 16 + lane % 16) * A_STRIDE + kk + lane / 16 * 8);
#pragma unroll
      for (int j = 0; j < MMA_TILES_N; j += 2) {  // k rows lane % 16, n half lane / 16: two n-tiles
        unsigned r[4];
        ldmatrix_x4_trans(r, b_tile + (kk + lane % 16) * B_STRIDE + warp_col + j * 8 + lane / 16 * 8);
        b[j][0] = r[0];
        b[j][1] = r[1];
        b[j + 1][0] = r[2];
        b[j + 1][1] = r[3];
      }
#pragma unroll
      for (int i = 0; i < MMA_TILES_M; ++i)
#pragma unroll
        for (int j = 0; j < MMA_TILES_N; ++j) mma_16816(acc[i][j], a[i], b[j]);
    }
  };

)";
  src += render("  const long long k_tiles = ({{K}} + BLOCK_K - 1) / BLOCK_K;\n", vars);
  if (cpAsync) {
    src += cpAsyncMainLoop();
  } else if (pipeline == "double") {
    src += R"(  fetch_tile(0);
  store_tile(0);
  __syncthreads();
  for (long long t = 0; t < k_tiles; ++t) {
    const int stage = t % 2;
    const bool more = t + 1 < k_tiles;
    if (more) fetch_tile(t + 1);  // global loads in flight during the math below
    compute_tile(stage);
    if (more) store_tile(stage ^ 1);  // the other buffer: last read before the previous barrier
    __syncthreads();
  }
)";
  } else {
    src += R"(  for (long long t = 0; t < k_tiles; ++t) {
    fetch_tile(t);
    store_tile(0);
    __syncthreads();
    compute_tile(0);
    __syncthreads();
  }
)";
  }

  // Bias for the lane's two columns; the shared-memory epilogue also visits columns past N.
  const DType biasType = fused ? p.input("bias").dtype : DType::F32;
  const std::string guardedBias =
      fused ? "    const float bias0 = col < {{N}} ? " + toFloat(biasType, "bias[col]") +
                  " : 0.0f;\n    const float bias1 = col < {{N}} ? " + toFloat(biasType, "bias[col + 1]") + " : 0.0f;\n"
            : "";
  vars["V0"] = epilogueValue("half * 2", "bias0");
  vars["V1"] = epilogueValue("half * 2 + 1", "bias1");
  if (sliced) {
    src += std::string(cpAsync ? "  cp_async_wait<0>();\n" : "") + R"(  __syncthreads();  // every slice is done with the pipeline buffers
  // Slices 1.. hand their partial sums to slice 0 through shared memory.
  constexpr int PER_WARP = MMA_TILES_M * MMA_TILES_N * 4 * 32;
  float* partials = reinterpret_cast<float*>(smem);  // [SPLIT_K - 1][WARPS][PER_WARP], lane fastest
  if (slice > 0) {
    float* mine = partials + ((slice - 1) * WARPS + warp) * PER_WARP + lane;
#pragma unroll
    for (int i = 0; i < MMA_TILES_M; ++i)
#pragma unroll
      for (int j = 0; j < MMA_TILES_N; ++j)
#pragma unroll
        for (int e = 0; e < 4; ++e) mine[((i * MMA_TILES_N + j) * 4 + e) * 32] = acc[i][j][e];
  }
  __syncthreads();
  if (slice == 0) {
    for (int s = 1; s < SPLIT_K; ++s) {
      const float* theirs = partials + ((s - 1) * WARPS + warp) * PER_WARP + lane;
#pragma unroll
      for (int i = 0; i < MMA_TILES_M; ++i)
#pragma unroll
        for (int j = 0; j < MMA_TILES_N; ++j)
#pragma unroll
          for (int e = 0; e < 4; ++e) acc[i][j][e] += theirs[((i * MMA_TILES_N + j) * 4 + e) * 32];
    }
  }
)";
    if (!smemEpilogue) src += "  if (slice > 0) return;  // slice 0 holds the sums\n";
  }
  if (smemEpilogue) {
    if (sliced)
      src += "  __syncthreads();  // the partial sums are read: the tile below reuses their space\n";
    else
      src += std::string(cpAsync ? "  cp_async_wait<0>();\n" : "") + "  __syncthreads();  // the pipeline buffers are free\n";
    std::string fragments = render(R"(#pragma unroll
for (int i = 0; i < MMA_TILES_M; ++i) {
#pragma unroll
  for (int j = 0; j < MMA_TILES_N; ++j) {
    const int r = warp_row + i * 16 + lane / 4, n = warp_col + j * 8 + lane % 4 * 2;
)" + (fused ? "    const long long col = block_col + n;\n" + guardedBias : "") + R"(#pragma unroll
    for (int half = 0; half < 2; ++half)  // accumulator rows r and r + 8
      *reinterpret_cast<__nv_bfloat162*>(Cs + (r + half * 8) * C_STRIDE + n) = __floats2bfloat162_rn({{V0}}, {{V1}});
  }
}
)", vars);
    src += "  // Accumulators -> a bf16 tile in shared memory -> 16-byte coalesced stores.\n"
           "  __nv_bfloat16* Cs = reinterpret_cast<__nv_bfloat16*>(smem);  // [BLOCK_M][C_STRIDE]\n";
    src += sliced ? "  if (slice == 0) {\n" + indentLines(fragments, 4) + "  }\n" : indentLines(fragments, 2);
    src += render(R"(  __syncthreads();
  for (int chunk = threadIdx.x; chunk < BLOCK_M * BLOCK_N / 8; chunk += THREADS) {
    const int r = chunk / (BLOCK_N / 8), n = chunk % (BLOCK_N / 8) * 8;
    const long long row = block_row + r, col = block_col + n;
    if (row < {{M}} && col < {{N}})
      *reinterpret_cast<uint4*>(C + row * {{N}} + col) = *reinterpret_cast<const uint4*>(Cs + r * C_STRIDE + n);
  }
}
)",
                  vars);
  } else {
    src += render(R"(
  // Each lane holds rows lane / 4 and lane / 4 + 8, columns 2 * (lane % 4) + {0, 1} of every mma tile.
#pragma unroll
  for (int i = 0; i < MMA_TILES_M; ++i) {
#pragma unroll
    for (int j = 0; j < MMA_TILES_N; ++j) {
      const long long row = block_row + warp_row + i * 16 + lane / 4;
      const long long col = block_col + warp_col + j * 8 + lane % 4 * 2;
      if (col >= {{N}}) continue;  // N is a multiple of 8: col + 1 is inside too
)" + bf16PairStore(p) + R"(    }
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
  k.launch.block[0] = std::to_string(32 * (g.param("BLOCK_M") / g.param("WARP_M")) *
                                     (g.param("BLOCK_N") / g.param("WARP_N")) * (sliced ? g.param("SPLIT_K") : 1));
  k.launch.dynamicSmemBytes = std::to_string(gemmMmaSmemBytes(g));
  return k;
}

}  // namespace crucible::templates
