// SPDX-License-Identifier: GPL-3.0-or-later
// Every family's design space compiles: a random sample of legal genomes
// (at least 100 per family, over small, large and ragged shapes) goes through
// NVRTC for sm_90, and the compiled PTX backs the behavioural
// descriptors (vector width, tensor cores, cp.async, shuffles).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include "backends/cuda/compile/compile_all.h"
#include "backends/cuda/compile/nvrtc_compiler.h"
#include "backends/proposers/template/design_space.h"
#include "backends/proposers/template/genome_ops.h"
#include "backends/proposers/template/template_proposer.h"
#include "tests/backends/template/suite_tasks.h"
#include "tests/backends/compile/register_fit.h"

namespace crucible {
namespace {

using templates::Genome;

constexpr int kPerFamily = 100;

struct Sample {
  std::string label;
  Candidate candidate;
  DType dtype;
};

std::vector<Sample> sampleFamily(const std::string& family, std::uint64_t seed) {
  const auto cases = testing_support::shapeCases(family);
  const int perCase = (kPerFamily + static_cast<int>(cases.size()) - 1) / static_cast<int>(cases.size());
  std::vector<Sample> out;
  templates::Rng rng(seed);
  for (const auto& sc : cases) {
    const auto p = templates::problemFromSpec(sc.spec);
    std::set<std::string> seen;
    // Distinct genomes where the space has enough; small spaces repeat less than perCase.
    for (int attempt = 0; attempt < perCase * 4 && static_cast<int>(seen.size()) < perCase; ++attempt) {
      const Genome g = templates::randomGenome(p, rng);
      if (!seen.insert(g.toJson()).second) continue;
      out.push_back({sc.label, TemplateProposer::candidateFor(g, p), sc.spec.inputs[0].dtype});
    }
  }
  return out;
}

// What the PTX must show for the descriptor to be honest.
void expectDescriptorInPtx(const Sample& s, const CompileReport& r) {
  const auto& d = s.candidate.descriptor;
  auto count = [&](const std::string& key) {
    auto it = r.features.find(key);
    return it == r.features.end() ? 0 : it->second;
  };
  const std::string where = s.label + " " + s.candidate.genomeJson;
  if (d.count("tensor_core")) {
    if (d.at("tensor_core") == "mma") {
      EXPECT_GT(count("mma"), 0) << where;
      EXPECT_GT(count("ldmatrix"), 0) << where;
    } else {
      EXPECT_EQ(count("mma"), 0) << where;
    }
    // The warp-specialized wgmma kernel's producer warps copy with cp.async too, and the
    // persistent wgmma kernels of matmul_bias_relu copy each tile's slice of the bias so.
    const bool biasSlice = s.candidate.genomeJson.find("\"family\":\"matmul_bias_relu\"") != std::string::npos &&
                           d.at("tensor_core") == "wgmma" && d.count("schedule") && d.at("schedule") != "grid";
    const bool copiesAsync = d.at("pipeline") == "cp_async" || d.at("pipeline") == "warp_specialized" || biasSlice;
    EXPECT_EQ(count("cp.async") > 0, copiesAsync) << where;
    return;
  }
  const std::size_t bytes = std::stoul(d.at("vector")) * sizeOf(s.dtype);
  if (bytes >= 4) {
    EXPECT_GT(count("ld.global." + std::to_string(bytes) + "B"), 0) << where;
  }
  if (d.count("reduction")) {
    EXPECT_EQ(count("shfl") > 0, d.at("reduction") == "shuffle") << where;
  }
}

class TemplateCompile : public ::testing::TestWithParam<std::string> {};

TEST_P(TemplateCompile, RandomLegalGenomesCompileForSm90) {
  const std::string family = GetParam();
  const auto samples = sampleFamily(family, 2026);
  ASSERT_GE(samples.size(), static_cast<std::size_t>(kPerFamily)) << family;
  std::vector<CompileRequest> requests;
  for (const auto& s : samples) requests.push_back({s.candidate.source, s.candidate.launch.entry, "sm_90", {}});
  NvrtcCompiler compiler;
  const auto results = compileAll(compiler, requests, 2);
  ASSERT_EQ(results.size(), samples.size());
  int failures = 0;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const CompileReport& r = results[i].report;
    if (!r.ok) {
      if (++failures <= 3)
        ADD_FAILURE() << samples[i].label << " " << samples[i].candidate.genomeJson << "\n" << r.log << "\n"
                      << samples[i].candidate.source;
      continue;
    }
    EXPECT_FALSE(results[i].cubin.empty());
    EXPECT_LE(r.spillStoreBytes, compile_tests::kOccupancySpillBytes) << samples[i].label << " " << samples[i].candidate.genomeJson;
    expectDescriptorInPtx(samples[i], r);
  }
  EXPECT_EQ(failures, 0) << family;
}

// The persistent schedules of the TMA wgmma GEMM (gene schedule, added later: persistent and
// pingpong, streamk): random legal genomes of each over the GEMM shape cases where it is legal (more tiles than SMs),
// through the proposer's own path (candidateFor: stored without fallbacks, GemmSpace::emit).
TEST(TemplateCompilePersistentGemm, RandomLegalPersistentGenomesCompileForSm90WithoutSpills) {
  constexpr std::size_t kPerCase = 12;
  std::vector<Sample> samples;
  templates::Rng rng(2027);
  for (const char* family : {"matmul", "matmul_bias_relu"})
    for (const auto& sc : testing_support::shapeCases(family)) {
      if (sc.spec.inputs[0].dtype != DType::BF16) continue;
      const auto p = templates::problemFromSpec(sc.spec);
      for (const char* schedule : {"persistent", "pingpong", "streamk"}) {
        const templates::GeneMap genes = {{"tensor_core", "wgmma"}, {"pipeline", "tma"}, {"epilogue", "smem"},
                                          {"vector", "8"},          {"split_k", "none"},  {"schedule", schedule}};
        auto points = templates::legalParameterPoints(p, genes);
        std::shuffle(points.begin(), points.end(), rng);
        for (std::size_t i = 0; i < points.size() && i < kPerCase; ++i)
          samples.push_back({sc.label, TemplateProposer::candidateFor(Genome{p.family, genes, points[i]}, p), DType::BF16});
      }
    }
  // 8192^3 and 4096^3 have enough tiles; 1024^3 and the ragged shapes do not.
  ASSERT_GE(samples.size(), 4 * kPerCase);
  std::vector<CompileRequest> requests;
  for (const auto& s : samples) requests.push_back({s.candidate.source, s.candidate.launch.entry, "sm_90", {}});
  NvrtcCompiler compiler;
  const auto results = compileAll(compiler, requests, 2);
  ASSERT_EQ(results.size(), samples.size());
  for (std::size_t i = 0; i < results.size(); ++i) {
    const CompileReport& r = results[i].report;
    const std::string where = samples[i].label + " " + samples[i].candidate.genomeJson;
    ASSERT_TRUE(r.ok) << where << "\n" << r.log;
    EXPECT_LE(r.localBytes, compile_tests::kOccupancySpillBytes) << where;
    EXPECT_LE(r.spillStoreBytes, compile_tests::kOccupancySpillBytes) << where;
    EXPECT_LE(r.spillLoadBytes, compile_tests::kOccupancySpillBytes) << where;
    EXPECT_TRUE(samples[i].candidate.descriptor.count("schedule")) << where;
    expectDescriptorInPtx(samples[i], r);
  }
}

INSTANTIATE_TEST_SUITE_P(Families, TemplateCompile, ::testing::ValuesIn(testing_support::suiteFamilies()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace crucible
