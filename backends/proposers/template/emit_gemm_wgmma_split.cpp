// SPDX-License-Identifier: GPL-3.0-or-later
// Emits the fp32 GEMM on Hopper bf16 tensor cores with fp32 accuracy
// (tensor_core = "wgmma_bf16x3"): every fp32 operand x is split into three
// bf16 terms, x = x0 + x1 + x2 (x0 = bf16(x), x1 = bf16(x - x0),
// x2 = bf16(x - x0 - x1)); each term holds the next 8 significant bits, both
// subtractions are exact in fp32, and the three hold x exactly (rounding to
// nearest leaves each remainder within the next term's 8 bits; checked on the
// host in tests/backends/template/wgmma_split_test.cpp). The product a.b is the
// sum of the six term products a_i.b_j with i + j <= 2, each exact in fp32;
// the three left out (a1.b2, a2.b1, a2.b2) are at most ~2^-23 |a.b| together
// (|x1| <= 2^-8 |x|, |x2| <= 2^-16 |x|): the order of fp32's unit roundoff.
// No TF32 anywhere: bf16 products are exact, sums fp32.
//
// Why: CUDA cores peak at 67 TFLOP/s on an H200 and cuBLAS's sgemm runs at 51;
// bf16 tensor cores do six products at ~1000 / 6 = 165 TFLOP/s.
//
// Block: warpgroup 0 is the producer, warpgroups 1..2 are consumers (as in the
// warp-specialized bf16 kernel, emit_gemm_wgmma_ws.cpp).
// Producer, per k-tile of BLOCK_K = 32:
//   1. the fp32 tiles are staged PREFETCH k-tiles ahead in a ring of slots
//      ([BLOCK_M][32] of A, [32][BLOCK_N] of B, as in global memory), by the
//      pipeline gene:
//      "warp_specialized": each producer thread cp.asyncs its own 16-byte
//      chunks and later splits exactly those, so it only waits for its own
//      copies (cp.async.wait_group) and needs no barrier with the others;
//      "tma": one thread has the copy engine stage both boxes (two tensor maps,
//      unswizzled, zeros past the edges), completing on the slot's "staged"
//      mbarrier; after the split the producer warps meet at a named barrier
//      before the slot is refilled. The copy engine takes all address and
//      bounds work off the producer warps (1.15x faster at 4096^3);
//   2. once the consumers have released the plane stage (empty mbarrier), it
//      splits its chunks into the three bf16 planes of A and of B in the
//      layouts wgmma reads, makes them visible to the async proxy
//      (fence.proxy.async) and arrives on the stage's full mbarrier.
//      The producer's four warps are the kernel's bottleneck: chunks are
//      loaded in batches of up to 8 before the first is split (plain loads
//      the compiler may hoist; one load-split-store round trip per chunk was
//      1.27x slower at 4096^3), and copy addresses and bounds are worked out
//      once per thread.
// Planes, per stage: A0 A1 A2 (BLOCK_M rows x 64 bytes, K-major, 64-byte
// swizzle: 16-byte chunk c of row r at c ^ ((r / 2) % 4); descriptor stride
// 8 rows = 512 bytes) then B0 B1 B2 (BLOCK_N / 64 panels of 32 k-rows x 128
// bytes, N-major, 128-byte swizzle: chunk c of k-row r at c ^ (r % 8); the bf16
// kernel's B layout with 32 k-rows per panel).
// Consumers: per stage, 6 products x 2 k16 steps of wgmma m64nNk16 per slab
// into a fresh tile sum `part` (the first with scale-d = 0), committed as one
// group and waited for; the stage is handed back and part is added to the fp32
// accumulators with round-to-nearest. Why: accumulating all six products of
// all 256 k16 steps in the tensor cores (1536 adds per output at K = 4096)
// measured an RMS error 24x cuBLAS sgemm's on the H200; the tensor cores'
// accumulation truncates rather than rounds, so its errors add up instead of
// cancelling. With 12 such adds per tile sum and round-to-nearest across tiles
// the error measured 5x below cuBLAS sgemm's
// (results/2026-11-29-h200-fp32-split.md). The cost is a second set of
// accumulators (BLOCK_N <= 128) and a wait per stage, which the other consumer
// warpgroup covers. The mbarrier handshake is the bf16 warp-specialized
// kernel's (see there for why one parity bit suffices).
// Epilogue: fp32 fragments stored straight from registers as float2.
#include <algorithm>
#include <string>
#include "backends/proposers/template/gemm_wgmma.h"
#include "backends/proposers/template/kernel_source.h"
#include "core/task/kernel_abi.h"

