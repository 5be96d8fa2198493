// SPDX-License-Identifier: GPL-3.0-or-later
// Emits the TMA-fed warp-specialized Hopper (sm_90a) bf16 GEMM with the persistent
// schedule (gene schedule=persistent, pipeline=tma): a grid of at most one block per SM of
// the GPU it launches on (launch rule "min(tiles, sm_count)") whose blocks loop over the
// output tiles.
//
// Tiles: the batch entries' tiles one entry after another, each entry's in the grouped
// raster order of the grid kernel (GROUP_M block rows advance together across the
// columns); block b takes tiles b, b + gridDim.x, b + 2 gridDim.x, ... so the tiles in
// flight at any time are neighbours in that order, as in the grid kernel's waves.
//
// Ring and handshake: those of emit_gemm_wgmma_ws.cpp (full[s] completes by the TMA bytes
// after the producer's expect_tx arrival; empty[s] by one arrival per consumer warp), run
// as ONE stream of k-tiles across all of the block's tiles: the producer thread and the
// consumers walk the same sequence (tile by tile, k-tile by k-tile) with the same stage
// counter and phase bit, which never restart. The parity argument of the grid kernel
// holds for the whole stream: a phase cannot run two ahead of its waiter. The only new
// arrival is the release of each tile's last stage: the grid kernel never releases it
// (nobody refills it); here the consumers release it after wgmma_wait<0>, before the
// epilogue, so the producer (which is already waiting on it) refills the ring with the
// next tile's first k-tiles while the consumers store the current tile. That overlap is
// the point of the schedule, besides one launch, one barrier set-up and one set of
// descriptors per SM instead of per tile.
//
// Epilogue: it cannot stage C in the ring (the producer is refilling it), so each consumer
// warpgroup has its own buffer of its rows x 64 columns beside the ring. Per 64-column step:
// the warpgroup syncs (its previous step's, or previous tile's, reads are done), writes its
// fragments there as bf16 (bias and ReLU applied in fp32 for matmul_bias_relu; rows padded
// by 16 bytes: conflict-free), syncs, and stores the buffer to C in 16-byte chunks,
// row-contiguous. The warpgroups sync only themselves (named barriers 2 and 3), so one can
// start its next tile's wgmmas while the other is still storing.
//
// epilogue=tma (the gene's third value): C leaves by the copy engine instead. Each consumer
// warpgroup has EPI_BUFFERS (1, 2 or 4) staging buffers of its rows x 64 columns in the 128-byte swizzle of a TMA
// box (conflict-free writes without padding), used in turn across steps and tiles. Per 64-column
// step each warp waits until the buffer is free (its previous store has read it), writes its
// fragments there (stmatrix: 16 bytes a lane per instruction), fences them to the async proxy and
// arrives on the buffer's full barrier; then it goes on, with no warpgroup barrier. A store
// issuer, thread 64 of the producer warpgroup (otherwise idle), walks the same tiles: it waits
// for each full buffer, issues its bulk tensor store (cp.async.bulk.tensor, tmap_C), waits until
// the copy engine has read it (cp.async.bulk.wait_group.read 0) and arrives on its free barrier.
// So the consumers never wait for a store, its issue, or each other: they go back to the next
// tile's wgmmas while the copy engine drains the stores, which is what the cooperative kernel's
// epilogue cost (the tensor cores idle while 128 threads stored 64 KiB), and later what the
// barriers around each step's store cost (bmm 16 x 2048^3 on the H200: 1.5% of the kernel,
// results/2026-12-04-h200-store-issuer.md). One buffer leaves room for a deeper ring (256 x 128
// tiles with 4 stages, cuBLAS's bmm tile); two wait only within a tile of more than two steps;
// four never wait at 256 columns (the epilogue of bmm 16 x 2048^3, 128 x 256: 1.28 against 1.54
// us a tile on the H200, with a 3-stage ring beside them: results/2026-12-03-h200-streamk-fixup.md).
// The map clips rows past M and columns past N; a batched GEMM's map stacks the entries
// row-wise, so a tile must not reach into the next entry's rows (M % BLOCK_M == 0, a rule).
//
// Batched GEMMs: the tensor maps stack the entries row-wise (kernel_abi.h: tensorMatrix):
// entry z's A rows start at z * M, B's (when batched) at z * K; C's entry is offset per tile.
// Rows past M of a tile read the next entry's A rows (or zeros past the last) into
// accumulator rows that are never stored; B's k-tiles stay in their entry (K % 64 == 0 is a
// rule of batched TMA GEMMs, gemm_space.cpp).
//
// schedule=pingpong: the consumer warpgroups take turns instead of sharing every tile: each
// owns whole BLOCK_M x BLOCK_N tiles (SLABS = BLOCK_M / 64 slabs), warpgroup c the block's
// tiles c, c + CONSUMERS, ... of its sequence. The producer still fills the ring with the
// block's tiles in order, so a warpgroup skips the other's k-tiles in the stream (its stage
// and phase jump ahead by k_tiles per skipped tile) and only its 4 warps release a stage.
// Turns: a warpgroup waits for its turn (turn[c], completed by the 4 warps of the warpgroup
// before it once they have waited for all of their tile's k-tiles) before its k-loop. The
// turns are needed for correctness, not only for order: a full barrier's parity names a phase
// only while that barrier is at most one phase behind, and a warpgroup reaching k-tiles far
// ahead in the stream could otherwise take an earlier round's completion (the other
// warpgroup's tile) for its own. After warpgroup c - 1's k-loop every earlier position of the
// stream has completed. Warpgroup 0's first tile needs no turn; phases of turn[c] cannot run
// two ahead of c's waits (c - 1 needs its own turn, which needs c's k-loop, first). The
// k-loops alternate, each warpgroup's epilogue running under the other's wgmmas. Both
// warpgroups of a cluster pair take the same turns in both blocks.
//
// Clusters (CLUSTER_M = 2): the grid is a multiple of 2 and so is every entry's tile count
// (the block rows pair up, a rule of the TMA kernel), so blocks 2c and 2c + 1 take tiles
// 2p and 2p + 1 on every round: the same block column (the raster group has an even number
// of rows) and the same number of rounds; their streams of k-tiles stay in step, as the
// multicast of B into both rings and the releases to both producers need.
//
// schedule=streamk (no clusters, no pingpong): the cooperative kernel whose blocks walk their
// data-parallel tiles, then a range of k-iterations of the last tiles (a tile split between two
// blocks is a segment: k-tiles [t0, t1)); producer and consumers walk the same segments
// (streamk_next), so the ring's stream and its parity argument are unchanged. A segment's
// k-loop releases stages from t0 on; after its drain a start partial (t0 > 0) hands its sums to
// the block before instead of storing C, and an end partial (t1 < k_tiles) adds the next block's
// before storing. The walk, the workspace, why the hybrid and why no deadlock:
// emit_gemm_wgmma_streamk.cpp.
#include <algorithm>
#include <string>
#include "backends/proposers/template/gemm_wgmma.h"
#include "backends/proposers/template/kernel_source.h"
#include "core/task/expression.h"
#include "core/task/kernel_abi.h"

