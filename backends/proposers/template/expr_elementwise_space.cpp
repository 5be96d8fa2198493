// SPDX-License-Identifier: GPL-3.0-or-later
// Elementwise operators stated as an expression (TaskSpec::operation, kind
// "elementwise"): output = f(inputs), inputs broadcast to the output's shape.
// The genes of the gelu family (elementwise_space.cpp): the vector width of
// each access, one tile per block or a capped grid-stride grid, and the cache
// policy (default, or evict-first). Inputs of the output's shape and inputs
// repeating along the leading axes (a bias [N] of an [M, N] output) move in
// packs of `vector` elements; inputs broadcast otherwise ([M, 1], [B, 1, N])
// are indexed from their coordinates once per pack (one element for the pack,
// or a pack of their row), so with them the output's rows must be a multiple
// of the vector width. A length that is not a multiple of the vector width
// ends with a scalar tail.
// indexing=rows (added later; fallback flat): a block's tile of packs lies in
// one output row, so the broadcast inputs' offsets are found once per tile
// (one division for the row) instead of once per pack, and an input constant
// along the row ([M, 1]) is one load per tile (emit_expr_elementwise.cpp).
// math (added later; fallback precise), where the expression computes an
// exponential or a logarithm: libdevice's functions or the fast intrinsics
// (expr_cuda.h).
#include <algorithm>
#include "backends/proposers/template/constraints.h"
#include "backends/proposers/template/expr_cuda.h"
#include "backends/proposers/template/spaces.h"

namespace crucible::templates {
namespace {

// Registers a thread spends besides the loaded values (indices, pointers, the
// output pack, the expression's temporaries): calibrated on NVRTC sm_90 spill
// reports (1024-thread blocks of two 16-float inputs spilled at an estimate of 64).
constexpr std::int64_t kRegisterOverhead = 40;

// Tensors moved in packs: the output and the inputs read at the output's
// index (Same) or at that index modulo their size (Trailing).
std::vector<const ProblemTensor*> packedTensors(const KernelProblem& p) {
  std::vector<const ProblemTensor*> out;
  for (const auto& t : p.inputs)
    if (t.read && t.broadcast && *t.broadcast != Broadcast::General) out.push_back(&t);
  out.push_back(&p.outputs.at(0));
  return out;
}

std::int64_t sizeOfTensor(const KernelProblem& p, const ProblemTensor& t) {
  std::int64_t n = 1;
  for (int d = 0; d < static_cast<int>(t.shape.size()); ++d) n *= p.extent(t, d);
  return n;
}

std::size_t widestElement(const KernelProblem& p) {
  std::size_t widest = 1;
  for (const auto* t : packedTensors(p)) widest = std::max(widest, sizeOf(t->dtype));
  return widest;
}

class ExprElementwiseSpace final : public DesignSpace {
public:
  std::string kind() const override { return "elementwise"; }

  // The elementwise family's genes and parameters (elementwise_space.cpp).
  std::vector<GeneDef> genes(const KernelProblem& p) const override {
    auto out = elementwiseGenes(widestElement(p) <= 2);
    if (hasBroadcastInput(p) && p.outputs.at(0).shape.size() >= 2) out.push_back({"indexing", {"flat", "rows"}, "flat"});
    if (computesExpOrLog(p)) out.push_back({"math", {"precise", "fast"}, "precise"});
    return out;
  }

  static bool hasBroadcastInput(const KernelProblem& p) {
    return std::any_of(p.inputs.begin(), p.inputs.end(),
                       [](const ProblemTensor& t) { return t.read && t.broadcast && *t.broadcast != Broadcast::Same; });
  }

  std::vector<TunableParameter> parameters(const std::string&, const GeneMap& genes) const override {
    return elementwiseParameters(genes);
  }

