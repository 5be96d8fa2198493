// SPDX-License-Identifier: GPL-3.0-or-later
// Emits a Hopper (sm_90a) bf16 GEMM on warpgroup tensor cores: every k-step is
// wgmma.mma_async m64nNk16 (N = BLOCK_N, fp32 accumulators in registers) with
// both operands read from shared memory through matrix descriptors.
//
// Shared memory, per stage, in the canonical 128-byte-swizzle layouts of the
// PTX ISA ("Shared Memory Matrix Layout", "Matrix Descriptor Format"):
//   A tile (BLOCK_M x 64, K-major): row r is 128 bytes at r * 128; 16-byte
//     chunk c of the row sits at chunk position c ^ (r % 8). Descriptor:
//     stride byte offset (8 rows -> next 8 rows) = 1024, leading byte offset
//     unused for swizzled K-major (encoded 1). A k16 step starts 32 bytes
//     further into the rows; the hardware applies the XOR to the final address,
//     so the start may sit inside a swizzle row.
//   B tile (64 x BLOCK_N, N-major, wgmma's transpose flag): 64-column panels of
//     BLOCK_K rows x 128 bytes, panel p at p * BLOCK_K * 128; within a panel
//     k-row r is at r * 128 and its chunk c at c ^ (r % 8). Descriptor: leading
//     byte offset (64 columns -> next 64 columns) = BLOCK_K * 128, stride byte
//     offset (8 k-rows -> next 8) = 1024. A k16 step starts 16 rows (2048 bytes)
//     further.
// Every tile starts on a 1024-byte boundary (the swizzle pattern's period), so
// the descriptors' base-offset field stays 0.
//
// Pipeline: all threads copy tiles with 16-byte cp.async (k past K zero-filled,
// rows past M and columns past N clamped: they only reach accumulators that are
// never stored) into a STAGES-deep ring, STAGES - 2 tiles ahead; each k-tile's
// wgmmas are committed as one group and one group stays in flight while the
// next tile's copies are issued. The wgmma reads of a stage must be complete
// before any thread refills it: a warpgroup waits for its tile t - 1 after
// issuing tile t, and the barrier at the top of the next iteration orders that
// for all warpgroups, so the stage of tile t - 2 is the one refilled.
#include <string>
#include "backends/proposers/template/gemm_wgmma.h"
#include "backends/proposers/template/kernel_source.h"
#include "backends/proposers/template/spaces.h"

namespace crucible::templates {
namespace {

using namespace wgmma;  // kWarpgroupThreads, kSwizzleAlignment, ...

constexpr std::int64_t kMaxAccumulators = 128;  // fp32 accumulators per thread (CUTLASS's 128x256 / 2 warpgroups)
// Registers besides the accumulators: descriptors, copy addresses, loop state.
constexpr std::int64_t kRegisterOverhead = 64;

enum class WgmmaScale { Accumulate, Argument, Overwrite };

// The inline-asm wrapper of one wgmma.mma_async.m64n<n>k16.f32.bf16.bf16 with both operands in shared memory.
std::string wgmmaWrapper(std::int64_t n, WgmmaScale scale) {
  const bool accumulateArgument = scale == WgmmaScale::Argument, overwrite = scale == WgmmaScale::Overwrite;
  const std::int64_t regs = n / 2;
  const std::string name = "wgmma_m64n" + std::to_string(n) + "k16" + (overwrite ? "_overwrite" : "");
  // "{%0, %1, ...}" split into string-literal lines of 16 registers.
  std::string list = "{", outputs;
  for (std::int64_t i = 0; i < regs; ++i) {
    list += std::string(i == 0 ? "" : i % 16 == 0 ? ",\"\n      \"" : ", ") + "%" + std::to_string(i);
    outputs += std::string(i == 0 ? "" : i % 8 == 0 ? ",\n        " : ", ") + (overwrite ? "\"=f\"(d[" : "\"+f\"(d[") +
               std::to_string(i) + "])";
  }
  list += "}";
  return render(R"(// d (this warpgroup's 64 x {{N}} fp32 accumulators) {{OP}} A (64 x 16, K-major) * B (16 x {{N}}, N-major).
// Asynchronous: d must not be touched until a wgmma_wait covers this call's group.
// Trailing immediates: scale-a = scale-b = 1 (no negation), A not transposed, B transposed (N-major).{{ACC_DOC}}
__device__ __forceinline__ void {{NAME}}(float (&d)[{{REGS}}], unsigned long long a_desc, unsigned long long b_desc{{ACC_PARAM}}) {
  asm volatile(
      "{\n"
      ".reg .pred accumulate;\n"
      "setp.ne.b32 accumulate, %{{SCALE}}, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n{{N}}k16.f32.bf16.bf16\n"
      "{{LIST}},\n"
      "%{{ADESC}}, %{{BDESC}}, accumulate, 1, 1, 0, 1;\n"
      "}\n"
      : {{OUTPUTS}}
      : "l"(a_desc), "l"(b_desc), "r"({{ACC_VALUE}}));
}
)",
                {{"N", std::to_string(n)},
                 {"NAME", name},
                 {"REGS", std::to_string(regs)},
                 {"LIST", list},
                 {"OUTPUTS", outputs},
                 {"ADESC", std::to_string(regs)},
                 {"BDESC", std::to_string(regs + 1)},
                 {"SCALE", std::to_string(regs + 2)},
                 {"OP", overwrite ? "=" : "+="},
                 {"ACC_DOC", accumulateArgument ? "\n// accumulate = 0: d = A * B (d's old values are ignored)."
                             : overwrite ? "\n// d's old values are neither read nor kept: d is an output only (\"=f\"), so they need not\n"
                                           "// be live before the call (a tile's first k16 step, instead of zeroing d)."
                                         : ""},
                 {"ACC_PARAM", accumulateArgument ? ", int accumulate" : ""},
                 {"ACC_VALUE", accumulateArgument ? "accumulate" : overwrite ? "0" : "1"}});
}

}  // namespace

