// SPDX-License-Identifier: GPL-3.0-or-later
// GEMM: C = A @ B (matmul) and C = relu(A @ B + bias) (matmul_bias_relu), row-major.
// Genes: CUDA cores (SIMT block/warp/thread tiles) or tensor cores: for bf16,
// mma.sync m16n8k16 fed by ldmatrix, or Hopper wgmma from 128-byte-swizzled
// shared memory; for fp32 (never TF32), wgmma on operands split into three
// bf16 terms, which keeps fp32 accuracy (gemm_wgmma.h); how
// tiles reach shared memory (register-staged single or double buffer, or a
// cp.async multistage pipeline); the epilogue (fragments stored straight from
// registers, or staged through shared memory for 16-byte stores); and the
// vector width of the global loads; and sliced-K (tensor cores): SPLIT_K warp
// groups of a block share each k-tile and add their partial sums in shared
// memory at the end (more warps per output tile, no workspace, no atomics).
#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>
#include "backends/proposers/template/constraints.h"
#include "backends/proposers/template/gemm_wgmma.h"
#include "backends/proposers/template/spaces.h"

namespace crucible::templates {
namespace {

constexpr std::int64_t kMaxAccumulatorsPerThread = 64;   // SIMT: THREAD_M x THREAD_N
constexpr std::int64_t kMaxMmaAccumulators = 128;        // mma: WARP_M x WARP_N / 32
constexpr std::int64_t kBf16Bytes = 2;
// Registers besides accumulators, fragments and staged tiles (addresses, indices,
// loop state), calibrated on ptxas spill reports for sm_90.
constexpr std::int64_t kSimtRegisterOverhead = 48;
// Past this estimate ptxas for sm_90 spilled (64x64 tile, 8x8 per thread,
// 16 staged 16-byte loads) even with 255 registers allowed.
constexpr std::int64_t kMaxSimtEstimate = 176;
constexpr std::int64_t kCappedHeadroom = 16;
// The cp.async kernel stages nothing in registers: it can hold 8x16 outputs per
// thread (cuBLAS sgemm's 64x64 warp tile; estimate 224, ptxas for sm_90: 243-255
// registers, no spills). On the H200 that tile with BLOCK_K 32 beat 8x8 by 4%.
constexpr std::int64_t kMaxAsyncAccumulators = 128;
constexpr std::int64_t kMaxAsyncEstimate = 232;
constexpr std::int64_t kMmaRegisterOverhead = 56;
constexpr std::int64_t kMaxStagedLoads = 16;
constexpr double kSmsOfAnH100 = 132;  // H100 SXM and H200: the machine the starting points are sized for

class GemmSpace final : public DesignSpace {
public:
  std::string kind() const override { return "gemm"; }

  std::vector<GeneDef> genes(const KernelProblem& p) const override {
    const bool bf16 = p.input("A").dtype == DType::BF16;
    return {
        {"tensor_core", bf16 ? std::vector<std::string>{"none", "mma", "wgmma"}
                             : std::vector<std::string>{"none", kWgmmaBf16x3}},
        {"pipeline", {"single", "double", "cp_async", kWarpSpecialized, kTma}},
        // "tma": the persistent TMA kernels only (gemm_wgmma.h); added last, after projects stored genomes.
        {"epilogue", {"direct", "smem", kTmaEpilogue}},
        {"vector", {"1", "4", "8"}},
        {"split_k", {"none", "sliced"}},
        // Added after projects stored genomes: the fallback is the kernels written before it.
        {kScheduleGene, {kGridSchedule, kPersistentSchedule, kPingpongSchedule, kStreamKSchedule}, kGridSchedule},
    };
  }

