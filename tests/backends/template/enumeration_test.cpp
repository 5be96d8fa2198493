// SPDX-License-Identifier: GPL-3.0-or-later
// The enumeration of legal parameter points skips a gene combination whose
// geneViolations are not empty. These tests hold it to the one truth, each
// point's violations(): nothing legal is skipped, nothing illegal is kept, for
// every family of the suite and every stated operator, the GEMMs at square,
// ragged and batched shapes; the points remembered for one GPU size are not
// handed out for another; and a genome that breaks a gene rule is refused for
// those rules alone.
#include <gtest/gtest.h>
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>
#include "backends/proposers/template/design_space.h"
#include "backends/proposers/template/kernel_problem.h"
#include "operator_tasks.h"
#include "suite_tasks.h"

namespace crucible::templates {
namespace {

using testing_support::batchedGemm;
using testing_support::makeTask;

struct Problem {
  std::string label;
  KernelProblem problem;
};

std::vector<Problem> problems() {
  std::vector<Problem> out;
  for (const auto& family : testing_support::suiteFamilies())
    for (const auto& c : testing_support::shapeCases(family)) out.push_back({c.label, problemFromSpec(c.spec)});
  for (const auto& cases : {testing_support::elementwiseOperatorCases(), testing_support::rowwiseOperatorCases(),
                            testing_support::batchedGemmCases()})
    for (const auto& c : cases) out.push_back({c.label, problemFromSpec(c.spec)});
  // A bf16 GEMM whose N and K are not whole 16-byte chunks; a batch at the grid.z limit.
  out.push_back({"matmul bf16 1024x1001x1000",
                 problemFromSpec(makeTask("matmul", DType::BF16, {{"M", 1024}, {"N", 1001}, {"K", 1000}}))});
  out.push_back({"bmm bf16 65535x64x64x64",
                 problemFromSpec(batchedGemm(makeTask("matmul", DType::BF16, {{"M", 64}, {"N", 64}, {"K", 64}}),
                                             65535, true))});
  return out;
}

std::size_t productSize(const std::vector<TunableParameter>& defs) {
  std::size_t n = 1;
  for (const auto& def : defs) n *= def.values.size();
  return n;
}

// Every `stride`-th point of a gene combination's parameter product, in the
// enumeration's order (the last parameter turning fastest).
std::vector<ParamMap> parameterProduct(const std::vector<TunableParameter>& defs, std::size_t stride) {
  std::vector<ParamMap> out;
  for (std::size_t index = 0; index < productSize(defs); index += stride) {
    ParamMap point;
    std::size_t rest = index;
    for (auto def = defs.rbegin(); def != defs.rend(); ++def) {
      point[def->name] = def->values[rest % def->values.size()];
      rest /= def->values.size();
    }
    out.push_back(std::move(point));
  }
  return out;
}

// A point's index in the parameter product (the last parameter turning fastest).
std::size_t position(const std::vector<TunableParameter>& defs, const ParamMap& point) {
  std::size_t index = 0;
  for (const auto& def : defs) {
    const auto at = std::find(def.values.begin(), def.values.end(), point.at(def.name));
    index = index * def.values.size() + static_cast<std::size_t>(at - def.values.begin());
  }
  return index;
}

const std::vector<std::string> kLegal;

std::string label(const GeneMap& genes) {
  std::string s;
  for (const auto& [name, value] : genes) s += name + "=" + value + " ";
  return s;
}

TEST(DesignSpaceEnumeration, KeepsExactlyThePointsViolationsAccepts) {
  for (const auto& [name, p] : problems()) {
    const DesignSpace& space = designSpaceFor(p.family);
    for (const auto& genes : geneCombinations(p)) {
      SCOPED_TRACE(name + ": " + label(genes));
      const auto defs = space.parameters(p.family, genes);
      const auto geneRules = space.geneViolations(genes, p);
      const auto legal = legalParameterPoints(p, genes);
      // A GEMM combination has up to tens of thousands of points: a spread of about
      // 300 of them is checked, and every point kept.
      const auto spread = parameterProduct(defs, std::max<std::size_t>(1, productSize(defs) / 300));
      if (!geneRules.empty()) {
        EXPECT_TRUE(legal.empty());
        // Skipped whole: each point is refused for the gene rules alone.
        for (const auto& params : spread) ASSERT_EQ(space.violations(Genome{p.family, genes, params}, p), geneRules);
        continue;
      }
      for (const auto& params : legal) ASSERT_EQ(space.violations(Genome{p.family, genes, params}, p), kLegal);
      const std::set<ParamMap> kept(legal.begin(), legal.end());
      for (const auto& params : spread)
        ASSERT_EQ(kept.count(params) == 1, space.violations(Genome{p.family, genes, params}, p).empty());
      // In the enumeration's order, each point once.
      ASSERT_EQ(kept.size(), legal.size());
      ASSERT_TRUE(std::is_sorted(legal.begin(), legal.end(), [&](const ParamMap& a, const ParamMap& b) {
        return position(defs, a) < position(defs, b);
      }));
    }
  }
}

// What makes the enumeration of a GEMM task fast: most of its gene combinations
// (a product of six genes) cannot be emitted whatever the parameters, and the
// enumeration does not walk their thousands of points.
TEST(DesignSpaceEnumeration, MostGemmGeneCombinationsAreRefusedByTheirGenes) {
  for (const auto dtype : {DType::BF16, DType::F32}) {
    const KernelProblem p = problemFromSpec(makeTask("matmul", dtype, {{"M", 4096}, {"N", 4096}, {"K", 4096}}));
    const DesignSpace& space = designSpaceFor(p.family);
    std::size_t points = 0, skipped = 0;
    for (const auto& genes : geneCombinations(p)) {
      const std::size_t n = productSize(space.parameters(p.family, genes));
      points += n;
      if (!space.geneViolations(genes, p).empty()) skipped += n;
    }
    SCOPED_TRACE(toString(dtype));
    EXPECT_GT(points, 2'000'000u);
    EXPECT_GT(skipped, points * 95 / 100);
  }
}

// The legal points are remembered per task and gene combination. The persistent GEMM's
// legality depends on the GPU's SM count, so the count is part of what is remembered:
// points found with no GPU known (132 SMs assumed) are not handed out for a larger GPU.
TEST(DesignSpaceEnumeration, PointsFoundForOneSmCountAreNotReusedForAnother) {
  KernelProblem p = problemFromSpec(makeTask("matmul", DType::BF16, {{"M", 1024}, {"N", 1024}, {"K", 1024}}));
  std::map<int, std::size_t> counts;
  for (const int smCount : {0, 1024, 0}) {
    p.smCount = smCount;
    std::size_t points = 0;
    for (const auto& genes : geneCombinations(p))
      for (const auto& params : legalParameterPoints(p, genes)) {
        ++points;
        ASSERT_EQ(checkGenome(Genome{p.family, genes, params}, p), kLegal) << smCount << " SMs: " << label(genes);
      }
    counts[smCount] = points;
  }
  // Persistent genomes with more tiles than 132 (256 of 64 x 64) are legal when no GPU is known; with 1024 SMs, none.
  EXPECT_LT(counts[1024], counts[0]);
}

TEST(DesignSpaceEnumeration, AGenomeBreakingAGeneRuleIsRefusedForItAlone) {
  const KernelProblem p = problemFromSpec(makeTask("matmul", DType::F32, {{"M", 1024}, {"N", 1024}, {"K", 1024}}));
  // A SIMT genome that stages through shared memory (a gene rule) with a block
  // that is not whole warp tiles (a parameter rule): the gene rule is the reason.
  const Genome g{"matmul",
                 {{"tensor_core", "none"}, {"pipeline", "double"}, {"epilogue", "smem"}, {"vector", "4"},
                  {"split_k", "none"}, {"schedule", "grid"}},
                 {{"BLOCK_M", 64}, {"BLOCK_N", 64}, {"BLOCK_K", 16}, {"WARP_M", 32}, {"WARP_N", 64}, {"THREAD_M", 4},
                  {"THREAD_N", 4}, {"MIN_BLOCKS", 1}}};
  EXPECT_EQ(checkGenome(g, p), std::vector<std::string>{"the SIMT kernel stores its results directly"});
  Genome direct = g;
  direct.genes["epilogue"] = "direct";
  direct.params["BLOCK_M"] = 32;
  direct.params["WARP_M"] = 64;
  EXPECT_EQ(checkGenome(direct, p), std::vector<std::string>{"BLOCK_M (32) must be divisible by WARP_M (64)"});
}

}  // namespace
}  // namespace crucible::templates
