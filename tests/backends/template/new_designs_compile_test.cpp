// SPDX-License-Identifier: GPL-3.0-or-later
// The designs added to the memory-bound spaces (row_designs.h, lse=pack,
// indexing=rows, math=fast) compile for sm_90 without spills or local memory: every
// legal starting point of the suite's row tasks, the user tasks of
// tests/tasks/any-operator and the generated row and elementwise operator
// cases (odd, ragged and single rows, every broadcast kind), each moved one
// step into a new design (each hint, rows re-read from global memory with
// hint=evict_last, the persistent grid at each
// BLOCKS_PER_SM, each UNROLL, sub-warp rows, lse=pack, row tiles, math=fast; for the
// transposes, each hint and the diagonal and column-major tile orders), as the
// variant bench would time them (template-variants --sweep). The PTX shows
// what the design names: the hinted loads, shuffles for the shuffle reductions.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include "backends/cuda/compile/compile_all.h"
#include "backends/cuda/compile/nvrtc_compiler.h"
#include "backends/proposers/template/genome_ops.h"
#include "backends/proposers/template/template_proposer.h"
#include "tests/backends/template/operator_tasks.h"
#include "tests/backends/template/starting_points.h"
#include "tests/backends/compile/register_fit.h"

namespace crucible {
namespace {

using templates::Genome;
using templates::KernelProblem;

struct Item {
  std::string where;
  Genome genome;
  Candidate candidate;
  std::size_t rowPackBytes;  // the vector width in bytes of inputs[0] (the row tensor)
};

bool usesNewDesign(const Genome& g) {
  auto is = [&](const std::string& gene, const std::string& value) {
    auto it = g.genes.find(gene);
    return it != g.genes.end() && it->second == value;
  };
  return is("granularity", "subwarp") || is("schedule", "persistent") || is("lse", "pack") || is("indexing", "rows") ||
         is("math", "fast") || is("order", "diagonal") || is("order", "column_major") ||
         (g.genes.count("hint") && g.gene("hint") != "default") || g.params.count("UNROLL");
}

std::vector<Item> newDesignItems() {
  std::vector<KernelProblem> problems;
  for (const auto& p : testing_support::memoryBoundSuiteProblems())
    if (p.family != "gelu") problems.push_back(p);
  for (const auto& file : testing_support::anyOperatorTaskFiles()) {
    const KernelProblem p = templates::problemFromSpec(testing_support::loadTaskFile(file));
    if (p.family == templates::kExprRowwise || p.family == templates::kExprElementwise) problems.push_back(p);
  }
  for (const auto& c : testing_support::rowwiseOperatorCases()) problems.push_back(templates::problemFromSpec(c.spec));
  for (const auto& c : testing_support::elementwiseOperatorCases()) problems.push_back(templates::problemFromSpec(c.spec));

  std::vector<Item> items;
  for (const auto& p : problems) {
    std::vector<Genome> genomes;
    for (const auto& start : testing_support::legalStartingPoints(p)) {
      for (const auto& g :
           templates::oneStepNeighbours(start, p, {"hint", "schedule", "UNROLL", "lse", "indexing", "order", "math"}))
        genomes.push_back(g);
      for (const auto& g : templates::oneStepNeighbours(start, p, {"granularity"}))
        if (g.gene("granularity") == "subwarp") genomes.push_back(g);
      // Rows re-read from global memory, with each hint they take (evict_last).
      for (const auto& reread : templates::oneStepNeighbours(start, p, {"memory"}))
        if (reread.gene("memory") == "global")
          for (const auto& g : templates::oneStepNeighbours(reread, p, {"hint"})) genomes.push_back(g);
    }
    std::vector<Genome> distinct;
    for (const auto& g : genomes)
      if (usesNewDesign(g) && std::find(distinct.begin(), distinct.end(), g) == distinct.end()) distinct.push_back(g);
    for (const auto& g : distinct)
      items.push_back({p.taskName + " " + g.toJson(), g, TemplateProposer::candidateFor(g, p),
                       std::stoul(g.gene("vector")) * sizeOf(p.inputs.at(0).dtype)});
  }
  return items;
}

TEST(NewDesignsCompile, EveryNewDesignOfTheStartingPointsCompilesForSm90) {
  const auto items = newDesignItems();
  ASSERT_GE(items.size(), 100u);
  std::cout << items.size() << " kernels of new designs\n";
  // Each new design appears.
  auto some = [&](const std::string& gene, const std::string& value) {
    return std::any_of(items.begin(), items.end(), [&](const Item& i) {
      auto it = i.genome.genes.find(gene);
      return it != i.genome.genes.end() && it->second == value;
    });
  };
  for (const auto& [gene, value] : std::vector<std::pair<std::string, std::string>>{
           {"granularity", "subwarp"}, {"schedule", "persistent"}, {"hint", "evict_first"}, {"hint", "no_allocate"},
           {"hint", "evict_last"}, {"lse", "pack"}, {"indexing", "rows"}, {"math", "fast"}, {"order", "diagonal"},
           {"order", "column_major"}})
    EXPECT_TRUE(some(gene, value)) << gene << "=" << value;

  std::vector<CompileRequest> requests;
  for (const auto& i : items) requests.push_back({i.candidate.source, i.candidate.launch.entry, "sm_90", {}});
  NvrtcCompiler compiler;
  const auto results = compileAll(compiler, requests, 2);
  ASSERT_EQ(results.size(), items.size());
  int failures = 0;
  for (std::size_t n = 0; n < items.size(); ++n) {
    const Item& i = items[n];
    const CompileReport& r = results[n].report;
    if (!r.ok) {
      if (++failures <= 3) ADD_FAILURE() << i.where << "\n" << r.log << "\n" << i.candidate.source;
      continue;
    }
    EXPECT_LE(r.spillStoreBytes, compile_tests::kOccupancySpillBytes) << i.where;
    EXPECT_LE(r.localBytes, compile_tests::kOccupancySpillBytes) << i.where;
    auto count = [&](const std::string& key) {
      auto it = r.features.find(key);
      return it == r.features.end() ? 0 : it->second;
    };
    const auto& d = i.candidate.descriptor;
    if (d.count("reduction") && d.at("reduction") == "shuffle") {
      EXPECT_GT(count("shfl"), 0) << i.where;
    }
    // A hinted row of 16-byte packs still moves them in 16-byte loads (the hinted word is a uint4).
    const std::string hint = i.genome.genes.count("hint") ? i.genome.gene("hint") : "default";
    if (hint != "default" && i.rowPackBytes == 16) {
      EXPECT_GT(count("ld.global.16B"), 0) << i.where;
    }
    // A staged transpose of 16-byte packs loads and stores nothing narrower, hinted or not.
    if (i.genome.family == "transpose" && i.genome.gene("staging") != "direct" && i.rowPackBytes == 16) {
      EXPECT_EQ(count("ld.global"), count("ld.global.16B")) << i.where;
      EXPECT_EQ(count("st.global"), count("st.global.16B")) << i.where;
    }
  }
  EXPECT_EQ(failures, 0);
}

}  // namespace
}  // namespace crucible