  std::vector<TunableParameter> parameters(const std::string&, const GeneMap& genes) const override {
    if (genes.at("tensor_core") == "wgmma") return wgmmaParameters(genes);
    if (genes.at("tensor_core") == kWgmmaBf16x3) return wgmmaSplitParameters();
    if (genes.at("tensor_core") == "none") {
      std::vector<TunableParameter> simt = {{"BLOCK_M", {32, 64, 128}}, {"BLOCK_N", {32, 64, 128}},
                                            {"BLOCK_K", {8, 16, 32}},   {"WARP_M", {16, 32, 64}},
                                            {"WARP_N", {16, 32, 64}},   {"THREAD_M", {2, 4, 8}},
                                            {"THREAD_N", {2, 4, 8}},    {"MIN_BLOCKS", {1, 2}}};
      if (genes.at("pipeline") == "cp_async") {
        // cuBLAS's sgemm shape: 64x64 warp tiles, 8x16 outputs per thread.
        for (auto& t : simt) {
          if (t.name == "THREAD_N") t.values.push_back(16);
          if (t.name == "BLOCK_M") t.values.push_back(256);  // cuBLAS's 256x128 tile, 8 warps of 64x64
        }
        simt.push_back({"STAGES", {2, 3, 4}});
      }
      return simt;
    }
    std::vector<TunableParameter> out = {{"BLOCK_M", {64, 128, 256}}, {"BLOCK_N", {64, 128, 256}},
                                         {"BLOCK_K", {32, 64}},       {"WARP_M", {32, 64}},
                                         {"WARP_N", {32, 64}}};
    if (genes.at("pipeline") == "cp_async") out.push_back({"STAGES", {2, 3, 4, 5}});
    if (genes.at("split_k") == "sliced") out.push_back({"SPLIT_K", {2, 4}});
    return out;
  }

  static std::int64_t stages(const Genome& g) {
    const std::string& pipeline = g.gene("pipeline");
    return pipeline == "single" ? 1 : pipeline == "double" ? 2 : g.param("STAGES");
  }

  std::vector<std::string> geneViolations(const GeneMap& genes, const KernelProblem& p) const override {
    Violations v;
    addGeneViolations(genes, p, v);
    return v.take();
  }

  // The gene rules first: a genome that breaks one is refused for it alone, and the
  // parameter rules below may take every gene rule as holding.
  std::vector<std::string> violations(const Genome& g, const KernelProblem& p) const override {
    Violations v;
    addGeneViolations(g.genes, p, v);
    if (v.empty()) addParameterViolations(g, p, v);
    return v.take();
  }