std::string wgmmaInstructionWrapper(std::int64_t n, bool accumulateArgument) {
  return wgmmaWrapper(n, accumulateArgument ? WgmmaScale::Argument : WgmmaScale::Accumulate);
}

std::string wgmmaOverwriteWrapper(std::int64_t n) { return wgmmaWrapper(n, WgmmaScale::Overwrite); }

std::map<std::string, std::string> wgmmaRenderVars(const KernelProblem& p, std::int64_t blockN) {
  return {{"M", p.extentCode(p.input("A"), 0)},
          {"K", p.extentCode(p.input("A"), 1)},
          {"N", p.extentCode(p.output("C"), 1)},
          {"WGMMA", "wgmma_m64n" + std::to_string(blockN) + "k16"}};
}

EmittedKernel wgmmaKernel(std::string source, const KernelProblem& p, std::int64_t blockM, std::int64_t blockN,
                          std::int64_t threads, std::int64_t smemBytes) {
  EmittedKernel k;
  k.source = std::move(source);
  k.launch.entry = p.entry;
  k.launch.grid[0] = "ceil_div(" + p.extentExpr(p.output("C"), 1) + ", " + std::to_string(blockN) + ") * ceil_div(" +
                     p.extentExpr(p.input("A"), 0) + ", " + std::to_string(blockM) + ")";
  k.launch.block[0] = std::to_string(threads);
  k.launch.dynamicSmemBytes = std::to_string(smemBytes);
  return k;
}

std::string wgmmaSummaryHead(const KernelProblem& p, std::int64_t blockN) {
  return std::string(p.family == "matmul_bias_relu" ? "GEMM + bias + ReLU" : "GEMM") +
         " on Hopper warpgroup tensor cores (wgmma m64n" + std::to_string(blockN) +
         "k16 bf16, fp32 accumulate, 128B-swizzled shared-memory operands), ";
}

// Source fragments both wgmma kernels share (rendered by the caller with its vars).
std::string wgmmaTileLayout() {
  return R"(constexpr int ROW_BYTES = BLOCK_K * 2;                  // 128: one swizzle row
constexpr int SWIZZLE_BYTES = 1024;                     // 8 rows of 128 bytes: the swizzle pattern's period
constexpr int A_STAGE_BYTES = BLOCK_M * ROW_BYTES;      // [BLOCK_M rows][128 B]
constexpr int B_PANEL_BYTES = BLOCK_K * ROW_BYTES;      // one 64-column panel: [BLOCK_K k-rows][128 B]
constexpr int B_STAGE_BYTES = BLOCK_N / 64 * B_PANEL_BYTES;
constexpr int STAGE_BYTES = A_STAGE_BYTES + B_STAGE_BYTES;
)";
}

