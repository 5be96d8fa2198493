// SPDX-License-Identifier: GPL-3.0-or-later
// Row reductions: softmax, layernorm, rmsnorm, rowsum, cross_entropy over the
// last axis of an [rows, cols] tensor. Genes: how many threads share a row
// (a warp, several warps with several rows per block, a whole block), where
// the row lives between passes (registers, shared memory, or re-read from
// global), one-pass online statistics against separate passes, warp shuffles
// against a shared-memory tree, and the vector width; then the genes both row
// families share (row_designs.h): sub-warp rows, loads in flight (UNROLL), a
// persistent grid, cache hints (here also evict_last: a row re-read from
// global memory kept in L2 until its last sweep, torch.compile's design).
#include "backends/proposers/template/constraints.h"
#include "backends/proposers/template/row_designs.h"
#include "backends/proposers/template/spaces.h"

namespace crucible::templates {
namespace {

// Registers a thread may spend on its share of the row before spills loom.
constexpr std::int64_t kMaxCacheRegistersPerThread = 64;
// Registers a thread needs besides its cached row (pointers, statistics, indices).
constexpr std::int64_t kRegisterOverhead = 72;
// Longest row the kernels index with 32-bit column offsets (with headroom for
// the last chunk's look-ahead past the row's end).
constexpr std::int64_t kMaxRowLength = std::int64_t{1} << 30;
// Upper bound on the reduction scratch (a [THREADS] tree of 3-float structs, twice).
constexpr std::int64_t kReductionScratchBytes = 2 * 1024 * 12;

class RowReduceSpace final : public DesignSpace {
public:
  std::string kind() const override { return "rowreduce"; }

  std::vector<GeneDef> genes(const KernelProblem& p) const override {
    const bool narrow = p.inputs[0].dtype != DType::F32;
    std::vector<GeneDef> out = {{"granularity", {"warp", "multiwarp", "block", "subwarp"}}};
    if (p.family != "rowsum") out.push_back({"memory", {"registers", "smem", "global"}});
    if (p.family == "softmax") out.push_back({"pass", {"online", "multipass"}});
    if (p.family == "cross_entropy") out.push_back({"pass", {"online", "twopass"}});
    if (p.family == "layernorm") out.push_back({"stats", {"welford", "twopass"}});
    out.push_back({"reduction", {"shuffle", "smem"}});
    out.push_back({"vector", narrow ? std::vector<std::string>{"1", "2", "4", "8"}
                                    : std::vector<std::string>{"1", "2", "4"}});
    for (auto& def : rowScheduleGenes(/*rereadHint=*/true)) out.push_back(std::move(def));
    return out;
  }

  // The row is streamed (not cached in registers): rowsum, memory=global or smem.
  static bool streaming(const GeneMap& genes) { return geneOr(genes, "memory", "global") != "registers"; }

  std::vector<TunableParameter> parameters(const std::string&, const GeneMap& genes) const override {
    return rowParameters(genes, streaming(genes));
  }

  ParamMap parameterFallbacks(const Genome& g, const KernelProblem& p) const override {
    if (!streaming(g.genes)) return {};
    return {{"UNROLL", unrollFallback(std::stoll(g.gene("vector")) * static_cast<std::int64_t>(sizeOf(p.inputs[0].dtype)))}};
  }