  static void addGeneViolations(const GeneMap& genes, const KernelProblem& p, Violations& v) {
    const std::string& tensorCore = genes.at("tensor_core");
    const std::string& pipeline = genes.at("pipeline");
    const std::int64_t M = p.extent(p.input("A"), 0), K = p.extent(p.input("A"), 1), N = p.extent(p.input("B"), 1);
    if (p.batched) {
      // The persistent kernel walks the batch entries itself (no grid.z).
      if (!isPersistentSchedule(genes)) v.atMost(p.batch, "the batch", kMaxGridY, "the grid.z limit");
      if (pipeline == kTma) {
        // The maps stack the batch entries row-wise (emit_gemm_wgmma_ws.cpp): a k-tile of B must
        // not reach into the next entry, and TMA coordinates are 32-bit. The fp32 split's TMA
        // producer (emit_gemm_wgmma_split.cpp) does not offset its rows by the batch entry.
        v.require(tensorCore == "wgmma", "a batched GEMM is fed by TMA only on the bf16 wgmma kernel");
        if (p.batchedB) v.divisible(K, "K", 64, "the TMA k-tile (64) of a batched B");
        v.atMost(p.batch * std::max(M, K), "stacked rows of A or B", 2147483647LL, "TMA's 32-bit coordinates");
      }
      if (!v.empty()) return;
    }
    if (genes.at("epilogue") == kTmaEpilogue &&
        !(isPersistentSchedule(genes) && tensorCore == "wgmma" && pipeline == kTma)) {
      v.add("only the persistent TMA-fed bf16 wgmma kernels store C by the copy engine (epilogue=tma needs "
            "tensor_core=wgmma, pipeline=tma and schedule=persistent, pingpong or streamk)");
      return;
    }
    if (isPersistentSchedule(genes) && !(tensorCore == "wgmma" && pipeline == kTma)) {
      v.add("only the TMA-fed bf16 wgmma kernel (tensor_core=wgmma, pipeline=tma) has the persistent schedules "
            "(schedule=" + genes.at(kScheduleGene) + ")");
      return;
    }
    if (tensorCore == "wgmma") return addWgmmaGeneViolations(genes, p, v);
    if (tensorCore == kWgmmaBf16x3) return addWgmmaSplitGeneViolations(genes, p, v);
    if (isWarpSpecialized(pipeline)) {
      v.add("only the wgmma kernel has a warp-specialized pipeline (pipeline=" + pipeline + ")");
      return;
    }
    const std::int64_t vec = std::stoll(genes.at("vector"));
    if (tensorCore == "mma") {
      v.require(vec == 8, "tensor-core tiles move in 16-byte chunks (vector=8)");
      // A chunk is all in or all out of the matrix only when rows split into whole chunks.
      v.divisible(K, "K", 8, "the 8-element chunk");
      v.divisible(N, "N", 8, "the 8-element chunk");
      return;
    }
    const bool cpAsync = pipeline == "cp_async";
    if (cpAsync) {
      v.require(p.input("A").dtype == DType::F32 && p.output("C").dtype == DType::F32,
                "the cp.async SIMT kernel copies fp32 tiles as they are (no conversion on the way)");
      v.require(vec == 4, "the cp.async SIMT kernel moves 16-byte chunks (vector=4)");
    }
    v.require(genes.at("epilogue") == "direct", "the SIMT kernel stores its results directly");
    v.require(vec == 1 || vec == 4, "SIMT global loads are 1 or 4 elements wide");
    v.require(genes.at("split_k") == "none", "sliced-K is a tensor-core kernel gene");
    if (cpAsync) {
      v.divisible(K, "K", 4, "the 4-float chunk");
      v.divisible(N, "N", 4, "the 4-float chunk");
    } else {
      v.divisible(K, "K", vec, "vector width");
      v.divisible(N, "N", vec, "vector width");
    }
  }

