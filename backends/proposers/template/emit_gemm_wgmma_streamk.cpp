// SPDX-License-Identifier: GPL-3.0-or-later
// The stream-K pieces of the persistent TMA wgmma GEMM (gene schedule=streamk; the kernel is
// emit_gemm_wgmma_persistent.cpp's, with these pieces in): the walk of a block's work, the
// workspace that carries a split tile's partial sums to the block that stores it, and the
// schedule's rules.
//
// Why: a persistent grid of G blocks over `tiles` tiles runs ceil(tiles / G) rounds, and the
// last round leaves SMs idle (bmm 16 x 2048^3, 128 x 256 tiles: 2048 tiles on 132 SMs are
// 15.5 rounds; half the SMs idle in the last). Stream-K splits the last tiles' k-iterations
// evenly over the blocks, so every block ends at the same time.
//
// Hybrid, as CUTLASS's stream-K: dp_tiles = max(0, tiles / G - 1) * G tiles are data-parallel
// (block b takes b, b + G, ... whole, as the persistent kernel does: the tiles in flight stay
// neighbours in the raster order and share A and B panels in L2); only the remaining
// tiles - dp_tiles (between G and 2G - 1: the last ~1.5 rounds) are split. Their iterations
// (tile * k_tiles + t), S = (tiles - dp_tiles) * k_tiles of them, are cut into G contiguous
// ranges, block b's [first + S b / G, first + S (b + 1) / G) with first = dp_tiles * k_tiles
// (the kernel counts from first, in 32 bits, S b / G as quotient and remainder).
// Each range is at least k_tiles long (S / G >= k_tiles), so a split tile falls into exactly
// two consecutive ranges: block b ends with its k-tiles [0, t1) (an "end partial"), block
// b + 1 starts with [t1, k_tiles) (a "start partial", t0 > 0).
//
// Fix-up: a start partial stores no C: its consumer threads write their fp32 accumulators to
// the block's slot of a module-scope workspace (streamk_partials[blockIdx.x], coalesced:
// element i of consumer thread c at i * CONSUMER_THREADS + c), fence, meet at the consumers'
// named barrier 1, and one thread raises streamk_flags[blockIdx.x] with a release store. The
// end partial's block waits (one thread: acquire loads with a sleep between, then a fence and
// barrier 1) for its successor's flag, adds the successor's slot (ld.global.cg: L2, never a
// stale L1 line) into its accumulators, lowers the flag again (the flags start at 0 in the
// module image, and a launcher may launch the module again) and stores the tile as usual.
//
// No deadlock: the grid is at most one block per SM (min(tiles, sm_count, STREAMK_MAX_BLOCKS),
// and the kernel's shared memory allows one block per SM), so every block is resident; a block
// waits only on the block after it, which writes its start partial first thing in its stream-K
// range, before any wait of its own; the last block never waits (its range ends at the last
// tile's end). Every block has the same dp_tiles / G data-parallel tiles, so the successor
// reaches its start partial about when the waiter starts its range, long before the waiter
// reaches its end partial.
//
// Workspace: STREAMK_MAX_BLOCKS = 160 slots (the grid is capped there; any GPU up to 160 SMs
// runs one block per SM: H100/H200 132, B200 148) of CONSUMER_THREADS x SLABS x BLOCK_N / 2
// floats (128 KiB at 128 x 256). One slot per block and launch: launches of the same module
// must not overlap in time (the worker and the exported launcher run them in one stream).
#include <algorithm>
#include <string>
#include "backends/proposers/template/gemm_wgmma.h"
#include "core/task/expression.h"