  std::vector<std::string> violations(const Genome& g, const KernelProblem& p) const override {
    Violations v;
    const std::int64_t vec = std::stoll(g.gene("vector"));
    for (const auto& t : p.inputs)
      if (t.read && t.broadcast == Broadcast::Trailing && sizeOfTensor(p, t) % vec != 0)
        v.add("the size of '" + t.role + "' (" + std::to_string(sizeOfTensor(p, t)) +
              ") must be divisible by the vector width (" + std::to_string(vec) + ")");
    // An input broadcast along other axes is indexed once per pack: packs must not cross output rows.
    const ProblemTensor& out = p.outputs.at(0);
    const std::int64_t rowLength = p.extent(out, static_cast<int>(out.shape.size()) - 1);
    for (const auto& t : p.inputs)
      if (t.read && t.broadcast == Broadcast::General && rowLength % vec != 0) {
        v.add("the output's last dimension (" + std::to_string(rowLength) + ") must be divisible by the vector width (" +
              std::to_string(vec) + ") for the broadcast input '" + t.role + "'");
        break;
      }
    if (g.gene("cache") == "streaming")
      for (const auto* t : packedTensors(p))
        if (vec * static_cast<std::int64_t>(sizeOf(t->dtype)) < 4) {
          v.add("streaming accesses move whole 4-, 8- or 16-byte words ('" + t->role + "' packs are " +
                std::to_string(vec * static_cast<std::int64_t>(sizeOf(t->dtype))) + " bytes)");
          break;
        }
    // Every input's packs of the thread are loaded before any is used: they
    // live in registers together, under __launch_bounds__(THREADS)'s cap.
    std::int64_t inputs = 0;
    for (const auto& t : p.inputs) inputs += t.read ? 1 : 0;
    const std::int64_t values = std::max<std::int64_t>(inputs, 1) * g.param("ITEMS_PER_THREAD") * vec;
    v.atMost(values + kRegisterOverhead, "estimated registers per thread",
             std::min(kMaxRegistersPerThread, kRegistersPerSm / g.param("THREADS")),
             "the per-thread share of the register file");
    const std::int64_t n = sizeOfTensor(p, p.outputs.at(0));
    const std::int64_t perBlock = g.param("THREADS") * g.param("ITEMS_PER_THREAD");
    if (g.genes.count("indexing") && g.gene("indexing") == "rows") {
      if (rowLength % vec != 0)
        v.add("indexing=rows moves whole packs of a row: the output's last dimension (" + std::to_string(rowLength) +
              ") must be divisible by the vector width (" + std::to_string(vec) + ")");
      else if (perBlock > rowLength / vec)
        v.add("indexing=rows: a block's tile (THREADS x ITEMS_PER_THREAD = " + std::to_string(perBlock) +
              " packs) must fit in a row of " + std::to_string(rowLength / vec) + " packs");
    }
    if (g.gene("grid") == "one_shot") v.atMost(ceilDiv(n / vec + 1, perBlock), "grid size", 2147483647LL, "the grid limit");
    return v.take();
  }

  std::map<std::string, std::string> descriptor(const Genome& g) const override {
    return {{"grid", g.gene("grid")}, {"vector", g.gene("vector")}, {"cache", g.gene("cache")}};
  }

  EmittedKernel emit(const Genome& g, const KernelProblem& p) const override { return emitExprElementwise(g, p); }

  // The gelu family's starting points (measured on the H200, elementwise_space.cpp)
  // at the widest vector every packed tensor and every repeating input allows.
  std::vector<Genome> startingPoints(const KernelProblem& p) const override {
    std::int64_t vec = static_cast<std::int64_t>(16 / widestElement(p));
    const ProblemTensor& out = p.outputs.at(0);
    const std::int64_t rowLength = p.extent(out, static_cast<int>(out.shape.size()) - 1);
    for (const auto& t : p.inputs) {
      if (t.read && t.broadcast == Broadcast::Trailing)
        while (vec > 1 && sizeOfTensor(p, t) % vec != 0) vec /= 2;
      if (t.read && t.broadcast == Broadcast::General)
        while (vec > 1 && rowLength % vec != 0) vec /= 2;
    }
    // The elementwise family's starting points, at the widest vector every read allows.
    return elementwiseStartingGenomes(p.family, std::to_string(vec));
  }
};

}  // namespace

const DesignSpace& exprElementwiseSpace() {
  static const ExprElementwiseSpace space;
  return space;
}

}  // namespace crucible::templates