  // The rules of a genome's parameters, for genes that pass addGeneViolations.
  static void addParameterViolations(const Genome& g, const KernelProblem& p, Violations& v) {
    if (g.gene("tensor_core") == "wgmma") return addWgmmaViolations(g, p, v);
    if (g.gene("tensor_core") == kWgmmaBf16x3) return addWgmmaSplitViolations(g, p, v);
    const std::int64_t M = p.extent(p.input("A"), 0);
    const std::int64_t bm = g.param("BLOCK_M"), bn = g.param("BLOCK_N"), bk = g.param("BLOCK_K");
    const std::int64_t wm = g.param("WARP_M"), wn = g.param("WARP_N");
    const std::int64_t vec = std::stoll(g.gene("vector"));
    const bool mma = g.gene("tensor_core") == "mma";
    v.divisible(bm, "BLOCK_M", wm, "WARP_M");
    v.divisible(bn, "BLOCK_N", wn, "WARP_N");
    if (!v.empty()) return;  // the counts below assume whole warps
    const std::int64_t threads = kWarp * (bm / wm) * (bn / wn) * splitK(g);
    v.atMost(threads, "threads per block", kMaxThreadsPerBlock, "the block limit");
    v.atMost(ceilDiv(M, bm), "grid.y", kMaxGridY, "the grid.y limit");
    if (!mma) {
      const bool cpAsync = g.gene("pipeline") == "cp_async";
      const std::int64_t tm = g.param("THREAD_M"), tn = g.param("THREAD_N");
      v.divisible(wm, "WARP_M", tm, "THREAD_M");
      v.divisible(wn, "WARP_N", tn, "THREAD_N");
      if (vec == 4) {
        // 16-byte loads come with 16-byte shared-memory reads of runs of 4 outputs
        // (columns only in the cp.async kernel: its A rows are read 4 k-values at a time).
        if (!cpAsync) v.divisible(tm, "THREAD_M", 4, "the 4-output run of vector=4");
        v.divisible(tn, "THREAD_N", 4, "the 4-output run of vector=4");
      }
      if (!v.empty()) return;
      if (cpAsync) {
        if ((wm / tm) * (wn / tn) != kWarp)
          v.add("a warp tile must hold exactly 32 thread tiles: (WARP_M/THREAD_M) x (WARP_N/THREAD_N) = " +
                std::to_string((wm / tm) * (wn / tn)));
        v.atMost(tm * tn, "accumulators per thread", kMaxAsyncAccumulators, "the register budget");
        v.atMost(gemmSimtAsyncSmemBytes(g), "shared memory per block", kMaxSmemPerBlock, "the sm_90 limit");
        // Accumulators, 4 k-values per row, one k-step of columns; no staged loads.
        const std::int64_t registers = tm * tn + 4 * tm + tn + kSimtRegisterOverhead;
        const std::int64_t cap = g.param("MIN_BLOCKS") > 1
                                     ? kRegistersPerSm / (threads * g.param("MIN_BLOCKS")) - kCappedHeadroom
                                     : kRegistersPerSm / threads;
        v.atMost(registers, "estimated registers per thread", std::min(kMaxAsyncEstimate, cap),
                 "the per-thread register limit");
        return;
      }
      if ((wm / tm) * (wn / tn) != kWarp)
        v.add("a warp tile must hold exactly 32 thread tiles: (WARP_M/THREAD_M) x (WARP_N/THREAD_N) = " +
              std::to_string((wm / tm) * (wn / tn)));
      v.atMost(tm * tn, "accumulators per thread", kMaxAccumulatorsPerThread, "the register budget");
      v.divisible(bk, "BLOCK_K", vec, "vector width");
      // Tiles are kept as fp32 in static shared memory.
      v.atMost(stages(g) * bk * (bm + bn) * 4, "static shared memory", kMaxStaticSmem, "the 48 KiB static limit");
      const std::int64_t loads = ceilDiv(bm * bk / vec, threads) + ceilDiv(bk * bn / vec, threads);
      // Each staged load keeps its values and its address live across the math.
      v.atMost(loads, "global loads staged per thread", kMaxStagedLoads, "the register budget");
      // MIN_BLOCKS = 2 asks the compiler (__launch_bounds__) for two resident
      // blocks per SM: registers are capped at half the file per block. The
      // estimate must fit under that cap, or the kernel spills (an 8x8 thread
      // tile of 256 threads does: checked with NVRTC for sm_90).
      const std::int64_t minBlocks = g.param("MIN_BLOCKS");
      // A staged load holds its VEC values and its 64-bit address.
      const std::int64_t registers = tm * tn + tm + tn + loads * (vec + 2) + kSimtRegisterOverhead;
      // Under a cap the estimate needs headroom too (spills seen just under the cap).
      const std::int64_t cap = minBlocks > 1 ? kRegistersPerSm / (threads * minBlocks) - kCappedHeadroom
                                             : kRegistersPerSm / threads;
      v.atMost(registers, "estimated registers per thread", std::min(kMaxSimtEstimate, cap),
               "the per-thread register limit");
    } else {
      // Each slice of a k-tile must hold whole m16n8k16 steps.
      v.divisible(bk, "BLOCK_K", 16 * splitK(g), "16 x SPLIT_K");
      const std::int64_t accumulators = wm * wn / kWarp;
      v.atMost(accumulators, "accumulators per thread", kMaxMmaAccumulators, "the register budget");
      // Sliced-K keeps the slice bookkeeping live beside the accumulators: no 64 x 64 warp tiles.
      if (g.gene("split_k") == "sliced")
        v.atMost(accumulators, "accumulators per thread with sliced-K", kMaxMmaAccumulators / 2, "the register budget");
      std::int64_t registers = accumulators + (wm / 16) * 4 + (wn / 8) * 2 + kMmaRegisterOverhead;
      if (g.gene("pipeline") != "cp_async")
        registers += (ceilDiv(bm * bk / 8, threads) + ceilDiv(bk * bn / 8, threads)) * 4;
      v.atMost(registers, "estimated registers per thread", kMaxRegistersPerThread, "the per-thread limit");
      v.atMost(registers * threads, "estimated registers per block", kRegistersPerSm, "the register file");
      v.atMost(smemBytes(g), "shared memory per block", kMaxSmemPerBlock, "the sm_90 limit");
    }
  }

