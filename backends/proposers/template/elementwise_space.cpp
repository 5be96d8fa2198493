// SPDX-License-Identifier: GPL-3.0-or-later
// Elementwise kernels (gelu). Genes: the vector width of each access, the
// grid shape (one block per tile, or a capped grid striding over the tensor),
// and the cache policy of the accesses (default, or streaming: loads and
// stores marked evict-first, since no element is touched twice).
#include "backends/proposers/template/constraints.h"
#include "backends/proposers/template/spaces.h"

namespace crucible::templates {
namespace {

class ElementwiseSpace final : public DesignSpace {
public:
  std::string kind() const override { return "elementwise"; }

  std::vector<GeneDef> genes(const KernelProblem& p) const override {
    return elementwiseGenes(p.input("x").dtype != DType::F32);
  }

  std::vector<TunableParameter> parameters(const std::string&, const GeneMap& genes) const override {
    return elementwiseParameters(genes);
  }

  std::vector<std::string> violations(const Genome& g, const KernelProblem& p) const override {
    Violations v;
    const std::int64_t n = p.extent(p.input("x"), 0);
    const std::int64_t vec = std::stoll(g.gene("vector"));
    v.divisible(n, "N", vec, "vector width");
    if (g.gene("cache") == "streaming")
      v.require(vec * static_cast<std::int64_t>(sizeOf(p.input("x").dtype)) >= 4,
                "streaming accesses move whole 4-, 8- or 16-byte words");
    const std::int64_t perBlock = g.param("THREADS") * g.param("ITEMS_PER_THREAD") * vec;
    if (g.gene("grid") == "one_shot") v.atMost(ceilDiv(n, perBlock), "grid size", 2147483647LL, "the grid limit");
    return v.take();
  }

  std::map<std::string, std::string> descriptor(const Genome& g) const override {
    return {{"grid", g.gene("grid")}, {"vector", g.gene("vector")}, {"cache", g.gene("cache")}};
  }

  EmittedKernel emit(const Genome& g, const KernelProblem& p) const override { return emitElementwise(g, p); }

  // A streaming map: 16-byte accesses and small blocks of many waves. On the
  // H200 (GELU over 2^26 floats, side by side with PyTorch) 128-thread blocks of
  // one or two 16-byte packs per thread were the fastest (99-100% of the copy
  // bandwidth); bigger blocks, more packs per thread, grid-stride loops and
  // evict-first accesses were 1-10% slower (tests/bench/results/2026-11-29-h200-variants.md).
  std::vector<Genome> startingPoints(const KernelProblem& p) const override {
    return elementwiseStartingGenomes(p.family, p.input("x").dtype == DType::F32 ? "4" : "8");
  }
};

}  // namespace

std::vector<GeneDef> elementwiseGenes(bool narrow) {
  return {
      {"grid", {"one_shot", "grid_stride"}},
      // 2-byte types fit 8 per 16-byte access.
      {"vector", narrow ? std::vector<std::string>{"1", "2", "4", "8"} : std::vector<std::string>{"1", "2", "4"}},
      {"cache", {"default", "streaming"}},
  };
}

std::vector<TunableParameter> elementwiseParameters(const GeneMap& genes) {
  std::vector<TunableParameter> out = {
      {"THREADS", {64, 128, 256, 512, 1024}},
      {"ITEMS_PER_THREAD", {1, 2, 4, 8}},
  };
  // A grid of a few waves of the 132 SMs of an H100/H200.
  if (genes.at("grid") == "grid_stride") out.push_back({"MAX_BLOCKS", {264, 528, 1056, 2112, 4224}});
  return out;
}

std::vector<Genome> elementwiseStartingGenomes(const std::string& family, const std::string& vector) {
  return {
      Genome{family, {{"grid", "one_shot"}, {"vector", vector}, {"cache", "default"}},
             {{"THREADS", 128}, {"ITEMS_PER_THREAD", 1}}},
      // 4 blocks on each of the 132 SMs, all resident at once (at ~48 registers
      // 5 fit): a grid-stride grid of whole waves leaves no straggling last wave.
      Genome{family, {{"grid", "grid_stride"}, {"vector", vector}, {"cache", "default"}},
             {{"THREADS", 256}, {"ITEMS_PER_THREAD", 4}, {"MAX_BLOCKS", 528}}},
      // The same map with evict-first accesses: the 256 MiB streamed through
      // a 60 MiB L2 has no reuse to protect.
      Genome{family, {{"grid", "one_shot"}, {"vector", vector}, {"cache", "streaming"}},
             {{"THREADS", 256}, {"ITEMS_PER_THREAD", 4}}},
  };
}

const DesignSpace& elementwiseSpace() {
  static const ElementwiseSpace space;
  return space;
}

}  // namespace crucible::templates