namespace crucible::templates {
namespace {

using namespace wgmma;  // kWarpgroupThreads, kSwizzleAlignment, ...

constexpr std::int64_t kEpilogueColumns = 64;   // columns of C staged per epilogue step
constexpr std::int64_t kEpiloguePadBytes = 16;  // per staged row
constexpr std::int64_t kSwizzleRowBytes = 128;   // a staged row of 64 bf16 columns, 128-byte swizzled
// The consumers' registers besides their accumulators: the grid kernel's 32 (descriptors,
// barrier state, epilogue addressing) plus the tile loop's (tile index, batch entry, tile
// origin). ptxas for sm_90a, 128 x 256 tile (128 accumulators): see the compile test.
constexpr std::int64_t kPersistentConsumerOverhead = 40;
constexpr std::int64_t kMaxPingpongSlabs = 2;
constexpr std::int64_t kMaxTmaAccumulators = 128;  // fp32 accumulators per consumer thread, as in the grid kernel

std::int64_t stageBytes(const Genome& g) {
  return (g.param("BLOCK_M") + g.param("BLOCK_N")) * g.param("BLOCK_K") * kBf16Bytes;
}

// The rows of C one consumer warpgroup holds.
std::int64_t warpgroupRows(const Genome& g) {
  return isPingpongSchedule(g.genes) ? g.param("BLOCK_M") : g.param("BLOCK_M") / g.param("WARPGROUPS");
}

bool tmaEpilogue(const Genome& g) { return g.gene("epilogue") == kTmaEpilogue; }

// Each consumer warpgroup's staging: one padded buffer of its rows (epilogue=smem), or two
// swizzled TMA boxes of its rows (epilogue=tma); all of the tile's rows in pingpong.
std::int64_t epilogueBytes(const Genome& g) {
  if (tmaEpilogue(g)) return g.param("WARPGROUPS") * g.param("EPI_BUFFERS") * warpgroupRows(g) * kSwizzleRowBytes;
  const std::int64_t rows = g.param("BLOCK_M") * (isPingpongSchedule(g.genes) ? g.param("WARPGROUPS") : 1);
  return rows * (kEpilogueColumns * kBf16Bytes + kEpiloguePadBytes);
}

// How kernel code names the batch count: the scalar parameter when the axis is passed, else its value.
std::string batchCode(const KernelProblem& p) {
  if (!p.batched) return "1";
  const bool scalar = std::find(p.scalars.begin(), p.scalars.end(), p.batchAxis) != p.scalars.end();
  return scalar ? p.batchAxis : std::to_string(p.batch) + "LL";
}

}  // namespace

std::int64_t gemmWgmmaPersistentSmemBytes(const Genome& g) {
  // turn[CONSUMERS] (pingpong), or the stream-K fix-up's and start partial's barriers; epilogue=tma:
  // a full and a free barrier per staging buffer of each consumer warpgroup.
  const std::int64_t extra = (isPingpongSchedule(g.genes) ? g.param("WARPGROUPS") : isStreamKSchedule(g.genes) ? 2 : 0) +
                             (tmaEpilogue(g) ? 2 * g.param("WARPGROUPS") * g.param("EPI_BUFFERS") : 0);
  // matmul_bias_relu: each consumer warpgroup's slice of the bias (bf16).
  const std::int64_t biasSlices = g.family == "matmul_bias_relu" ? g.param("WARPGROUPS") * g.param("BLOCK_N") * kBf16Bytes : 0;
  return g.param("STAGES") * stageBytes(g) + epilogueBytes(g) + biasSlices + kSwizzleAlignment +
         (2 * g.param("STAGES") + extra) * kMbarrierBytes;
}

std::int64_t wgmmaPersistentTiles(const Genome& g, const KernelProblem& p) {
  const std::int64_t M = p.extent(p.input("A"), 0), N = p.extent(p.output("C"), 1);
  return ceilDiv(M, g.param("BLOCK_M")) * ceilDiv(N, g.param("BLOCK_N")) * (p.batched ? p.batch : 1);
}

void addWgmmaPersistentViolations(const Genome& g, const KernelProblem& p, Violations& v) {
  v.require(g.gene("pipeline") == kTma, "the persistent schedule is a TMA kernel's (pipeline=tma)");
  const std::int64_t bn = g.param("BLOCK_N"), consumers = g.param("WARPGROUPS");
  const std::int64_t accumulators = warpgroupRows(g) / kRowsPerWgmma * bn / 2;
  // (pingpong: a warpgroup holds a whole tile, twice what the TMA kernel's rules counted)
  v.atMost(accumulators, "accumulators per consumer thread", kMaxTmaAccumulators, "the register budget");
  v.atMost(accumulators + kPersistentConsumerOverhead, "estimated persistent consumer registers per thread",
           entryRegisters(kWarpgroupThreads * (consumers + 1)), "the launch share of registers per thread");
  // A pingpong warpgroup of four m64 slabs (256 x 64) spilled under ptxas sm_90a (52-60 bytes),
  // whatever the matrix: two slabs (128 rows) at most.
  if (isPingpongSchedule(g.genes))
    v.atMost(warpgroupRows(g) / kRowsPerWgmma, "m64 slabs per pingpong warpgroup (BLOCK_M / 64)", kMaxPingpongSlabs,
             "what compiled without spills");
  // Each consumer thread stores the same number of 16-byte chunks per epilogue step.
  v.divisible(warpgroupRows(g) * (kEpilogueColumns / 8), "a warpgroup's staged chunks", kWarpgroupThreads,
              "its 128 threads");
  // Stream-K's fix-up loops beside the copy engine's epilogue and two m64 slabs per warpgroup
  // (256-row tiles) spilled 56-112 bytes under ptxas sm_90a.
  if (tmaEpilogue(g) && isStreamKSchedule(g.genes))
    v.atMost(warpgroupRows(g) / kRowsPerWgmma, "m64 slabs per warpgroup of stream-K with epilogue=tma", 1,
             "what compiled without spills");
  if (tmaEpilogue(g) && p.batched)
    v.divisible(p.extent(p.input("A"), 0), "M", g.param("BLOCK_M"),
                "BLOCK_M (epilogue=tma: C's map stacks the batch entries, a tile past M would store into the next)");
  const std::int64_t tiles = wgmmaPersistentTiles(g, p);
  v.atMost(tiles, "output tiles (batch included)", kMaxTileOffset, "the 32-bit tile index");
  // With no more tiles than blocks every block runs one tile: the grid schedule is the same
  // kernel without the loop (its epilogue stages whole rows). The grid has a block per SM of
  // the GPU the engine evaluates on; with none known, kSmCountAssumedWithoutGpu, said so.
  // Stream-K's grid is capped at its workspace's slots; it has no clusters.
  const bool streamk = isStreamKSchedule(g.genes);
  if (streamk) addWgmmaStreamKViolations(g, p, v);
  const std::int64_t sms = p.smCount > 0 ? p.smCount : kSmCountAssumedWithoutGpu;
  const std::int64_t grid = streamk ? std::min(sms, kStreamKMaxBlocks) : sms;
  if (tiles <= grid)
    v.add("the " + g.gene(kScheduleGene) + " schedule needs more output tiles (" + std::to_string(tiles) +
          ") than its grid of " + std::to_string(grid) + " blocks (one per SM" +
          (p.smCount > 0 ? std::string(" of the GPU)")
                         : ", " + std::to_string(sms) + " SMs assumed: no GPU is known to the proposer)") +
          ": schedule=grid runs the same tiles");
}

EmittedKernel emitGemmWgmmaPersistent(const Genome& g, const KernelProblem& p) {
  const bool fused = p.family == "matmul_bias_relu";
  const std::int64_t clusterM = g.param("CLUSTER_M");
  const bool cluster = clusterM > 1;
  const std::int64_t bm = g.param("BLOCK_M"), bn = g.param("BLOCK_N");
  const std::int64_t consumers = g.param("WARPGROUPS"), stages = g.param("STAGES");
  const std::int64_t threads = kWarpgroupThreads * (consumers + 1);
  const bool pingpong = isPingpongSchedule(g.genes);
  const bool streamk = isStreamKSchedule(g.genes);
  const bool tmaStore = tmaEpilogue(g);
  std::map<std::string, std::string> vars = wgmmaRenderVars(p, bn);
  vars["BATCH"] = batchCode(p);

  const std::string summary = wgmmaSummaryHead(p, bn) +
                              "warp-specialized, persistent: one block per SM looping over the tiles" +
                              (p.batched ? " of every batch entry" : "") +
                              ", 1 TMA producer thread (bulk tensor copies) running ahead across tiles, " +
                              (cluster ? "clusters of 2 blocks along M sharing B by multicast, " : "") +
                              (streamk ? "stream-K: the last tiles' k-iterations split evenly over the blocks, " : "") +
                              std::to_string(consumers) +
                              (pingpong ? " consumer warpgroups taking turns (one tile each, ping-pong), "
                                        : " consumer warpgroups, ") +
                              std::to_string(stages) +
                              "-stage mbarrier ring, " +
                              (tmaStore ? "C stored by the copy engine (bulk tensor stores) from " + std::to_string(g.param("EPI_BUFFERS")) +
                                           " swizzled buffer(s) per warpgroup"
                                        : "epilogue staged through its own shared buffer");
  std::string src = headerComment(g, p, summary);
  src += includes(p) + "\n";
  src += constant("BLOCK_M", bm);
  src += constant("BLOCK_N", bn, "the N of every wgmma");
  src += constant("BLOCK_K", g.param("BLOCK_K"), "one 128-byte swizzle row of bf16");
  src += constant("CONSUMERS", consumers, pingpong ? "consumer warpgroups; each owns every CONSUMERS-th tile, all of its rows"
                                                  : "consumer warpgroups; each owns BLOCK_M / CONSUMERS rows");
  src += constant("STAGES", stages, "shared-memory ring depth");
  if (cluster) src += constant("CLUSTER_M", clusterM, "blocks per cluster (along M): they share B, each copying half its k-rows to both");
  src += constant("GROUP_M", kRasterGroupM, "block rows per raster group: neighbours share B panels in L2");
  src += constant("THREADS", threads, "the producer warpgroup, then the consumers");
  src += constant("EPI_COLS", kEpilogueColumns, "columns of C staged per epilogue step");
  if (tmaStore) src += constant("EPI_BUFFERS", g.param("EPI_BUFFERS"), "staging buffers per consumer warpgroup, used in turn");
  if (streamk) src += constant("STREAMK_MAX_BLOCKS", kStreamKMaxBlocks, "the largest grid: workspace slots");
  if (fused) src += constant("BIAS_SLICE_BYTES", bn * kBf16Bytes, "a consumer warpgroup's slice of the bias (bf16)");
  src += render(R"(constexpr int PRODUCER_THREADS = 128;
constexpr int CONSUMER_THREADS = 128 * CONSUMERS;
{{SLABS}}
)" + wgmmaTileLayout() + R"(constexpr int RING_BYTES = STAGES * STAGE_BYTES;
constexpr int B_PANELS = BLOCK_N / 64;                  // bulk copies of B per stage: 64 k-rows x 64 columns
{{SHARE_ROWS}}{{SLOT_FLOATS}}constexpr int WG_ROWS = SLABS * 64;                     // rows of C per consumer warpgroup
{{EPI_CONSTANTS}}static_assert(A_STAGE_BYTES % SWIZZLE_BYTES == 0 && B_PANEL_BYTES % SWIZZLE_BYTES == 0,
              "every tile starts on a swizzle period");
static_assert(BLOCK_N % EPI_COLS == 0, "the epilogue steps cover the tile's columns");

)",
                {{"SLABS", pingpong ? "constexpr int SLABS = BLOCK_M / 64;                     // m64 wgmma slabs: a warpgroup owns the whole tile"
                                    : "constexpr int SLABS = BLOCK_M / CONSUMERS / 64;         // m64 wgmma slabs per consumer warpgroup"},
                 {"EPI_CONSTANTS", tmaStore ? R"(constexpr int EPI_BYTES = WG_ROWS * EPI_COLS * 2;       // one: a TMA box of 64 bf16 columns, 128-byte swizzled
constexpr int EPI_WG_BYTES = EPI_BUFFERS * EPI_BYTES;   // a consumer warpgroup's staging
static_assert(EPI_COLS * 2 == 128 && EPI_BYTES % SWIZZLE_BYTES == 0, "every buffer is whole 128-byte swizzle periods");
)" : R"(constexpr int EPI_STRIDE = EPI_COLS + 8;                // staged row in elements: 16 bytes of padding
constexpr int EPI_BYTES = WG_ROWS * EPI_STRIDE * 2;     // one consumer warpgroup's staging buffer
constexpr int EPI_WG_BYTES = EPI_BYTES;
constexpr int EPI_CHUNKS = EPI_COLS / 8;                // 16-byte chunks per staged row
constexpr int EPI_STORES = WG_ROWS * EPI_CHUNKS / 128;  // chunks per consumer thread per epilogue step
static_assert(EPI_BYTES % 16 == 0, "the staging buffers keep 16-byte alignment");
static_assert(EPI_STORES * 128 == WG_ROWS * EPI_CHUNKS, "every consumer thread stores the same number of chunks");
)"},
                 {"SLOT_FLOATS", streamk ? R"(constexpr int STREAMK_SLOT_GROUPS = CONSUMER_THREADS * SLABS * BLOCK_N / 8;  // a block's partial sums, in float4
constexpr int STREAMK_CHUNK_GROUPS = RING_BYTES / (CONSUMER_THREADS * 16) < SLABS * BLOCK_N / 8
                                         ? RING_BYTES / (CONSUMER_THREADS * 16) : SLABS * BLOCK_N / 8;  // float4 rows the ring takes
constexpr int STREAMK_CHUNKS = (SLABS * BLOCK_N / 8 + STREAMK_CHUNK_GROUPS - 1) / STREAMK_CHUNK_GROUPS;
static_assert(STREAMK_CHUNK_GROUPS > 0, "the ring holds a float4 of every consumer thread");
)" : ""},
                 {"SHARE_ROWS", cluster ? "constexpr int B_SHARE_ROWS = BLOCK_K / CLUSTER_M;        // k-rows of each panel a block copies (to all)\n"
                                        : ""}});
  src += tensorMapTypeDeclaration() + "  // the driver's tensor map, passed by value\n\n";
  src += wgmmaDeviceHelpers(false);
  src += mbarrierInitArriveHelpers() + tmaCopyHelpers() + (cluster ? wgmmaClusterHelpers() : "") + mbarrierWaitHelpers();
  if (tmaStore) src += tmaStoreHelpers();
  if (fused) src += cpAsyncCopyHelpers();
  if (streamk) src += streamkDeviceHelpers();
  if (pingpong)
    src += R"(// Moves a consumer's place in the ring's stream of k-tiles `count` k-tiles on (the other
// warpgroup's tiles): the stage advances modulo STAGES, the phase flips at every wrap.
__device__ __forceinline__ void skip_k_tiles(int count, int& stage, unsigned& phase) {
  const int position = stage + count;
  phase ^= static_cast<unsigned>(position / STAGES) & 1u;
  stage = position % STAGES;
}

)";
  src += R"(// Synchronises the 128 threads of one consumer warpgroup only (named barrier 2 + consumer;
