// SPDX-License-Identifier: GPL-3.0-or-later
// Transpose y[N,M] = x[M,N]. Genes: how a tile is staged (straight from global
// with strided writes, or through shared memory: plain, padded against bank
// conflicts, or XOR-swizzled) and the vector width of the global accesses.
// Added later (fallbacks: today's kernels): cache hints on the staged tile's
// global loads and stores (access_hints.h), and the order in which blocks
// take tiles (row-major, or diagonal: block (bx, by) takes tile
// ((bx + by) % gridDim.x, by), so the blocks in flight together write rows of
// y spread over more DRAM channels instead of one band of them).
// Added later: staging=tma (emit_transpose_tma.cpp), the copy engine moving the tiles
// (bulk tensor loads and stores, 128-byte swizzled boxes) in a persistent grid, the
// threads only transposing in shared memory. sm_90 and later, like the GEMM's TMA
// designs: the proposer has no arch to judge by (KernelProblem), the source refuses
// to compile for older ones (#error). Its own parameters:
//   TILE          {32, 64}        rows and columns of x per tile (2-byte elements: 64, a
//                                 128-byte swizzle row of them)
//   STAGES        {2, 3, 4}       tiles of x loading or loaded ahead of the transpose
//   BLOCKS_PER_SM {1, 2, 3, 4}    the persistent grid's blocks per SM (all resident)
//   THREADS       {64, 128, 256}  each transposes ITEMS / THREADS 16-byte sub-blocks
#include <algorithm>
#include <limits>
#include "backends/proposers/template/access_hints.h"
#include "backends/proposers/template/constraints.h"
#include "backends/proposers/template/spaces.h"

namespace crucible::templates {
namespace {

constexpr const char* kTmaStaging = "tma";
constexpr std::int64_t kChunkBytes = 16;             // the shared-memory transpose's accesses, and TMA's stride unit
constexpr std::int64_t kSwizzleRowBytes = 128;       // a box row of the 128-byte swizzle
constexpr std::int64_t kSmemPerSm = 228 * 1024;      // an SM's shared memory, 1 KiB of it reserved per block
constexpr std::int64_t kReservedSmemPerBlock = 1024;
constexpr std::int64_t kMaxTmaCoordinate = std::numeric_limits<std::int32_t>::max();

// Why a staging=tma genome cannot be emitted for the problem.
void addTmaViolations(const Genome& g, const KernelProblem& p, Violations& v) {
  const ProblemTensor& x = p.input("x");
  const auto elem = static_cast<std::int64_t>(sizeOf(x.dtype));
  if (elem != 4 && elem != 2) {
    v.add(std::string("staging=tma transposes 16-byte chunks of 4-byte (4 x 4) or 2-byte (8 x 8) elements, not ") +
          toString(x.dtype));
    return;
  }
  const std::int64_t rows = p.extent(x, 0), cols = p.extent(x, 1);
  const std::int64_t tile = g.param("TILE"), threads = g.param("THREADS");
  const std::string wide = std::to_string(kChunkBytes / elem);
  if (g.gene("vector") != wide)
    v.add("staging=tma has no thread global accesses; its shared-memory transpose moves 16-byte chunks: vector=" + wide);
  const std::string& hint = g.gene("hint");
  if (hint != "default") v.add("hint=" + hint + " applies to the threads' global accesses: staging=tma has none");
  if (g.gene("order") != "row_major") v.add("staging=tma's persistent blocks walk the tiles in row-major order (order=row_major)");
  // A tile is whole boxes of one 128-byte swizzle row each: 32 fp32 or 64 2-byte elements wide.
  v.divisible(tile, "TILE", kSwizzleRowBytes / elem, "a 128-byte swizzle row of elements");
  const std::int64_t items = (tile * elem / kChunkBytes) * (tile * elem / kChunkBytes);
  v.divisible(items, "16-byte sub-blocks per tile", threads, "THREADS (every thread transposes as many)");
  // The tensor maps' rows are whole 16-byte strides: x's of N elements, y's of M.
  if (cols * elem % kChunkBytes != 0)
    v.add("x's rows (N = " + std::to_string(cols) + " elements) must be a multiple of 16 bytes: TMA's stride rule");
  if (rows * elem % kChunkBytes != 0)
    v.add("y's rows (M = " + std::to_string(rows) + " elements) must be a multiple of 16 bytes: TMA's stride rule");
  v.atMost(std::max(rows, cols), "the larger of M and N", kMaxTmaCoordinate, "TMA's 32-bit coordinates");
  v.atMost(ceilDiv(rows, tile) * ceilDiv(cols, tile), "tiles", kMaxTmaCoordinate, "the 32-bit tile index");
  const std::int64_t smem = transposeTmaSmemBytes(g, p);
  v.atMost(smem, "shared memory per block (staging=tma)", kMaxSmemPerBlock, "the sm_90 limit");
  v.atMost(g.param("BLOCKS_PER_SM") * (smem + kReservedSmemPerBlock), "shared memory of BLOCKS_PER_SM blocks",
           kSmemPerSm, "an SM's shared memory (the persistent grid's blocks must all be resident)");
}

class TransposeSpace final : public DesignSpace {
public:
  std::string kind() const override { return "transpose"; }

