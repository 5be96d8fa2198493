// SPDX-License-Identifier: GPL-3.0-or-later
// Emits the warp-specialized Hopper (sm_90a) bf16 GEMM (pipeline
// "warp_specialized"): warpgroup 0 is the producer and only copies tiles,
// warpgroups 1..WARPGROUPS are consumers and only run wgmma.
//
// Shared memory: the ring of the cp_async kernel (same 128-byte-swizzled A and
// B tile layouts and descriptors, see emit_gemm_wgmma.cpp; only the copying
// threads are the producer's 128), then 2 x STAGES mbarriers.
//
// Handshake, per stage s, for k-tile t in round r = t / STAGES:
//   full[s]  (expected arrivals: the 128 producer threads) completes its phase r
//            when every producer thread's copies of tile t have landed: each
//            producer thread ends its copies with cp.async.mbarrier.arrive.noinc,
//            an arrival the hardware makes once all its prior cp.async are done
//            (.noinc: the arrival is one of the expected ones, not an extra one).
//            Consumers wait for phase r (parity r & 1).
//   empty[s] (expected arrivals: one per consumer warp) completes its phase r
//            when every consumer warp's wgmmas on tile t are done: a consumer
//            releases tile t - 1 after wgmma.wait_group 1 at tile t. The
//            producer waits for phase r - 1 (parity (r & 1) ^ 1) before refilling
//            the stage; in round 0 that parity names the phase before the
//            barrier's first, which counts as complete, so the first fills
//            never wait.
// A phase cannot run two ahead of its waiter (the producer cannot fill round
// r + 1 before the consumers release round r, and they cannot release before
// the fill), so one parity bit tells the phases apart. No deadlock: the
// producer at tile t waits for the release of tile t - STAGES, which happens
// once tile t - STAGES + 1 (already issued) has been handed to the tensor cores.
//
// Registers: the block is launched with __launch_bounds__(THREADS, 1), so every
// thread starts with the same share (168 for 384 threads); the producer gives
// registers back with setmaxnreg.dec and the consumers take them with
// setmaxnreg.inc, which waits until the CTA's pool holds them: the sums must
// balance (checked in the genome's constraints and by a static_assert).
//
// pipeline "tma": the same ring, handshake, consumers and epilogue; the producer
// is one thread that, per stage, announces the stage's bytes on full[s]
// (mbarrier.arrive.expect_tx: full[s] expects that one arrival) and issues one
// bulk tensor copy of A's tile and one per 64-column panel of B. Each copy lands
// in 128-byte-swizzled rows exactly like the cp.async layout (the tensor maps
// say SWIZZLE_128B and the ring is 1024-aligned) and counts its bytes down on
// full[s]; the phase completes when all have landed. Rows past M, k past K and
// columns past N arrive as zeros, so no clamping is needed. The copies and
// wgmma both go through the async proxy: no proxy fence between them.
//
// The TMA kernel has no setmaxnreg: its producer is one thread, and the launch
// share (168 registers for 384 threads) holds the consumers' accumulators.
//
// Epilogue: after every consumer's last wgmma, the tile (bias and ReLU applied
// in fp32 for matmul_bias_relu) is written as bf16 into the ring (rows padded
// by 16 bytes: conflict-free fragment writes), then read back in 16-byte chunks
// and stored to C row-contiguously.
#include <algorithm>
#include <string>
#include "backends/proposers/template/gemm_wgmma.h"
#include "backends/proposers/template/kernel_source.h"
#include "core/task/kernel_abi.h"

