// SPDX-License-Identifier: GPL-3.0-or-later
// Rowwise operators stated as expressions (TaskSpec::operation, kind
// "rowwise"): reductions over the last axis of inputs[0] (sum, mean, max, min,
// logsumexp), then an epilogue per element or per row. The row families' genes
// (rowreduce_space.cpp): how many threads share a row (a warp, several warps
// with several rows per block, a block), where the row lives between sweeps
// (registers, or re-read from global memory, where L2 usually holds it),
// warp shuffles against a shared-memory tree, and the vector width, at any
// row length: a row that is not whole packs moves a partial head and tail
// pack element by element and its middle in aligned packs (row_packs.h,
// emit_expr_rowwise.cpp). Then the genes both row families share
// (row_designs.h: sub-warp rows, UNROLL, a persistent grid, cache hints), and,
// for a log-sum-exp, how its running (max, sum) takes new values: one element
// at a time (two exponentials each, the fallback), or a pack or a thread's
// whole share at a time (one exponential per element and one rescale). Where
// the operator computes exponentials or logarithms, whether they are the
// precise or the fast ones (the math gene, expr_cuda.h).
#include <algorithm>
#include "backends/proposers/template/constraints.h"
#include "backends/proposers/template/expr_cuda.h"
#include "backends/proposers/template/row_designs.h"
#include "backends/proposers/template/spaces.h"

namespace crucible::templates {
namespace {

constexpr std::int64_t kMaxCacheRegistersPerThread = 64;
constexpr std::int64_t kRegisterOverhead = 72;
constexpr std::int64_t kMaxRowLength = std::int64_t{1} << 30;

const ProblemTensor& rowTensor(const KernelProblem& p) { return p.inputs.at(0); }
std::int64_t rowLength(const KernelProblem& p) {
  const ProblemTensor& x = rowTensor(p);
  return p.extent(x, static_cast<int>(x.shape.size()) - 1);
}
std::int64_t rowCount(const KernelProblem& p) {
  const ProblemTensor& x = rowTensor(p);
  std::int64_t rows = 1;
  for (int d = 0; d + 1 < static_cast<int>(x.shape.size()); ++d) rows *= p.extent(x, d);
  return rows;
}

// Tensors read or written along the row: they set the vector width's bytes.
std::size_t widestAlongRow(const KernelProblem& p) {
  std::size_t widest = sizeOf(rowTensor(p).dtype);
  for (const auto& t : p.inputs)
    if (t.read && t.rowRole && *t.rowRole != RowRole::PerRow) widest = std::max(widest, sizeOf(t.dtype));
  const ProblemTensor& y = p.outputs.at(0);
  if (y.rowRole == RowRole::Full) widest = std::max(widest, sizeOf(y.dtype));
  return widest;
}

std::int64_t fullInputs(const KernelProblem& p) {
  std::int64_t n = 0;
  for (const auto& t : p.inputs)
    if (t.read && t.rowRole == RowRole::Full) ++n;
  return n;
}

class ExprRowwiseSpace final : public DesignSpace {
public:
  std::string kind() const override { return "rowwise"; }

  std::vector<GeneDef> genes(const KernelProblem& p) const override {
    const bool narrow = widestAlongRow(p) <= 2;
    std::vector<GeneDef> out = {
        {"granularity", {"warp", "multiwarp", "block", "subwarp"}},
        {"memory", {"registers", "global"}},
        {"reduction", {"shuffle", "smem"}},
        {"vector", narrow ? std::vector<std::string>{"1", "2", "4", "8"} : std::vector<std::string>{"1", "2", "4"}}};
    for (auto& def : rowScheduleGenes(/*rereadHint=*/false)) out.push_back(std::move(def));
    if (usesLogSumExp(p)) out.push_back({"lse", {"element", "pack"}, "element"});
    if (computesExpOrLog(p)) out.push_back({"math", {"precise", "fast"}, "precise"});
    return out;
  }

  static bool usesLogSumExp(const KernelProblem& p) {
    if (!p.operation) return false;
    return std::any_of(p.operation->reductions.begin(), p.operation->reductions.end(),
                       [](const RowReduction& r) { return r.op == "logsumexp"; });
  }

  std::vector<TunableParameter> parameters(const std::string&, const GeneMap& genes) const override {
    return rowParameters(genes, geneOr(genes, "memory", "registers") == "global");
  }

  // The streaming sweeps' packs in flight before UNROLL: 64 bytes of fp32 values per row tensor.
  ParamMap parameterFallbacks(const Genome& g, const KernelProblem& p) const override {
    if (g.gene("memory") != "global") return {};
    const std::int64_t valueBytes = std::stoll(g.gene("vector")) * 4 * std::max<std::int64_t>(1, fullInputs(p));
    return {{"UNROLL", unrollFallback(valueBytes)}};
  }

  static std::int64_t rowsPerBlock(const Genome& g) { return rowRowsPerBlock(g); }

