// SPDX-License-Identifier: GPL-3.0-or-later
// Row reductions: softmax, layernorm, rmsnorm, rowsum, cross_entropy over the
// last axis of an [rows, cols] tensor. Genes: how many threads share a row
// (a warp, several warps with several rows per block, a whole block), where
// the row lives between passes (registers, shared memory, or re-read from
// global), one-pass online statistics against separate passes, warp shuffles
// against a shared-memory tree, and the vector width.
#include "backends/proposers/template/constraints.h"
#include "backends/proposers/template/spaces.h"

namespace crucible::templates {
namespace {

// Registers a thread may spend on its share of the row before spills loom.
constexpr std::int64_t kMaxCachedFloatsPerThread = 64;
// Registers a thread needs besides its cached row (pointers, statistics, indices).
constexpr std::int64_t kRegisterOverhead = 72;
// Upper bound on the reduction scratch (a [THREADS] tree of 3-float structs, twice).
constexpr std::int64_t kReductionScratchBytes = 2 * 1024 * 12;

class RowReduceSpace final : public DesignSpace {
public:
  std::string kind() const override { return "rowreduce"; }

  std::vector<GeneDef> genes(const KernelProblem& p) const override {
    const bool narrow = p.inputs[0].dtype != DType::F32;
    std::vector<GeneDef> out = {{"granularity", {"warp", "multiwarp", "block"}}};
    if (p.family != "rowsum") out.push_back({"memory", {"registers", "smem", "global"}});
    if (p.family == "softmax") out.push_back({"pass", {"online", "multipass"}});
    if (p.family == "cross_entropy") out.push_back({"pass", {"online", "twopass"}});
    if (p.family == "layernorm") out.push_back({"stats", {"welford", "twopass"}});
    out.push_back({"reduction", {"shuffle", "smem"}});
    out.push_back({"vector", narrow ? std::vector<std::string>{"1", "2", "4", "8"}
                                    : std::vector<std::string>{"1", "2", "4"}});
    return out;
  }

  std::vector<TunableParameter> parameters(const std::string&, const GeneMap& genes) const override {
    const std::string& granularity = genes.at("granularity");
    if (granularity == "warp") return {{"ROWS_PER_BLOCK", {1, 2, 4, 8, 16}}};
    if (granularity == "multiwarp") return {{"ROWS_PER_BLOCK", {2, 4, 8}}, {"WARPS_PER_ROW", {2, 4, 8}}};
    return {{"WARPS_PER_ROW", {2, 4, 8, 16, 32}}};
  }

  std::vector<std::string> violations(const Genome& g, const KernelProblem& p) const override {
    Violations v;
    const ProblemTensor& x = p.inputs[0];
    const std::int64_t cols = p.extent(x, 1);
    const std::int64_t vec = std::stoll(g.gene("vector"));
    const std::int64_t threadsPerRow = kWarp * warpsPerRow(g);
    const std::int64_t threads = threadsPerRow * rowsPerBlock(g);
    v.divisible(cols, "the row length", vec, "vector width");
    v.atMost(threads, "threads per block", kMaxThreadsPerBlock, "the block limit");
    // More threads on a row than it has packs only idles them; one warp is the floor.
    if (threadsPerRow > kWarp && threadsPerRow > cols / vec)
      v.add("threads per row (" + std::to_string(threadsPerRow) + ") exceed the row's " + std::to_string(cols / vec) +
            " packs");
    const std::string memory = g.genes.count("memory") ? g.gene("memory") : "global";
    if (memory == "registers") {
      const std::int64_t cached = ceilDiv(cols, threadsPerRow * vec) * vec;
      v.atMost(cached, "row elements cached per thread", kMaxCachedFloatsPerThread, "the register budget");
      // __launch_bounds__(THREADS) caps registers at 64K / THREADS: past it the cache spills.
      v.atMost(cached + kRegisterOverhead, "estimated registers per thread", kRegistersPerSm / threads,
               "the per-thread share of the register file");
    }
    if (memory == "smem")
      v.atMost(rowsPerBlock(g) * cols * static_cast<std::int64_t>(sizeOf(x.dtype)) + kReductionScratchBytes,
               "shared memory per block", kMaxSmemPerBlock, "the sm_90 limit");
    if (p.family == "cross_entropy" && g.gene("pass") == "online")
      v.require(memory == "global", "an online cross-entropy reads each row once: it caches nothing (memory=global)");
    return v.take();
  }

  std::map<std::string, std::string> descriptor(const Genome& g) const override {
    std::map<std::string, std::string> d = {{"granularity", g.gene("granularity")},
                                            {"reduction", g.gene("reduction")},
                                            {"vector", g.gene("vector")},
                                            {"memory", g.genes.count("memory") ? g.gene("memory") : "global"}};
    if (g.genes.count("pass")) d["pass"] = g.gene("pass");
    if (g.genes.count("stats")) d["pass"] = g.gene("stats") == "welford" ? "online" : "multipass";
    return d;
  }

  EmittedKernel emit(const Genome& g, const KernelProblem& p) const override { return emitRowReduce(g, p); }

  static std::int64_t warpsPerRow(const Genome& g) {
    return g.gene("granularity") == "warp" ? 1 : g.param("WARPS_PER_ROW");
  }
  static std::int64_t rowsPerBlock(const Genome& g) {
    return g.gene("granularity") == "block" ? 1 : g.param("ROWS_PER_BLOCK");
  }
};

}  // namespace

const DesignSpace& rowReduceSpace() {
  static const RowReduceSpace space;
  return space;
}

}  // namespace crucible::templates