// 0 is __syncthreads, 1 consumers_sync): the other warpgroup runs on.
__device__ __forceinline__ void warpgroup_sync(int consumer) {
  asm volatile("bar.sync %0, 128;\n" ::"r"(consumer + 2) : "memory");
}

// Output tile `tile` of the block's sequence (the batch entries one after another, each in
// grouped raster order: GROUP_M block rows advance together across the columns): its batch
// entry and the first row and column of C it covers.
__device__ __forceinline__ void tile_position(int tile, int tiles_m, int tiles_n, int& entry, long long& block_row,
                                              long long& block_col) {
  const int entry_tiles = tiles_m * tiles_n;
  entry = tile / entry_tiles;
  const int in_entry = tile - entry * entry_tiles;
  const int group_blocks = GROUP_M * tiles_n;
  const int first_m = in_entry / group_blocks * GROUP_M;
  const int group_rows = min(tiles_m - first_m, GROUP_M);
  const int in_group = in_entry % group_blocks;
  block_row = static_cast<long long>(first_m + in_group % group_rows) * BLOCK_M;
  block_col = static_cast<long long>(in_group / group_rows) * BLOCK_N;
}

)";
  src += wgmmaInstructionWrapper(bn) + "\n" + wgmmaOverwriteWrapper(bn) + "\n";
  std::string signature = p.signature("THREADS, 1", tmaStore ? std::vector<std::string>{"A", "B", "C"}
                                                              : std::vector<std::string>{"A", "B"});
  if (cluster) signature.replace(signature.find("__global__ void ") + 16, 0, "__cluster_dims__(CLUSTER_M, 1, 1) ");
  src += signature + " {\n";

  // A's rows of the batch entries stacked; B's too when every entry has its own B.
  vars["A_ROW"] = p.batched ? "static_cast<int>(entry * {{M}} + block_row)" : "static_cast<int>(block_row)";
  vars["B_ROW"] = p.batched && p.batchedB ? "k0 + static_cast<int>(entry * {{K}})" : "k0";
  vars["C_ROW"] = p.batched ? "entry * {{M}} + out_row" : "out_row";
  for (const char* key : {"A_ROW", "B_ROW", "C_ROW"}) vars[key] = render(vars[key], vars);
  vars["B_COPIES"] = cluster ? R"(        // This block's share of B's k-rows, into both blocks (same offsets), counted on both full barriers.