namespace crucible::templates {
namespace {

using namespace wgmma;  // kWarpgroupThreads, kSwizzleAlignment, ...

constexpr std::int64_t kMaxAccumulators = 128;  // fp32 accumulators per consumer thread
// Consumer registers besides the accumulators: descriptors, loop and barrier state, epilogue addressing.
constexpr std::int64_t kConsumerOverhead = 64;
// setmaxnreg targets (multiples of 8 in [24, 256]). The producer only computes
// addresses (40 and 56 spilled under whole-program compiles); the consumers hold the
// accumulators (128 of them at most, ~154 registers in all). 128 x 72 + 256 x 216 = 384 x 168:
// exactly what a 384-thread block starts with.
constexpr std::int64_t kProducerRegisters = 72;
constexpr std::int64_t kConsumerRegisters = 216;
// The TMA kernel's consumers besides their accumulators (descriptors, barrier state, epilogue
// addressing): ptxas for sm_90a gave 154 registers to 128 accumulators.
constexpr std::int64_t kTmaConsumerOverhead = 32;
constexpr std::int64_t kEpiloguePadBytes = 16;  // per staged C row

std::int64_t stageBytes(const Genome& g) {
  return (g.param("BLOCK_M") + g.param("BLOCK_N")) * g.param("BLOCK_K") * kBf16Bytes;
}

}  // namespace

std::int64_t entryRegisters(std::int64_t threads) {
  return std::min<std::int64_t>(kRegistersPerSm / threads / 8 * 8, kMaxRegistersPerThread / 8 * 8);
}

std::string tmaCopyHelpers() {
  return R"(// One arrival that also announces `bytes` of transactions: the phase completes once the
// arrival is made and the bulk copies have counted that many bytes down.
__device__ __forceinline__ void mbarrier_arrive_expect_tx(unsigned bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes) : "memory");
}

// The box of `map` at element coordinates (column, row) -> shared memory at `dst`, by the copy
// engine (swizzled as the map says); its bytes complete on `bar`. Past the edges it writes zeros.
__device__ __forceinline__ void tma_load_2d(unsigned dst, const CUtensorMap& map, int column, int row, unsigned bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n"
      ::"r"(dst), "l"(reinterpret_cast<unsigned long long>(&map)), "r"(column), "r"(row), "r"(bar)
      : "memory");
}

)";
}

std::string tmaStoreHelpers() {
  return R"(// This thread's writes to shared memory, made visible to the copy engine (the async proxy).
__device__ __forceinline__ void fence_shared_to_async() { asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); }

// The box of shared memory at `src` -> `map`'s tensor at element coordinates (column, row), by the
// copy engine (un-swizzled as the map says), committed as one bulk group of this thread. Rows
// and columns past the tensor's edges are not written.
__device__ __forceinline__ void tma_store_2d(const CUtensorMap& map, unsigned src, int column, int row) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];\n"
               ::"l"(reinterpret_cast<unsigned long long>(&map)), "r"(column), "r"(row), "r"(src)
               : "memory");
  asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
}

// Four 8 x 8 matrices of 16-bit values from the warp's registers into shared memory: lanes
// 8m .. 8m + 7 give the addresses of matrix m's eight 16-byte rows; r[m] holds this lane's pair
// of matrix m (row lane / 4, columns 2 (lane % 4) and + 1), the layout of an mma or wgmma
// accumulator fragment.
__device__ __forceinline__ void stmatrix_x4(unsigned address, const unsigned (&r)[4]) {
  asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};\n"
               ::"r"(address), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3])
               : "memory");
}

// Waits until at most `pending` of this thread's bulk groups are still reading shared memory.
template <int pending>
__device__ __forceinline__ void tma_store_wait_read() {
  asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(pending) : "memory");
}

// Waits until every bulk group of this thread has completed.
__device__ __forceinline__ void tma_store_wait_all() { asm volatile("cp.async.bulk.wait_group 0;\n" ::: "memory"); }

)";
}

std::string mbarrierInitArriveHelpers() {
  return R"(// mbarrier helpers; `bar` is a shared-window address of an 8-byte mbarrier.
__device__ __forceinline__ void mbarrier_init(unsigned bar, unsigned expected_arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(expected_arrivals) : "memory");
}

// One arrival (release semantics: this thread's prior accesses happen before the phase completes).
__device__ __forceinline__ void mbarrier_arrive(unsigned bar) {
  asm volatile("{\n.reg .b64 state;\nmbarrier.arrive.shared::cta.b64 state, [%0];\n}\n" ::"r"(bar) : "memory");
}

)";
}

std::string mbarrierWaitHelpers() {
  return R"(// Waits (acquire) until the phase with parity `parity` has completed: the current phase
// if it has that parity, else the one before it, which has already completed.
__device__ __forceinline__ void mbarrier_wait(unsigned bar, unsigned parity) {
  unsigned done = 0;
  do {
    asm volatile(
        "{\n.reg .pred complete;\nmbarrier.try_wait.parity.shared::cta.b64 complete, [%1], %2;\n"
        "selp.u32 %0, 1, 0, complete;\n}\n"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
  } while (!done);
}

// Synchronises the consumer warpgroups only (named barrier 1; the producer may have exited).
__device__ __forceinline__ void consumers_sync() {
  asm volatile("bar.sync 1, %0;\n" ::"n"(CONSUMER_THREADS) : "memory");
}

)";
}