  std::vector<std::string> violations(const Genome& g, const KernelProblem& p) const override {
    Violations v;
    const std::int64_t cols = rowLength(p);
    const std::int64_t vec = std::stoll(g.gene("vector"));
    const std::int64_t threadsPerRow = rowThreadsPerRow(g);
    const std::int64_t threads = threadsPerRow * rowsPerBlock(g);
    // No divisibility by the vector: the emitter cuts any row into aligned packs.
    v.atMost(cols, "the row length", kMaxRowLength, "the 32-bit column index range");
    v.atMost(threads, "threads per block", kMaxThreadsPerBlock, "the block limit");
    v.atMost(ceilDiv(rowCount(p), rowsPerBlock(g)), "blocks", 2147483647LL, "the grid limit");
    if (threadsPerRow > kWarp && threadsPerRow > cols / vec)
      v.add("threads per row (" + std::to_string(threadsPerRow) + ") exceed the row's " + std::to_string(cols / vec) +
            " packs");
    // Hints need whole words on every tensor moved along the row; they suit rows read once:
    // cached in registers, or one streaming sweep (one reduction, one value out per row).
    std::int64_t narrowestPack = vec * static_cast<std::int64_t>(widestAlongRow(p));
    for (const auto& t : p.inputs)
      if (t.read && t.rowRole == RowRole::Full)
        narrowestPack = std::min(narrowestPack, vec * static_cast<std::int64_t>(sizeOf(t.dtype)));
    if (p.outputs.at(0).rowRole == RowRole::Full)
      narrowestPack = std::min(narrowestPack, vec * static_cast<std::int64_t>(sizeOf(p.outputs.at(0).dtype)));
    const bool readOnce = g.gene("memory") == "registers" ||
                          (p.operation && p.operation->reductions.size() == 1 && p.outputs.at(0).rowRole != RowRole::Full);
    const std::int64_t valuesPerPack = vec * std::max<std::int64_t>(fullInputs(p), 1);
    const std::int64_t unrollWas = unrollFallback(valuesPerPack * 4);
    rowDesignViolations(v, g, ceilDiv(rowCount(p), rowsPerBlock(g)), narrowestPack, valuesPerPack, unrollWas, readOnce);
    if (g.genes.count("lse") && g.gene("lse") == "pack" && vec == 1 && g.gene("memory") == "global")
      v.add("lse=pack rescales once per pack of a streaming sweep: with 1-element packs it is lse=element");
    // Packs in flight past a thread's share of the row are never loaded, but still take registers
    // (NVRTC sm_90: a persistent add+rmsnorm of 8-element rows at UNROLL 16 spilled 160 bytes).
    if (g.params.count("UNROLL") && g.param("UNROLL") > unrollWas) {
      const std::int64_t share = std::max<std::int64_t>(1, ceilDiv(cols, threadsPerRow * vec));
      if (g.param("UNROLL") > share)
        v.add("UNROLL (" + std::to_string(g.param("UNROLL")) + ", raised past its fallback) exceeds the packs a thread has "
              "in a row (" + std::to_string(share) + ")");
    }
    if (g.gene("memory") == "registers") {
      // A row that is not whole packs spans up to vec - 1 more slots (its head pack starts before it).
      const std::int64_t span = cols % vec == 0 ? cols : cols + vec - 1;
      const std::int64_t cached = ceilDiv(span, threadsPerRow * vec) * vec * std::max<std::int64_t>(fullInputs(p), 1);
      v.atMost(cached, "registers caching the row per thread", kMaxCacheRegistersPerThread, "the register budget");
      // 1-element packs cost a register each for their addresses too (NVRTC sm_90: a 512-thread
      // bf16 layernorm caching 32 values one by one spilled within the plain estimate).
      const std::int64_t cacheCost = vec == 1 ? 2 * cached : cached;
      v.atMost(cacheCost + kRegisterOverhead + persistentOverhead(g), "estimated registers per thread", kRegistersPerSm / threads,
               "the per-thread share of the register file");
    }
    return v.take();
  }

  std::map<std::string, std::string> descriptor(const Genome& g) const override {
    return {{"granularity", g.gene("granularity")},
            {"memory", g.gene("memory")},
            {"reduction", g.gene("reduction")},
            {"vector", g.gene("vector")}};
  }

  EmittedKernel emit(const Genome& g, const KernelProblem& p) const override { return emitExprRowwise(g, p); }

  // The row families' starting points (rowreduce_space.cpp) with 16-byte
  // packs, at any row length: a block or a few warps per row with the row
  // in registers, a warp per row for short rows, and streaming variants for
  // rows too long for registers. Illegal ones are skipped by the caller.
  std::vector<Genome> startingPoints(const KernelProblem& p) const override {
    const std::int64_t vec = static_cast<std::int64_t>(16 / widestAlongRow(p));
    const std::string& f = p.family;
    // A log-sum-exp takes whole packs (one exponential per element instead of two, no branch per
    // element): the same loads, strictly less arithmetic, a sum around a larger shift.
    const bool lse = usesLogSumExp(p);
    auto make = [&](const std::string& granularity, const std::string& memory, ParamMap params) {
      Genome g{f,
               {{"granularity", granularity}, {"memory", memory}, {"reduction", "shuffle"}, {"vector", std::to_string(vec)}},
               params};
      if (lse) g.genes["lse"] = "pack";
      return g;
    };
    return {make("block", "registers", {{"WARPS_PER_ROW", 8}}),
            make("multiwarp", "registers", {{"ROWS_PER_BLOCK", 2}, {"WARPS_PER_ROW", 4}}),
            make("warp", "registers", {{"ROWS_PER_BLOCK", 4}}),
            make("block", "registers", {{"WARPS_PER_ROW", 16}}),
            make("block", "global", {{"WARPS_PER_ROW", 8}}),
            make("warp", "global", {{"ROWS_PER_BLOCK", 8}})};
  }
};

}  // namespace

const DesignSpace& exprRowwiseSpace() {
  static const ExprRowwiseSpace space;
  return space;
}

}  // namespace crucible::templates
