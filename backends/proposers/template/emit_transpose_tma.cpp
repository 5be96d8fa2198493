// SPDX-License-Identifier: GPL-3.0-or-later
// Emits the transpose with staging=tma (sm_90 and later: bulk tensor copies and mbarrier
// transaction counts): the copy engine (TMA, cp.async.bulk.tensor) loads the tiles of x into
// shared memory and stores the transposed tiles to y; the threads only transpose in shared
// memory. Two tensor maps (LaunchRule::tensorMaps): x's box TILE rows x BOX_COLS columns, y's
// box TILE rows x BOX_COLS columns, both 128-byte swizzled (BOX_COLS = 128 bytes of elements:
// 32 fp32, 64 bf16/f16). A TILE x TILE tile is TILE / BOX_COLS boxes of x side by side, and as
// many boxes of y.
//
// Grid: persistent, min(tiles, BLOCKS_PER_SM x sm_count) blocks; block b walks x's tiles
// b, b + gridDim.x, ... in row-major order. Thread 0 starts STAGES tiles loading into a ring of
// STAGES stages (one "full" mbarrier each, completed by the copy's bytes after thread 0's
// expect_tx arrival), then per tile k of the block:
//   every thread waits for full[k % STAGES] (parity (k / STAGES) & 1), transposes the stage into
//   staging buffer k % 2 of y, fences its writes to the async proxy; thread 0 waits until the
//   store issued from the other buffer (tile k - 1) has read it; __syncthreads; thread 0 issues
//   the bulk tensor stores of buffer k % 2 (one bulk group per box) and refills the stage with
//   tile k + STAGES. One barrier per tile: it orders both the stage's reads before its refill
//   and the staged writes before their store; the wait for tile k - 1's store sits before it,
//   so tile k + 1's writes to that buffer (after it) find it read. A stage's phases cannot run
//   two ahead of the waiters: it is refilled only after every thread has passed its wait.
// Edges: loads past x's edges arrive as zeros (and count their full box bytes), stores past
// y's edges are clipped: any M, N whose rows are whole 16-byte strides (a tensor map rule).
//
// The shared-memory transpose. A 128-byte-swizzled box row of 128 bytes is 8 chunks of 16
// bytes; chunk j of box row r sits at chunk slot j ^ (r % 8) (the ring is 1024-aligned, so the
// box's row index mod 8 is the address's). The tile is BOXES x BOXES squares of BOX_COLS x
// BOX_COLS elements; a square is 8 x 8 sub-blocks of PACK x PACK elements (PACK = 16 bytes of
// elements: 4 fp32, 8 bf16), sub-block (q, j) = x's rows PACK q + i (i < PACK), chunk j of those
// rows = y's rows PACK j + k (k < PACK), chunk q of those rows. A thread loads the PACK rows of
// its sub-block (16-byte loads), transposes them in registers (fp32: moves; 2-byte: byte
// permutes of pairs of rows) and stores the PACK rows of y's sub-block (16-byte stores).
//
// Bank analysis. 16-byte accesses are served 8 lanes at a time (a quarter warp: 8 x 16 bytes =
// all 32 banks once): conflict-free when the 8 lanes hit 8 different chunk slots. Item n of a
// tile (n = thread + i x THREADS, THREADS a multiple of 8) is sub-block q = n % 8, j = q ^ g with
// g = n % 64 / 8: the 8 lanes of a quarter warp share g and have q = 0..7, and so j = 0..7.
//   loads, row step i:  slot = j ^ (r % 8), r % 8 = (PACK q + i) % 8
//     fp32 (PACK 4):   4 (q & 1) + i  ->  slot = q ^ 4 (q & 1) ^ g ^ i: bit 2 flipped by bit 0,
//                                         a bijection of q: 8 different slots.
//     2-byte (PACK 8): i              ->  slot = q ^ g ^ i: 8 different slots.
//   stores, row step k: slot = q ^ (c % 8), c % 8 = (PACK j + k) % 8
//     fp32:   4 (j & 1) + k, j & 1 = (q ^ g) & 1  ->  slot = q ^ 4 ((q ^ g) & 1) ^ k: a bijection of q.
//     2-byte: k                                   ->  slot = q ^ k.
// Both q and j must vary over the 8 lanes: with one j for all of them (j = g) the fp32 loads
// hit 2 slots (4-way conflicts) and the 2-byte ones 1 (8-way); with one q the stores would.
// Padding is no option: the copy engine writes and reads the boxes dense. (Checked by brute
// force over every quarter warp of the three tile shapes: no conflicts.)
#include <string>
#include "backends/proposers/template/constraints.h"
#include "backends/proposers/template/gemm_wgmma.h"
#include "backends/proposers/template/kernel_source.h"
#include "backends/proposers/template/spaces.h"
#include "core/task/expression.h"
#include "core/task/kernel_abi.h"