std::string wgmmaClusterHelpers() {
  return R"(// This block's rank in its cluster.
__device__ __forceinline__ unsigned cluster_rank() {
  unsigned rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(rank));
  return rank;
}

// The shared::cluster address of this block's shared `address` in cluster block `rank`.
__device__ __forceinline__ unsigned cluster_address(unsigned address, unsigned rank) {
  unsigned out;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;\n" : "=r"(out) : "r"(address), "r"(rank));
  return out;
}

// One arrival on an mbarrier of a block of the cluster. Default semantics (release, CTA
// scope): what it orders is this warp's wgmma reads of the stage, which wgmma_wait already
// retired; the peer's producer only refills the stage through the async proxy.
__device__ __forceinline__ void mbarrier_arrive_cluster(unsigned cluster_bar) {
  asm volatile("mbarrier.arrive.shared::cluster.b64 _, [%0];\n" ::"r"(cluster_bar) : "memory");
}

// Every thread of every block of the cluster arrives, then waits for all the others.
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;\n" ::: "memory");
}

// tma_load_2d into the same shared offset of every block in `mask`, completing on each one's `bar`.
__device__ __forceinline__ void tma_load_2d_multicast(unsigned dst, const CUtensorMap& map, int column, int row,
                                                      unsigned bar, unsigned short mask) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"
      " [%0], [%1, {%2, %3}], [%4], %5;\n"
      ::"r"(dst), "l"(reinterpret_cast<unsigned long long>(&map)), "r"(column), "r"(row), "r"(bar), "h"(mask)
      : "memory");
}

)";
}

std::vector<TunableParameter> wgmmaWarpSpecializedParameters(bool tma) {
  // N = 192 (three swizzle panels) shortens the last partial wave of a 8192-wide GEMM:
  // 2752 tiles of 128 x 192 are 20.8 waves of 132 blocks, 2048 of 128 x 256 are 15.5.
  std::vector<TunableParameter> out = {{"BLOCK_M", {128, 256}},
                                       {"BLOCK_N", {64, 128, 192, 256}},
                                       {"BLOCK_K", {64}},
                                       {"WARPGROUPS", {2}},
                                       {"STAGES", {3, 4, 5, 6}}};
  if (tma) {
    // BLOCK_M 64: a pingpong warpgroup's 64 x 256 tile (the cooperative kernels split BLOCK_M
    // over two warpgroups of 64 rows or more, a rule).
    out[0].values.insert(out[0].values.begin(), 64);
    out.push_back({"CLUSTER_M", {1, 2}});
  }
  return out;
}

std::int64_t gemmWgmmaWarpSpecializedSmemBytes(const Genome& g) {
  if (isPersistentSchedule(g.genes)) return gemmWgmmaPersistentSmemBytes(g);
  return g.param("STAGES") * stageBytes(g) + kSwizzleAlignment + 2 * g.param("STAGES") * kMbarrierBytes;
}