  std::vector<std::string> violations(const Genome& g, const KernelProblem& p) const override {
    Violations v;
    const ProblemTensor& x = p.inputs[0];
    const std::int64_t cols = p.extent(x, 1);
    const std::int64_t vec = std::stoll(g.gene("vector"));
    const std::int64_t threadsPerRow = rowThreadsPerRow(g);
    const std::int64_t threads = threadsPerRow * rowsPerBlock(g);
    v.divisible(cols, "the row length", vec, "vector width");
    // Kernels index columns with 32-bit ints (rows, of any count, with 64-bit offsets).
    v.atMost(cols, "the row length", kMaxRowLength, "the 32-bit column index range");
    v.atMost(threads, "threads per block", kMaxThreadsPerBlock, "the block limit");
    const std::string memory = g.genes.count("memory") ? g.gene("memory") : "global";
    // Each row read from global memory once: cached, or one streaming sweep.
    const bool readOnce = memory != "global" || p.family == "rowsum" ||
                          (p.family == "cross_entropy" && g.gene("pass") == "online");
    const std::int64_t packBytes = vec * static_cast<std::int64_t>(sizeOf(x.dtype));
    // A streamed pack holds VEC fp32 values once widened, and a 2-byte row's pack its raw words too
    // (NVRTC sm_90: bf16 rows of 16 packs of 8 in flight in a 256-thread loop spilled at 128 values).
    const std::int64_t valuesPerPack = vec + (x.dtype != DType::F32 ? ceilDiv(packBytes, 4) : 0);
    rowDesignViolations(v, g, ceilDiv(p.extent(x, 0), rowsPerBlock(g)), packBytes, valuesPerPack,
                        unrollFallback(packBytes), readOnce);
    // More threads on a row than it has packs only idles them; one warp is the floor.
    if (threadsPerRow > kWarp && threadsPerRow > cols / vec)
      v.add("threads per row (" + std::to_string(threadsPerRow) + ") exceed the row's " + std::to_string(cols / vec) +
            " packs");
    if (memory == "registers") {
      const std::int64_t cached = ceilDiv(cols, threadsPerRow * vec) * vec;
      // 2-byte rows stay packed in the cache (two per register), except softmax,
      // whose cache holds the fp32 exponentials (see emit_rowreduce.cpp).
      const bool packed = x.dtype != DType::F32 && p.family != "softmax";
      const std::int64_t cacheRegisters = packed ? ceilDiv(cached * static_cast<std::int64_t>(sizeOf(x.dtype)), 4) : cached;
      v.atMost(cacheRegisters, "registers caching the row per thread", kMaxCacheRegistersPerThread, "the register budget");
      // __launch_bounds__(THREADS) caps registers at 64K / THREADS: past it the cache spills.
      v.atMost(cacheRegisters + kRegisterOverhead + persistentOverhead(g), "estimated registers per thread",
               kRegistersPerSm / threads,
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

  // Rows of a few thousand elements (the suite: 4096 fp32, 8192 bf16, 32000
  // fp32): a block or a few warps per row with 16-byte accesses, the row held
  // in registers between its read and its write (one DRAM pass each way),
  // warp shuffles, one-pass statistics. Narrower rows (1024) fall back on the
  // warp-per-row entries. Illegal entries (a row too long for registers, too
  // short for a block) are skipped by the caller.
  std::vector<Genome> startingPoints(const KernelProblem& p) const override {
    const std::string vec16 = p.inputs[0].dtype == DType::F32 ? "4" : "8";  // 16 bytes per access
    const std::string& f = p.family;
    auto make = [&](const std::string& granularity, GeneMap extra, ParamMap params) {
      GeneMap genes = {{"granularity", granularity}, {"reduction", "shuffle"}, {"vector", vec16}};
      genes.insert(extra.begin(), extra.end());
      return Genome{f, genes, params};
    };
    // A block per row, 256 threads: 4096 fp32 are 4 float4 per thread.
    const ParamMap block8 = {{"WARPS_PER_ROW", 8}};
    const ParamMap block16 = {{"WARPS_PER_ROW", 16}};  // 512 threads: 2 float4 per thread at 4096
    // Two rows of 128 threads per block: twice the registers per thread, half the barrier partners.
    const ParamMap twoRowsOf4Warps = {{"ROWS_PER_BLOCK", 2}, {"WARPS_PER_ROW", 4}};
    const ParamMap warpRows = {{"ROWS_PER_BLOCK", 8}};  // one warp per row, 8 rows per block
    if (f == "softmax") {
      const GeneMap online = {{"memory", "registers"}, {"pass", "online"}};
      return {make("block", online, block8), make("multiwarp", online, twoRowsOf4Warps),
              make("block", {{"memory", "registers"}, {"pass", "multipass"}}, block16),
              make("warp", online, {{"ROWS_PER_BLOCK", 4}})};
    }
    if (f == "layernorm") {
      const GeneMap welford = {{"memory", "registers"}, {"stats", "welford"}};
      return {make("block", welford, block8), make("multiwarp", welford, twoRowsOf4Warps),
              make("block", {{"memory", "registers"}, {"stats", "twopass"}}, block16),
              make("warp", welford, {{"ROWS_PER_BLOCK", 4}})};
    }
    if (f == "rmsnorm") {
      // The row in registers at 16 warps: since candidates are compiled whole-program it takes 32
      // registers a thread (a full SM), and on the H200 (2026-12-03, 100 samples, three processes) it
      // was the fastest of the family at 8192x8192, 64.4-64.7 us, with the same design at 8 warps
      // (64.7-64.9; a mutation away: one starting point per architecture) and against 66.0-66.2 for
      // the re-read row below (results/2026-12-03-h200-read-roof.md).
      // The re-read row is torch.compile's design (Triton): read again from L2 rather than held in
      // registers, evict_last keeping it there between the sweeps. It measured best while candidates
      // were linked by nvJitLink (more registers: results/2026-12-03-h200-l2-reread-rows.md) and stays
      // a starting point. Layernorm has no re-read starting point: its best measured 70.2 us against
      // 68.3 for its register design (the gene stays in its space for the search).
      const ParamMap rereadBlock = {{"WARPS_PER_ROW", 8}, {"UNROLL", 1}};
      const GeneMap registers = {{"memory", "registers"}};
      return {make("block", registers, block16), make("multiwarp", registers, twoRowsOf4Warps),
              make("warp", registers, {{"ROWS_PER_BLOCK", 4}}),
              make("block", {{"memory", "global"}, {"hint", kRereadHint}}, rereadBlock)};
    }
    if (f == "rowsum")  // read-only streaming: nothing to cache
      return {make("warp", {}, warpRows), make("block", {}, block8), make("multiwarp", {}, twoRowsOf4Warps)};
    if (f == "cross_entropy") {
      // Rows too long for registers: one streaming pass with online logsumexp.
      const GeneMap online = {{"memory", "global"}, {"pass", "online"}};
      return {make("block", online, block8), make("multiwarp", online, {{"ROWS_PER_BLOCK", 2}, {"WARPS_PER_ROW", 8}}),
              make("warp", online, warpRows)};
    }
    return {};
  }

  static std::int64_t rowsPerBlock(const Genome& g) { return rowRowsPerBlock(g); }
};

}  // namespace

const DesignSpace& rowReduceSpace() {
  static const RowReduceSpace space;
  return space;
}

}  // namespace crucible::templates