namespace crucible::templates {
namespace {

constexpr std::int64_t kSwizzleRowBytes = 128;    // a box row: the 128-byte swizzle span
constexpr std::int64_t kSwizzleAlignment = 1024;  // the 128-byte swizzle repeats every 8 rows
constexpr std::int64_t kChunkBytes = 16;          // the threads' shared-memory accesses
constexpr std::int64_t kOutBuffers = 2;           // staged tiles of y: one filling, one being stored
constexpr std::int64_t kMbarrierBytes = 8;

std::int64_t tileBytes(const Genome& g, const KernelProblem& p) {
  return g.param("TILE") * g.param("TILE") * static_cast<std::int64_t>(sizeOf(p.input("x").dtype));
}

// fp32: y's row k of a sub-block is word k of x's 4 rows. 2-byte: word i of y's row k holds
// column k of x's rows 2i (low half) and 2i + 1 (high half); word k / 2 of a row of x holds its
// columns k & ~1 (low) and k | 1 (high), so selector 0x5410 takes both low halves, 0x7632 both high.
std::string registerTranspose(DType d) {
  if (sizeOf(d) == 4)
    return R"(#pragma unroll
  for (int k = 0; k < PACK; ++k)
#pragma unroll
    for (int i = 0; i < 4; ++i) w[k][i] = a[i][k];
)";
  return R"(#pragma unroll
  for (int k = 0; k < PACK; ++k)
#pragma unroll
    for (int i = 0; i < 4; ++i)  // word i of y's row k: x's rows 2i and 2i + 1 at column k
      w[k][i] = __byte_perm(a[2 * i][k / 2], a[2 * i + 1][k / 2], (k & 1) ? 0x7632 : 0x5410);
)";
}

}  // namespace

std::int64_t transposeTmaSmemBytes(const Genome& g, const KernelProblem& p) {
  return kSwizzleAlignment + (g.param("STAGES") + kOutBuffers) * tileBytes(g, p) + g.param("STAGES") * kMbarrierBytes;
}

EmittedKernel emitTransposeTma(const Genome& g, const KernelProblem& p) {
  const ProblemTensor& x = p.input("x");
  const std::int64_t elem = static_cast<std::int64_t>(sizeOf(x.dtype));
  const std::int64_t tile = g.param("TILE"), stages = g.param("STAGES");
  const std::int64_t blocksPerSm = g.param("BLOCKS_PER_SM"), threads = g.param("THREADS");
  const std::int64_t boxCols = kSwizzleRowBytes / elem;

  const std::string summary =
      "transpose, tiles moved by the copy engine (TMA bulk tensor loads and stores, 128-byte swizzled boxes), " +
      std::to_string(stages) + " tiles of x in flight per block, a persistent grid of " + std::to_string(blocksPerSm) +
      " block(s) per SM, the threads only transposing in shared memory (16-byte chunks, conflict-free)";
  std::string src = headerComment(g, p, summary);
  src += includes(p) + "\n";
  src += "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900\n"
         "#error \"staging=tma needs sm_90 or later: bulk tensor copies and mbarrier transaction counts\"\n"
         "#endif\n\n";
  src += constant("TILE", tile, "rows and columns of x per tile");
  src += constant("STAGES", stages, "tiles of x loading or loaded ahead of the transpose, per block");
  src += constant("BLOCKS_PER_SM", blocksPerSm, "resident blocks per SM: the persistent grid's size per SM");
  src += constant("THREADS", threads);
  src += constant("OUT_BUFFERS", kOutBuffers, "staged tiles of y: one filling while the copy engine stores the other");
  src += constant("PACK", kChunkBytes / elem, "elements per 16-byte chunk: sub-blocks are PACK x PACK");
  src += R"(constexpr int BOX_COLS = 8 * PACK;                       // a box row: 128 bytes, the swizzle span
constexpr int BOXES = TILE / BOX_COLS;                    // boxes per tile, of x and of y
constexpr int BOX_BYTES = TILE * 128;                     // TILE rows of 128 bytes
constexpr int TILE_BYTES = BOXES * BOX_BYTES;
constexpr int ITEMS = TILE / PACK * (TILE / PACK);        // sub-blocks per tile
constexpr int ITEMS_PER_THREAD = ITEMS / THREADS;
constexpr int CONSUMER_THREADS = THREADS;                 // (the shared helpers' consumers_sync: unused)
static_assert(TILE % BOX_COLS == 0 && ITEMS % THREADS == 0 && THREADS % 8 == 0,
              "whole boxes per tile, whole sub-blocks per thread, whole quarter warps per item group");
static_assert(BOX_BYTES % 1024 == 0, "every box starts on a swizzle period");

)";
  src += tensorMapTypeDeclaration() + "  // the driver's tensor map, passed by value\n\n";
  src += "__device__ __forceinline__ unsigned smem_address(const void* p) {\n"
         "  return static_cast<unsigned>(__cvta_generic_to_shared(p));\n}\n\n";
  src += mbarrierInitArriveHelpers() + tmaCopyHelpers() + mbarrierWaitHelpers() + tmaStoreHelpers();
  src += R"(// Tile `tile` of the walk (row-major over x's tiles): its first row and column of x.