void addWgmmaWarpSpecializedViolations(const Genome& g, const KernelProblem& p, Violations& v) {
  v.require(g.param("WARPGROUPS") == 2, "the warp-specialized kernel has two consumer warpgroups (WARPGROUPS=2)");
  addWgmmaTileViolations(g, v);
  if (!v.empty()) return;
  const ProblemTensor& a = p.input("A");
  const ProblemTensor& b = p.input("B");
  const std::int64_t bm = g.param("BLOCK_M"), bn = g.param("BLOCK_N"), bk = g.param("BLOCK_K");
  const std::int64_t consumers = g.param("WARPGROUPS"), stages = g.param("STAGES");
  const std::int64_t M = p.extent(a, 0), N = p.extent(b, 1);
  const std::int64_t threads = kWarpgroupThreads * (consumers + 1);
  const std::int64_t accumulators = bm / consumers / kRowsPerWgmma * bn / 2;
  v.atMost(accumulators, "accumulators per thread", kMaxAccumulators, "the register budget");
  if (g.gene("pipeline") == kTma) {
    // No setmaxnreg: the consumers live in the launch share.
    v.atMost(accumulators + kTmaConsumerOverhead, "estimated consumer registers per thread", entryRegisters(threads),
             "the launch share of registers per thread");
  } else {
    v.atMost(accumulators + kConsumerOverhead, "estimated consumer registers per thread", kConsumerRegisters,
             "the consumers' setmaxnreg target");
    // setmaxnreg.inc waits for registers the producer released: the targets must fit what the block starts with.
    v.atMost(kWarpgroupThreads * (kProducerRegisters + consumers * kConsumerRegisters),
             "registers per block after setmaxnreg", threads * entryRegisters(threads),
             "the registers the block is launched with");
  }
  // Cluster pairs are consecutive blocks of a raster group, which has an even number of
  // block rows only when the matrix has: then the pair shares its block column (and B).
  if (g.gene("pipeline") == kTma && g.param("CLUSTER_M") > 1)
    v.divisible(ceilDiv(M, bm), "block rows ceil(M / BLOCK_M)", g.param("CLUSTER_M"), "CLUSTER_M");
  // The cp.async producer splits each B k-row's 16-byte chunks evenly over its 128 threads.
  if (g.gene("pipeline") == kWarpSpecialized)
    v.divisible(kWarpgroupThreads, "the producer's 128 threads", bn / 8, "BLOCK_N / 8 (B chunks per k-row)");
  v.atMost(gemmWgmmaWarpSpecializedSmemBytes(g), "shared memory per block", kMaxSmemPerBlock, "the sm_90 limit");
  // The epilogue stages the bf16 tile (padded rows) in the ring; the persistent kernel's has its own buffer.
  if (!isPersistentSchedule(g.genes))
    v.atMost(bm * (bn * kBf16Bytes + kEpiloguePadBytes), "staged C tile bytes", stages * stageBytes(g), "the ring");
  else
    addWgmmaPersistentViolations(g, p, v);
  v.atMost(bk * N, "BLOCK_K x N", kMaxTileOffset, "the 32-bit tile offset");
  v.atMost(ceilDiv(M, bm) * ceilDiv(N, bn), "blocks (grid.x)", kMaxTileOffset, "the grid.x limit");
}

EmittedKernel emitGemmWgmmaWarpSpecialized(const Genome& g, const KernelProblem& p) {
  if (isPersistentSchedule(g.genes)) return emitGemmWgmmaPersistent(g, p);
  const bool fused = p.family == "matmul_bias_relu";
  const bool tma = g.gene("pipeline") == kTma;
  const std::int64_t clusterM = tma ? g.param("CLUSTER_M") : 1;
  const bool cluster = clusterM > 1;
  const std::int64_t bm = g.param("BLOCK_M"), bn = g.param("BLOCK_N");
  const std::int64_t consumers = g.param("WARPGROUPS"), stages = g.param("STAGES");
  const std::int64_t threads = kWarpgroupThreads * (consumers + 1);
  std::map<std::string, std::string> vars = wgmmaRenderVars(p, bn);

  const std::string summary = wgmmaSummaryHead(p, bn) + "warp-specialized: " +
                              (tma ? "1 TMA producer thread (bulk tensor copies), " : "1 cp.async producer warpgroup, ") +
                              (cluster ? "clusters of 2 blocks along M sharing B by multicast, " : "") +
                              std::to_string(consumers) + " consumer warpgroups, " + std::to_string(stages) +
                              "-stage mbarrier ring, epilogue staged through shared memory";
  std::string src = headerComment(g, p, summary);
  src += includes(p) + "\n";
  src += constant("BLOCK_M", bm);
  src += constant("BLOCK_N", bn, "the N of every wgmma");
  src += constant("BLOCK_K", g.param("BLOCK_K"), "one 128-byte swizzle row of bf16");
  src += constant("CONSUMERS", consumers, "consumer warpgroups; each owns BLOCK_M / CONSUMERS rows");
  src += constant("STAGES", stages, "shared-memory ring depth");
  if (cluster) src += constant("CLUSTER_M", clusterM, "blocks per cluster (along M): they share B, each copying half its k-rows to both");
  src += constant("GROUP_M", kRasterGroupM, "block rows per raster group: neighbours share B panels in L2");
  src += constant("THREADS", threads, "the producer warpgroup, then the consumers");
  // The TMA producer is one thread with a few registers: every thread keeps the launch share
  // (168 for 384 threads), which holds the consumers' 128 accumulators without spills. No
  // setmaxnreg: ptxas drops it anyway when nvJitLink links the PTX (C7504).
  if (!tma) {
    src += constant("ENTRY_REGISTERS", entryRegisters(threads), "per thread at launch (__launch_bounds__(THREADS, 1))");
    src += constant("PRODUCER_REGISTERS", kProducerRegisters, "setmaxnreg.dec target of the producer");
    src += constant("CONSUMER_REGISTERS", kConsumerRegisters, "setmaxnreg.inc target of the consumers");
  }
  const std::string copyConstants =
      cluster ? "constexpr int B_PANELS = BLOCK_N / 64;                  // bulk copies of B per stage and block\n"
                "constexpr int B_SHARE_ROWS = BLOCK_K / CLUSTER_M;        // k-rows of each panel a block copies (to all)\n"
      : tma ? "constexpr int B_PANELS = BLOCK_N / 64;                  // bulk copies of B per stage: 64 k-rows x 64 columns\n"
          : R"(constexpr int A_LOADS = BLOCK_M * (ROW_BYTES / 16) / PRODUCER_THREADS;  // 16-byte chunks per producer thread per tile
constexpr int B_LOADS = BLOCK_K * (BLOCK_N / 8) / PRODUCER_THREADS;
constexpr int A_STEP = PRODUCER_THREADS / (ROW_BYTES / 16);              // tile rows between a thread's A chunks
constexpr int B_STEP = PRODUCER_THREADS / (BLOCK_N / 8);                 // k-rows between its B chunks
)";
  const std::string copyAsserts = tma ? "" : R"(static_assert(A_LOADS * PRODUCER_THREADS == BLOCK_M * (ROW_BYTES / 16) &&
                  B_LOADS * PRODUCER_THREADS == BLOCK_K * (BLOCK_N / 8),
              "every producer thread copies the same number of chunks");