std::string wgmmaRasterOrder() {
  return R"(  // Grouped raster order: GROUP_M block rows advance together across the columns.
  const int tiles_m = static_cast<int>(({{M}} + BLOCK_M - 1) / BLOCK_M);
  const int tiles_n = static_cast<int>(({{N}} + BLOCK_N - 1) / BLOCK_N);
  const int group_blocks = GROUP_M * tiles_n;
  const int first_m = static_cast<int>(blockIdx.x) / group_blocks * GROUP_M;
  const int group_rows = min(tiles_m - first_m, GROUP_M);
  const int in_group = static_cast<int>(blockIdx.x) % group_blocks;
  const long long block_row = static_cast<long long>(first_m + in_group % group_rows) * BLOCK_M;
  const long long block_col = static_cast<long long>(in_group / group_rows) * BLOCK_N;
)";
}

std::string wgmmaSwizzledDestinations() {
  return R"(  // Swizzled destinations: chunk c of 128-byte row r lands at chunk position c ^ (r % 8).
  // A_STEP is a multiple of 8, so r % 8 is the same for all of a thread's A rows; B_STEP is
  // a multiple of 4, so (b_row + i * B_STEP) % 8 = (b_row % 8) ^ (i * B_STEP % 8).
  const unsigned a_dst = a_row * ROW_BYTES + ((a_chunk ^ (a_row % 8)) * 16);
  const unsigned b_dst = b_chunk / 8 * B_PANEL_BYTES + b_row * ROW_BYTES;
  const unsigned b_swizzle = ((b_chunk % 8) ^ (b_row % 8)) * 16;
)";
}

std::string wgmmaCopyBTile() {
  return R"(    const __nv_bfloat16* b_rows = b_src + k0 * {{N}};
#pragma unroll
    for (int i = 0; i < B_LOADS; ++i) {
      const int r = b_row + i * B_STEP;
      const bool valid = k0 + r < {{K}};
      cp_async_16(b_tile + b_dst + i * B_STEP * ROW_BYTES + (b_swizzle ^ (i * B_STEP % 8 * 16)),
                  valid ? b_rows + r * static_cast<int>({{N}}) : B, valid);
    }
)";
}

std::string wgmmaZeroAccumulators() {
  return R"(  float acc[SLABS][BLOCK_N / 2];
#pragma unroll
  for (int s = 0; s < SLABS; ++s)
#pragma unroll
    for (int i = 0; i < BLOCK_N / 2; ++i) acc[s][i] = 0.0f;
)";
}

std::string wgmmaIssueTile(bool overwriteFirst) {
  const std::string operands = R"((acc[s], a_desc + ((stage * STAGE_BYTES + s * 64 * ROW_BYTES + kk * 32) >> 4),
                  b_desc + ((stage * STAGE_BYTES + kk * 16 * ROW_BYTES) >> 4)))";
  const std::string call = overwriteFirst ? "if (kk == 0)\n          {{WGMMA}}_overwrite" + operands +
                                                ";\n        else\n          {{WGMMA}}" + operands + ";"
                                          : "{{WGMMA}}" + operands + ";";
  return R"(    wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < BLOCK_K / 16; ++kk) {
#pragma unroll
      for (int s = 0; s < SLABS; ++s)  // A: 32 bytes further along the rows per k16; B: 16 k-rows further
        )" + call + R"(
    }
    wgmma_commit();
)";
}

std::string wgmmaDrain() {
  return R"(  wgmma_wait<0>();
#pragma unroll
  for (int s = 0; s < SLABS; ++s) pin_accumulators(acc[s]);
)";
}