#pragma unroll
        for (int panel = 0; panel < B_PANELS; ++panel)
          tma_load_2d_multicast(b_tile + panel * B_PANEL_BYTES + rank * B_SHARE_ROWS * ROW_BYTES, tmap_B,
                                static_cast<int>(block_col) + panel * 64, b_row + static_cast<int>(rank) * B_SHARE_ROWS,
                                full, (1u << CLUSTER_M) - 1);
)"
                             : R"(#pragma unroll
        for (int panel = 0; panel < B_PANELS; ++panel)
          tma_load_2d(b_tile + panel * B_PANEL_BYTES, tmap_B, static_cast<int>(block_col) + panel * 64, b_row, full);
)";
  vars["B_COPIES"] = indentLines(vars["B_COPIES"], 2);
  if (pingpong)
    vars["EMPTY_ARRIVALS"] = cluster ? "128 / 32 * CLUSTER_M);  // one per warp of the stage's consumer warpgroup, in both blocks"
                                     : "128 / 32);  // one arrival per warp of the stage's consumer warpgroup";
  else
    vars["EMPTY_ARRIVALS"] = cluster ? "CONSUMER_THREADS / 32 * CLUSTER_M);  // one per consumer warp of both blocks"
                                     : "CONSUMER_THREADS / 32);  // one arrival per consumer warp";
  // Cooperative: every warpgroup walks every tile, its rows a slice of it. Pingpong: warpgroup c
  // walks tiles c, c + CONSUMERS, ... of the block's sequence, skipping the others' k-tiles.
  vars["FIRST_TILE"] = pingpong ? "static_cast<int>(blockIdx.x + consumer * gridDim.x)" : "static_cast<int>(blockIdx.x)";
  vars["TILE_STEP"] = pingpong ? "static_cast<int>(CONSUMERS * gridDim.x)" : "static_cast<int>(gridDim.x)";
  // Stream-K: both walk the block's segments (k-tiles [t0, t1) of a tile) instead of whole tiles.
  vars["PRODUCER_LOOP"] = streamk ? "      StreamKWalk walk = streamk_walk(tiles, k_tiles);\n"
                                    "      int tile, t0, t1;\n"
                                    "      while (streamk_next(walk, k_tiles, tile, t0, t1)) {\n"
                                  : "      for (int tile = static_cast<int>(blockIdx.x); tile < tiles; tile += static_cast<int>(gridDim.x)) {\n";
  vars["CONSUMER_LOOP"] = streamk ? "  StreamKWalk walk = streamk_walk(tiles, k_tiles);\n"
                                    "  int tile, t0, t1;\n"
                                    "  while (streamk_next(walk, k_tiles, tile, t0, t1)) {\n"
                                  : render("  for (int tile = {{FIRST_TILE}}; tile < tiles; tile += {{TILE_STEP}}) {\n", vars);
  vars["T0"] = streamk ? "t0" : "0";
  vars["T1"] = streamk ? "t1" : "k_tiles";
  vars["STREAMK_FIXUP"] = streamk ? streamkFixup() : "";
  vars["SKIP_FIRST"] = pingpong ? "  skip_k_tiles(consumer * k_tiles, stage, phase);  // the tiles before this warpgroup's first\n" : "";
  vars["SKIP_OTHERS"] = pingpong ? "    skip_k_tiles((CONSUMERS - 1) * k_tiles, stage, phase);  // the other warpgroups' next tiles\n" : "";
  vars["TURN_DOC"] = pingpong ? ", then turn[CONSUMERS]" : streamk ? ", then the fix-up's and the start partial's barriers" : "";
  vars["TURN_BARS"] = pingpong ? "  const unsigned turn_bars = empty_bars + STAGES * 8;\n"
                      : streamk ? "  const unsigned fixup_bar = empty_bars + STAGES * 8;  // the end partial's copy of the next block's sums\n"
                                  "  const unsigned partial_bar = fixup_bar + 8;           // the start partial's stores, all issued\n"
                                : "";
  vars["TURN_INIT"] = pingpong ? R"(#pragma unroll
    for (int c = 0; c < CONSUMERS; ++c) mbarrier_init(turn_bars + c * 8, 128 / 32);  // the warps of warpgroup c - 1
)"
                     : streamk ? "    mbarrier_init(fixup_bar, 1);  // the arrival with the byte count; the copy's bytes do the rest\n"
                                 "    mbarrier_init(partial_bar, CONSUMER_THREADS);  // every consumer thread, after its stores\n"
                               : "";
  vars["TURN_WAIT"] = pingpong ? R"(    if (!first_turn) {
      mbarrier_wait(turn_bars + consumer * 8, turn);  // the warpgroup before has waited for all of its k-tiles
      turn ^= 1;
    }
    first_turn = false;
)"
                               : "";
  vars["TURN_PASS"] = pingpong ? "    if (lane == 0) mbarrier_arrive(turn_bars + (consumer + 1) % CONSUMERS * 8);  // the next warpgroup's turn\n"
                               : "";
  vars["SKIP_FIRST"] += pingpong ? "  unsigned turn = 0;                   // parity of this warpgroup's next turn\n"
                                   "  bool first_turn = consumer == 0;     // warpgroup 0 starts\n"
                                 : "";
  vars["ROW_BASE"] = pingpong ? "block_row + row" : "block_row + consumer * WG_ROWS + row";
  vars["START_SYNC"] = cluster ? "  // Both blocks' barriers exist before any copy or arrival crosses between them.\n  cluster_sync();\n"
                               : "  __syncthreads();\n";
  vars["CLUSTER_SETUP"] = cluster ? "  const unsigned rank = cluster_rank(), peer = rank ^ 1;\n" : "";
  vars["PRODUCER_EXIT"] = cluster ? "    cluster_sync();  // the peer may still arrive on this block's barriers until it leaves too\n    return;\n"
                                  : (streamk ? streamkFlagRaiser() : std::string()) + "    return;\n";
  // The stage before `stage` (k-tile t - 1's; after the k-loop, the tile's last).
  const std::string previous = "const int previous = stage == 0 ? STAGES - 1 : stage - 1;";
  // (The loop starts at k-tile T0 + 1, the first being peeled: k-tile t - 1 is always the tile's.)
  vars["RELEASE"] = cluster ? "      if (lane == 0) {  // both blocks' producers write this stage: release it to both\n        " +
                                  previous + R"(
        mbarrier_arrive(empty_bars + previous * 8);
        mbarrier_arrive_cluster(cluster_address(empty_bars + previous * 8, peer));
      }
)"
                            : "      if (lane == 0) {\n        " + previous +
                                  "\n        mbarrier_arrive(empty_bars + previous * 8);\n      }\n";
  vars["RELEASE_LAST"] = cluster ? "    if (lane == 0) {\n      " + previous + R"(
      mbarrier_arrive(empty_bars + previous * 8);
      mbarrier_arrive_cluster(cluster_address(empty_bars + previous * 8, peer));
    }
)"
                                 : "    if (lane == 0) {\n      " + previous + "\n      mbarrier_arrive(empty_bars + previous * 8);\n    }\n";
  vars["END_SYNC"] = cluster ? "  cluster_sync();  // no block leaves while the other may still arrive on its barriers\n" : "";
  // matmul_bias_relu: the tile's slice of the bias (bf16, as A and B) reaches shared memory by
  // cp.async while the k-loop runs, one slice per consumer warpgroup, and the epilogue reads it
  // there. Why: the epilogue's global loads of the bias stood between the accumulators and the
  // stores of every tile, the tensor cores idle meanwhile (H200, 4096^3, 128 x 256: 179.3 against
  // 183.3 us, results/2026-12-03-h200-streamk-fixup.md). Warp 0 of the warpgroup copies 16 bytes a
  // lane at the tile's start (in stream-K only for a segment that stores its tile: t0 = 0) and
  // waits for them before the epilogue, whose first warpgroup barrier shows them to the other
  // warps. The next tile's copy cannot overwrite the slice while a warp still reads it: the
  // epilogue ends at a warpgroup barrier after its reads (epilogue=smem: every step does), and
  // warp 0 copies only after it.
  // Columns past N hold zeros in the slice (their chunks copy no source bytes), so one slab a
  // warpgroup reads it unguarded: 178.5 against 180.8 us with the guard on N (H200, 4096^3, 128 x
  // 256, call 6 of results/2026-12-03-h200-streamk-fixup.md). With two slabs (256 x 128, pingpong
  // 128 x 128) unguarded reads made ptxas spill 40-56 bytes, and the guard keeps them at none.
  const DType biasType = fused ? p.input("bias").dtype : DType::F32;
  const bool guardBias = warpgroupRows(g) / kRowsPerWgmma > 1;
  vars["BIAS"] = !fused ? ""
                 : guardBias
                     ? "          const int slice_col = step * EPI_COLS + tile_col;\n"
                       "          const long long col = block_col + slice_col;  // N % 8 == 0: col + 1 < N when col < N\n"
                       "          const float bias0 = col < {{N}} ? " + toFloat(biasType, "bias_slice[slice_col]") +
                           " : 0.0f, bias1 = col < {{N}} ? " + toFloat(biasType, "bias_slice[slice_col + 1]") + " : 0.0f;\n"
                     : "          const int slice_col = step * EPI_COLS + tile_col;  // past N: zeros\n"
                       "          const float bias0 = " + toFloat(biasType, "bias_slice[slice_col]") +
                           ", bias1 = " + toFloat(biasType, "bias_slice[slice_col + 1]") + ";\n";
  // The column of this lane's pair in the epilogue step, which only the bias slice needs.
  vars["TILE_COL"] = fused ? "            const int tile_col = j * 8 + lane % 4 * 2;\n" : "";
  vars["BIAS_DOC"] = fused ? "then the bias slices\n  // (CONSUMERS x BIAS_SLICE_BYTES), " : "";
  vars["BIAS_SLICES"] = fused ? "  const unsigned bias_slices = staging_buffers + CONSUMERS * EPI_WG_BYTES;\n" : "";
  vars["BIAS_SKIP"] = fused ? " + CONSUMERS * BIAS_SLICE_BYTES" : "";
  vars["BIAS_PREFETCH"] = fused ? render(R"(    if (warp == 0 && {{T0}} == 0) {
      // This tile's bias slice into the warpgroup's buffer, under the k-loop (read by the epilogue).
      int bias_entry;
      long long bias_row, bias_col;
      tile_position(tile, tiles_m, tiles_n, bias_entry, bias_row, bias_col);
      unsigned char* const slice = smem + (bias_slices + consumer * BIAS_SLICE_BYTES - smem_address(smem));
      for (int c = lane; c < BLOCK_N / 8; c += 32)
        cp_async_16(slice + c * 16, bias + bias_col + c * 8, bias_col + c * 8 < {{N}});
      cp_async_commit();
    }
)", vars)
                                : "";
  vars["BIAS_WAIT"] = fused ? R"(    if (warp == 0) cp_async_wait<0>();  // the slice has landed; the epilogue's first barrier shows it
    const __nv_bfloat16* const bias_slice =
        reinterpret_cast<const __nv_bfloat16*>(smem + (bias_slices + consumer * BIAS_SLICE_BYTES - smem_address(smem)));
)"
                            : "";
  vars["BIAS"] = render(vars["BIAS"], vars);
  vars["V0"] = fused ? "fmaxf(acc[s][a + half * 2] + bias0, 0.0f)" : "acc[s][a + half * 2]";
  vars["V1"] = fused ? "fmaxf(acc[s][a + half * 2 + 1] + bias1, 0.0f)" : "acc[s][a + half * 2 + 1]";

  // The epilogue of either kind, rendered with the variables above.
  // epilogue=tma has no warpgroup barrier per step (the store issuer): with the bias slice, one
  // shows the slice to every warp before the steps, and one after them keeps warp 0's copy of
  // the next tile's slice from overwriting it while a warp still reads it.
  vars["BIAS_SHOWN"] = fused ? "    warpgroup_sync(consumer);  // warp 0's bias slice has landed: every warp sees it\n" : "";
  vars["BIAS_READ"] = fused ? "    warpgroup_sync(consumer);  // every warp has read the slice: warp 0 may copy the next tile's\n" : "";
  vars["EPILOGUE"] = render(tmaStore ? std::string(R"__(    // Epilogue, EPI_COLS columns per step: this warpgroup's fragments into one of its swizzled
    // buffers, then one bulk tensor store of the buffer by the copy engine. Warp w holds rows
    // 16w + lane / 4 and 16w + lane / 4 + 8 of each m64 slab, columns 8j + 2 (lane % 4) + {0, 1}:
    // acc[s][4j], [4j + 1] on the first row, [4j + 2], [4j + 3] on the second. That is the fragment of stmatrix's 8 x 8
    // matrices, so one stmatrix.x4 writes columns 8j .. 8j + 15 of the warp's 16 rows (matrix m:
    // chunk j + m / 2, rows 8 (m % 2) ..; lanes 8m .. 8m + 7 address its rows), a quarter of the
    // instructions of 4-byte stores. In the 128-byte swizzle, 16-byte chunk c of staged row r sits
    // at chunk c ^ (r % 8): a matrix's 8 rows write 32 different banks. Side by side on the H200
    // against the 4-byte stores: 0.6-1.2 us faster of 360 on bmm 16 x 2048^3, 0.4-3.8 of 1480 at
    // 8192^3, 0.9-1.5 of 181 with bias + ReLU at 4096^3 (results/2026-12-04-h200-epilogue-stores.md).
{{BIAS_SHOWN}}#pragma unroll
    for (int step = 0; step < BLOCK_N / EPI_COLS; ++step) {
      const unsigned buffer = staging_address + epi_buffer * EPI_BYTES;
      // The store issued from this buffer EPI_BUFFERS steps ago has read it (the issuer says so).
      mbarrier_wait(epi_free_bars + (consumer * EPI_BUFFERS + epi_buffer) * 8, ((epi_phases >> epi_buffer) & 1u) ^ 1u);
#pragma unroll
      for (int s = 0; s < SLABS; ++s) {
        const int address_row = s * 64 + warp * 16 + (lane & 7) + (lane >> 3 & 1) * 8;
#pragma unroll
        for (int j0 = 0; j0 < EPI_COLS / 8; j0 += 2) {
          unsigned packed[4];  // matrices (j0, rows 0-7), (j0, rows 8-15), (j0 + 1, ...), (j0 + 1, ...)
#pragma unroll
          for (int q = 0; q < 2; ++q) {
            const int j = j0 + q;
{{TILE_COL}}            const int a = (step * EPI_COLS / 8 + j) * 4;  // a compile-time index: the loops are unrolled
{{BIAS}}#pragma unroll
            for (int half = 0; half < 2; ++half) {
              const __nv_bfloat162 v = __floats2bfloat162_rn({{V0}}, {{V1}});
              packed[q * 2 + half] = *reinterpret_cast<const unsigned*>(&v);
            }
          }
          const int chunk = j0 + (lane >> 4);
          stmatrix_x4(buffer + address_row * 128 + ((chunk ^ (address_row & 7)) << 4), packed);
        }
      }
      fence_shared_to_async();  // this thread's writes, visible to the copy engine
      __syncwarp();             // ... and the warp's, before its arrival (release) tells the issuer
      if (lane == 0) mbarrier_arrive(epi_full_bars + (consumer * EPI_BUFFERS + epi_buffer) * 8);
      epi_phases ^= 1u << epi_buffer;
      if (++epi_buffer == EPI_BUFFERS) epi_buffer = 0;
    }
{{BIAS_READ}})__") : std::string(R"__(    // Epilogue, EPI_COLS columns per step through this warpgroup's staging buffer. Warp w holds
    // rows 16w + lane / 4 and 16w + lane / 4 + 8 of each m64 slab, columns 8j + 2 (lane % 4) + {0, 1}:
    // acc[s][4j], [4j + 1] on the first row, [4j + 2], [4j + 3] on the second.
#pragma unroll
    for (int step = 0; step < BLOCK_N / EPI_COLS; ++step) {
      warpgroup_sync(consumer);  // the buffer's previous contents (last step or last tile) are stored
#pragma unroll
      for (int s = 0; s < SLABS; ++s) {
        const int row = s * 64 + warp * 16 + lane / 4;
#pragma unroll
        for (int j = 0; j < EPI_COLS / 8; ++j) {
          const int tile_col = j * 8 + lane % 4 * 2;
          const int a = (step * EPI_COLS / 8 + j) * 4;  // a compile-time index: the loops are unrolled
{{BIAS}}#pragma unroll
          for (int half = 0; half < 2; ++half)
            *reinterpret_cast<__nv_bfloat162*>(staging + (row + half * 8) * EPI_STRIDE + tile_col) =
                __floats2bfloat162_rn({{V0}}, {{V1}});
        }
      }
      warpgroup_sync(consumer);
      // 16-byte chunks, consecutive threads along a row: coalesced stores. N is a multiple of 8,
      // so a chunk is all inside or all outside the matrix; rows past M are not stored. Two
      // chunks at a time: fully unrolled, the loads of all of them stayed live beside the
      // accumulators of the later steps and a 256 x 128 tile spilled (ptxas sm_90a).
#pragma unroll 2
      for (int i = 0; i < EPI_STORES; ++i) {
        const int chunk = i * 128 + consumer_thread;
        const int row = chunk / EPI_CHUNKS, col = chunk % EPI_CHUNKS * 8;
        const long long out_row = {{ROW_BASE}}, out_col = block_col + step * EPI_COLS + col;
        if (out_row < {{M}} && out_col < {{N}})
          *reinterpret_cast<uint4*>(C + ({{C_ROW}}) * {{N}} + out_col) =
              *reinterpret_cast<const uint4*>(staging + row * EPI_STRIDE + col);
      }
    }
)__"), vars);
  vars["STAGING"] = tmaStore ? R"(  const unsigned staging_address = staging_buffers + consumer * EPI_WG_BYTES;
  int epi_buffer = 0;  // the staging buffer of the next step: they alternate across steps and tiles
  unsigned epi_phases = 0;  // bit b: the parity of buffer b's uses so far
)"
                             : R"(  __nv_bfloat16* staging =
      reinterpret_cast<__nv_bfloat16*>(smem + (staging_buffers + consumer * EPI_WG_BYTES - smem_address(smem)));
)";
  vars["EPI_DOC"] = tmaStore ? ", then the staging buffers' full[CONSUMERS][EPI_BUFFERS] and free[CONSUMERS][EPI_BUFFERS]" : "";
  vars["EPI_BARS"] =
      !tmaStore ? ""
                : std::string("  const unsigned epi_full_bars = ") +
                      (pingpong ? "turn_bars + CONSUMERS * 8" : streamk ? "partial_bar + 8" : "empty_bars + STAGES * 8") +
                      ";  // a staging buffer written by its warpgroup's 4 warps\n"
                      "  const unsigned epi_free_bars = epi_full_bars + CONSUMERS * EPI_BUFFERS * 8;  // ... and read by its store\n";
  vars["EPI_INIT"] = tmaStore ? R"(#pragma unroll
    for (int b = 0; b < CONSUMERS * EPI_BUFFERS; ++b) {
      mbarrier_init(epi_full_bars + b * 8, 128 / 32);  // the warps of the buffer's warpgroup
      mbarrier_init(epi_free_bars + b * 8, 1);         // the store issuer
    }
)"
                              : "";
  // The issuer walks the block's tiles as the consumers do (stream-K: only the segments that store
  // C, t0 = 0), and each tile's steps warpgroup by warpgroup (pingpong: only the tile's owner, the
  // block's i-th tile being warpgroup i % CONSUMERS's).
  vars["ISSUER_LOOP"] = (pingpong ? "      int owner = 0;  // the warpgroup whose tile this is\n" : "") + vars["PRODUCER_LOOP"] +
                        (streamk ? "        if (t0 > 0) continue;  // a start partial: its sums go to the block before\n" : "");
  vars["ISSUER_WARPGROUPS"] = pingpong ? "int c = owner; c < owner + 1; ++c" : "int c = 0; c < CONSUMERS; ++c";
  vars["ISSUER_NEXT"] = pingpong ? "        if (++owner == CONSUMERS) owner = 0;\n" : "";
  vars["C_ISSUER_ROW"] = render(p.batched ? (pingpong ? "entry * {{M}} + block_row" : "entry * {{M}} + block_row + c * WG_ROWS")
                                          : (pingpong ? "block_row" : "block_row + c * WG_ROWS"),
                                vars);
  vars["STORE_ISSUER"] = !tmaStore ? "" : render(R"(    if (threadIdx.x == 64) {
      // C's bulk tensor stores, issued for the consumers: each warpgroup's staging buffer once its
      // 4 warps have written it (full), handed back once the copy engine has read it (free). The
      // consumers never wait for a store or a warpgroup barrier in their epilogue, only for a
      // buffer's previous store (EPI_BUFFERS steps before) to have read it; then they return to
      // the tensor cores. On the H200 (bmm 16 x 2048^3, 128 x 256, 4 buffers) that was 1.5% faster
      // than the consumers storing between warpgroup barriers (results/2026-12-04-h200-store-issuer.md).
      // Warpgroup c's boxes are used in turn, as its consumers use them, and a box's barriers'
      // phases flip once per use. In registers (an array indexed by pingpong's owner would live in
      // local memory): bits 8c .. 8c + 3 of `boxes` hold c's next box, bit 8c + b of `phases` box b's parity.
      unsigned boxes = 0, phases = 0;
{{ISSUER_LOOP}}        int entry;
        long long block_row, block_col;
        tile_position(tile, tiles_m, tiles_n, entry, block_row, block_col);
#pragma unroll
        for (int step = 0; step < BLOCK_N / EPI_COLS; ++step) {
#pragma unroll
          for ({{ISSUER_WARPGROUPS}}) {
            const int b = static_cast<int>(boxes >> (8 * c) & 0xfu);
            mbarrier_wait(epi_full_bars + (c * EPI_BUFFERS + b) * 8, phases >> (8 * c + b) & 1u);
            tma_store_2d(tmap_C, staging_buffers + c * EPI_WG_BYTES + b * EPI_BYTES, static_cast<int>(block_col) + step * EPI_COLS,
                         static_cast<int>({{C_ISSUER_ROW}}));
            tma_store_wait_read<0>();  // the copy engine has read the buffer: the warpgroup may write it again
            mbarrier_arrive(epi_free_bars + (c * EPI_BUFFERS + b) * 8);
            phases ^= 1u << (8 * c + b);
            boxes = (boxes & ~(0xfu << (8 * c))) | static_cast<unsigned>(b + 1 == EPI_BUFFERS ? 0 : b + 1) << (8 * c);
          }
        }
{{ISSUER_NEXT}}      }
      tma_store_wait_all();  // C's writes, before the block's shared memory goes
    }
)", vars);
  src += render(R"(  extern __shared__ __align__(1024) unsigned char smem[];
  // The swizzle is applied to absolute shared addresses: the ring starts on a 1024-byte
  // boundary (the launch reserves 1 KiB for this). Stage s: A tile, then B's panels.
  // After the ring: the consumers' epilogue staging (CONSUMERS x EPI_WG_BYTES), {{BIAS_DOC}}then
  // full[STAGES], then empty[STAGES]{{TURN_DOC}}{{EPI_DOC}}.
  const unsigned ring = (smem_address(smem) + (SWIZZLE_BYTES - 1)) & ~unsigned(SWIZZLE_BYTES - 1);
  const unsigned staging_buffers = ring + RING_BYTES;
{{BIAS_SLICES}}  const unsigned full_bars = staging_buffers + CONSUMERS * EPI_WG_BYTES{{BIAS_SKIP}}, empty_bars = full_bars + STAGES * 8;
{{TURN_BARS}}{{EPI_BARS}}  if (threadIdx.x == 0) {
#pragma unroll
    for (int s = 0; s < STAGES; ++s) {
      mbarrier_init(full_bars + s * 8, 1);                  // the producer's expect_tx arrival; the bytes do the rest
      mbarrier_init(empty_bars + s * 8, {{EMPTY_ARRIVALS}}
    }
{{TURN_INIT}}{{EPI_INIT}}    // Makes the initialisation visible to the other threads and the asynchronous arrivals.
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
{{START_SYNC}}{{CLUSTER_SETUP}}  // The tiles: every batch entry's, entry after entry. Block b takes b, b + gridDim.x, ...
  const int tiles_m = static_cast<int>(({{M}} + BLOCK_M - 1) / BLOCK_M);
  const int tiles_n = static_cast<int>(({{N}} + BLOCK_N - 1) / BLOCK_N);
  const int tiles = tiles_m * tiles_n * static_cast<int>({{BATCH}});
  const int k_tiles = static_cast<int>(({{K}} + BLOCK_K - 1) / BLOCK_K);
  const int warpgroup = threadIdx.x / 128;  // warp-uniform: wgmma needs whole warpgroups

  if (warpgroup == 0) {
    // ---------------------------------------------------------------- producer
    if (threadIdx.x == 0) {
      // One stream of k-tiles over all of this block's tiles: stage and phase never restart,
      // exactly as the consumers walk it.
      int stage = 0;
      unsigned phase = 0;  // parity of the current round of the ring
{{PRODUCER_LOOP}}        int entry;
        long long block_row, block_col;
        tile_position(tile, tiles_m, tiles_n, entry, block_row, block_col);
        for (int t = {{T0}}; t < {{T1}}; ++t) {
          mbarrier_wait(empty_bars + stage * 8, phase ^ 1);  // the consumers released round - 1 of this stage
          const int k0 = t * BLOCK_K;
          const int b_row = {{B_ROW}};
          const unsigned a_tile = ring + stage * STAGE_BYTES, b_tile = a_tile + A_STAGE_BYTES;
          const unsigned full = full_bars + stage * 8;
          mbarrier_arrive_expect_tx(full, STAGE_BYTES);
          tma_load_2d(a_tile, tmap_A, k0, {{A_ROW}}, full);
{{B_COPIES}}          if (++stage == STAGES) {
            stage = 0;
            phase ^= 1;
          }
        }
      }
    }
{{STORE_ISSUER}}{{PRODUCER_EXIT}}  }

  // ------------------------------------------------------------------ consumers
  const int consumer = warpgroup - 1;
)" + wgmmaDescriptors(pingpong ? "0" : "consumer") + R"(  const int warp = threadIdx.x % 128 / 32, lane = threadIdx.x % 32;
  const int consumer_thread = threadIdx.x % 128;
{{STAGING}}
  int stage = 0;
  unsigned phase = 0;  // continues across tiles with the producer's
{{SKIP_FIRST}}  float acc[SLABS][BLOCK_N / 2];
{{CONSUMER_LOOP}}{{TURN_WAIT}}{{BIAS_PREFETCH}}    // The tile's first k-tile: its first k16 step overwrites the accumulators instead of a zeroing
    // loop (128 moves a thread with the tensor cores idle: 1-2 us of 355 on bmm 16 x 2048^3, H200,
    // results/2026-12-04-h200-gemm-feed.md). Peeled, so the accumulators' old values are dead
    // from the epilogue's last read on, as they were with the zeroing (ptxas spilled 128 bytes for
    // sm_90 when a flag chose the step inside the loop and kept them live across the epilogue).
    mbarrier_wait(full_bars + stage * 8, phase);
)" + wgmmaIssueTile(true) + R"(    if (++stage == STAGES) {
      stage = 0;
      phase ^= 1;
    }
    for (int t = {{T0}} + 1; t < {{T1}}; ++t) {
      mbarrier_wait(full_bars + stage * 8, phase);  // k-tile t of this tile has landed
)" + indentLines(wgmmaIssueTile(), 2) + R"(      wgmma_wait<1>();  // this warp's wgmmas of k-tile t - 1 are done: hand its stage back
{{RELEASE}}      if (++stage == STAGES) {
        stage = 0;
        phase ^= 1;
      }
    }
)" + "{{TURN_PASS}}" + indentLines(wgmmaDrain(), 2) + R"(    // Every wgmma of this warp is done: hand the tile's last stage back too, so the producer
    // fills the ring with the next tile's k-tiles during this epilogue.
{{RELEASE_LAST}}{{STREAMK_FIXUP}}    // Where the tile lies, worked out only now: nothing of it is live during the k-loop.
    int entry;
    long long block_row, block_col;
    tile_position(tile, tiles_m, tiles_n, entry, block_row, block_col);
{{BIAS_WAIT}}{{EPILOGUE}}{{SKIP_OTHERS}}  }
{{END_SYNC}}}
)",
                vars);

  EmittedKernel k = wgmmaKernel(std::move(src), p, bm, bn, threads, gemmWgmmaPersistentSmemBytes(g));
  // At most one block per SM of the GPU it launches on (sm_count: the worker's GPU, or the
  // device an exported launcher runs on), and no more blocks than tiles; a multiple of
  // CLUSTER_M both ways: sm_count rounded down to it, and every entry's tile count is even
  // when CLUSTER_M = 2. Any grid is correct: the blocks stride over the tiles by gridDim.x.
  std::string tiles = k.launch.grid[0];
  if (p.batched) tiles += " * " + p.batchAxis;
  const std::string sms = kSmCountName;
  k.launch.grid[0] = "min(" + tiles + ", " +
                     (cluster ? sms + " / " + std::to_string(clusterM) + " * " + std::to_string(clusterM) : sms) + ")";
  // Stream-K: one workspace slot per block, STREAMK_MAX_BLOCKS of them (any grid up to that is correct).
  if (streamk) k.launch.grid[0] = "min(" + tiles + ", min(" + sms + ", " + std::to_string(kStreamKMaxBlocks) + "))";
  // The boxes the producer copies: A's BLOCK_M x 64 tile, B's 64 x 64 panels, both in 128-byte swizzled rows.
  // In a cluster each block copies 64 / CLUSTER_M k-rows of every B panel.
  k.launch.tensorMaps = {{p.tensorName("A"), static_cast<int>(bm), 64, "128B"},
                         {p.tensorName("B"), static_cast<int>(64 / clusterM), 64, "128B"}};
  // epilogue=tma: C's box is one consumer warpgroup's rows x 64 columns, 128-byte swizzled like its staging.
  if (tmaStore) k.launch.tensorMaps.push_back({p.tensorName("C"), static_cast<int>(warpgroupRows(g)), 64, "128B"});
  return k;
}

}  // namespace crucible::templates