  std::vector<GeneDef> genes(const KernelProblem& p) const override {
    const bool narrow = p.input("x").dtype != DType::F32;
    return {
        {"staging", {"direct", "smem_plain", "smem_padded", "smem_swizzled", kTmaStaging}},
        {"vector", narrow ? std::vector<std::string>{"1", "2", "4", "8"} : std::vector<std::string>{"1", "2", "4"}},
        {"hint", accessHintValues(), "default"},
        {"order", {"row_major", "diagonal"}, "row_major"},
    };
  }

  std::vector<TunableParameter> parameters(const std::string&, const GeneMap& genes) const override {
    if (genes.at("staging") == kTmaStaging)
      return {{"TILE", {32, 64}}, {"STAGES", {2, 3, 4}}, {"BLOCKS_PER_SM", {1, 2, 3, 4}}, {"THREADS", {64, 128, 256}}};
    return {{"TILE", {16, 32, 64}}, {"ROWS_PER_THREAD", {1, 2, 4, 8}}};
  }

  std::vector<std::string> violations(const Genome& g, const KernelProblem& p) const override {
    Violations v;
    if (g.gene("staging") == kTmaStaging) {
      addTmaViolations(g, p, v);
      return v.take();
    }
    const ProblemTensor& x = p.input("x");
    const std::int64_t rows = p.extent(x, 0), cols = p.extent(x, 1);
    const std::int64_t vec = std::stoll(g.gene("vector"));
    const std::int64_t tile = g.param("TILE"), rpt = g.param("ROWS_PER_THREAD");
    const std::string& staging = g.gene("staging");
    // Reads are vectorised along x's rows; through shared memory the writes are too.
    v.divisible(cols, "N", vec, "vector width");
    if (staging != "direct") v.divisible(rows, "M", vec, "vector width");
    v.divisible(tile, "TILE", vec, "vector width");
    v.divisible(tile, "TILE", rpt, "ROWS_PER_THREAD");
    const std::int64_t threads = (tile / vec) * (tile / rpt);
    if (threads < kWarp) v.add("a block of " + std::to_string(threads) + " threads is smaller than a warp");
    v.atMost(threads, "threads per block", kMaxThreadsPerBlock, "the block limit");
    // The swizzle XORs the low five bits of the column: the tile must span whole 32-bank rows.
    if (staging == "smem_swizzled") v.require(tile >= 32, "the XOR swizzle needs TILE >= 32");
    v.atMost(ceilDiv(rows, tile), "grid.y", kMaxGridY, "the grid.y limit");
    const std::string& hint = g.gene("hint");
    if (hint != "default") {
      if (staging == "direct") v.add("hint=" + hint + " applies to the staged tile's packs: not with staging=direct");
      const std::string why = accessHintViolation(hint, vec * static_cast<std::int64_t>(sizeOf(x.dtype)));
      if (!why.empty()) v.add(why);
    }
    return v.take();
  }

  std::map<std::string, std::string> descriptor(const Genome& g) const override {
    const std::string& staging = g.gene("staging");
    if (staging == kTmaStaging) return {{"memory", "tma"}, {"bank_conflicts", "swizzle"}, {"vector", g.gene("vector")}};
    return {{"memory", staging == "direct" ? "global" : "smem"},
            {"bank_conflicts", staging == "smem_padded" ? "padding" : staging == "smem_swizzled" ? "swizzle" : "none"},
            {"vector", g.gene("vector")}};
  }

  EmittedKernel emit(const Genome& g, const KernelProblem& p) const override {
    return g.gene("staging") == kTmaStaging ? emitTransposeTma(g, p) : emitTranspose(g, p);
  }

  // Tiles staged through padded shared memory so both the reads of x and the
  // writes of y are coalesced: 32 x 32 tiles with 16-byte accesses both ways
  // (conflict-free with the +1 padding: a warp covers 4 tile rows of 8 packs),
  // the classic 32 x 8 threads with 4-byte accesses, and the XOR swizzle
  // (conflict-free too, no padding) with 16-byte accesses and 128 threads. Then
  // the copy engine's design: 64 x 64 tiles, 3 in flight per block, 2 blocks per SM
  // (fp32: 83 KB of shared memory each; 2-byte tiles are half the size, 64 threads
  // have one sub-block each).
  std::vector<Genome> startingPoints(const KernelProblem& p) const override {
    const bool f32 = p.input("x").dtype == DType::F32;
    const std::string vec16 = f32 ? "4" : "8";
    const std::string& f = p.family;
    return {
        Genome{f, {{"staging", "smem_padded"}, {"vector", vec16}}, {{"TILE", 32}, {"ROWS_PER_THREAD", 4}}},
        Genome{f, {{"staging", "smem_padded"}, {"vector", "1"}}, {{"TILE", 32}, {"ROWS_PER_THREAD", 4}}},
        Genome{f, {{"staging", "smem_swizzled"}, {"vector", vec16}}, {{"TILE", 32}, {"ROWS_PER_THREAD", 2}}},
        Genome{f,
               {{"staging", kTmaStaging}, {"vector", vec16}},
               {{"TILE", 64}, {"STAGES", 3}, {"BLOCKS_PER_SM", 2}, {"THREADS", f32 ? 128 : 64}}},
    };
  }
};

}  // namespace

const DesignSpace& transposeSpace() {
  static const TransposeSpace space;
  return space;
}

}  // namespace crucible::templates