__device__ __forceinline__ void tile_origin(int tile, int tiles_c, int& row, int& col) {
  row = tile / tiles_c * TILE;
  col = tile % tiles_c * TILE;
}

// Tile `tile` of x -> the stage at `stage`, its bytes counted down on `bar` (zeros past x's edges).
__device__ __forceinline__ void load_tile(const CUtensorMap& map, unsigned stage, unsigned bar, int tile, int tiles_c) {
  int row, col;
  tile_origin(tile, tiles_c, row, col);
  mbarrier_arrive_expect_tx(bar, TILE_BYTES);
#pragma unroll
  for (int b = 0; b < BOXES; ++b) tma_load_2d(stage + b * BOX_BYTES, map, col + b * BOX_COLS, row, bar);
}

// The staged transpose of tile `tile` -> y. Box b: y's rows col.. (x's columns), y's columns
// row + b * BOX_COLS.. (x's rows). Clipped at y's edges.
__device__ __forceinline__ void store_tile(const CUtensorMap& map, unsigned staged, int tile, int tiles_c) {
  int row, col;
  tile_origin(tile, tiles_c, row, col);
#pragma unroll
  for (int b = 0; b < BOXES; ++b) tma_store_2d(map, staged + b * BOX_BYTES, row + b * BOX_COLS, col);
}

)";
  src += render(R"(// Sub-block `item` of the tile in the stage `in` -> its transpose in the staging buffer `out`.
// Square (row_box, col_box) of BOX_COLS x BOX_COLS elements: x's rows row_box * BOX_COLS.. in x's
// box col_box, y's rows col_box * BOX_COLS.. in y's box row_box. In the square, sub-block (q, j):
// x's rows PACK q + i, chunk j = y's rows PACK j + k, chunk q. Chunk j of a box row r sits at slot
// j ^ (r % 8) (the 128-byte swizzle). j = q ^ (item % 64 / 8): the 8 lanes of a quarter warp
// hit 8 different slots both when loading and when storing (the analysis: emit_transpose_tma.cpp).
__device__ __forceinline__ void transpose_item(const unsigned char* in, unsigned char* out, int item) {
  const int square = item / 64, q = item % 8, j = q ^ (item % 64 / 8);
  const int row_box = square / BOXES, col_box = square % BOXES;
  const unsigned char* const src = in + col_box * BOX_BYTES;
  unsigned char* const dst = out + row_box * BOX_BYTES;
  unsigned a[PACK][4];  // x's rows of the sub-block, 4 words each
#pragma unroll
  for (int i = 0; i < PACK; ++i) {
    const int r = row_box * BOX_COLS + q * PACK + i;
    const uint4 v = *reinterpret_cast<const uint4*>(src + r * 128 + ((j ^ (r & 7)) << 4));
    a[i][0] = v.x;
    a[i][1] = v.y;
    a[i][2] = v.z;
    a[i][3] = v.w;
  }
  unsigned w[PACK][4];  // y's rows of the sub-block
{{TRANSPOSE}}#pragma unroll
  for (int k = 0; k < PACK; ++k) {
    const int c = col_box * BOX_COLS + j * PACK + k;
    *reinterpret_cast<uint4*>(dst + c * 128 + ((q ^ (c & 7)) << 4)) = make_uint4(w[k][0], w[k][1], w[k][2], w[k][3]);
  }
}

)",
                {{"TRANSPOSE", registerTranspose(x.dtype)}});
  src += p.signature("THREADS, BLOCKS_PER_SM", {"x", "y"}) + " {\n";
  src += render(R"(  extern __shared__ __align__(1024) unsigned char smem[];
  // The swizzle is a function of the absolute shared address (it repeats every 1024 bytes): the
  // ring starts on a 1024-byte boundary (the launch reserves 1 KiB for this). Then the
  // OUT_BUFFERS staged tiles of y, then full[STAGES].
  const unsigned base = smem_address(smem);
  const unsigned ring = (base + 1023u) & ~1023u;
  const unsigned staging = ring + STAGES * TILE_BYTES;
  const unsigned full_bars = staging + OUT_BUFFERS * TILE_BYTES;
  const unsigned char* const ring_bytes = smem + (ring - base);
  unsigned char* const staging_bytes = smem + (staging - base);
  const int tiles_c = static_cast<int>(({{N}} + TILE - 1) / TILE);
  const int tiles = static_cast<int>(({{M}} + TILE - 1) / TILE) * tiles_c;
  // This block's tiles: first + k * step for k < count.
  const int first = static_cast<int>(blockIdx.x), step = static_cast<int>(gridDim.x);
  const int count = first < tiles ? (tiles - 1 - first) / step + 1 : 0;
  if (threadIdx.x == 0) {
#pragma unroll
    for (int s = 0; s < STAGES; ++s) mbarrier_init(full_bars + s * 8, 1);  // the expect_tx arrival; the bytes do the rest
    // Makes the initialisation visible to the other threads and the asynchronous arrivals.
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    for (int k = 0; k < STAGES && k < count; ++k)
      load_tile(tmap_x, ring + k * TILE_BYTES, full_bars + k * 8, first + k * step, tiles_c);
  }
  __syncthreads();
  for (int k = 0; k < count; ++k) {
    const int stage = k % STAGES, buffer = k % OUT_BUFFERS;
    mbarrier_wait(full_bars + stage * 8, static_cast<unsigned>(k / STAGES) & 1u);  // tile k has landed
    const unsigned char* const in = ring_bytes + stage * TILE_BYTES;
    unsigned char* const out = staging_bytes + buffer * TILE_BYTES;
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) transpose_item(in, out, static_cast<int>(threadIdx.x) + i * THREADS);
    fence_shared_to_async();  // this thread's staged writes, visible to the copy engine
    // The stores of the tiles before have read their buffers (OUT_BUFFERS - 2 may still be reading):
    // after the barrier tile k + 1 is written into the buffer of tile k + 1 - OUT_BUFFERS.
    if (threadIdx.x == 0) tma_store_wait_read<OUT_BUFFERS - 2>();
    __syncthreads();  // every thread's staged writes fenced, every read of the stage done
    if (threadIdx.x == 0) {
      store_tile(tmap_y, staging + buffer * TILE_BYTES, first + k * step, tiles_c);
      if (k + STAGES < count)
        load_tile(tmap_x, ring + stage * TILE_BYTES, full_bars + stage * 8, first + (k + STAGES) * step, tiles_c);
    }
  }
  // The block's shared memory outlives the stores reading it.
  if (threadIdx.x == 0) tma_store_wait_all();
}
)",
                {{"M", p.extentCode(x, 0)}, {"N", p.extentCode(x, 1)}});

  EmittedKernel k;
  k.source = std::move(src);
  k.launch.entry = p.entry;
  // At most BLOCKS_PER_SM blocks per SM of the GPU it launches on, and no more blocks than
  // tiles. Any grid is correct: the blocks stride over the tiles by gridDim.x.
  const std::string t = std::to_string(tile);
  k.launch.grid[0] = "min(ceil_div(" + p.extentExpr(x, 0) + ", " + t + ") * ceil_div(" + p.extentExpr(x, 1) + ", " + t +
                     "), " + std::to_string(blocksPerSm) + " * " + kSmCountName + ")";
  k.launch.block[0] = std::to_string(threads);
  k.launch.dynamicSmemBytes = std::to_string(transposeTmaSmemBytes(g, p));
  // x [M, N]: TILE rows x BOX_COLS columns per box; y [N, M]: TILE rows (x's columns) x BOX_COLS
  // columns (x's rows). Both in 128-byte swizzled rows, as transpose_item reads and writes them.
  k.launch.tensorMaps = {{"x", static_cast<int>(tile), static_cast<int>(boxCols), "128B"},
                         {"y", static_cast<int>(tile), static_cast<int>(boxCols), "128B"}};
  return k;
}

}  // namespace crucible::templates
