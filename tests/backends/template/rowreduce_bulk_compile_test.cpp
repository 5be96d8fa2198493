// SPDX-License-Identifier: GPL-3.0-or-later
// fill=bulk kernels of the rowreduce family compile for sm_90 without spills or
// local memory, at the suite's shapes and the odd ones of suite_tasks: the
// bulk starting points, and a sample of every family's legal bulk
// architectures (row_blocks and persistent grids, each STAGES, several rows
// per block, hint=evict_first). The PTX shows the copy engine reading the
// rows: bulk copies, and no global loads but the side tensors' (weight, bias,
// targets).
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <set>
#include "backends/cuda/compile/compile_all.h"
#include "backends/cuda/compile/nvrtc_compiler.h"
#include "backends/proposers/template/design_space.h"
#include "backends/proposers/template/genome_ops.h"
#include "backends/proposers/template/row_designs.h"
#include "backends/proposers/template/template_proposer.h"
#include "tests/backends/template/starting_points.h"
#include "tests/backends/template/suite_tasks.h"

namespace crucible {
namespace {

using templates::Genome;
using templates::KernelProblem;

constexpr std::size_t kArchitecturesPerProblem = 10;

struct Item {
  std::string where;
  Genome genome;
  std::string family;
  Candidate candidate;
};

std::vector<KernelProblem> rowReduceProblems() {
  const std::set<std::string> families = {"softmax", "layernorm", "rmsnorm", "rowsum", "cross_entropy"};
  std::vector<KernelProblem> out;
  for (const auto& p : testing_support::memoryBoundSuiteProblems())
    if (families.count(p.family)) out.push_back(p);
  for (const auto& family : families)
    for (const auto& sc : testing_support::shapeCases(family)) out.push_back(templates::problemFromSpec(sc.spec));
  return out;
}

// Up to kArchitecturesPerProblem legal bulk architectures of `p`, drawn at
// random, each with a legal parameter point whose STAGES (persistent grids)
// takes the values 1, 2, 3, 4 in turn.
std::vector<Genome> sampledBulkGenomes(const KernelProblem& p, templates::Rng& rng) {
  std::vector<std::pair<templates::GeneMap, std::vector<templates::ParamMap>>> archs;
  for (const auto& genes : templates::geneCombinations(p)) {
    if (genes.at("fill") != "bulk") continue;
    auto points = templates::legalParameterPoints(p, genes);
    if (!points.empty()) archs.emplace_back(genes, std::move(points));
  }
  std::shuffle(archs.begin(), archs.end(), rng);
  if (archs.size() > kArchitecturesPerProblem) archs.resize(kArchitecturesPerProblem);
  std::vector<Genome> out;
  for (std::size_t n = 0; n < archs.size(); ++n) {
    const auto& [genes, points] = archs[n];
    std::vector<templates::ParamMap> wanted;
    for (const auto& point : points)
      if (!point.count("STAGES") || point.at("STAGES") == 1 + static_cast<std::int64_t>(n % 4)) wanted.push_back(point);
    const auto& from = wanted.empty() ? points : wanted;
    out.push_back({p.family, genes, from[std::uniform_int_distribution<std::size_t>(0, from.size() - 1)(rng)]});
  }
  return out;
}

std::vector<Item> bulkItems() {
  std::vector<Item> items;
  templates::Rng rng(2024);
  for (const auto& p : rowReduceProblems()) {
    std::vector<Genome> genomes = sampledBulkGenomes(p, rng);
    for (const auto& g : testing_support::legalStartingPoints(p))
      if (templates::rowBulkFill(g.genes)) genomes.push_back(g);
    for (const auto& g : genomes)
      items.push_back({p.taskName + " " + g.toJson(), g, p.family, TemplateProposer::candidateFor(g, p)});
  }
  return items;
}

TEST(RowReduceBulkCompile, BulkKernelsCompileForSm90AndReadTheRowThroughTheCopyEngine) {
  const auto items = bulkItems();
  std::cout << items.size() << " bulk kernels\n";
  ASSERT_GE(items.size(), 100u);
  // What the sample must cover.
  std::set<std::string> families, stages, schedules, hints;
  bool severalRows = false;
  for (const auto& i : items) {
    families.insert(i.family);
    schedules.insert(i.genome.gene("schedule"));
    if (i.genome.params.count("STAGES")) stages.insert(std::to_string(i.genome.param("STAGES")));
    hints.insert(i.genome.genes.count("hint") ? i.genome.gene("hint") : "default");
    severalRows |= templates::rowRowsPerBlock(i.genome) > 1;
  }
  EXPECT_EQ(families.size(), 5u);
  EXPECT_EQ(stages, (std::set<std::string>{"1", "2", "3", "4"}));
  EXPECT_EQ(schedules, (std::set<std::string>{"row_blocks", "persistent"}));
  EXPECT_TRUE(hints.count("evict_first"));
  EXPECT_TRUE(severalRows);

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
    EXPECT_EQ(r.spillStoreBytes, 0) << i.where;
    EXPECT_EQ(r.localBytes, 0) << i.where;
    auto count = [&](const std::string& key) {
      auto it = r.features.find(key);
      return it == r.features.end() ? 0 : it->second;
    };
    EXPECT_GT(count("cp.async.bulk"), 0) << i.where;
    // The row comes from shared memory: softmax and rowsum load nothing from global memory,
    // the norms only their weights (and bias), cross_entropy only the targets (8 bytes).
    if (i.family == "softmax" || i.family == "rowsum") EXPECT_EQ(count("ld.global"), 0) << i.where;
    if (i.family == "cross_entropy") EXPECT_EQ(count("ld.global"), count("ld.global.8B")) << i.where;
    EXPECT_GT(count("ld.shared"), 0) << i.where;
    if (i.genome.gene("reduction") == "shuffle") EXPECT_GT(count("shfl"), 0) << i.where;
  }
  EXPECT_EQ(failures, 0);
}

}  // namespace
}  // namespace crucible