static_assert(A_STEP % 8 == 0 && B_STEP % 4 == 0, "the swizzle of a thread's chunks follows from its first");
)";
  src += render(R"(constexpr int PRODUCER_THREADS = 128;
constexpr int CONSUMER_THREADS = 128 * CONSUMERS;
constexpr int SLABS = BLOCK_M / CONSUMERS / 64;         // m64 wgmma slabs per consumer warpgroup
)" + wgmmaTileLayout() + R"(constexpr int RING_BYTES = STAGES * STAGE_BYTES;
{{COPY_CONSTANTS}}constexpr int C_STRIDE = BLOCK_N + 8;                   // staged C row in elements: 16 bytes of padding
constexpr int C_CHUNKS = BLOCK_N / 8;                   // 16-byte chunks per C row
constexpr int C_STORES = BLOCK_M * C_CHUNKS / CONSUMER_THREADS;
{{COPY_ASSERTS}}static_assert(A_STAGE_BYTES % SWIZZLE_BYTES == 0 && B_PANEL_BYTES % SWIZZLE_BYTES == 0,
              "every tile starts on a swizzle period");
static_assert(BLOCK_M * C_STRIDE * 2 <= RING_BYTES, "the staged C tile fits in the ring");
static_assert(C_STORES * CONSUMER_THREADS == BLOCK_M * C_CHUNKS, "every consumer thread stores the same number of chunks");
{{REGISTER_ASSERT}}
)",
                {{"COPY_CONSTANTS", copyConstants},
                 {"COPY_ASSERTS", copyAsserts},
                 {"REGISTER_ASSERT",
                  tma ? "" : "static_assert(PRODUCER_THREADS * PRODUCER_REGISTERS + CONSUMER_THREADS * CONSUMER_REGISTERS <= "
                             "THREADS * ENTRY_REGISTERS,\n              \"setmaxnreg.inc must find the registers the producer released\");\n"}});
  const std::string copyBarrierHelpers = tma ? tmaCopyHelpers()
                                              : R"(// An arrival the hardware makes once all of this thread's prior cp.async copies have landed.
