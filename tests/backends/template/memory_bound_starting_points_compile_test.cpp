// SPDX-License-Identifier: GPL-3.0-or-later
// The memory-bound spaces' starting points at every suite shape compile for
// sm_90 to what they claim: no spills or local memory, only 16-byte global
// loads and stores of the big tensors for the 16-byte genomes, warp shuffles
// for the shuffle reductions.
#include <gtest/gtest.h>

#include "backends/cuda/compile/compile_all.h"
#include "backends/cuda/compile/nvrtc_compiler.h"
#include "backends/proposers/template/template_proposer.h"
#include "tests/backends/template/starting_points.h"
#include "tests/backends/compile/register_fit.h"

namespace crucible {
namespace {

TEST(MemoryBoundStartingPoints, CompileToWhatTheyClaim) {
  struct Item {
    std::string where;
    std::string family;
    Candidate candidate;
    std::size_t accessBytes;
  };
  std::vector<Item> items;
  for (const auto& p : testing_support::memoryBoundSuiteProblems())
    for (const auto& g : testing_support::legalStartingPoints(p))
      items.push_back({p.taskName + " " + g.toJson(), p.family, TemplateProposer::candidateFor(g, p),
                       std::stoul(g.gene("vector")) * sizeOf(p.inputs[0].dtype)});
  ASSERT_GE(items.size(), 28u) << "the built-in suite (resources/tasks) was not found";
  std::vector<CompileRequest> requests;
  for (const auto& i : items) requests.push_back({i.candidate.source, i.candidate.launch.entry, "sm_90", {}});
  NvrtcCompiler compiler;
  const auto results = compileAll(compiler, requests, 2);
  ASSERT_EQ(results.size(), items.size());
  for (std::size_t n = 0; n < items.size(); ++n) {
    const Item& i = items[n];
    const CompileReport& r = results[n].report;
    ASSERT_TRUE(r.ok) << i.where << "\n" << r.log << "\n" << i.candidate.source;
    EXPECT_LE(r.spillStoreBytes, compile_tests::kOccupancySpillBytes) << i.where;
    EXPECT_LE(r.localBytes, compile_tests::kOccupancySpillBytes) << i.where;
    auto count = [&](const std::string& key) {
      auto it = r.features.find(key);
      return it == r.features.end() ? 0 : it->second;
    };
    if (i.accessBytes == 16) {
      // Every access to the big tensors is 16 bytes wide (NVVM splits a vector
      // access it cannot prove aligned into scalars: this catches it). Only
      // cross_entropy reads narrower values: its targets and each row's target logit.
      EXPECT_GT(count("ld.global.16B"), 0) << i.where;
      if (i.family != "cross_entropy") EXPECT_EQ(count("ld.global"), count("ld.global.16B")) << i.where;
      if (i.family != "rowsum" && i.family != "cross_entropy")
        EXPECT_EQ(count("st.global"), count("st.global.16B")) << i.where;
    }
    if (i.candidate.descriptor.count("reduction") && i.candidate.descriptor.at("reduction") == "shuffle")
      EXPECT_GT(count("shfl"), 0) << i.where;
  }
}

}  // namespace
}  // namespace crucible
