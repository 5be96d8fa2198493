// SPDX-License-Identifier: GPL-3.0-or-later
// Transpose y[N,M] = x[M,N]. Genes: how a tile is staged (straight from global
// with strided writes, or through shared memory: plain, padded against bank
// conflicts, or XOR-swizzled) and the vector width of the global accesses.
// Added later (fallbacks: today's kernels): cache hints on the staged tile's
// global loads and stores (access_hints.h), and the order in which blocks
// take tiles (row-major, or diagonal: block (bx, by) takes tile
// ((bx + by) % gridDim.x, by), so the blocks in flight together write rows of
// y spread over more DRAM channels instead of one band of them; or
// column-major: consecutive blocks take consecutive tiles down a column of x,
// so together they write whole rows of y, and it is the reads that stride.
// torch.compile's transpose is level with the column-major kernels: on the H200
// the same three kernels ran 129.3-129.6 us column-major against 131.8-132.6
// row-major, torch.compile 129.1: tests/bench/results/2026-12-03-h200-whole-program.md).
#include "backends/proposers/template/access_hints.h"
#include "backends/proposers/template/constraints.h"
#include "backends/proposers/template/spaces.h"

namespace crucible::templates {
namespace {

class TransposeSpace final : public DesignSpace {
public:
  std::string kind() const override { return "transpose"; }

  std::vector<GeneDef> genes(const KernelProblem& p) const override {
    const bool narrow = p.input("x").dtype != DType::F32;
    return {
        {"staging", {"direct", "smem_plain", "smem_padded", "smem_swizzled"}},
        {"vector", narrow ? std::vector<std::string>{"1", "2", "4", "8"} : std::vector<std::string>{"1", "2", "4"}},
        {"hint", accessHintValues(), "default"},
        {"order", {"row_major", "diagonal", "column_major"}, "row_major"},
    };
  }

  std::vector<TunableParameter> parameters(const std::string&, const GeneMap&) const override {
    return {{"TILE", {16, 32, 64}}, {"ROWS_PER_THREAD", {1, 2, 4, 8}}};
  }

  std::vector<std::string> violations(const Genome& g, const KernelProblem& p) const override {
    Violations v;
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
    // grid.y walks the tile rows, or the tile columns in column-major order.
    const bool columnMajor = geneOr(g.genes, "order", "row_major") == "column_major";
    v.atMost(ceilDiv(columnMajor ? cols : rows, tile), "grid.y", kMaxGridY, "the grid.y limit");
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
    return {{"memory", staging == "direct" ? "global" : "smem"},
            {"bank_conflicts", staging == "smem_padded" ? "padding" : staging == "smem_swizzled" ? "swizzle" : "none"},
            {"vector", g.gene("vector")}};
  }

  EmittedKernel emit(const Genome& g, const KernelProblem& p) const override { return emitTranspose(g, p); }

  // Tiles staged through padded shared memory so both the reads of x and the
  // writes of y are coalesced: 32 x 32 tiles with 16-byte accesses both ways
  // (conflict-free with the +1 padding: a warp covers 4 tile rows of 8 packs),
  // the classic 32 x 8 threads with 4-byte accesses, and the XOR swizzle
  // (conflict-free too, no padding) with 16-byte accesses and 128 threads;
  // and the best measured on the H200 (results/2026-12-03-h200-whole-program.md):
  // 64 x 64 swizzled tiles of 128 threads taken down the columns, level with
  // torch.compile where the row-major TILE-64 kernels the evolution found were 2% behind.
  std::vector<Genome> startingPoints(const KernelProblem& p) const override {
    const bool f32 = p.input("x").dtype == DType::F32;
    const std::string vec16 = f32 ? "4" : "8";
    const std::string& f = p.family;
    return {
        Genome{f, {{"staging", "smem_padded"}, {"vector", vec16}}, {{"TILE", 32}, {"ROWS_PER_THREAD", 4}}},
        Genome{f, {{"staging", "smem_padded"}, {"vector", "1"}}, {{"TILE", 32}, {"ROWS_PER_THREAD", 4}}},
        Genome{f, {{"staging", "smem_swizzled"}, {"vector", vec16}}, {{"TILE", 32}, {"ROWS_PER_THREAD", 2}}},
        Genome{f,
               {{"staging", "smem_swizzled"}, {"vector", vec16}, {"order", "column_major"}},
               {{"TILE", 64}, {"ROWS_PER_THREAD", f32 ? 8 : 4}}},
    };
  }
};

}  // namespace

const DesignSpace& transposeSpace() {
  static const TransposeSpace space;
  return space;
}

}  // namespace crucible::templates