  // SIMT genomes have no SPLIT_K parameter: sliced-K is illegal for them (see violations).
  static std::int64_t splitK(const Genome& g) {
    return g.gene("split_k") == "sliced" && g.params.count("SPLIT_K") ? g.param("SPLIT_K") : 1;
  }

  static std::int64_t smemBytes(const Genome& g) {
    if (g.gene("tensor_core") == "wgmma") return gemmWgmmaSmemBytes(g);
    if (g.gene("tensor_core") == kWgmmaBf16x3) return gemmWgmmaSplitSmemBytes(g);
    const std::int64_t bm = g.param("BLOCK_M"), bn = g.param("BLOCK_N"), bk = g.param("BLOCK_K");
    const std::int64_t pipeline = stages(g) * (bm * (bk + 8) + bk * (bn + 8)) * kBf16Bytes;
    const std::int64_t epilogue = g.gene("epilogue") == "smem" ? bm * (bn + 8) * kBf16Bytes : 0;
    const std::int64_t slices = (splitK(g) - 1) * bm * bn * 4;  // fp32 partial sums of the extra slices
    return std::max({pipeline, epilogue, slices});
  }

  // A persistent genome has its own cells (the schedule is an architecture choice); every
  // other keeps the descriptor it had before the gene existed.
  std::map<std::string, std::string> descriptor(const Genome& g) const override {
    std::map<std::string, std::string> d = baseDescriptor(g);
    if (isPersistentSchedule(g.genes)) d[kScheduleGene] = g.gene(kScheduleGene);
    return d;
  }

  static std::map<std::string, std::string> baseDescriptor(const Genome& g) {
    return {{"tensor_core", g.gene("tensor_core")},
            {"pipeline", g.gene("pipeline")},
            {"stages", std::to_string(stages(g))},
            {"epilogue", g.gene("epilogue")},
            {"vector", g.gene("vector")},
            {"split_k", g.gene("split_k") == "sliced" ? std::to_string(g.param("SPLIT_K")) : "1"}};
  }

  EmittedKernel emit(const Genome& g, const KernelProblem& p) const override {
    EmittedKernel k = emitEntry(g, p);
    if (p.batched && !isPersistentSchedule(g.genes)) batch(k, p);  // the persistent kernel walks the entries itself
    return k;
  }

  // One GEMM per blockIdx.z: each block first moves A, B (when batched) and C to its batch entry.
  static void batch(EmittedKernel& k, const KernelProblem& p) {
    const std::string M = p.extentCode(p.input("A"), 0), K = p.extentCode(p.input("A"), 1);
    const std::string N = p.extentCode(p.input("B"), 1);
    std::string offsets = "  // Batched GEMM: this block's batch entry is blockIdx.z.\n";
    offsets += "  A += (long long)blockIdx.z * (" + M + " * " + K + ");\n";
    if (p.batchedB) offsets += "  B += (long long)blockIdx.z * (" + K + " * " + N + ");\n";
    offsets += "  C += (long long)blockIdx.z * (" + M + " * " + N + ");\n";
    const std::size_t body = p.familyCodeStart(k.source);
    if (body == std::string::npos) throw std::logic_error("batched GEMM: no kernel body in the emitted source");
    k.source.insert(body, offsets);
    k.launch.grid[2] = p.batchAxis;
  }

  EmittedKernel emitEntry(const Genome& g, const KernelProblem& p) const {
    const std::string& tensorCore = g.gene("tensor_core");
    if (tensorCore == "wgmma") return emitGemmWgmma(g, p);
    if (tensorCore == kWgmmaBf16x3) return emitGemmWgmmaSplit(g, p);
    if (tensorCore == "mma") return emitGemmMma(g, p);
    return g.gene("pipeline") == "cp_async" ? emitGemmSimtAsync(g, p) : emitGemmSimt(g, p);
  }

