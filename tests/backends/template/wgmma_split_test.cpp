// SPDX-License-Identifier: GPL-3.0-or-later
// The fp32 GEMM on bf16 tensor cores (tensor_core "wgmma_bf16x3"): which genomes
// are legal, that the three-term split holds an fp32 exactly (a host model of
// the kernel's split_pair), that the producer's plane stores land where the
// consumers' descriptors read (a host model of both, as for the bf16 kernels in
// wgmma_emit_test.cpp), and that every legal genome of the suite's fp32 GEMM
// tasks compiles for sm_90a without spills, serialized wgmmas or TF32. The
// numbers themselves are checked on the H200 (tests/bench/results).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include "backends/cuda/compile/compile_all.h"
#include "backends/cuda/compile/nvrtc_compiler.h"
#include "backends/proposers/template/gemm_wgmma.h"
#include "backends/proposers/template/kernel_problem.h"
#include "backends/proposers/template/spaces.h"
#include "backends/proposers/template/template_proposer.h"
#include "core/task/task_library.h"

namespace crucible {
namespace {

using templates::Genome;
using templates::KernelProblem;

const char* const kFp32Tasks[] = {"matmul_f32_1024x1024x1024", "matmul_f32_4096x4096x4096"};

KernelProblem taskProblem(const std::string& name) {
  const auto file = findBuiltinTaskFile(name);
  if (!file) throw std::runtime_error("suite task " + name + " not found in " + builtinTasksDir());
  return templates::problemFromSpec(loadTaskSpecFile(*file));
}

templates::GeneMap splitGenes(const std::string& pipeline = "warp_specialized") {
  return {{"tensor_core", "wgmma_bf16x3"}, {"pipeline", pipeline}, {"epilogue", "direct"},
          {"vector", "4"},                 {"split_k", "none"}};
}

Genome splitGenome(std::int64_t bm, std::int64_t bn, std::int64_t stages, std::int64_t prefetch,
                   const std::string& pipeline = "warp_specialized") {
  return {"matmul", splitGenes(pipeline),
          {{"BLOCK_M", bm}, {"BLOCK_N", bn}, {"BLOCK_K", 32}, {"WARPGROUPS", 2}, {"STAGES", stages}, {"PREFETCH", prefetch}}};
}

std::vector<std::string> violations(const Genome& g, const KernelProblem& p) {
  return templates::gemmSpace().violations(g, p);
}

std::vector<Genome> legalGenomes(const KernelProblem& p, const std::string& pipeline = "warp_specialized") {
  std::vector<Genome> out;
  for (auto bm : {128, 256})
    for (auto bn : {64, 128})
      for (auto stages : {2, 3, 4})
        for (auto prefetch : {1, 2, 3})
          if (Genome g = splitGenome(bm, bn, stages, prefetch, pipeline); violations(g, p).empty()) out.push_back(g);
  return out;
}

TEST(WgmmaSplitSpace, OnlyFp32TasksOfferTheSplit) {
  auto offers = [](const KernelProblem& p) {
    for (const auto& gene : templates::gemmSpace().genes(p))
      if (gene.name == "tensor_core")
        return std::find(gene.values.begin(), gene.values.end(), "wgmma_bf16x3") != gene.values.end();
    return false;
  };
  EXPECT_TRUE(offers(taskProblem("matmul_f32_4096x4096x4096")));
  EXPECT_FALSE(offers(taskProblem("matmul_bf16_8192x8192x8192")));
  // A bf16 task given the gene anyway is refused with the reason.
  const auto why = violations(splitGenome(128, 128, 3, 2), taskProblem("matmul_bf16_1024x1024x1024"));
  ASSERT_FALSE(why.empty());
  EXPECT_NE(why[0].find("fp32 A and B"), std::string::npos) << why[0];
}

TEST(WgmmaSplitSpace, TheTmaProducerStagesUnswizzledFp32Boxes) {
  const KernelProblem p = taskProblem("matmul_f32_4096x4096x4096");
  const Genome g = splitGenome(128, 128, 3, 2, "tma");
  ASSERT_TRUE(violations(g, p).empty());
  const auto k = templates::emitGemmWgmmaSplit(g, p);
  ASSERT_EQ(k.launch.tensorMaps.size(), 2u);
  EXPECT_EQ(k.launch.tensorMaps[0].tensor, "A");
  EXPECT_EQ(k.launch.tensorMaps[0].boxRows, 128);
  EXPECT_EQ(k.launch.tensorMaps[0].boxCols, 32);
  EXPECT_EQ(k.launch.tensorMaps[1].tensor, "B");
  EXPECT_EQ(k.launch.tensorMaps[1].boxRows, 32);
  EXPECT_EQ(k.launch.tensorMaps[1].boxCols, 128);
  for (const auto& m : k.launch.tensorMaps) EXPECT_EQ(m.swizzle, "none");
  EXPECT_NE(k.source.find("const __grid_constant__ CUtensorMap tmap_A"), std::string::npos);
  // One more mbarrier per staging slot than the cp.async producer.
  EXPECT_EQ(templates::gemmWgmmaSplitSmemBytes(g), templates::gemmWgmmaSplitSmemBytes(splitGenome(128, 128, 3, 2)) + 2 * 8);
  // Anything but the two producers is refused with the reason.
  const auto why = violations(splitGenome(128, 128, 3, 2, "double"), p);
  ASSERT_FALSE(why.empty());
  EXPECT_NE(why[0].find("pipeline=tma"), std::string::npos) << why[0];
}

TEST(WgmmaSplitSpace, LegalityFollowsRegistersAndSharedMemory) {
  const KernelProblem p = taskProblem("matmul_f32_4096x4096x4096");
  EXPECT_TRUE(violations(splitGenome(128, 128, 3, 2), p).empty());
  EXPECT_TRUE(violations(splitGenome(128, 64, 4, 2), p).empty());
  // Two 64 x 128 sets of fp32 per consumer thread (acc and the tile sum) fill the launch share.
  EXPECT_FALSE(violations(splitGenome(256, 128, 2, 1), p).empty());
  // 4 stages of 48 KiB planes and 2 of 32 KiB fp32 staging exceed 227 KiB.
  EXPECT_FALSE(violations(splitGenome(128, 128, 4, 2), p).empty());
  EXPECT_EQ(templates::gemmWgmmaSplitSmemBytes(splitGenome(128, 128, 3, 2)), 3 * 49152 + 2 * 32768 + 1024 + 48);
  EXPECT_GE(legalGenomes(p).size(), 8u);
}

// The kernel's split_pair on the host: bf16 round-to-nearest-even of an fp32, then the
// exact fp32 remainder, three times.
float bf16Round(float x) {
  std::uint32_t bits = std::bit_cast<std::uint32_t>(x);
  bits += 0x7FFFu + ((bits >> 16) & 1u);
  return std::bit_cast<float>(bits & 0xFFFF0000u);
}

TEST(WgmmaSplitArithmetic, ThreeBf16TermsHoldAnFp32Exactly) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> mantissa(-1.0f, 1.0f);
  std::uniform_int_distribution<int> exponent(-60, 60);
  double worst = 0;
  for (int i = 0; i < 200000; ++i) {
    const float x = std::ldexp(mantissa(rng), exponent(rng));
    if (x == 0.0f) continue;
    float rest = x;
    double exact = 0;
    for (int t = 0; t < 3; ++t) {
      const float term = bf16Round(rest);
      ASSERT_EQ(term, bf16Round(term)) << "a term is a bf16";
      // The subtraction is exact: the term holds rest's leading bits.
      ASSERT_EQ(static_cast<double>(rest) - term, static_cast<double>(rest - term)) << x;
      rest -= term;
      exact += term;
    }
    worst = std::max(worst, std::abs(exact - x) / std::abs(static_cast<double>(x)));
  }
  // Exact: 8 + 8 + 8 significant bits hold fp32's 24 (rounding to nearest leaves each
  // remainder at most half a bf16 ulp, so it never needs more bits than the next term has).
  EXPECT_EQ(worst, 0.0);
}

// Host model of the planes: where split_tile stores element (row, k) of A's and (k, n) of
// B's tile (the kernel's formulas, restated), against where wgmma reads them through the
// consumers' descriptors (PTX ISA canonical layouts: A K-major with 64-byte swizzle, B
// N-major with 128-byte swizzle).
std::uint32_t swizzle64(std::uint32_t a) { return a ^ (((a >> 7) & 3u) << 4); }
std::uint32_t swizzle128(std::uint32_t a) { return a ^ (((a >> 7) & 7u) << 4); }

TEST(WgmmaSplitLayout, PlaneStoresLandWhereTheDescriptorsRead) {
  for (const auto& g : legalGenomes(taskProblem("matmul_f32_4096x4096x4096"))) {
    const int bm = static_cast<int>(g.param("BLOCK_M")), bn = static_cast<int>(g.param("BLOCK_N"));
    const int aRowBytes = 64, aPlaneBytes = bm * aRowBytes, bPanelBytes = 32 * 128;
    const int slabs = bm / 2 / 64;
    std::map<std::pair<int, int>, std::uint32_t> a, b;  // element -> byte offset in the A / B plane
    // The kernel's split_tile: a thread's first chunk's offset and swizzle, then constant steps.
    const int aRowStep = 128 / 8, bRowChunks = bn / 4, bRowStep = 128 / bRowChunks;
    for (int tid = 0; tid < 128; ++tid) {
      const int aRow0 = tid / 8, aC = tid % 8;
      const int aDst = aRow0 * aRowBytes + ((((aC >> 1) ^ ((aRow0 >> 1) & 3)) << 4) | ((aC & 1) << 3));
      for (int i = 0; i < bm * 8 / 128; ++i)
        for (int e = 0; e < 4; ++e)
          ASSERT_TRUE(a.emplace(std::pair{aRow0 + i * aRowStep, aC * 4 + e}, aDst + i * aRowStep * aRowBytes + 2 * e).second);
      const int bK0 = tid / bRowChunks, bC = tid % bRowChunks;
      const int bDst = (bC >> 4) * bPanelBytes + bK0 * 128 + ((bC & 1) << 3);
      const int bSwizzle = (((bC & 15) >> 1) ^ (bK0 & 7)) << 4;
      for (int i = 0; i < 32 * bn / 4 / 128; ++i) {
        const int row = i * bRowStep;
        for (int e = 0; e < 4; ++e)
          ASSERT_TRUE(
              b.emplace(std::pair{bK0 + row, bC * 4 + e}, bDst + row * 128 + (bSwizzle ^ (row % 8 << 4)) + 2 * e).second);
      }
    }
    ASSERT_EQ(a.size(), static_cast<std::size_t>(bm * 32));
    ASSERT_EQ(b.size(), static_cast<std::size_t>(32 * bn));
    for (int kk = 0; kk < 2; ++kk) {
      for (int wg = 0; wg < 2; ++wg)
        for (int s = 0; s < slabs; ++s) {
          const int first = (wg * slabs + s) * 64;
          const std::uint32_t start = first * aRowBytes + kk * 32;  // SBO 512: 8 rows of 64 bytes
          for (int row = 0; row < 64; ++row)
            for (int k = 0; k < 16; ++k)
              ASSERT_EQ(swizzle64(start + row % 8 * 64 + row / 8 * 512 + k * 2), a.at({first + row, kk * 16 + k}))
                  << g.paramsText() << " A row " << first + row << " k " << kk * 16 + k;
        }
      const std::uint32_t start = kk * 16 * 128;  // LBO: a 64-column panel; SBO 1024: 8 k-rows
      for (int k = 0; k < 16; ++k)
        for (int n = 0; n < bn; ++n)
          ASSERT_EQ(swizzle128(start + n % 64 * 2 + n / 64 * bPanelBytes + k % 8 * 128 + k / 8 * 1024),
                    b.at({kk * 16 + k, n}))
              << g.paramsText() << " B k " << kk * 16 + k << " n " << n;
    }
    EXPECT_EQ(aPlaneBytes % 1024, 0);
  }
}

TEST(WgmmaSplitCompile, EveryLegalGenomeOfTheFp32SuiteCompilesForSm90a) {
  struct Emitted {
    std::string where;
    templates::EmittedKernel kernel;
  };
  std::vector<Emitted> all;
  for (const char* name : kFp32Tasks) {
    const KernelProblem p = taskProblem(name);
    for (const char* pipeline : {"warp_specialized", "tma"})
      for (const auto& g : legalGenomes(p, pipeline))
        all.push_back({std::string(name) + " " + pipeline + " " + g.paramsText(), templates::emitGemmWgmmaSplit(g, p)});
  }
  ASSERT_GE(all.size(), 32u);
  std::vector<CompileRequest> requests;
  for (const auto& e : all) requests.push_back({e.kernel.source, e.kernel.launch.entry, "sm_90", {}});
  NvrtcCompiler compiler;
  const auto results = compileAll(compiler, requests, 2);
  ASSERT_EQ(results.size(), all.size());
  for (std::size_t i = 0; i < results.size(); ++i) {
    const CompileReport& r = results[i].report;
    const std::string& where = all[i].where;
    ASSERT_TRUE(r.ok) << where << "\n" << r.log;
    EXPECT_EQ(r.arch, "sm_90a") << where;
    EXPECT_EQ(r.spillStoreBytes, 0) << where;
    EXPECT_LE(r.registers, 168) << where;
    auto count = [&](const std::string& key) {
      auto it = r.features.find(key);
      return it == r.features.end() ? 0 : it->second;
    };
    // Six products x two k16 steps per stage, each slab.
    EXPECT_GE(count("wgmma"), 12) << where;
    // Fed by cp.async, or by bulk tensor copies (and then no thread copies a chunk itself).
    const bool tma = where.find(" tma ") != std::string::npos;
    EXPECT_EQ(count("cp.async.bulk.tensor") > 0, tma) << where;
    EXPECT_EQ(count("cp.async") > 0, !tma) << where;
    EXPECT_EQ(all[i].kernel.launch.tensorMaps.size(), tma ? 2u : 0u) << where;
    EXPECT_EQ(r.log.find("serialized"), std::string::npos) << where << "\n" << r.log;
    EXPECT_EQ(r.log.find("is injected"), std::string::npos) << where << "\n" << r.log;
    EXPECT_EQ(all[i].kernel.source.find("tf32"), std::string::npos) << where;
  }
}

}  // namespace
}  // namespace crucible