// .noinc: it counts as one of the expected arrivals.
__device__ __forceinline__ void cp_async_mbarrier_arrive(unsigned bar) {
  asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];\n" ::"r"(bar) : "memory");
}

)";
  if (tma) src += tensorMapTypeDeclaration() + "  // the driver's tensor map, passed by value\n\n";
  const std::string clusterHelpers = !cluster ? "" : wgmmaClusterHelpers();
  src += wgmmaDeviceHelpers(!tma);
  src += mbarrierInitArriveHelpers() + copyBarrierHelpers + clusterHelpers + mbarrierWaitHelpers();
  src += wgmmaInstructionWrapper(bn) + "\n";
  std::string signature = p.signature("THREADS, 1", tma ? std::vector<std::string>{"A", "B"} : std::vector<std::string>{});
  if (cluster) signature.replace(signature.find("__global__ void ") + 16, 0, "__cluster_dims__(CLUSTER_M, 1, 1) ");
  src += signature + " {\n";
  // Shared memory fills: one bulk-copying thread, or every thread of the producer warpgroup.
  const std::string producer = tma ? R"(    if (threadIdx.x == 0) {
      int stage = 0;
      unsigned phase = 0;  // parity of the current round of the ring
      for (long long t = 0; t < k_tiles; ++t) {
        mbarrier_wait(empty_bars + stage * 8, phase ^ 1);  // the consumers released round - 1 of this stage
        const int k0 = static_cast<int>(t * BLOCK_K);
        const unsigned a_tile = ring + stage * STAGE_BYTES, b_tile = a_tile + A_STAGE_BYTES;
        const unsigned full = full_bars + stage * 8;
        mbarrier_arrive_expect_tx(full, STAGE_BYTES);
        tma_load_2d(a_tile, tmap_A, k0, static_cast<int>(block_row{{A_BATCH_ROWS}}), full);
{{B_COPIES}}
        if (++stage == STAGES) {
          stage = 0;
          phase ^= 1;
        }
      }
    }
)"
                                   : R"(    // Each thread copies the same chunks of every k-tile: A rows a_row + i * A_STEP at 8-element
    // chunk a_chunk along k; B k-rows b_row + i * B_STEP at chunk b_chunk along n. Rows past M
    // and columns past N are clamped onto the last ones: they feed only accumulators that are
    // never stored. Only k past K is zero-filled.
    const int a_row = threadIdx.x / 8, a_chunk = threadIdx.x % 8;
    const int b_row = threadIdx.x / (BLOCK_N / 8), b_chunk = threadIdx.x % (BLOCK_N / 8);
    const __nv_bfloat16* b_src = B + min(block_col + b_chunk * 8, {{N}} - 8);
)" + indentLines(wgmmaSwizzledDestinations(), 2) + R"(    int stage = 0;
    unsigned phase = 0;  // parity of the current round of the ring
    for (long long t = 0; t < k_tiles; ++t) {
      mbarrier_wait(empty_bars + stage * 8, phase ^ 1);  // the consumers released round - 1 of this stage
      const long long k0 = t * BLOCK_K;
      const unsigned a_tile = ring + stage * STAGE_BYTES, b_tile = a_tile + A_STAGE_BYTES;
      const bool a_valid = k0 + a_chunk * 8 < {{K}};
#pragma unroll
      for (int i = 0; i < A_LOADS; ++i) {
        const long long row = min(block_row + a_row + i * A_STEP, {{M}} - 1);
        cp_async_16(a_tile + a_dst + i * A_STEP * ROW_BYTES, a_valid ? A + row * {{K}} + k0 + a_chunk * 8 : A, a_valid);
      }
)" + indentLines(wgmmaCopyBTile(), 2) + R"(      cp_async_mbarrier_arrive(full_bars + stage * 8);
      if (++stage == STAGES) {
        stage = 0;
        phase ^= 1;
      }
    }
    asm volatile("cp.async.wait_all;\n" ::: "memory");  // leave no copy in flight behind
)";
  vars["B_COPIES"] = cluster ? R"(        // This block's share of B's k-rows, into both blocks (same offsets), counted on both full barriers.