namespace crucible::templates {

std::int64_t streamkDataParallelTiles(std::int64_t tiles, std::int64_t grid) {
  return std::max<std::int64_t>(0, tiles / grid - 1) * grid;
}

// Mirrors streamk_walk / streamk_next of streamkDeviceHelpers() step for step (the segmentation
// test checks this function; keep the two in step).
std::vector<StreamKSegment> streamkSegments(std::int64_t tiles, std::int64_t kTiles, std::int64_t grid,
                                            std::int64_t block) {
  const std::int64_t dpTiles = streamkDataParallelTiles(tiles, grid);
  const std::int64_t split = (tiles - dpTiles) * kTiles;
  const std::int64_t share = split / grid, rest = split % grid;
  std::int64_t iter = share * block + rest * block / grid;
  const std::int64_t end = share * (block + 1) + rest * (block + 1) / grid;
  std::vector<StreamKSegment> out;
  for (std::int64_t tile = block; tile < dpTiles; tile += grid) out.push_back({tile, 0, kTiles});
  while (iter < end) {
    const std::int64_t splitTile = iter / kTiles, tileStart = splitTile * kTiles;
    const std::int64_t stop = std::min(end, tileStart + kTiles);
    out.push_back({dpTiles + splitTile, iter - tileStart, stop - tileStart});
    iter = stop;
  }
  return out;
}

std::string streamkDeviceHelpers() {
  return R"(// Stream-K workspace (module scope; the flags are 0 in the module image): slot b holds the
// partial sums of block b's start partial, consumer thread c's element i at i * CONSUMER_THREADS + c.
__device__ float streamk_partials[STREAMK_MAX_BLOCKS][STREAMK_SLOT_FLOATS];
__device__ int streamk_flags[STREAMK_MAX_BLOCKS];  // 1: slot b is written

// A block's work: its data-parallel tiles (blockIdx.x + n gridDim.x below dp_tiles, whole),
// then its stream-K range of iterations (tile * k_tiles + t), cut at tile boundaries. The
// producer and the consumers walk it alike (one stream of k-tiles through the ring).
// (backends/proposers/template/emit_gemm_wgmma_streamk.cpp: streamkSegments mirrors this.)
// Iterations count from the first split tile's k-tile 0, in 32-bit integers: fewer than
// 2 gridDim.x k_tiles (a rule of the schedule), and a 64-bit division would be a called
// subroutine, which makes ptxas serialize the wgmmas (C7509) under nvJitLink.
struct StreamKWalk {
  int dp_tile, dp_tiles;  // the next data-parallel tile; (tiles / gridDim.x - 1) gridDim.x, at least 0
  int iter, end;          // the next iteration of the block's stream-K range; its end
};

__device__ __forceinline__ StreamKWalk streamk_walk(int tiles, int k_tiles) {
  const int grid = static_cast<int>(gridDim.x), block = static_cast<int>(blockIdx.x);
  StreamKWalk w;
  w.dp_tiles = max(0, tiles / grid - 1) * grid;
  w.dp_tile = block;
  // The range [split b / grid, split (b + 1) / grid), split = (tiles - dp_tiles) k_tiles, at
  // least grid k_tiles, as quotient and remainder: no product overflows.
  const int split = (tiles - w.dp_tiles) * k_tiles;
  const int share = split / grid, rest = split % grid;
  w.iter = share * block + rest * block / grid;
  w.end = share * (block + 1) + rest * (block + 1) / grid;
  return w;
}

// The block's next segment: k-tiles [t0, t1) of `tile`; false when the block is done.
__device__ __forceinline__ bool streamk_next(StreamKWalk& w, int k_tiles, int& tile, int& t0, int& t1) {
  if (w.dp_tile < w.dp_tiles) {
    tile = w.dp_tile;
    t0 = 0;
    t1 = k_tiles;
    w.dp_tile += static_cast<int>(gridDim.x);
    return true;
  }
  if (w.iter >= w.end) return false;
  const int split_tile = w.iter / k_tiles, tile_start = split_tile * k_tiles;
  const int stop = min(w.end, tile_start + k_tiles);
  tile = w.dp_tiles + split_tile;
  t0 = w.iter - tile_start;
  t1 = stop - tile_start;
  w.iter = stop;
  return true;
}

// Raises or lowers a flag: a release store at GPU scope (what this thread has seen, after the
// consumers' barrier every consumer thread's fenced partials, is visible before it).
__device__ __forceinline__ void streamk_flag_store(int* flag, int value) {
  asm volatile("st.release.gpu.global.b32 [%0], %1;\n" ::"l"(__cvta_generic_to_global(flag)), "r"(value) : "memory");
}

// Waits until a flag is raised: acquire loads at GPU scope, sleeping a little longer each time.
__device__ __forceinline__ void streamk_flag_wait(const int* flag) {
  unsigned sleep = 32;
  for (;;) {
    int raised;
    asm volatile("ld.acquire.gpu.global.b32 %0, [%1];\n" : "=r"(raised) : "l"(__cvta_generic_to_global(flag)) : "memory");
    if (raised) return;
    __nanosleep(sleep);
    sleep = min(sleep * 2, 512u);
  }
}

)";
}