std::string wgmmaDescriptors(const std::string& groupIndex) {
  return R"(  // Stage 0's descriptors; a stage, slab or k16 step adds its byte offset >> 4 to the start address.
  // A: this warpgroup's first row; leading offset unused (swizzled K-major), 8 rows -> next 8 rows = 1024.
  // B: leading offset = 64 columns -> next 64 (a panel), stride = 8 k-rows -> next 8 = 1024.
  const unsigned long long a_desc = smem_descriptor(ring + )" + groupIndex +
         R"( * SLABS * 64 * ROW_BYTES, 16, SWIZZLE_BYTES);
  const unsigned long long b_desc = smem_descriptor(ring + A_STAGE_BYTES, B_PANEL_BYTES, SWIZZLE_BYTES);
)";
}

std::string wgmmaDeviceHelpers(bool cpAsync) {
  return R"(__device__ __forceinline__ unsigned smem_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

)" + std::string(cpAsync ? R"(// 16 bytes global -> shared (a shared-window address) without a register round trip; `valid` = false writes zeros.
__device__ __forceinline__ void cp_async_16(unsigned dst, const void* src, bool valid) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(valid ? 16 : 0)
               : "memory");
}

__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }

template <int PENDING>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(PENDING) : "memory");
}

// Makes this thread's completed generic-proxy writes to shared memory (the cp.async copies)
// visible to the async proxy the tensor cores read through.
__device__ __forceinline__ void fence_proxy_async() { asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); }

)" : "") + R"(// Orders prior register and shared-memory accesses of the warpgroup before the next wgmma.
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }

__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }

// Waits until at most PENDING committed wgmma groups of this warpgroup are still running.
template <int PENDING>
__device__ __forceinline__ void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(PENDING) : "memory");
}

// Ties the accumulators to this point of the instruction stream, so the compiler
// reads them only after the wgmma_wait before it.
template <int N>
__device__ __forceinline__ void pin_accumulators(float (&d)[N]) {
#pragma unroll
  for (int i = 0; i < N; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

// A shared-memory matrix descriptor with 128-byte swizzling: start address, leading and
// stride byte offsets, each >> 4, in bits 0-13, 16-29 and 32-45; swizzle mode 1 in bits 62-63.
__device__ __forceinline__ unsigned long long smem_descriptor(unsigned address, unsigned leading_bytes,
                                                              unsigned stride_bytes) {
  return static_cast<unsigned long long>((address & 0x3FFFF) >> 4) |
         static_cast<unsigned long long>((leading_bytes & 0x3FFFF) >> 4) << 16 |
         static_cast<unsigned long long>((stride_bytes & 0x3FFFF) >> 4) << 32 | 1ull << 62;
}

)";
}

std::vector<TunableParameter> wgmmaParameters(const GeneMap& genes) {
  if (auto pipeline = genes.find("pipeline"); pipeline != genes.end() && isWarpSpecialized(pipeline->second)) {
    std::vector<TunableParameter> out = wgmmaWarpSpecializedParameters(pipeline->second == kTma);
    // epilogue=tma: one staging buffer per consumer warpgroup (leaves room for a deeper ring), two
    // (a warpgroup never waits for its last store to be read), or four (a 256-column tile's four
    // steps never wait on the copy engine; the ring one stage shorter at 128 x 256);
    // emit_gemm_wgmma_persistent.cpp.
    if (auto epilogue = genes.find("epilogue"); epilogue != genes.end() && epilogue->second == kTmaEpilogue)
      out.push_back({"EPI_BUFFERS", {1, 2, 4}});
    return out;
  }
  return {{"BLOCK_M", {64, 128, 256}},
          {"BLOCK_N", {64, 128, 256}},
          {"BLOCK_K", {64}},
          {"WARPGROUPS", {1, 2}},
          {"STAGES", {3, 4, 5}}};
}

std::int64_t gemmWgmmaSmemBytes(const Genome& g) {
  if (isWarpSpecialized(g.gene("pipeline"))) return gemmWgmmaWarpSpecializedSmemBytes(g);
  const std::int64_t bm = g.param("BLOCK_M"), bn = g.param("BLOCK_N"), bk = g.param("BLOCK_K");
  return g.param("STAGES") * (bm + bn) * bk * kBf16Bytes + kSwizzleAlignment;
}