namespace crucible::templates {
namespace {

using namespace wgmma;  // kWarpgroupThreads, kSwizzleAlignment, ...

constexpr std::int64_t kTerms = 3;
constexpr std::int64_t kF32Bytes = 4;
constexpr std::int64_t kMaxAccumulators = 64;  // each of acc and part (fp32 per consumer thread)
// Consumer registers besides the accumulators (descriptors, barrier state, epilogue addressing);
// the block keeps the launch share of registers (entryRegisters: 168 for 384 threads, no setmaxnreg).
constexpr std::int64_t kConsumerOverhead = 32;

std::int64_t planeStageBytes(const Genome& g) {
  return kTerms * (g.param("BLOCK_M") + g.param("BLOCK_N")) * g.param("BLOCK_K") * kBf16Bytes;
}

std::int64_t stagingBytes(const Genome& g) {
  return (g.param("BLOCK_M") + g.param("BLOCK_N")) * g.param("BLOCK_K") * kF32Bytes;
}

}  // namespace

std::vector<TunableParameter> wgmmaSplitParameters() {
  return {{"BLOCK_M", {128, 256}}, {"BLOCK_N", {64, 128}}, {"BLOCK_K", {32}},
          {"WARPGROUPS", {2}},     {"STAGES", {2, 3, 4}},             {"PREFETCH", {1, 2, 3}}};
}

std::int64_t gemmWgmmaSplitSmemBytes(const Genome& g) {
  // The TMA producer adds one "staged" mbarrier per staging slot.
  const std::int64_t stagedBarriers = g.gene("pipeline") == kTma ? g.param("PREFETCH") : 0;
  return g.param("STAGES") * planeStageBytes(g) + g.param("PREFETCH") * stagingBytes(g) + kSwizzleAlignment +
         (2 * g.param("STAGES") + stagedBarriers) * kMbarrierBytes;
}

void addWgmmaSplitGeneViolations(const GeneMap& genes, const KernelProblem& p, Violations& v) {
  v.require(p.input("A").dtype == DType::F32 && p.input("B").dtype == DType::F32,
            "the bf16x3 split kernel takes fp32 A and B");
  v.require(p.output("C").dtype == DType::F32, "the bf16x3 split kernel writes an fp32 C");
  v.require(genes.at("pipeline") == kWarpSpecialized || genes.at("pipeline") == kTma,
            "the bf16x3 split kernel has a producer warpgroup that splits the tiles, fed by cp.async "
            "(pipeline=warp_specialized) or by the copy engine (pipeline=tma)");
  v.require(genes.at("epilogue") == "direct",
            "the bf16x3 split kernel stores its fp32 fragments directly (epilogue=direct)");
  v.require(genes.at("vector") == "4", "the bf16x3 split kernel copies fp32 tiles in 16-byte chunks (vector=4)");
  v.require(genes.at("split_k") == "none", "the bf16x3 split kernel has no sliced-K (split_k=none)");
  v.divisible(p.extent(p.input("A"), 1), "K", 4, "the 4-float chunk");
  v.divisible(p.extent(p.input("B"), 1), "N", 4, "the 4-float chunk");
}

void addWgmmaSplitViolations(const Genome& g, const KernelProblem& p, Violations& v) {
  v.require(g.param("BLOCK_K") == 32, "BLOCK_K must be 32: one 64-byte swizzle row of bf16 per A row");
  v.require(g.param("WARPGROUPS") == 2, "the bf16x3 split kernel has two consumer warpgroups (WARPGROUPS=2)");
  if (!v.empty()) return;
  const std::int64_t bm = g.param("BLOCK_M"), bn = g.param("BLOCK_N"), consumers = g.param("WARPGROUPS");
  v.divisible(bm, "BLOCK_M", kRowsPerWgmma * consumers, "64 x WARPGROUPS");
  v.divisible(bn, "BLOCK_N", 64, "the 64-column swizzle panel");
  v.atMost(bn, "BLOCK_N", 256, "the largest wgmma N");
  v.require(g.param("STAGES") >= 2, "the plane ring needs STAGES >= 2: one stage multiplied while the next is split");
  const std::int64_t accumulators = bm / consumers / kRowsPerWgmma * bn / 2;
  v.atMost(accumulators, "accumulators per thread (and as many tile sums)", kMaxAccumulators, "the register budget");
  v.atMost(2 * accumulators + kConsumerOverhead, "estimated consumer registers per thread",
           entryRegisters(kWarpgroupThreads * (consumers + 1)), "the launch share of registers per thread");
  const ProblemTensor& a = p.input("A");
  const std::int64_t M = p.extent(a, 0), K = p.extent(a, 1), N = p.extent(p.input("B"), 1);
  v.atMost(gemmWgmmaSplitSmemBytes(g), "shared memory per block", kMaxSmemPerBlock, "the sm_90 limit");
  // Global addresses are 64-bit; the copy engine's coordinates (and the tile origins) are 32-bit.
  v.atMost(std::max({M, N, K}), "the largest of M, N and K", kMaxTileOffset, "the 32-bit tile coordinates");
  v.atMost(ceilDiv(M, bm) * ceilDiv(N, bn), "blocks (grid.x)", kMaxTileOffset, "the grid.x limit");
}

EmittedKernel emitGemmWgmmaSplit(const Genome& g, const KernelProblem& p) {
  const bool fused = p.family == "matmul_bias_relu";
  const bool tma = g.gene("pipeline") == kTma;
  const std::int64_t bm = g.param("BLOCK_M"), bn = g.param("BLOCK_N");
  const std::int64_t consumers = g.param("WARPGROUPS");
  const std::int64_t threads = kWarpgroupThreads * (consumers + 1);
  std::map<std::string, std::string> vars = wgmmaRenderVars(p, bn);

  const std::string summary =
      std::string(fused ? "fp32 GEMM + bias + ReLU" : "fp32 GEMM") + " on Hopper bf16 tensor cores (wgmma m64n" +
      std::to_string(bn) + "k16) with fp32 accuracy: operands split into three bf16 terms, six term products " +
      "accumulated in fp32; 1 producer warpgroup (" + (tma ? "TMA" : "cp.async") + " fp32 tiles " +
      std::to_string(g.param("PREFETCH")) +
      " ahead, split into swizzled planes), " + std::to_string(consumers) + " consumer warpgroups, " +
      std::to_string(g.param("STAGES")) + "-stage mbarrier ring";
  std::string src = headerComment(g, p, summary);
  src += includes(p) + "#include <cuda_bf16.h>\n\n";
  src += constant("BLOCK_M", bm);
  src += constant("BLOCK_N", bn, "the N of every wgmma");
  src += constant("BLOCK_K", g.param("BLOCK_K"), "k per stage: one 64-byte swizzle row of bf16");
  src += constant("CONSUMERS", consumers, "consumer warpgroups; each owns BLOCK_M / CONSUMERS rows");
  src += constant("STAGES", g.param("STAGES"), "depth of the ring of split (bf16) stages");
  src += constant("PREFETCH", g.param("PREFETCH"), "fp32 k-tiles copied ahead of the split");
  src += constant("GROUP_M", kRasterGroupM, "block rows per raster group: neighbours share B panels in L2");
  src += constant("THREADS", threads, "the producer warpgroup, then the consumers");
  src += R"(constexpr int PRODUCER_THREADS = 128;
constexpr int CONSUMER_THREADS = 128 * CONSUMERS;
constexpr int SLABS = BLOCK_M / CONSUMERS / 64;          // m64 wgmma slabs per consumer warpgroup
constexpr int TERMS = 3;                                 // x = x0 + x1 + x2, each a bf16
constexpr int A_ROW_BYTES = BLOCK_K * 2;                 // 64: one 64-byte swizzle row
constexpr int A_PLANE_BYTES = BLOCK_M * A_ROW_BYTES;     // one term of the A tile
constexpr int B_ROW_BYTES = 128;                         // 64 columns of bf16: one 128-byte swizzle row
constexpr int B_PANEL_BYTES = BLOCK_K * B_ROW_BYTES;     // 64 columns x BLOCK_K k-rows
constexpr int B_PLANE_BYTES = BLOCK_N / 64 * B_PANEL_BYTES;
constexpr int STAGE_BYTES = TERMS * (A_PLANE_BYTES + B_PLANE_BYTES);
constexpr int RING_BYTES = STAGES * STAGE_BYTES;
constexpr int A_STAGING_BYTES = BLOCK_M * BLOCK_K * 4;   // fp32 tiles as in global memory
constexpr int STAGING_BYTES = A_STAGING_BYTES + BLOCK_K * BLOCK_N * 4;
constexpr int A_ROW_CHUNKS = BLOCK_K / 4;                // 16-byte chunks per staged row
constexpr int B_ROW_CHUNKS = BLOCK_N / 4;
constexpr int A_CHUNKS = BLOCK_M * A_ROW_CHUNKS / PRODUCER_THREADS;  // per producer thread
constexpr int B_CHUNKS = BLOCK_K * B_ROW_CHUNKS / PRODUCER_THREADS;
constexpr int A_ROW_STEP = PRODUCER_THREADS / A_ROW_CHUNKS;  // rows between a thread's A chunks
constexpr int B_ROW_STEP = PRODUCER_THREADS / B_ROW_CHUNKS;  // k-rows between its B chunks
static_assert(PRODUCER_THREADS % A_ROW_CHUNKS == 0 && PRODUCER_THREADS % B_ROW_CHUNKS == 0,
              "a thread's chunks share their column");
static_assert(A_ROW_STEP % 8 == 0 && (B_ROW_STEP & (B_ROW_STEP - 1)) == 0,
              "a thread's later chunks follow its first chunk's swizzle, see split_tile");
constexpr int A_BATCH = A_CHUNKS < 8 ? A_CHUNKS : 8;  // chunks split per batch of loads
constexpr int B_BATCH = B_CHUNKS < 8 ? B_CHUNKS : 8;
static_assert(A_CHUNKS % A_BATCH == 0 && B_CHUNKS % B_BATCH == 0, "whole batches");
static_assert(A_CHUNKS * PRODUCER_THREADS == BLOCK_M * A_ROW_CHUNKS &&
                  B_CHUNKS * PRODUCER_THREADS == BLOCK_K * B_ROW_CHUNKS,
              "every producer thread copies and splits the same number of chunks");
static_assert(A_PLANE_BYTES % 1024 == 0 && B_PLANE_BYTES % 1024 == 0, "every plane starts on a swizzle period");

)";
  src += wgmmaDeviceHelpers(true);
  src += R"(// The descriptor of a 64-byte-swizzled operand (swizzle mode 2 in bits 62-63); fields as smem_descriptor.
__device__ __forceinline__ unsigned long long smem_descriptor_64b(unsigned address, unsigned leading_bytes,
                                                                  unsigned stride_bytes) {
  return (smem_descriptor(address, leading_bytes, stride_bytes) & ~(3ull << 62)) | 2ull << 62;
}

)";
  if (tma) src += tensorMapTypeDeclaration() + "  // the driver's tensor map, passed by value\n\n";
  src += mbarrierInitArriveHelpers() + (tma ? tmaCopyHelpers() : "") + mbarrierWaitHelpers();
  if (tma)
    src += R"(// Synchronises the producer warpgroup only (named barrier 2).