#pragma unroll
        for (int panel = 0; panel < B_PANELS; ++panel)
          tma_load_2d_multicast(b_tile + panel * B_PANEL_BYTES + rank * B_SHARE_ROWS * ROW_BYTES, tmap_B,
                                static_cast<int>(block_col) + panel * 64, k0 + static_cast<int>(rank) * B_SHARE_ROWS{{B_BATCH_ROWS}}, full,
                                (1u << CLUSTER_M) - 1);
)"
                             : R"(#pragma unroll
        for (int panel = 0; panel < B_PANELS; ++panel)
          tma_load_2d(b_tile + panel * B_PANEL_BYTES, tmap_B, static_cast<int>(block_col) + panel * 64, k0{{B_BATCH_ROWS}}, full);
)";
  // A batched GEMM's maps see each tensor as one matrix of its batch entries stacked row-wise
  // (core/task/kernel_abi.h: tensorMatrix): entry z of A starts at row z * M, of B at row z * K.
  // Tile rows of A past M read the next entry's rows into accumulator rows that are never
  // stored; B's k-tiles stay inside their entry because K is a multiple of BLOCK_K (gemm_space).
  const std::string aBatchRows = p.batched ? " + static_cast<int>(blockIdx.z) * " + vars["M"] : "";
  const std::string bBatchRows = p.batched && p.batchedB ? " + static_cast<int>(blockIdx.z) * " + vars["K"] : "";
  for (const char* key : {"B_COPIES"}) {
    std::string& text = vars[key];
    for (std::size_t at; (at = text.find("{{B_BATCH_ROWS}}")) != std::string::npos;) text.replace(at, 16, bBatchRows);
  }
  vars["A_BATCH_ROWS"] = aBatchRows;
  vars["EMPTY_ARRIVALS"] = cluster ? "CONSUMER_THREADS / 32 * CLUSTER_M);  // one per consumer warp of both blocks"
                                   : "CONSUMER_THREADS / 32);  // one arrival per consumer warp";
  vars["START_SYNC"] = cluster ? "  // Both blocks' barriers exist before any copy or arrival crosses between them.\n  cluster_sync();\n"
                               : "  __syncthreads();\n";
  vars["CLUSTER_SETUP"] = cluster ? "  const unsigned rank = cluster_rank(), peer = rank ^ 1;\n" : "";
  vars["PRODUCER_EXIT"] = cluster ? "    cluster_sync();  // the peer may still arrive on this block's barriers until it leaves too\n    return;\n"
                                  : "    return;\n";
  vars["RELEASE"] = cluster ? R"(    if (t > 0 && lane == 0) {  // both blocks' producers write this stage: release it to both
      mbarrier_arrive(empty_bars + previous * 8);
      mbarrier_arrive_cluster(cluster_address(empty_bars + previous * 8, peer));
    }
)"
                            : "    if (t > 0 && lane == 0) mbarrier_arrive(empty_bars + previous * 8);\n";
  vars["PRODUCER_REGISTERS"] = tma ? "" : "    asm volatile(\"setmaxnreg.dec.sync.aligned.u32 %0;\\n\" ::\"n\"(PRODUCER_REGISTERS));\n";
  vars["CONSUMER_REGISTERS"] = tma ? "" : "  asm volatile(\"setmaxnreg.inc.sync.aligned.u32 %0;\\n\" ::\"n\"(CONSUMER_REGISTERS));\n";
  vars["FULL_ARRIVALS"] = tma ? "1);                  // the producer's expect_tx arrival; the bytes do the rest"
                              : "PRODUCER_THREADS);   // one cp.async arrival per producer thread";
  vars["CONSUMER_FENCE"] = tma ? "" : "    fence_proxy_async();                          // ... and is visible to the tensor cores\n";
  src += render(R"(  extern __shared__ __align__(1024) unsigned char smem[];
  // The swizzle is applied to absolute shared addresses: the ring starts on a 1024-byte
  // boundary (the launch reserves 1 KiB for this). Stage s: A tile, then B's panels.
  // After the ring: full[STAGES], then empty[STAGES].
  const unsigned ring = (smem_address(smem) + (SWIZZLE_BYTES - 1)) & ~unsigned(SWIZZLE_BYTES - 1);
  const unsigned full_bars = ring + RING_BYTES, empty_bars = full_bars + STAGES * 8;
  if (threadIdx.x == 0) {
#pragma unroll
    for (int s = 0; s < STAGES; ++s) {
      mbarrier_init(full_bars + s * 8, {{FULL_ARRIVALS}}
      mbarrier_init(empty_bars + s * 8, {{EMPTY_ARRIVALS}}
    }
    // Makes the initialisation visible to the other threads and the asynchronous arrivals.
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
{{START_SYNC}}
)" + wgmmaRasterOrder() + R"({{CLUSTER_SETUP}}  const long long k_tiles = ({{K}} + BLOCK_K - 1) / BLOCK_K;
  const int warpgroup = threadIdx.x / 128;  // warp-uniform: setmaxnreg and wgmma need whole warps

  if (warpgroup == 0) {
    // ---------------------------------------------------------------- producer
{{PRODUCER_REGISTERS}})" + producer + R"({{PRODUCER_EXIT}}  }

  // ------------------------------------------------------------------ consumers
{{CONSUMER_REGISTERS}}  const int consumer = warpgroup - 1;
)" + wgmmaDescriptors("consumer") + R"(  const int warp = threadIdx.x % 128 / 32, lane = threadIdx.x % 32;

)" + wgmmaZeroAccumulators() + R"(
  int stage = 0, previous = 0;
  unsigned phase = 0;
  for (long long t = 0; t < k_tiles; ++t) {
    mbarrier_wait(full_bars + stage * 8, phase);  // tile t has landed
{{CONSUMER_FENCE}})" + wgmmaIssueTile() + R"(    wgmma_wait<1>();  // this warp's wgmmas of tile t - 1 are done: hand its stage back
{{RELEASE}}    previous = stage;
    if (++stage == STAGES) {
      stage = 0;
      phase ^= 1;
    }
  }
)" + wgmmaDrain() + R"(
)",
                vars);

  const DType biasType = fused ? p.input("bias").dtype : DType::F32;
  const std::string bias =
      fused ? "      const float bias0 = col < {{N}} ? " + toFloat(biasType, "bias[col]") + " : 0.0f, bias1 = col < {{N}} ? " +
                  toFloat(biasType, "bias[col + 1]") + " : 0.0f;\n"
            : "";
  vars["END_SYNC"] = cluster ? "  cluster_sync();  // no block leaves while the other may still arrive on its barriers\n" : "";
  vars["V0"] = fused ? "fmaxf(acc[s][j * 4 + half * 2] + bias0, 0.0f)" : "acc[s][j * 4 + half * 2]";
  vars["V1"] = fused ? "fmaxf(acc[s][j * 4 + half * 2 + 1] + bias1, 0.0f)" : "acc[s][j * 4 + half * 2 + 1]";
  src += render(R"(  // Epilogue. Every consumer's wgmmas are done reading the ring (and every copy into it has
  // landed: each was waited for) once both warpgroups pass this barrier; the tile is staged there.
  consumers_sync();
  __nv_bfloat16* tile = reinterpret_cast<__nv_bfloat16*>(smem + (ring - smem_address(smem)));
  // Warp w of a warpgroup holds rows 16w + lane / 4 and 16w + lane / 4 + 8 of each m64 slab,
  // columns 8j + 2 (lane % 4) + {0, 1}: acc[s][4j], [4j + 1] on the first row, [4j + 2], [4j + 3] on the second.
#pragma unroll
  for (int s = 0; s < SLABS; ++s) {
    const int row = (consumer * SLABS + s) * 64 + warp * 16 + lane / 4;
#pragma unroll
    for (int j = 0; j < BLOCK_N / 8; ++j) {
      const int tile_col = j * 8 + lane % 4 * 2;
)" + (fused ? "      const long long col = block_col + tile_col;  // N is a multiple of 8: col + 1 < N when col < N\n" + bias : "") +
                    R"(#pragma unroll
      for (int half = 0; half < 2; ++half)
        *reinterpret_cast<__nv_bfloat162*>(tile + (row + half * 8) * C_STRIDE + tile_col) =
            __floats2bfloat162_rn({{V0}}, {{V1}});
    }
  }
  consumers_sync();
  // 16-byte chunks, consecutive threads along a row: coalesced stores. N is a multiple of 8,
  // so a chunk is all inside or all outside the matrix.
  const int consumer_thread = threadIdx.x - PRODUCER_THREADS;
#pragma unroll
  for (int i = 0; i < C_STORES; ++i) {
    const int chunk = i * CONSUMER_THREADS + consumer_thread;
    const int row = chunk / C_CHUNKS, col = chunk % C_CHUNKS * 8;
    const long long out_row = block_row + row, out_col = block_col + col;
    if (out_row < {{M}} && out_col < {{N}})
      *reinterpret_cast<uint4*>(C + out_row * {{N}} + out_col) = *reinterpret_cast<const uint4*>(tile + row * C_STRIDE + col);
  }
{{END_SYNC}}}
)",
                vars);

  EmittedKernel k = wgmmaKernel(std::move(src), p, bm, bn, threads, gemmWgmmaWarpSpecializedSmemBytes(g));
  // The boxes the producer copies: A's BLOCK_M x 64 tile, B's 64 x 64 panels, both in 128-byte swizzled rows.
  // In a cluster each block copies 64 / CLUSTER_M k-rows of every B panel.
  if (tma)
    k.launch.tensorMaps = {{p.tensorName("A"), static_cast<int>(bm), 64, "128B"},
                           {p.tensorName("B"), static_cast<int>(64 / clusterM), 64, "128B"}};
  return k;
}

}  // namespace crucible::templates