void addWgmmaGeneViolations(const GeneMap& genes, const KernelProblem& p, Violations& v) {
  const std::string& pipeline = genes.at("pipeline");
  const std::string& epilogue = genes.at("epilogue");
  if (isWarpSpecialized(pipeline)) {
    if (epilogue == kTmaEpilogue)
      v.require(isPersistentSchedule(genes) && pipeline == kTma,
                "only the persistent TMA kernels store C by the copy engine (epilogue=tma needs pipeline=tma and "
                "schedule=persistent, pingpong or streamk)");
    else
      v.require(epilogue == "smem",
                "the warp-specialized wgmma kernel stages its tile through shared memory (epilogue=smem)");
  } else {
    v.require(pipeline == "cp_async",
              "the wgmma kernel fills shared memory through a cp.async ring (pipeline=cp_async) or a producer "
              "warpgroup (pipeline=warp_specialized)");
    v.require(epilogue == "direct", "the wgmma kernel stores its accumulators directly (epilogue=direct)");
  }
  v.require(genes.at("vector") == "8", "wgmma tiles move in 16-byte chunks (vector=8)");
  v.require(genes.at("split_k") == "none", "the wgmma kernel has no sliced-K (split_k=none)");
  v.require(p.input("A").dtype == DType::BF16 && p.input("B").dtype == DType::BF16, "wgmma bf16 needs bf16 A and B");
  v.require(p.output("C").dtype == DType::BF16, "the wgmma kernel writes a bf16 C");
  // A 16-byte chunk is all in or all out of the matrix only when rows split into whole chunks.
  v.divisible(p.extent(p.input("A"), 1), "K", 8, "the 8-element chunk");
  v.divisible(p.extent(p.input("B"), 1), "N", 8, "the 8-element chunk");
}

void addWgmmaTileViolations(const Genome& g, Violations& v) {
  // One 128-byte swizzle row of bf16 per tile row (A) and per k-row of a B panel.
  v.require(g.param("BLOCK_K") == 64, "BLOCK_K must be 64: one 128-byte swizzle row of bf16");
  // A pingpong warpgroup owns whole tiles; the other kernels split BLOCK_M over their warpgroups.
  if (isPingpongSchedule(g.genes))
    v.divisible(g.param("BLOCK_M"), "BLOCK_M", kRowsPerWgmma, "64 (the M of a wgmma)");
  else
    v.divisible(g.param("BLOCK_M"), "BLOCK_M", kRowsPerWgmma * g.param("WARPGROUPS"), "64 x WARPGROUPS");
  v.divisible(g.param("BLOCK_N"), "BLOCK_N", 64, "the 64-column swizzle panel");
  v.atMost(g.param("BLOCK_N"), "BLOCK_N", 256, "the largest wgmma N");
  v.require(g.param("STAGES") >= 3, "the ring needs STAGES >= 3: one stage being multiplied, one in flight, one filling");
}

void addWgmmaViolations(const Genome& g, const KernelProblem& p, Violations& v) {
  if (isWarpSpecialized(g.gene("pipeline"))) {
    addWgmmaWarpSpecializedViolations(g, p, v);
    return;
  }
  addWgmmaTileViolations(g, v);
  if (!v.empty()) return;
  const ProblemTensor& a = p.input("A");
  const ProblemTensor& b = p.input("B");
  const std::int64_t bm = g.param("BLOCK_M"), bn = g.param("BLOCK_N"), bk = g.param("BLOCK_K");
  const std::int64_t groups = g.param("WARPGROUPS");
  const std::int64_t M = p.extent(a, 0), K = p.extent(a, 1), N = p.extent(b, 1);
  const std::int64_t threads = kWarpgroupThreads * groups;
  const std::int64_t accumulators = bm / groups / kRowsPerWgmma * bn / 2;
  v.atMost(accumulators, "accumulators per thread", kMaxAccumulators, "the register budget");
  const std::int64_t registers = accumulators + kRegisterOverhead;
  v.atMost(registers, "estimated registers per thread", kMaxRegistersPerThread, "the per-thread limit");
  v.atMost(registers * threads, "estimated registers per block", kRegistersPerSm, "the register file");
  v.atMost(gemmWgmmaSmemBytes(g), "shared memory per block", kMaxSmemPerBlock, "the sm_90 limit");
  // The copies address a tile's rows with 32-bit element offsets.
  v.atMost(bm * K, "BLOCK_M x K", kMaxTileOffset, "the 32-bit tile offset");
  v.atMost(bk * N, "BLOCK_K x N", kMaxTileOffset, "the 32-bit tile offset");
  v.atMost(ceilDiv(M, bm) * ceilDiv(N, bn), "blocks (grid.x)", kMaxTileOffset, "the grid.x limit");
}

