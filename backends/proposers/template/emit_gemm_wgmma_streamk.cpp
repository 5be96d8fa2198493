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
// the block's slot of a module-scope workspace (streamk_partials[blockIdx.x], in float4 groups,
// coalesced: group q of consumer thread c at q * CONSUMER_THREADS + c), arrive on an mbarrier
// and go on; an otherwise idle thread of the producer warpgroup waits for that barrier, fences
// and raises streamk_flags[blockIdx.x] with a release store (streamkFlagRaiser). The end partial's block waits (one thread: acquire loads with a sleep between, then a
// fence and barrier 1) for its successor's flag, has the copy engine bring the successor's slot
// into its ring (idle by then: the end partial is the block's last segment, and every k-tile of
// it has landed and been read by both warpgroups' wgmmas once they meet at barrier 1), adds it
// from shared memory into its accumulators, lowers the flag again (the flags start at 0 in the
// module image, and a launcher may launch the module again) and stores the tile as usual.
// Why the copy engine: loads from L2 straight into registers keep only as many bytes in flight
// as the registers left beside the 128 accumulators, and the 128 KiB slot of a 128 x 256 tile
// took 7-9 us to add that way on the H200 (bmm 16 x 2048^3: a whole tile's k-loop is 20 us),
// against one bulk copy at the L2's rate. A ring smaller than the slot takes it in chunks.
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
// partial sums of block b's start partial, consumer thread c's float4 group q (its accumulators
// 4q .. 4q + 3, slab after slab) at q * CONSUMER_THREADS + c. 16-byte aligned for the copy engine.
__device__ __align__(128) float4 streamk_partials[STREAMK_MAX_BLOCKS][STREAMK_SLOT_GROUPS];
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

// Orders this thread's view of global memory (the acquired slot) before the copy engine's reads.
__device__ __forceinline__ void fence_global_to_async() { asm volatile("fence.proxy.async.global;\n" ::: "memory"); }

// `bytes` (a multiple of 16) of global memory into shared memory by the copy engine; the bytes
// complete the transaction count of `bar` (the caller arrives on it with the count first).
__device__ __forceinline__ void bulk_copy_to_shared(unsigned dst, const void* src, unsigned bytes, unsigned bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n"
               ::"r"(dst), "l"(__cvta_generic_to_global(src)), "r"(bytes), "r"(bar) : "memory");
}

)";
}

std::string streamkFlagRaiser() {
  return R"(    if (threadIdx.x == 32) {
      // This block's flag, raised by a thread with nothing else to do (the producer warpgroup's
      // second warp), so that the consumers go on from their start partial to their next
      // segment at once instead of waiting for 128 KiB of stores to reach L2 (3.8 us a block on
      // the H200, bmm 16 x 2048^3): every consumer thread has issued its stores and arrived on
      // partial_bar (release, CTA scope); this thread waits for them (acquire), fences at GPU
      // scope and raises the flag (release): the stores are visible before the flag.
      StreamKWalk mine = streamk_walk(tiles, k_tiles);
      int tile, t0, t1;
      while (streamk_next(mine, k_tiles, tile, t0, t1)) {
        if (t0 == 0) continue;
        mbarrier_wait(partial_bar, 0);  // a block has at most one start partial
        __threadfence();
        streamk_flag_store(streamk_flags + blockIdx.x, 1);
        break;
      }
    }
)";
}

std::string streamkFixup() {
  return R"(    if (t0 > 0) {
      // A start partial: the block before stores this tile. Hand it these sums through this
      // block's slot (coalesced: consecutive consumer threads, consecutive float4 groups), then the flag.
      float4* slot = streamk_partials[blockIdx.x] + (threadIdx.x - PRODUCER_THREADS);
#pragma unroll
      for (int q = 0; q < STREAMK_SLOT_GROUPS / CONSUMER_THREADS; ++q) {
        const int s = q / (BLOCK_N / 8), i = q % (BLOCK_N / 8) * 4;  // compile-time: the loop is unrolled
        __stcg(slot + q * CONSUMER_THREADS, make_float4(acc[s][i], acc[s][i + 1], acc[s][i + 2], acc[s][i + 3]));
      }
      mbarrier_arrive(partial_bar);  // release: the producer warpgroup's thread 32 raises the flag (streamk_flag_raiser)
      continue;
    }
    if (t1 < k_tiles) {
      // An end partial, the block's last segment: the block after has the rest of the tile's
      // k-tiles (its start partial, the first thing it does after its data-parallel tiles).
      if (threadIdx.x == PRODUCER_THREADS) {
        streamk_flag_wait(streamk_flags + blockIdx.x + 1);
        __threadfence();
        fence_global_to_async();  // the slot, written by the other block's threads, read by the copy engine
      }
      consumers_sync();  // the flag was seen, and both warpgroups' wgmmas are done with the ring
      // The slot into the ring by the copy engine, STREAMK_CHUNK_GROUPS float4 rows at a time
      // (all of it at once when the ring holds it), added from shared memory.
      const float4* part = reinterpret_cast<const float4*>(smem + (ring - smem_address(smem))) + (threadIdx.x - PRODUCER_THREADS);
#pragma unroll
      for (int chunk = 0; chunk < STREAMK_CHUNKS; ++chunk) {
        const int first = chunk * STREAMK_CHUNK_GROUPS;
        const int rows = min(STREAMK_CHUNK_GROUPS, STREAMK_SLOT_GROUPS / CONSUMER_THREADS - first);
        if (chunk > 0) consumers_sync();  // every thread has added the chunk before: the ring is free
        if (threadIdx.x == PRODUCER_THREADS) {
          mbarrier_arrive_expect_tx(fixup_bar, rows * CONSUMER_THREADS * 16);
          bulk_copy_to_shared(ring, streamk_partials[blockIdx.x + 1] + first * CONSUMER_THREADS, rows * CONSUMER_THREADS * 16,
                              fixup_bar);
        }
        mbarrier_wait(fixup_bar, chunk & 1);  // one end partial a launch: the barrier's phases count the chunks
#pragma unroll
        for (int r = 0; r < rows; ++r) {
          const float4 v = part[r * CONSUMER_THREADS];
          const int s = (first + r) / (BLOCK_N / 8), i = (first + r) % (BLOCK_N / 8) * 4;
          acc[s][i] += v.x;
          acc[s][i + 1] += v.y;
          acc[s][i + 2] += v.z;
          acc[s][i + 3] += v.w;
        }
      }
      // Lowered for the next launch of the module (the copy has read the slot: this thread waited
      // for its last bytes; nothing writes the slot again in this launch).
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