  // One per architecture, best first. fp32: the bf16x3 split on wgmma (TMA-fed, then
  // cp.async-fed), then the
  // 128x128 SIMT tile of 256 threads (8x16 each) fed by a 3-stage cp.async pipeline. bf16: Hopper wgmma
  // tiles of 128x256 (128x128 where the grid would be too small) with two
  // consumer warpgroups and 4 stages, fed by a producer warpgroup through
  // mbarriers, then the same with every thread copying; then mma.sync with a
  // 3-stage cp.async pipeline. CUDA cores:
  // a 128x128 tile of 256 threads with 8x8 outputs per thread read as 16-byte
  // runs, double-buffered (163 registers: one 8-warp block per SM on the
  // H200); and a single-buffered 64x64 tile with 8x4 per thread (5 blocks
  // per SM), the faster of the two in the first full-shape run.
  // The N of a 128-row TMA tile that keeps the most of 132 SMs busy: the last wave's
  // idle share and the columns past N of the last tile column both count as lost. On the
  // H200: 256 at 4096^3 (3.9 waves; 192 leaves 5.3 and was 12% slower); at 8192^3 it
  // picks 192 (20.8 waves against 15.5), which measured within 1.5% of 256 either way
  // across runs (the GPU's power state moves more than that).
  static std::int64_t tmaTileWidth(std::int64_t m, std::int64_t n) {
    std::int64_t best = 128;
    double bestUse = 0;
    for (std::int64_t bn : {256, 192, 128}) {
      const double tiles = static_cast<double>(ceilDiv(m, 128) * ceilDiv(n, bn));
      const double waves = tiles / kSmsOfAnH100;
      const double use = waves / std::ceil(waves) * static_cast<double>(n) / static_cast<double>(ceilDiv(n, bn) * bn);
      if (use > bestUse + 1e-9) best = bn, bestUse = use;
    }
    return best;
  }

