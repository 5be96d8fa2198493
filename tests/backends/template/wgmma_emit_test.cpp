// SPDX-License-Identifier: GPL-3.0-or-later
// The Hopper wgmma GEMM emitters (pipeline "cp_async", "warp_specialized" and "tma"):
// which genomes are legal, the launch rule, and that every legal genome of the
// suite's bf16 GEMM tasks compiles through
// NVRTC + nvJitLink for sm_90a (picked from "sm_90" by the wgmma in the
// source) without local memory, with wgmma and cp.async in the PTX and without
// ptxas serializing the wgmmas. No GPU here: the numbers are checked on the
// device with tests/gpu/kernels/wgmma_gemm_bf16.cu, which must stay the
// emitter's output for the default genome, and with
// tests/gpu/kernels/wgmma_ws_gemm_bf16.cu for the warp-specialized one
// (regenerate both with CRUCIBLE_REGENERATE_KERNELS=1).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <nvJitLink.h>
#include <nvrtc.h>
#include "backends/cuda/compile/compile_all.h"
#include "backends/cuda/compile/cuda_include_dirs.h"
#include "backends/cuda/compile/nvrtc_compiler.h"
#include "backends/proposers/template/design_space.h"
#include "backends/proposers/template/gemm_wgmma.h"
#include "core/task/expression.h"
#include "core/task/kernel_abi.h"
#include "core/task/task_library.h"
#include "tests/backends/template/suite_tasks.h"