EmittedKernel emitGemmWgmma(const Genome& g, const KernelProblem& p) {
  if (isWarpSpecialized(g.gene("pipeline"))) return emitGemmWgmmaWarpSpecialized(g, p);
  const bool fused = p.family == "matmul_bias_relu";
  const std::int64_t bm = g.param("BLOCK_M"), bn = g.param("BLOCK_N");
  const std::int64_t groups = g.param("WARPGROUPS"), stages = g.param("STAGES");
  std::map<std::string, std::string> vars = wgmmaRenderVars(p, bn);

  const std::string summary = wgmmaSummaryHead(p, bn) + std::to_string(stages) + "-stage cp.async ring, " + std::to_string(groups) +
                              (groups == 1 ? " warpgroup" : " warpgroups") + ", epilogue stored from registers";
  std::string src = headerComment(g, p, summary);
  src += includes(p) + "\n";
  src += constant("BLOCK_M", bm);
  src += constant("BLOCK_N", bn, "the N of every wgmma");
  src += constant("BLOCK_K", g.param("BLOCK_K"), "one 128-byte swizzle row of bf16");
  src += constant("WARPGROUPS", groups, "each owns BLOCK_M / WARPGROUPS rows");
  src += constant("STAGES", stages, "shared-memory ring; tiles are fetched STAGES - 2 ahead");
  src += constant("GROUP_M", kRasterGroupM, "block rows per raster group: neighbours share B panels in L2");
  src += R"(constexpr int THREADS = 128 * WARPGROUPS;
constexpr int SLABS = BLOCK_M / WARPGROUPS / 64;        // m64 wgmma slabs per warpgroup
)" + wgmmaTileLayout() + R"(constexpr int A_LOADS = BLOCK_M * (ROW_BYTES / 16) / THREADS;  // 16-byte chunks per thread per tile
constexpr int B_LOADS = BLOCK_K * (BLOCK_N / 8) / THREADS;
constexpr int A_STEP = THREADS / (ROW_BYTES / 16);              // tile rows between a thread's A chunks
constexpr int B_STEP = THREADS / (BLOCK_N / 8);                 // k-rows between its B chunks
static_assert(A_LOADS * THREADS == BLOCK_M * (ROW_BYTES / 16) && B_LOADS * THREADS == BLOCK_K * (BLOCK_N / 8),
              "every thread copies the same number of chunks");
static_assert(A_STEP % 8 == 0 && B_STEP % 4 == 0, "the swizzle of a thread's chunks follows from its first");
static_assert(A_STAGE_BYTES % SWIZZLE_BYTES == 0 && B_PANEL_BYTES % SWIZZLE_BYTES == 0,
              "every tile starts on a swizzle period");

)";
  src += wgmmaDeviceHelpers();
  src += wgmmaInstructionWrapper(bn) + "\n";
  src += p.signature("THREADS, 1") + " {\n";
  src += render(R"(  extern __shared__ __align__(1024) unsigned char smem[];
  // The swizzle is applied to absolute shared addresses: the ring starts on a 1024-byte
  // boundary (the launch reserves 1 KiB for this). Stage s: A tile, then B's panels.
  const unsigned ring = (smem_address(smem) + (SWIZZLE_BYTES - 1)) & ~unsigned(SWIZZLE_BYTES - 1);

)" + wgmmaRasterOrder() + R"(
  // Each thread copies the same chunks of every k-tile: A rows a_row + i * A_STEP at 8-element
  // chunk a_chunk along k; B k-rows b_row + i * B_STEP at chunk b_chunk along n. Rows past M
  // and columns past N are clamped onto the last ones: they feed only accumulators that are
  // never stored. Only k past K is zero-filled. Offsets inside a tile fit in 32 bits.
  const int a_row = threadIdx.x / 8, a_chunk = threadIdx.x % 8;
  const int b_row = threadIdx.x / (BLOCK_N / 8), b_chunk = threadIdx.x % (BLOCK_N / 8);
  const __nv_bfloat16* a_src = A + block_row * {{K}} + a_chunk * 8;
  const __nv_bfloat16* b_src = B + min(block_col + b_chunk * 8, {{N}} - 8);
  int a_offset[A_LOADS];
#pragma unroll
  for (int i = 0; i < A_LOADS; ++i)
    a_offset[i] = static_cast<int>((min(block_row + a_row + i * A_STEP, {{M}} - 1) - block_row) * {{K}});
)" + wgmmaSwizzledDestinations() + R"(
  // Issues the copies of k-tile `k_tile` into stage `stage`.
  auto load_tile = [&](long long k_tile, int stage) {
    const long long k0 = k_tile * BLOCK_K;
    const unsigned a_tile = ring + stage * STAGE_BYTES, b_tile = a_tile + A_STAGE_BYTES;
    const bool a_valid = k0 + a_chunk * 8 < {{K}};
#pragma unroll
    for (int i = 0; i < A_LOADS; ++i)
      cp_async_16(a_tile + a_dst + i * A_STEP * ROW_BYTES, a_valid ? a_src + k0 + a_offset[i] : A, a_valid);
)" + wgmmaCopyBTile() + R"(  };

  const int warpgroup = threadIdx.x / 128;
)" + wgmmaDescriptors("warpgroup") + R"(
)" + wgmmaZeroAccumulators() + R"(
  const long long k_tiles = ({{K}} + BLOCK_K - 1) / BLOCK_K;
  // Prologue: STAGES - 2 tiles in flight. Every iteration commits one copy group
  // (possibly empty) so the wait count below always means the same tile.
#pragma unroll
  for (int s = 0; s < STAGES - 2; ++s) {
    if (s < k_tiles) load_tile(s, s);
    cp_async_commit();
  }
  for (long long t = 0; t < k_tiles; ++t) {
    cp_async_wait<STAGES - 3>();  // this thread's copies of tile t have landed
    fence_proxy_async();          // ... and are visible to the tensor cores
    __syncthreads();              // every thread's copies; every warpgroup is done reading tile t - 2
    const int stage = static_cast<int>(t % STAGES);
)" + wgmmaIssueTile() + R"(    const long long next = t + STAGES - 2;  // into the stage of tile t - 2
    if (next < k_tiles) load_tile(next, static_cast<int>(next % STAGES));
    cp_async_commit();
    wgmma_wait<1>();  // tile t - 1's products are done; its stage is refilled after the next barrier
  }
)" + wgmmaDrain() + R"(
)",
                vars);

  // Accumulator fragment of m64nNk16 (fp32): warp w of the warpgroup holds rows 16w..16w+15;
  // lane l holds rows l/4 and l/4 + 8, columns 8j + 2(l%4) + {0, 1}: d[4j], d[4j+1] on the
  // first row, d[4j+2], d[4j+3] on the second.
  vars["V0"] = fused ? "fmaxf(acc[s][j * 4 + half * 2] + bias0, 0.0f)" : "acc[s][j * 4 + half * 2]";
  vars["V1"] = fused ? "fmaxf(acc[s][j * 4 + half * 2 + 1] + bias1, 0.0f)" : "acc[s][j * 4 + half * 2 + 1]";
  src += render(R"(  // Warp w of a warpgroup holds rows 16w + lane / 4 and 16w + lane / 4 + 8 of each m64 slab,
  // columns 8j + 2 (lane % 4) + {0, 1}: acc[s][4j], [4j + 1] on the first row, [4j + 2], [4j + 3] on the second.
  const int warp = threadIdx.x % 128 / 32, lane = threadIdx.x % 32;
#pragma unroll
  for (int s = 0; s < SLABS; ++s) {
    const long long row = block_row + (warpgroup * SLABS + s) * 64 + warp * 16 + lane / 4;
#pragma unroll
    for (int j = 0; j < BLOCK_N / 8; ++j) {
      const long long col = block_col + j * 8 + lane % 4 * 2;
      if (col >= {{N}}) continue;  // N is a multiple of 8: col + 1 is inside too
)" + bf16PairStore(p) + R"(    }
  }
}
)",
                vars);

  return wgmmaKernel(std::move(src), p, bm, bn, kWarpgroupThreads * groups, gemmWgmmaSmemBytes(g));
}

}  // namespace crucible::templates