  std::vector<Genome> startingPoints(const KernelProblem& p) const override {
    auto genome = [&](GeneMap genes, ParamMap params) { return Genome{p.family, std::move(genes), std::move(params)}; };
    std::vector<Genome> out;
    if (p.input("A").dtype != DType::F32) {
      const GeneMap wgmma = {{"tensor_core", "wgmma"}, {"pipeline", "cp_async"}, {"epilogue", "direct"},
                             {"vector", "8"},          {"split_k", "none"}};
      const std::int64_t blocks128x256 = ceilDiv(p.extent(p.input("A"), 0), 128) * ceilDiv(p.extent(p.output("C"), 1), 256);
      // TMA-fed first: the copy engine frees the producer of all address work. Its tile
      // width wastes the least of the machine (tmaTileWidth); the ring is as deep as fits.
      const GeneMap tma = {{"tensor_core", "wgmma"}, {"pipeline", kTma}, {"epilogue", "smem"},
                           {"vector", "8"},          {"split_k", "none"}};
      const std::int64_t tmaN = tmaTileWidth(p.extent(p.input("A"), 0), p.extent(p.output("C"), 1));
      out.push_back(genome(tma, {{"BLOCK_M", 128}, {"BLOCK_N", tmaN}, {"BLOCK_K", 64}, {"WARPGROUPS", 2},
                                 {"STAGES", tmaN == 256 ? 4 : tmaN == 192 ? 5 : 6}, {"CLUSTER_M", 1}}));
      // The same kernel with persistent tiles: one block per SM loops over every tile (and
      // batch entry), its epilogue hidden behind the next tile's loads; plain, then with the
      // consumer warpgroups taking turns. Tried early because the grid kernel stays behind
      // cuBLAS on batched GEMMs (0.94x, results/2026-12-02-h200-any-operator.md); where a
      // shape leaves fewer tiles than SMs they are not legal and are skipped.
      // C leaves by the copy engine (epilogue=tma, two staging boxes per warpgroup): on the H200,
      // side by side, 2.3% faster than the threads' stores on bmm 16 x 2048^3, 0.9-1.2% at bf16
      // 8192^3 and 0.4-1% with bias + ReLU at 4096^3 (results/2026-12-03-h200-gemm-tma-store.md).
      // The staging boxes take a ring stage's room where the deepest ring would not fit beside
      // them (128 x 192 at 8192^3: 4 stages, 1626 against 1657 us for the 5-stage threads' store).
      // Where its rules refuse it (a batched C whose M is no multiple of the tile), the threads store.
      GeneMap persistent = tma;
      persistent["schedule"] = "persistent";
      const ParamMap persistentTile = {{"BLOCK_M", 128}, {"BLOCK_N", tmaN}, {"BLOCK_K", 64}, {"WARPGROUPS", 2},
                                       {"STAGES", tmaN == 256 ? 4 : 5}, {"CLUSTER_M", 1}};
      GeneMap persistentTmaStore = persistent;
      persistentTmaStore["epilogue"] = kTmaEpilogue;
      auto storedByTma = [&](const GeneMap& genes, ParamMap tile, std::int64_t buffers) -> std::optional<Genome> {
        tile["EPI_BUFFERS"] = buffers;
        for (; tile["STAGES"] >= 3; --tile["STAGES"]) {
          Genome g = genome(genes, tile);
          if (violations(g, p).empty()) return g;
        }
        return std::nullopt;
      };
      // A plain GEMM's 128 x 256 seed keeps four boxes beside 3 stages: its epilogue never waits
      // for the copy engine (bmm 16 x 2048^3: 0.976-0.978x cuBLAS against 0.967-0.968x for 2 boxes
      // and 4 stages in three calls; 8192^3 level). With bias + ReLU it was 0.5-1% slower.
      const std::int64_t seedBuffers = p.family == "matmul" && tmaN == 256 ? 4 : 2;
      const auto persistentByTma = storedByTma(persistentTmaStore, persistentTile, seedBuffers);
      out.push_back(persistentByTma ? *persistentByTma : genome(persistent, persistentTile));
      // Stream-K with the copy engine's epilogue, on 128 x 256 tiles: the fastest kernel at bf16
      // 8192^3 in every side-by-side run on the H200 (since its fix-up goes through the copy
      // engine: 1505.6 us against 1530.8 for the persistent seed, 1.041x cuBLAS), level on the bmm
      // (372.2 against 373.6) and slower with bias + ReLU at 4096^3 (9%)
      // (results/2026-12-03-h200-streamk-fixup.md): a starting point, the search keeps the better.
      // (With the threads' stores it was not one: slower at both shapes of 2026-12-02.)
      GeneMap streamk = persistentTmaStore;
      streamk["schedule"] = kStreamKSchedule;
      ParamMap streamkTile = persistentTile;
      streamkTile["BLOCK_N"] = 256;
      streamkTile["STAGES"] = 4;
      if (const auto g = storedByTma(streamk, streamkTile, 2)) out.push_back(*g);
      GeneMap pingpong = tma;
      pingpong["schedule"] = "pingpong";
      out.push_back(genome(pingpong, {{"BLOCK_M", 128}, {"BLOCK_N", 128}, {"BLOCK_K", 64}, {"WARPGROUPS", 2},
                                      {"STAGES", 5}, {"CLUSTER_M", 1}}));
      const GeneMap warpSpecialized = {{"tensor_core", "wgmma"}, {"pipeline", "warp_specialized"}, {"epilogue", "smem"},
                                       {"vector", "8"},          {"split_k", "none"}};
      out.push_back(genome(warpSpecialized, {{"BLOCK_M", 128}, {"BLOCK_N", blocks128x256 >= 132 ? 256 : 128},
                                             {"BLOCK_K", 64}, {"WARPGROUPS", 2}, {"STAGES", 4}}));
      out.push_back(genome(wgmma, {{"BLOCK_M", 128}, {"BLOCK_N", blocks128x256 >= 132 ? 256 : 128}, {"BLOCK_K", 64},
                                   {"WARPGROUPS", 2}, {"STAGES", 4}}));
      const GeneMap mma = {{"tensor_core", "mma"}, {"pipeline", "cp_async"}, {"epilogue", "smem"},
                           {"vector", "8"},        {"split_k", "none"}};
      out.push_back(genome(mma, {{"BLOCK_M", 128}, {"BLOCK_N", 256}, {"BLOCK_K", 32}, {"WARP_M", 64}, {"WARP_N", 64},
                                 {"STAGES", 3}}));
    }
    if (p.input("A").dtype == DType::F32 && p.output("C").dtype == DType::F32) {
      // fp32 accuracy on bf16 tensor cores (three-term split, six products), fed by the copy
      // engine, then by cp.async: 128x128 tiles, or 128x64 where 128x128 would leave SMs idle
      // (1024^3: 64 blocks for 132 SMs). On the H200 these were the fastest of side-by-side
      // sweeps at 4096^3 and 1024^3 (results/2026-11-29-h200-fp32-split.md).
      const bool fullMachine = ceilDiv(p.extent(p.input("A"), 0), 128) * ceilDiv(p.extent(p.output("C"), 1), 128) >=
                               static_cast<std::int64_t>(kSmsOfAnH100);
      const ParamMap tile = {{"BLOCK_M", 128}, {"BLOCK_N", fullMachine ? 128 : 64}, {"BLOCK_K", 32}, {"WARPGROUPS", 2},
                             {"STAGES", fullMachine ? 3 : 4}, {"PREFETCH", 2}};
      for (const char* pipeline : {kTma, kWarpSpecialized})
        out.push_back(genome({{"tensor_core", kWgmmaBf16x3}, {"pipeline", pipeline}, {"epilogue", "direct"},
                              {"vector", "4"}, {"split_k", "none"}},
                             tile));
    }
    if (p.input("A").dtype == DType::F32)
      // cuBLAS sgemm's shape (64x64 warp tiles, 8x16 per thread): the best of a
      // side-by-side sweep on the H200 (tests/bench/results/2026-11-29-h200-variants.md).
      out.push_back(genome({{"tensor_core", "none"}, {"pipeline", "cp_async"}, {"epilogue", "direct"}, {"vector", "4"},
                            {"split_k", "none"}},
                           {{"BLOCK_M", 128}, {"BLOCK_N", 128}, {"BLOCK_K", 32}, {"WARP_M", 64}, {"WARP_N", 64},
                            {"THREAD_M", 8}, {"THREAD_N", 16}, {"MIN_BLOCKS", 1}, {"STAGES", 3}}));
    out.push_back(genome({{"tensor_core", "none"}, {"pipeline", "double"}, {"epilogue", "direct"}, {"vector", "4"},
                          {"split_k", "none"}},
                         {{"BLOCK_M", 128}, {"BLOCK_N", 128}, {"BLOCK_K", 16}, {"WARP_M", 32}, {"WARP_N", 64},
                          {"THREAD_M", 8}, {"THREAD_N", 8}, {"MIN_BLOCKS", 1}}));
    out.push_back(genome({{"tensor_core", "none"}, {"pipeline", "single"}, {"epilogue", "direct"}, {"vector", "4"},
                          {"split_k", "none"}},
                         {{"BLOCK_M", 64}, {"BLOCK_N", 64}, {"BLOCK_K", 16}, {"WARP_M", 32}, {"WARP_N", 32},
                          {"THREAD_M", 8}, {"THREAD_N", 4}, {"MIN_BLOCKS", 1}}));
    return out;
  }
};

}  // namespace

const DesignSpace& gemmSpace() {
  static const GemmSpace space;
  return space;
}

std::int64_t gemmMmaSmemBytes(const Genome& g) { return GemmSpace::smemBytes(g); }

}  // namespace crucible::templates