std::string streamkFixup() {
  return R"(    if (t0 > 0) {
      // A start partial: the block before stores this tile. Hand it these sums through this
      // block's slot (coalesced: consecutive consumer threads, consecutive floats), then the flag.
      float* slot = streamk_partials[blockIdx.x] + (threadIdx.x - PRODUCER_THREADS);
#pragma unroll
      for (int s = 0; s < SLABS; ++s)
#pragma unroll
        for (int i = 0; i < BLOCK_N / 2; ++i) __stcg(slot + (s * (BLOCK_N / 2) + i) * CONSUMER_THREADS, acc[s][i]);
      __threadfence();   // this thread's partials reach the GPU scope before the flag
      consumers_sync();  // every consumer thread's have
      if (threadIdx.x == PRODUCER_THREADS) streamk_flag_store(streamk_flags + blockIdx.x, 1);
      continue;
    }
    if (t1 < k_tiles) {
      // An end partial: the block after has the rest of the tile's k-tiles (its start partial,
      // the first thing it does after its data-parallel tiles). Add its sums, then store the tile.
      if (threadIdx.x == PRODUCER_THREADS) {
        streamk_flag_wait(streamk_flags + blockIdx.x + 1);
        __threadfence();
      }
      consumers_sync();  // the flag was seen: the slot is complete for every consumer thread
      const float* slot = streamk_partials[blockIdx.x + 1] + (threadIdx.x - PRODUCER_THREADS);
#pragma unroll
      for (int s = 0; s < SLABS; ++s)
#pragma unroll
        for (int i = 0; i < BLOCK_N / 2; ++i) acc[s][i] += __ldcg(slot + (s * (BLOCK_N / 2) + i) * CONSUMER_THREADS);
      consumers_sync();  // every consumer thread has read the slot
      // Lowered for the next launch of the module (nothing writes the slot again in this one).
      if (threadIdx.x == PRODUCER_THREADS) streamk_flag_store(streamk_flags + blockIdx.x + 1, 0);
    }
)";
}

void addWgmmaStreamKViolations(const Genome& g, const KernelProblem& p, Violations& v) {
  // A cluster pair's two blocks must walk the same k-tiles in step (B is multicast into both
  // rings); stream-K ranges differ from block to block.
  v.require(g.param("CLUSTER_M") == 1, "the stream-K schedule runs blocks without clusters (CLUSTER_M=1): a pair's "
                                       "blocks would need the same k-tiles, and stream-K ranges differ per block");
  // The walk counts the split tiles' iterations (fewer than 2 x grid x k-tiles) in 32 bits.
  const std::int64_t kTiles = ceilDiv(p.extent(p.input("A"), 1), g.param("BLOCK_K"));
  v.atMost(2 * wgmma::kStreamKMaxBlocks * kTiles, "stream-K iterations (2 x 160 x k-tiles)", wgmma::kMaxTileOffset,
           "the walk's 32-bit iteration count");
}

}  // namespace crucible::templates