__device__ __forceinline__ void producers_sync() {
  asm volatile("bar.sync 2, %0;\n" ::"n"(PRODUCER_THREADS) : "memory");
}

)";
  src += R"(// Splits x and y into three bf16 terms each, packed in pairs: terms[i] = (x_i, y_i), x_i in the
// low half. x_i = bf16(x - x_0 - ... - x_{i-1}); the subtractions are exact in fp32.
__device__ __forceinline__ void split_pair(float x, float y, unsigned (&terms)[TERMS]) {
#pragma unroll
  for (int i = 0; i < TERMS; ++i) {
    const __nv_bfloat162 term = __floats2bfloat162_rn(x, y);
    terms[i] = *reinterpret_cast<const unsigned*>(&term);
    const float2 back = __bfloat1622float2(term);
    x -= back.x;
    y -= back.y;
  }
}

// Splits four consecutive floats and stores term i of all four (8 bytes) at dst + i * plane_bytes.
// Plain loads and stores (no asm volatile): the compiler may then start every chunk's load
// before the first split, instead of one shared-memory round trip per chunk.
__device__ __forceinline__ void split_chunk(const float4 v, unsigned char* dst, int plane_bytes) {
  unsigned lo[TERMS], hi[TERMS];
  split_pair(v.x, v.y, lo);
  split_pair(v.z, v.w, hi);
#pragma unroll
  for (int i = 0; i < TERMS; ++i) *reinterpret_cast<uint2*>(dst + i * plane_bytes) = make_uint2(lo[i], hi[i]);
}

)";
  src += wgmmaInstructionWrapper(bn, true) + "\n";
  src += p.signature("THREADS, 1", tma ? std::vector<std::string>{"A", "B"} : std::vector<std::string>{}) + " {\n";
  const DType biasType = fused ? p.input("bias").dtype : DType::F32;
  vars["BIAS"] = fused ? "      const float bias0 = " + toFloat(biasType, "bias[col]") + ", bias1 = " +
                             toFloat(biasType, "bias[col + 1]") + ";\n"
                       : "";
  // The producer's two halves by the pipeline gene, rendered first (render makes one pass).
  vars["COPY"] = render(tma ? R"(    // The copy engine stages whole tiles: A's BLOCK_M x BLOCK_K box and B's BLOCK_K x BLOCK_N box,
    // unswizzled (row-major, as in global memory), zeros past the edges; both count their bytes
    // down on the slot's staged barrier.
    auto copy_tile = [&](long long t, int slot) {
      const unsigned a_staging = staging + slot * STAGING_BYTES, bar = staged_bars + slot * 8;
      const int k0 = static_cast<int>(t * BLOCK_K);
      mbarrier_arrive_expect_tx(bar, STAGING_BYTES);
      tma_load_2d(a_staging, tmap_A, k0, static_cast<int>(block_row), bar);
      tma_load_2d(a_staging + A_STAGING_BYTES, tmap_B, static_cast<int>(block_col), k0, bar);
    };
)" : R"(    // A thread's chunks share a column (A: k offset, B: n), A_ROW_STEP / B_ROW_STEP rows apart, so
    // where they start and whether their row or column is inside is worked out once.
    const long long a_row = block_row + tid / A_ROW_CHUNKS, b_col = block_col + tid % B_ROW_CHUNKS * 4;
    const int a_k = tid % A_ROW_CHUNKS * 4, b_k = tid / B_ROW_CHUNKS;
    const float* a_src = A + a_row * {{K}} + a_k;
    const float* b_src = B + b_k * {{N}} + b_col;
    const bool b_col_inside = b_col < {{N}};
    auto copy_tile = [&](long long t, int slot) {
      const long long k0 = t * BLOCK_K;
      const unsigned a_staging = staging + slot * STAGING_BYTES, b_staging = a_staging + A_STAGING_BYTES;
      const bool a_k_inside = k0 + a_k < {{K}};
#pragma unroll
      for (int i = 0; i < A_CHUNKS; ++i) {
        const bool valid = a_k_inside && a_row + i * A_ROW_STEP < {{M}};
        cp_async_16(a_staging + (tid + i * PRODUCER_THREADS) * 16, valid ? a_src + i * A_ROW_STEP * {{K}} + k0 : A, valid);
      }
#pragma unroll
      for (int i = 0; i < B_CHUNKS; ++i) {
        const long long k = k0 + b_k + i * B_ROW_STEP;
        const bool valid = b_col_inside && k < {{K}};
        cp_async_16(b_staging + (tid + i * PRODUCER_THREADS) * 16, valid ? b_src + (k - b_k) * {{N}} : B, valid);
      }
    };
)", vars);
  vars["PRODUCER_LOOP"] = render(tma ? R"(    if (tid == 0)
      for (int t = 0; t < PREFETCH && t < k_tiles; ++t) copy_tile(t, t);
    int stage = 0, slot = 0;
    unsigned phase = 0, staged_phase = 0;  // parities of the current rounds of the ring and the slots
    for (long long t = 0; t < k_tiles; ++t) {
      mbarrier_wait(staged_bars + slot * 8, staged_phase);  // tile t's fp32 boxes have landed
      mbarrier_wait(empty_bars + stage * 8, phase ^ 1);     // the consumers released round - 1 of this stage
      split_tile(slot, stage);
      fence_proxy_async();                                  // the planes become visible to the tensor cores
      mbarrier_arrive(full_bars + stage * 8);
      producers_sync();  // every producer thread has read the slot: the copy engine may refill it
      if (tid == 0 && t + PREFETCH < k_tiles) copy_tile(t + PREFETCH, slot);
      if (++slot == PREFETCH) {
        slot = 0;
        staged_phase ^= 1;
      }
      if (++stage == STAGES) {
        stage = 0;
        phase ^= 1;
      }
    }
)" : R"(#pragma unroll
    for (int t = 0; t < PREFETCH; ++t) {
      if (t < k_tiles) copy_tile(t, t);
      cp_async_commit();  // one group per k-tile, empty past the end: wait_group counts stay aligned
    }
    int stage = 0, slot = 0;
    unsigned phase = 0;  // parity of the current round of the ring
    for (long long t = 0; t < k_tiles; ++t) {
      cp_async_wait<PREFETCH - 1>();                     // this thread's copies of tile t have landed
      mbarrier_wait(empty_bars + stage * 8, phase ^ 1);  // the consumers released round - 1 of this stage
      split_tile(slot, stage);
      fence_proxy_async();                               // the planes become visible to the tensor cores
      mbarrier_arrive(full_bars + stage * 8);
      // The split read this thread's staged chunks into registers before storing the planes,
      // so its next copies may overwrite them.
      if (t + PREFETCH < k_tiles) copy_tile(t + PREFETCH, slot);
      cp_async_commit();
      if (++slot == PREFETCH) slot = 0;
      if (++stage == STAGES) {
        stage = 0;
        phase ^= 1;
      }
    }
)", vars);
  vars["STAGED_DOC"] = tma ? ", then staged[PREFETCH] (the copy engine's fp32 tiles have landed)" : "";
  vars["STAGED_BARS"] = tma ? "  const unsigned staged_bars = empty_bars + STAGES * 8;\n" : "";
  vars["STAGED_INIT"] = tma ? "#pragma unroll\n    for (int s = 0; s < PREFETCH; ++s) mbarrier_init(staged_bars + s * 8, 1);  // the expect_tx arrival\n" : "";
  vars["V0"] = fused ? "fmaxf(acc[s][j * 4 + half * 2] + bias0, 0.0f)" : "acc[s][j * 4 + half * 2]";
  vars["V1"] = fused ? "fmaxf(acc[s][j * 4 + half * 2 + 1] + bias1, 0.0f)" : "acc[s][j * 4 + half * 2 + 1]";
  src += render(R"(  extern __shared__ __align__(1024) unsigned char smem[];
  // The swizzles apply to absolute shared addresses: the ring starts on a 1024-byte boundary
  // (the launch reserves 1 KiB for this). Ring stage s: A0 A1 A2 B0 B1 B2. Then the fp32
  // staging slots, then full[STAGES] and empty[STAGES]{{STAGED_DOC}}.
  const unsigned ring = (smem_address(smem) + 1023u) & ~1023u;
  const unsigned staging = ring + RING_BYTES;
  const unsigned full_bars = staging + PREFETCH * STAGING_BYTES, empty_bars = full_bars + STAGES * 8;
{{STAGED_BARS}}  if (threadIdx.x == 0) {
#pragma unroll
    for (int s = 0; s < STAGES; ++s) {
      mbarrier_init(full_bars + s * 8, PRODUCER_THREADS);     // every producer thread splits a share
      mbarrier_init(empty_bars + s * 8, CONSUMER_THREADS / 32);  // one arrival per consumer warp
    }
{{STAGED_INIT}}    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  __syncthreads();
)" + wgmmaRasterOrder() + R"(  const long long k_tiles = ({{K}} + BLOCK_K - 1) / BLOCK_K;
  const int warpgroup = threadIdx.x / 128;  // warp-uniform: wgmma needs whole warpgroups

  if (warpgroup == 0) {
    // ---------------------------------------------------------------- producer
    // Chunk q = threadIdx.x + i * PRODUCER_THREADS of a tile is staged at q * 16 bytes: A's chunk
    // q is row q / A_ROW_CHUNKS, k (q % A_ROW_CHUNKS) * 4; B's is k-row q / B_ROW_CHUNKS, column
    // (q % B_ROW_CHUNKS) * 4. K and N are multiples of 4: a chunk is all inside or all outside
    // the matrix, and outside ones are zero-filled.
    const int tid = threadIdx.x;
{{COPY}}    // This thread's chunks of the staged tile in `slot` -> the planes of ring stage `stage`.
    // Shared-window addresses -> pointers into smem, for the compiler-visible loads and stores below.
    const unsigned smem_base = smem_address(smem);
    // Where this thread's chunks land in a stage's planes, worked out once. A: chunk i is
    // i * A_ROW_STEP rows (a multiple of 8) below chunk 0, so it keeps chunk 0's swizzle. B:
    // chunk i is i * B_ROW_STEP k-rows below; B_ROW_STEP is a power of two above chunk 0's k-row,
    // so its swizzle is chunk 0's XOR (i * B_ROW_STEP) % 8, a constant.
    const int a_row0 = tid / A_ROW_CHUNKS, a_c = tid % A_ROW_CHUNKS;
    const int a_dst = a_row0 * A_ROW_BYTES + ((((a_c >> 1) ^ ((a_row0 >> 1) & 3)) << 4) | ((a_c & 1) << 3));
    const int b_k0 = tid / B_ROW_CHUNKS, b_c = tid % B_ROW_CHUNKS;
    const int b_dst = (b_c >> 4) * B_PANEL_BYTES + b_k0 * B_ROW_BYTES + ((b_c & 1) << 3);
    const int b_swizzle = (((b_c & 15) >> 1) ^ (b_k0 & 7)) << 4;
    auto split_tile = [&](int slot, int stage) {
      const unsigned char* a_staged = smem + (staging - smem_base) + slot * STAGING_BYTES + tid * 16;
      const unsigned char* b_staged = a_staged + A_STAGING_BYTES;
      unsigned char* a_planes = smem + (ring - smem_base) + stage * STAGE_BYTES;
      unsigned char* b_planes = a_planes + TERMS * A_PLANE_BYTES;
      // Batches of up to 8 chunks, A's then B's: a batch's loads are all in flight before its
      // first split (32 registers of values at most).
#pragma unroll
      for (int first = 0; first < A_CHUNKS; first += A_BATCH) {
        float4 values[A_BATCH];
#pragma unroll
        for (int i = 0; i < A_BATCH; ++i)
          values[i] = *reinterpret_cast<const float4*>(a_staged + (first + i) * PRODUCER_THREADS * 16);
#pragma unroll
        for (int i = 0; i < A_BATCH; ++i)
          split_chunk(values[i], a_planes + a_dst + (first + i) * A_ROW_STEP * A_ROW_BYTES, A_PLANE_BYTES);
      }
#pragma unroll
      for (int first = 0; first < B_CHUNKS; first += B_BATCH) {
        float4 values[B_BATCH];
#pragma unroll
        for (int i = 0; i < B_BATCH; ++i)
          values[i] = *reinterpret_cast<const float4*>(b_staged + (first + i) * PRODUCER_THREADS * 16);
#pragma unroll
        for (int i = 0; i < B_BATCH; ++i) {
          const int row = (first + i) * B_ROW_STEP;
          split_chunk(values[i], b_planes + b_dst + row * B_ROW_BYTES + (b_swizzle ^ (row % 8 << 4)), B_PLANE_BYTES);
        }
      }
    };
{{PRODUCER_LOOP}}    return;
  }

  // ------------------------------------------------------------------ consumers
  const int consumer = warpgroup - 1;
  // Stage 0's descriptors; a stage, term, slab or k16 step adds its byte offset >> 4.
  // A planes: 64-byte swizzle, K-major: leading offset unused, 8 rows -> next 8 rows = 512 bytes.
  // B planes: 128-byte swizzle, N-major: leading = one 64-column panel, stride = 8 k-rows = 1024 bytes.
  const unsigned long long a_desc = smem_descriptor_64b(ring + consumer * SLABS * 64 * A_ROW_BYTES, 16, 8 * A_ROW_BYTES);
  const unsigned long long b_desc = smem_descriptor(ring + TERMS * A_PLANE_BYTES, B_PANEL_BYTES, 8 * B_ROW_BYTES);
  const int warp = threadIdx.x % 128 / 32, lane = threadIdx.x % 32;

)" + wgmmaZeroAccumulators() + R"(
  // This k-tile's sum, kept apart from acc: the tensor cores add with truncation, and six
  // products per k16 step would drift (24x cuBLAS's RMS error at 4096^3, measured); the
  // per-tile sums join acc with round-to-nearest.
  float part[SLABS][BLOCK_N / 2];
  int stage = 0;
  unsigned phase = 0;
  for (long long t = 0; t < k_tiles; ++t) {
    mbarrier_wait(full_bars + stage * 8, phase);  // tile t's planes are written
    const unsigned stage_offset = stage * STAGE_BYTES;
    // part (+)= a_i . b_j over this k-tile: A 32 bytes further along the rows per k16, B 16 k-rows
    // further. `first`: the tile's first product overwrites part instead of adding to it.
    auto multiply = [&](int i, int j, bool first) {
#pragma unroll
      for (int kk = 0; kk < BLOCK_K / 16; ++kk)
#pragma unroll
        for (int s = 0; s < SLABS; ++s)
          {{WGMMA}}(part[s], a_desc + ((stage_offset + i * A_PLANE_BYTES + s * 64 * A_ROW_BYTES + kk * 32) >> 4),
                    b_desc + ((stage_offset + j * B_PLANE_BYTES + kk * 16 * B_ROW_BYTES) >> 4), !(first && kk == 0));
    };
    wgmma_fence();
    // The six term products with i + j <= 2, smallest first.
    multiply(2, 0, true);
    multiply(1, 1, false);
    multiply(0, 2, false);
    multiply(1, 0, false);
    multiply(0, 1, false);
    multiply(0, 0, false);
    wgmma_commit();
    wgmma_wait<0>();  // the other consumer warpgroup keeps the tensor cores busy meanwhile
    if (lane == 0) mbarrier_arrive(empty_bars + stage * 8);  // this warp is done with the stage
#pragma unroll
    for (int s = 0; s < SLABS; ++s) {
      pin_accumulators(part[s]);
#pragma unroll
      for (int i = 0; i < BLOCK_N / 2; ++i) acc[s][i] += part[s][i];
    }
    if (++stage == STAGES) {
      stage = 0;
      phase ^= 1;
    }
  }
)" + R"(
  // Warp w of a warpgroup holds rows 16w + lane / 4 and 16w + lane / 4 + 8 of each m64 slab,
  // columns 8j + 2 (lane % 4) + {0, 1}: acc[s][4j], [4j + 1] on the first row, [4j + 2], [4j + 3]
  // on the second. N is a multiple of 4: both columns are inside when the first is.
#pragma unroll
  for (int s = 0; s < SLABS; ++s) {
    const long long row = block_row + (consumer * SLABS + s) * 64 + warp * 16 + lane / 4;
#pragma unroll
    for (int j = 0; j < BLOCK_N / 8; ++j) {
      const long long col = block_col + j * 8 + lane % 4 * 2;
      if (col >= {{N}}) continue;
{{BIAS}}#pragma unroll
      for (int half = 0; half < 2; ++half)
        if (row + half * 8 < {{M}})
          *reinterpret_cast<float2*>(C + (row + half * 8) * {{N}} + col) = make_float2({{V0}}, {{V1}});
    }
  }
}
)",
                vars);

  EmittedKernel k = wgmmaKernel(std::move(src), p, bm, bn, threads, gemmWgmmaSplitSmemBytes(g));
  // The fp32 boxes the copy engine stages: A's BLOCK_M x BLOCK_K tile, B's BLOCK_K x BLOCK_N, unswizzled.
  if (tma)
    k.launch.tensorMaps = {{p.tensorName("A"), static_cast<int>(bm), static_cast<int>(g.param("BLOCK_K")), "none"},
                           {p.tensorName("B"), static_cast<int>(g.param("BLOCK_K")), static_cast<int>(bn), "none"}};
  return k;
}

}  // namespace crucible::templates