namespace crucible {
namespace {

using templates::Genome;
using templates::KernelProblem;

const char* const kSuiteTasks[] = {"matmul_bf16_1024x1024x1024", "matmul_bias_relu_bf16_4096x4096x4096",
                                   "matmul_bf16_8192x8192x8192"};

KernelProblem suiteProblem(const std::string& name) {
  const auto file = findBuiltinTaskFile(name);
  if (!file) throw std::runtime_error("suite task " + name + " not found in " + builtinTasksDir());
  return templates::problemFromSpec(loadTaskSpecFile(*file));
}

templates::GeneMap wgmmaGenes() {
  return {{"tensor_core", "wgmma"}, {"pipeline", "cp_async"}, {"epilogue", "direct"}, {"vector", "8"}, {"split_k", "none"}};
}

templates::GeneMap wsGenes() {
  return {{"tensor_core", "wgmma"}, {"pipeline", "warp_specialized"}, {"epilogue", "smem"}, {"vector", "8"},
          {"split_k", "none"}};
}

templates::GeneMap tmaGenes() {
  templates::GeneMap genes = wsGenes();
  genes["pipeline"] = "tma";
  return genes;
}

Genome defaultTmaGenome(const std::string& family) {
  return {family, tmaGenes(),
          {{"BLOCK_M", 128}, {"BLOCK_N", 256}, {"BLOCK_K", 64}, {"WARPGROUPS", 2}, {"STAGES", 4}, {"CLUSTER_M", 1}}};
}

Genome wgmmaGenome(const std::string& family, std::int64_t bm, std::int64_t bn, std::int64_t groups, std::int64_t stages) {
  return {family, wgmmaGenes(),
          {{"BLOCK_M", bm}, {"BLOCK_N", bn}, {"BLOCK_K", 64}, {"WARPGROUPS", groups}, {"STAGES", stages}}};
}

// The recommended starting point: 128 x 256 tile, two consumer warpgroups, 4 stages.
Genome defaultGenome(const std::string& family) { return wgmmaGenome(family, 128, 256, 2, 4); }

Genome wsGenome(const std::string& family, std::int64_t bm, std::int64_t bn, std::int64_t stages) {
  return {family, wsGenes(), {{"BLOCK_M", bm}, {"BLOCK_N", bn}, {"BLOCK_K", 64}, {"WARPGROUPS", 2}, {"STAGES", stages}}};
}

// The warp-specialized starting point: 128 x 256 over two consumers (64 x 256 each), 4 stages.
Genome defaultWsGenome(const std::string& family) { return wsGenome(family, 128, 256, 4); }

// The wgmma kernels' rules as the GEMM space applies them: its genes' first, then its parameters'.
std::vector<std::string> violations(const Genome& g, const KernelProblem& p) {
  templates::Violations v;
  templates::addWgmmaGeneViolations(g.genes, p, v);
  if (v.empty()) templates::addWgmmaViolations(g, p, v);
  return v.take();
}

// Every point of the parameter grid of `genes` that those rules accept.
std::vector<Genome> legalGenomes(const KernelProblem& p, const templates::GeneMap& genes = wgmmaGenes()) {
  const auto params = templates::wgmmaParameters(genes);
  std::vector<templates::ParamMap> points(1);
  for (const auto& param : params) {
    std::vector<templates::ParamMap> next;
    for (const auto& point : points)
      for (auto value : param.values) {
        auto extended = point;
        extended[param.name] = value;
        next.push_back(extended);
      }
    points = std::move(next);
  }
  std::vector<Genome> out;
  for (const auto& point : points) {
    Genome g{p.family, genes, point};
    if (violations(g, p).empty()) out.push_back(g);
  }
  return out;
}

bool mentions(const std::vector<std::string>& reasons, const std::string& word) {
  for (const auto& r : reasons)
    if (r.find(word) != std::string::npos) return true;
  return false;
}

TEST(WgmmaSpace, ParametersAreTheDocumentedGrid) {
  const auto params = templates::wgmmaParameters(wgmmaGenes());
  std::map<std::string, std::vector<std::int64_t>> byName;
  for (const auto& p : params) byName[p.name] = p.values;
  EXPECT_EQ(byName["BLOCK_M"], (std::vector<std::int64_t>{64, 128, 256}));
  EXPECT_EQ(byName["BLOCK_N"], (std::vector<std::int64_t>{64, 128, 256}));
  EXPECT_EQ(byName["BLOCK_K"], (std::vector<std::int64_t>{64}));
  EXPECT_EQ(byName["WARPGROUPS"], (std::vector<std::int64_t>{1, 2}));
  EXPECT_EQ(byName["STAGES"], (std::vector<std::int64_t>{3, 4, 5}));
  EXPECT_EQ(params.size(), 5u);
}

TEST(WgmmaSpace, LegalityFollowsTilesRegistersAndSharedMemory) {
  const KernelProblem p = suiteProblem("matmul_bf16_8192x8192x8192");
  EXPECT_TRUE(violations(defaultGenome("matmul"), p).empty());
  EXPECT_EQ(templates::gemmWgmmaSmemBytes(defaultGenome("matmul")), 4 * (128 + 256) * 64 * 2 + 1024);

  // A 64-row tile cannot feed two warpgroups of m64 slabs.
  EXPECT_TRUE(mentions(violations(wgmmaGenome("matmul", 64, 128, 2, 4), p), "64 x WARPGROUPS"));
  // 5 stages of 128 x 256 need 241 KiB.
  EXPECT_TRUE(mentions(violations(wgmmaGenome("matmul", 128, 256, 2, 5), p), "shared memory per block"));
  // 256 x 256 over two warpgroups would keep 256 fp32 accumulators per thread.
  EXPECT_TRUE(mentions(violations(wgmmaGenome("matmul", 256, 256, 2, 3), p), "accumulators per thread"));
  EXPECT_TRUE(mentions(violations(wgmmaGenome("matmul", 128, 256, 1, 3), p), "accumulators per thread"));

  Genome wrongGenes = defaultGenome("matmul");
  wrongGenes.genes["pipeline"] = "double";
  wrongGenes.genes["split_k"] = "sliced";
  const auto reasons = violations(wrongGenes, p);
  EXPECT_TRUE(mentions(reasons, "pipeline=cp_async"));
  EXPECT_TRUE(mentions(reasons, "split_k=none"));

  const KernelProblem f32 =
      templates::problemFromSpec(testing_support::makeTask("matmul", DType::F32, {{"M", 1024}, {"N", 1024}, {"K", 1024}}));
  EXPECT_TRUE(mentions(violations(defaultGenome("matmul"), f32), "bf16"));
  const KernelProblem ragged =
      templates::problemFromSpec(testing_support::makeTask("matmul", DType::BF16, {{"M", 1000}, {"N", 1000}, {"K", 1001}}));
  EXPECT_TRUE(mentions(violations(defaultGenome("matmul"), ragged), "K (1001)"));

  // The hand-counted grid (see the header's domains): 31 legal points per task.
  EXPECT_EQ(legalGenomes(p).size(), 31u);
}

TEST(WgmmaWsSpace, ParametersAreTheDocumentedGrid) {
  const auto params = templates::wgmmaParameters(wsGenes());
  std::map<std::string, std::vector<std::int64_t>> byName;
  for (const auto& p : params) byName[p.name] = p.values;
  EXPECT_EQ(byName["BLOCK_M"], (std::vector<std::int64_t>{128, 256}));
  EXPECT_EQ(byName["BLOCK_N"], (std::vector<std::int64_t>{64, 128, 192, 256}));
  EXPECT_EQ(byName["BLOCK_K"], (std::vector<std::int64_t>{64}));
  EXPECT_EQ(byName["WARPGROUPS"], (std::vector<std::int64_t>{2}));
  EXPECT_EQ(byName["STAGES"], (std::vector<std::int64_t>{3, 4, 5, 6}));
  EXPECT_EQ(params.size(), 5u);
  // The TMA kernel has the same grid and its cluster size.
  const auto tma = templates::wgmmaParameters(tmaGenes());
  ASSERT_EQ(tma.size(), 6u);
  EXPECT_EQ(tma.back().name, "CLUSTER_M");
  EXPECT_EQ(tma.back().values, (std::vector<std::int64_t>{1, 2}));
}

// 192 columns are three swizzle panels for the copy engine, but 24 chunks per k-row do not
// split over the cp.async producer's 128 threads.
TEST(WgmmaWsSpace, TheCpAsyncProducerCannotSplitA192WideTile) {
  const KernelProblem p = suiteProblem("matmul_bf16_8192x8192x8192");
  Genome ws = wsGenome("matmul", 128, 192, 4);
  EXPECT_TRUE(mentions(violations(ws, p), "BLOCK_N / 8")) << ws.toJson();
  Genome tma = defaultTmaGenome("matmul");
  tma.params["BLOCK_N"] = 192;
  EXPECT_TRUE(violations(tma, p).empty()) << tma.toJson();
  const auto k = templates::emitGemmWgmma(tma, p);
  EXPECT_NE(k.source.find("wgmma.mma_async.sync.aligned.m64n192k16"), std::string::npos);
  EXPECT_EQ(evaluateAxisExpression(k.launch.grid[0], p.axes), 43 * 64);  // 8192 / 192 rounded up, x 64 rows
}

TEST(WgmmaWsSpace, LegalityFollowsTilesRegistersAndSharedMemory) {
  const KernelProblem p = suiteProblem("matmul_bf16_8192x8192x8192");
  EXPECT_TRUE(violations(defaultWsGenome("matmul"), p).empty());
  // The ring, 1 KiB of alignment, a full and an empty mbarrier per stage.
  EXPECT_EQ(templates::gemmWgmmaSmemBytes(defaultWsGenome("matmul")), 4 * (128 + 256) * 64 * 2 + 1024 + 2 * 4 * 8);
  EXPECT_TRUE(mentions(violations(wsGenome("matmul", 128, 256, 5), p), "shared memory per block"));
  EXPECT_TRUE(mentions(violations(wsGenome("matmul", 256, 256, 3), p), "accumulators per thread"));
  EXPECT_TRUE(mentions(violations(wsGenome("matmul", 128, 128, 2), p), "STAGES >= 3"));
  Genome oneConsumer = defaultWsGenome("matmul");
  oneConsumer.params["WARPGROUPS"] = 1;
  EXPECT_TRUE(mentions(violations(oneConsumer, p), "WARPGROUPS=2"));
  Genome direct = defaultWsGenome("matmul");
  direct.genes["epilogue"] = "direct";
  EXPECT_TRUE(mentions(violations(direct, p), "epilogue=smem"));
  const KernelProblem ragged =
      templates::problemFromSpec(testing_support::makeTask("matmul", DType::BF16, {{"M", 1000}, {"N", 1000}, {"K", 1001}}));
  EXPECT_TRUE(mentions(violations(defaultWsGenome("matmul"), ragged), "K (1001)"));

  // Hand count: 128x64 and 128x128 with 3-6 stages (8), 128x256 with 3-4 (2),
  // 256x64 with 3-5 (3), 256x128 with 3-4 (2); 256x256 needs 256 accumulators.
  EXPECT_EQ(legalGenomes(p, wsGenes()).size(), 15u);
}

// The GEMM design space offers the new pipeline value to wgmma genomes only.
TEST(WgmmaWsSpace, GemmSpaceRoutesTheWarpSpecializedPipeline) {
  const KernelProblem p = suiteProblem("matmul_bf16_1024x1024x1024");
  const auto& space = templates::designSpaceFor("matmul");
  bool offered = false;
  for (const auto& gene : space.genes(p))
    if (gene.name == "pipeline")
      offered = std::find(gene.values.begin(), gene.values.end(), "warp_specialized") != gene.values.end();
  EXPECT_TRUE(offered);
  EXPECT_TRUE(space.violations(defaultWsGenome("matmul"), p).empty());
  EXPECT_EQ(space.descriptor(defaultWsGenome("matmul")).at("pipeline"), "warp_specialized");
  EXPECT_EQ(space.descriptor(defaultWsGenome("matmul")).at("stages"), "4");
  Genome mma{"matmul",
             {{"tensor_core", "mma"}, {"pipeline", "warp_specialized"}, {"epilogue", "smem"}, {"vector", "8"},
              {"split_k", "none"}},
             {{"BLOCK_M", 128}, {"BLOCK_N", 128}, {"BLOCK_K", 32}, {"WARP_M", 64}, {"WARP_N", 64}}};
  EXPECT_TRUE(mentions(space.violations(mma, p), "warp-specialized"));
  // The cp_async kernel is still there, unchanged in legality.
  EXPECT_TRUE(space.violations(defaultGenome("matmul"), p).empty());
}

TEST(WgmmaWsEmit, LaunchRuleAndHandshake) {
  const KernelProblem p = suiteProblem("matmul_bf16_8192x8192x8192");
  const auto k = templates::emitGemmWgmma(defaultWsGenome("matmul"), p);
  EXPECT_EQ(evaluateAxisExpression(k.launch.grid[0], p.axes), (8192 / 256) * (8192 / 128));
  EXPECT_EQ(k.launch.block[0], "384");  // producer + 2 consumers
  EXPECT_EQ(k.launch.dynamicSmemBytes, std::to_string(templates::gemmWgmmaSmemBytes(defaultWsGenome("matmul"))));
  EXPECT_NE(k.source.find("__launch_bounds__(THREADS, 1)"), std::string::npos);
  EXPECT_NE(k.source.find("cp.async.mbarrier.arrive.noinc.shared::cta.b64"), std::string::npos);
  EXPECT_NE(k.source.find("setmaxnreg.dec.sync.aligned.u32"), std::string::npos);
  EXPECT_NE(k.source.find("setmaxnreg.inc.sync.aligned.u32"), std::string::npos);
  EXPECT_NE(k.source.find("constexpr int ENTRY_REGISTERS = 168;"), std::string::npos);
  const auto fused = templates::emitGemmWgmma(defaultWsGenome("matmul_bias_relu"),
                                              suiteProblem("matmul_bias_relu_bf16_4096x4096x4096")).source;
  EXPECT_NE(fused.find("__bfloat162float(bias[col])"), std::string::npos);
  EXPECT_NE(fused.find("fmaxf("), std::string::npos);
  EXPECT_EQ(k.source.find("bias"), std::string::npos);
}

TEST(WgmmaEmit, LaunchRuleCoversTheMatrixWithGroupedBlocks) {
  const KernelProblem p = suiteProblem("matmul_bf16_8192x8192x8192");
  const auto k = templates::emitGemmWgmma(defaultGenome("matmul"), p);
  EXPECT_EQ(k.launch.entry, p.entry);
  EXPECT_EQ(evaluateAxisExpression(k.launch.grid[0], p.axes), (8192 / 256) * (8192 / 128));
  EXPECT_EQ(k.launch.grid[1], "1");
  EXPECT_EQ(k.launch.block[0], "256");
  EXPECT_EQ(k.launch.dynamicSmemBytes, std::to_string(templates::gemmWgmmaSmemBytes(defaultGenome("matmul"))));
  EXPECT_NE(k.source.find("wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16"), std::string::npos);
  EXPECT_NE(k.source.find("__launch_bounds__(THREADS, 1)"), std::string::npos);
}

TEST(WgmmaEmit, FusedEpilogueAddsBiasAndRelu) {
  const KernelProblem p = suiteProblem("matmul_bias_relu_bf16_4096x4096x4096");
  const auto source = templates::emitGemmWgmma(defaultGenome("matmul_bias_relu"), p).source;
  EXPECT_NE(source.find("__bfloat162float(bias[col])"), std::string::npos);
  EXPECT_NE(source.find("fmaxf("), std::string::npos);
  const auto plain = templates::emitGemmWgmma(defaultGenome("matmul"), suiteProblem("matmul_bf16_1024x1024x1024")).source;
  EXPECT_EQ(plain.find("bias"), std::string::npos);
}

// A host model of the shared-memory layout: where the emitted copies put each
// element (the kernel's load_tile formulas, restated) against where wgmma reads
// it (the PTX ISA's canonical 128-byte-swizzle layouts with the kernel's
// descriptors: start, leading and stride byte offsets). A mismatch means wrong
// products on the GPU, which cannot be seen on this machine.
std::uint32_t swizzle128(std::uint32_t address) { return address ^ (((address >> 7) & 7u) << 4); }

struct LayoutModel {
  int bm, bn, groups;  // groups: the warpgroups running wgmma, each on bm / groups rows
  int copyThreads;     // the threads issuing the copies: all of them (cp_async) or the producer's 128
  static constexpr int kRowBytes = 128, kSwizzleBytes = 1024;
  int threads() const { return copyThreads; }
  int aStageBytes() const { return bm * kRowBytes; }
  int bPanelBytes() const { return 64 * kRowBytes; }
  int stageBytes() const { return aStageBytes() + bn / 64 * bPanelBytes(); }
  // Byte address (from the ring) of A tile element (row, k) / B tile element (k, n) as copied.
  std::map<std::pair<int, int>, std::uint32_t> copiedA(int stage) const {
    std::map<std::pair<int, int>, std::uint32_t> at;
    const int aStep = threads() / 8, aLoads = bm * 8 / threads();
    for (int tid = 0; tid < threads(); ++tid) {
      const int aRow = tid / 8, aChunk = tid % 8;
      const std::uint32_t aDst = aRow * kRowBytes + ((aChunk ^ (aRow % 8)) * 16);
      for (int i = 0; i < aLoads; ++i)
        for (int e = 0; e < 8; ++e)
          at[{aRow + i * aStep, aChunk * 8 + e}] = stage * stageBytes() + aDst + i * aStep * kRowBytes + e * 2;
    }
    return at;
  }
  std::map<std::pair<int, int>, std::uint32_t> copiedB(int stage) const {
    std::map<std::pair<int, int>, std::uint32_t> at;
    const int bStep = threads() / (bn / 8), bLoads = 64 * (bn / 8) / threads();
    for (int tid = 0; tid < threads(); ++tid) {
      const int bRow = tid / (bn / 8), bChunk = tid % (bn / 8);
      const std::uint32_t bDst = bChunk / 8 * bPanelBytes() + bRow * kRowBytes;
      const std::uint32_t bSwizzle = ((bChunk % 8) ^ (bRow % 8)) * 16;
      for (int i = 0; i < bLoads; ++i)
        for (int e = 0; e < 8; ++e)
          at[{bRow + i * bStep, bChunk * 8 + e}] = stage * stageBytes() + aStageBytes() + bDst + i * bStep * kRowBytes +
                                                   (bSwizzle ^ (i * bStep % 8 * 16)) + e * 2;
    }
    return at;
  }
};

// Both kernels: the cp_async one copies with all its threads, the warp-specialized one
// with its producer warpgroup; both read through the same descriptors per consumer.
void checkLayouts(const std::vector<Genome>& genomes, bool producerCopies) {
  int checked = 0;
  for (const auto& g : genomes) {
    if (g.param("STAGES") != 3) continue;  // the layout does not depend on the ring depth
    const int groups = static_cast<int>(g.param("WARPGROUPS"));
    const LayoutModel m{static_cast<int>(g.param("BLOCK_M")), static_cast<int>(g.param("BLOCK_N")), groups,
                        producerCopies ? 128 : 128 * groups};
    const int slabs = m.bm / m.groups / 64;
    const std::string where = g.paramsText();
    for (int stage = 0; stage < 3; ++stage) {
      const auto a = m.copiedA(stage);
      const auto b = m.copiedB(stage);
      ASSERT_EQ(a.size(), static_cast<std::size_t>(m.bm * 64)) << where;  // every element copied exactly once
      ASSERT_EQ(b.size(), static_cast<std::size_t>(64 * m.bn)) << where;
      for (int kk = 0; kk < 4; ++kk) {
        // B: N-major, start 16 k-rows further per k16 step, LBO = a 64-column panel, SBO = 8 k-rows.
        const std::uint32_t bStart = stage * m.stageBytes() + m.aStageBytes() + kk * 16 * LayoutModel::kRowBytes;
        for (int k = 0; k < 16; ++k)
          for (int n = 0; n < m.bn; ++n) {
            const std::uint32_t read = swizzle128(bStart + n % 64 * 2 + n / 64 * m.bPanelBytes() + k % 8 * 128 +
                                                  k / 8 * LayoutModel::kSwizzleBytes);
            ASSERT_EQ(read, b.at({kk * 16 + k, n})) << where << " B k=" << kk * 16 + k << " n=" << n;
          }
        // A: K-major, start 32 bytes further per k16 step, SBO = 8 rows, per warpgroup and slab.
        for (int wg = 0; wg < m.groups; ++wg)
          for (int s = 0; s < slabs; ++s) {
            const int firstRow = (wg * slabs + s) * 64;
            const std::uint32_t aStart = stage * m.stageBytes() + firstRow * LayoutModel::kRowBytes + kk * 32;
            for (int row = 0; row < 64; ++row)
              for (int k = 0; k < 16; ++k) {
                const std::uint32_t read =
                    swizzle128(aStart + row % 8 * 128 + row / 8 * LayoutModel::kSwizzleBytes + k * 2);
                ASSERT_EQ(read, a.at({firstRow + row, kk * 16 + k})) << where << " A row=" << firstRow + row;
              }
          }
      }
    }
    ++checked;
  }
  EXPECT_GE(checked, 5);
}

TEST(WgmmaLayout, CopiesLandWhereTheDescriptorsRead) {
  checkLayouts(legalGenomes(suiteProblem("matmul_bf16_8192x8192x8192")), false);
}

TEST(WgmmaLayout, ProducerCopiesLandWhereTheConsumersRead) {
  checkLayouts(legalGenomes(suiteProblem("matmul_bf16_8192x8192x8192"), wsGenes()), true);
}

struct Emitted {
  std::string label;
  Genome genome;
  templates::EmittedKernel kernel;
};

// Compiles every legal genome of `genes` for the suite's bf16 GEMM tasks.
void compileSweep(const templates::GeneMap& genes, bool warpSpecialized, bool tma = false) {
  std::vector<Emitted> all;
  for (const char* name : kSuiteTasks) {
    const KernelProblem p = suiteProblem(name);
    const auto genomes = legalGenomes(p, genes);
    ASSERT_FALSE(genomes.empty()) << name;
    for (const auto& g : genomes) all.push_back({name, g, templates::emitGemmWgmma(g, p)});
  }
  std::vector<CompileRequest> requests;
  for (const auto& e : all) requests.push_back({e.kernel.source, e.kernel.launch.entry, "sm_90", {}});
  NvrtcCompiler compiler;
  const auto results = compileAll(compiler, requests, 2);
  ASSERT_EQ(results.size(), all.size());
  int failures = 0;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const CompileReport& r = results[i].report;
    const std::string where = all[i].label + " " + all[i].genome.toJson();
    if (!r.ok) {
      if (++failures <= 2) ADD_FAILURE() << where << "\n" << r.log << "\n" << all[i].kernel.source;
      continue;
    }
    EXPECT_EQ(r.arch, "sm_90a") << where;
    EXPECT_FALSE(results[i].cubin.empty()) << where;
    EXPECT_EQ(r.localBytes, 0) << where;
    EXPECT_EQ(r.spillStoreBytes, 0) << where;
    EXPECT_EQ(r.spillLoadBytes, 0) << where;
    auto count = [&](const std::string& key) {
      auto it = r.features.find(key);
      return it == r.features.end() ? 0 : it->second;
    };
    // Four k16 steps per 64-deep tile for every m64 slab of the warpgroup.
    const std::int64_t slabs = all[i].genome.param("BLOCK_M") / all[i].genome.param("WARPGROUPS") / 64;
    EXPECT_GE(count("wgmma"), 4 * slabs) << where;
    if (tma) {
      // A and B's panels by bulk tensor copies; no thread copies a chunk itself.
      EXPECT_GE(count("cp.async.bulk.tensor"), 2) << where;
      EXPECT_EQ(count("cp.async"), 0) << where;
    } else {
      EXPECT_GT(count("cp.async"), 0) << where;
    }
    EXPECT_EQ(count("mma"), 0) << where;
    // ptxas serializes the wgmmas (C7515) or injects waits (C7517) when registers of an
    // in-flight wgmma are touched: the pipeline would silently lose its overlap.
    EXPECT_EQ(r.log.find("serialized"), std::string::npos) << where << "\n" << r.log;
    EXPECT_EQ(r.log.find("is injected"), std::string::npos) << where << "\n" << r.log;
    if (tma) {
      // No setmaxnreg: the consumers fit in the launch share of 168 registers.
      EXPECT_EQ(count("setmaxnreg"), 0) << where;
      EXPECT_LE(r.registers, 168) << where;
      EXPECT_GT(count("st.global.16B"), 0) << where;
    } else if (warpSpecialized) {
      // One setmaxnreg.dec (producer) and one setmaxnreg.inc (consumers), honoured by ptxas:
      // the block starts with 168 registers per thread (64 K / 384, rounded down to 8),
      // the sum the producer's 72 and the consumers' 216 were balanced against.
      EXPECT_EQ(count("setmaxnreg"), 2) << where;
      // nvJitLink compiles PTX input as a separate compilation unit, where ptxas drops
      // setmaxnreg (C7504): then every thread keeps the launch share, which must hold the
      // kernel without spills. Whole-program (LTO) compiles honour it: see the LTO test below.
      if (r.log.find("C7504") == std::string::npos) EXPECT_EQ(r.registers, 168) << where << "\n" << r.log;
      EXPECT_LE(r.registers, 168) << where;
      // The epilogue's 16-byte stores of C.
      EXPECT_GT(count("st.global.16B"), 0) << where;
    } else {
      EXPECT_EQ(count("setmaxnreg"), 0) << where;
    }
  }
  EXPECT_EQ(failures, 0);
}

TEST(WgmmaCompile, EveryLegalGenomeOfTheSuiteGemmsCompilesForSm90a) { compileSweep(wgmmaGenes(), false); }

TEST(WgmmaCompile, EveryLegalWarpSpecializedGenomeCompilesForSm90a) { compileSweep(wsGenes(), true); }

TEST(WgmmaCompile, EveryLegalTmaGenomeCompilesForSm90a) { compileSweep(tmaGenes(), true, true); }

// The PTX of a kernel, straight from NVRTC (the compile report counts opcodes,
// not mbarrier operations).
std::string ptxOf(const std::string& source) {
  nvrtcProgram program = nullptr;
  if (nvrtcCreateProgram(&program, source.c_str(), "candidate.cu", 0, nullptr, nullptr) != NVRTC_SUCCESS) return {};
  std::vector<std::string> options{"--gpu-architecture=compute_90a", "-std=c++17"};
  for (const auto& dir : nvrtcIncludeDirs(findCudaIncludeDir())) options.push_back("-I" + dir);
  std::vector<const char*> argv;
  for (const auto& o : options) argv.push_back(o.c_str());
  std::string ptx;
  std::size_t size = 0;
  if (nvrtcCompileProgram(program, static_cast<int>(argv.size()), argv.data()) == NVRTC_SUCCESS &&
      nvrtcGetPTXSize(program, &size) == NVRTC_SUCCESS && size > 0) {
    ptx.resize(size);
    nvrtcGetPTX(program, ptx.data());
  }
  nvrtcDestroyProgram(&program);
  return ptx;
}

TEST(WgmmaCompile, WarpSpecializedPtxHasTheMbarrierHandshake) {
  for (const char* name : kSuiteTasks) {
    const KernelProblem p = suiteProblem(name);
    const std::string ptx = ptxOf(templates::emitGemmWgmma(defaultWsGenome(p.family), p).source);
    ASSERT_FALSE(ptx.empty()) << name;
    for (const char* op : {"mbarrier.init.shared::cta.b64", "mbarrier.try_wait.parity.shared::cta.b64",
                           "mbarrier.arrive.shared::cta.b64", "cp.async.mbarrier.arrive.noinc.shared::cta.b64",
                           "fence.mbarrier_init.release.cluster", "setmaxnreg.dec.sync.aligned.u32 72",
                           "setmaxnreg.inc.sync.aligned.u32 216", "bar.sync 1, 256", "wgmma.wait_group.sync.aligned 1"})
      EXPECT_NE(ptx.find(op), std::string::npos) << name << ": no " << op << " in the PTX";
  }
}

TEST(WgmmaCompile, TmaPtxCopiesByTensorMapsIntoTheMbarrierRing) {
  for (const char* name : kSuiteTasks) {
    const KernelProblem p = suiteProblem(name);
    const std::string ptx = ptxOf(templates::emitGemmWgmma(defaultTmaGenome(p.family), p).source);
    ASSERT_FALSE(ptx.empty()) << name;
    for (const char* op : {"cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes",
                           "mbarrier.arrive.expect_tx.shared::cta.b64", "mbarrier.try_wait.parity.shared::cta.b64",
                           "mbarrier.arrive.shared::cta.b64", "bar.sync 1, 256", "wgmma.wait_group.sync.aligned 1"})
      EXPECT_NE(ptx.find(op), std::string::npos) << name << ": no " << op << " in the PTX";
    for (const char* op : {"cp.async.cg", "cp.async.mbarrier.arrive", "fence.proxy.async"})
      EXPECT_EQ(ptx.find(op), std::string::npos) << name << ": " << op << " in a TMA-fed kernel";
  }
}

// CLUSTER_M = 2: pairs of blocks along M share B, each copying half of its k-rows into both
// (TMA multicast); a stage is released to both producers; no block leaves before its peer.
TEST(WgmmaTmaEmit, ClusterPairsMulticastBAndReleaseStagesToBoth) {
  KernelProblem p = suiteProblem("matmul_bf16_8192x8192x8192");
  Genome g = defaultTmaGenome("matmul");
  g.params["CLUSTER_M"] = 2;
  ASSERT_TRUE(violations(g, p).empty());
  const auto k = templates::emitGemmWgmma(g, p);
  EXPECT_EQ(k.launch.tensorMaps[1], (TensorMapRule{"B", 32, 64, "128B"}));  // half of the 64 k-rows
  EXPECT_NE(k.source.find("__cluster_dims__(CLUSTER_M, 1, 1)"), std::string::npos);
  const std::string ptx = ptxOf(k.source);
  ASSERT_FALSE(ptx.empty());
  for (const char* op : {"cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster",
                         "mapa.shared::cluster.u32", "mbarrier.arrive.shared::cluster.b64",
                         "barrier.cluster.arrive.release.aligned", "barrier.cluster.wait.acquire.aligned",
                         "%cluster_ctarank"})
    EXPECT_NE(ptx.find(op), std::string::npos) << "no " << op << " in the PTX";
  // A pair must share a block column: the block rows must pair up.
  p.axes["M"] = 9 * 128;
  EXPECT_TRUE(mentions(violations(g, p), "CLUSTER_M"));
  g.params["CLUSTER_M"] = 1;
  EXPECT_TRUE(violations(g, p).empty());
  const std::string single = templates::emitGemmWgmma(g, p).source;
  EXPECT_EQ(single.find("__cluster_dims__"), std::string::npos);
  EXPECT_EQ(single.find("cluster_sync"), std::string::npos);
}

// The launch rule asks for the tensor maps the kernel's signature takes, with the
// boxes its copies count on: A's BLOCK_M x 64 tile and B's 64 x 64 panels, 128-byte swizzled.
TEST(WgmmaTmaEmit, TensorMapsMatchTheSignatureAndTheBoxes) {
  for (const char* name : kSuiteTasks) {
    const auto file = findBuiltinTaskFile(name);
    ASSERT_TRUE(file);
    const TaskSpec spec = loadTaskSpecFile(*file);
    const KernelProblem p = templates::problemFromSpec(spec);
    for (std::int64_t bm : {128, 256}) {
      Genome g = defaultTmaGenome(p.family);
      g.params["BLOCK_M"] = bm;
      g.params["BLOCK_N"] = 128;
      ASSERT_TRUE(violations(g, p).empty()) << name;
      const auto k = templates::emitGemmWgmma(g, p);
      ASSERT_EQ(k.launch.tensorMaps.size(), 2u);
      EXPECT_EQ(k.launch.tensorMaps[0], (TensorMapRule{"A", static_cast<int>(bm), 64, "128B"}));
      EXPECT_EQ(k.launch.tensorMaps[1], (TensorMapRule{"B", 64, 64, "128B"}));
      EXPECT_TRUE(tensorMapProblems(spec, k.launch.tensorMaps).empty()) << name;
      // The kernel's parameter list is the ABI's with the maps appended.
      EXPECT_TRUE(sourceHasSignature(k.source, spec, KernelRole::Candidate, k.launch.entry, k.launch.tensorMaps)) << name;
      EXPECT_FALSE(sourceHasSignature(k.source, spec, KernelRole::Candidate, k.launch.entry)) << name;
      // The stage's transaction bytes are what the copies bring: A's box plus B_PANELS boxes of 64 x 64.
      EXPECT_NE(k.source.find("mbarrier_arrive_expect_tx(full, STAGE_BYTES)"), std::string::npos);
      EXPECT_NE(k.source.find("constexpr int B_PANELS = BLOCK_N / 64;"), std::string::npos);
    }
  }
  // The cp.async kernels take no tensor maps.
  const KernelProblem p = suiteProblem("matmul_bf16_1024x1024x1024");
  EXPECT_TRUE(templates::emitGemmWgmma(defaultWsGenome("matmul"), p).launch.tensorMaps.empty());
  EXPECT_TRUE(templates::emitGemmWgmma(defaultGenome("matmul"), p).launch.tensorMaps.empty());
}

// Whole-program compile (NVRTC -dlto, nvJitLink -lto): ptxas honours setmaxnreg, the
// block starts with 168 registers per thread and neither warpgroup spills under its target.
TEST(WgmmaCompile, WarpSpecializedKernelKeepsItsRegisterTargetsUnderLto) {
  const KernelProblem p = suiteProblem("matmul_bias_relu_bf16_4096x4096x4096");
  const std::string source = templates::emitGemmWgmma(defaultWsGenome(p.family), p).source;
  nvrtcProgram program = nullptr;
  ASSERT_EQ(nvrtcCreateProgram(&program, source.c_str(), "candidate.cu", 0, nullptr, nullptr), NVRTC_SUCCESS);
  std::vector<std::string> options{"--gpu-architecture=compute_90a", "-std=c++17", "-dlto"};
  for (const auto& dir : nvrtcIncludeDirs(findCudaIncludeDir())) options.push_back("-I" + dir);
  std::vector<const char*> argv;
  for (const auto& o : options) argv.push_back(o.c_str());
  std::string ir;
  std::size_t size = 0;
  const bool compiled = nvrtcCompileProgram(program, static_cast<int>(argv.size()), argv.data()) == NVRTC_SUCCESS &&
                        nvrtcGetLTOIRSize(program, &size) == NVRTC_SUCCESS && size > 0;
  if (compiled) {
    ir.resize(size);
    nvrtcGetLTOIR(program, ir.data());
  }
  nvrtcDestroyProgram(&program);
  ASSERT_TRUE(compiled);
  const char* linkOptions[] = {"-arch=sm_90a", "-verbose", "-lto"};
  nvJitLinkHandle link = nullptr;
  ASSERT_EQ(nvJitLinkCreate(&link, 3, linkOptions), NVJITLINK_SUCCESS);
  const bool linked = nvJitLinkAddData(link, NVJITLINK_INPUT_LTOIR, ir.data(), ir.size(), "candidate") == NVJITLINK_SUCCESS &&
                      nvJitLinkComplete(link) == NVJITLINK_SUCCESS;
  std::size_t logSize = 0;
  nvJitLinkGetInfoLogSize(link, &logSize);
  std::string log(logSize, '\0');
  if (logSize > 0) nvJitLinkGetInfoLog(link, log.data());
  nvJitLinkDestroy(&link);
  ASSERT_TRUE(linked) << log;
  EXPECT_EQ(log.find("C7504"), std::string::npos) << log;
  EXPECT_NE(log.find("Used 168 registers"), std::string::npos) << log;
  EXPECT_NE(log.find(" 0 bytes spill stores, 0 bytes spill loads"), std::string::npos) << log;
  EXPECT_EQ(log.find("serialized"), std::string::npos) << log;
}

// The hand-checkable kernel for the device: a launch note, then the emitter's
// output for `g` on matmul_bf16_1024x1024x1024.
void checkKernelFile(const Genome& g, const std::string& file) {
  const KernelProblem p = suiteProblem("matmul_bf16_1024x1024x1024");
  const auto k = templates::emitGemmWgmma(g, p);
  const std::string note = "// Launch: crucible-cli eval --task " + p.taskName + " --kernel tests/gpu/kernels/" + file +
                           " --grid '" + k.launch.grid[0] + "' --block " + k.launch.block[0] + " --smem " +
                           k.launch.dynamicSmemBytes + "\n";
  const std::string expected = note + k.source;
  const std::string path = std::string(CRUCIBLE_SOURCE_DIR) + "/tests/gpu/kernels/" + file;
  if (const char* regen = std::getenv("CRUCIBLE_REGENERATE_KERNELS"); regen && std::string(regen) == "1") {
    std::ofstream(path, std::ios::binary) << expected;
  }
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << path << " is missing (CRUCIBLE_REGENERATE_KERNELS=1 writes it)";
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), expected) << path << " differs from the emitter (CRUCIBLE_REGENERATE_KERNELS=1 rewrites it)";
}

TEST(WgmmaKernelFile, IsTheEmittersDefaultKernel) { checkKernelFile(defaultGenome("matmul"), "wgmma_gemm_bf16.cu"); }

TEST(WgmmaKernelFile, IsTheEmittersWarpSpecializedKernel) {
  checkKernelFile(defaultWsGenome("matmul"), "wgmma_ws_gemm_bf16.cu");
}

}  // namespace
}  // namespace crucible
