// SPDX-License-Identifier: GPL-3.0-or-later
// The expression families compile: random legal genomes (at least 100 per
// family, over every generated operator case: each dtype, broadcast kind, odd
// and single rows) go through NVRTC + nvJitLink for sm_90 without spills, and
// the PTX backs the descriptors (16-byte accesses, shuffles). The user tasks
// of tests/tasks/any-operator compile too, and so do batched GEMMs: their seeds, baselines and oracles.
#include <gtest/gtest.h>

#include <set>
#include "backends/cuda/compile/compile_all.h"
#include "backends/cuda/compile/nvrtc_compiler.h"
#include "backends/proposers/template/genome_ops.h"
#include "backends/proposers/template/template_proposer.h"
#include "tests/backends/template/operator_tasks.h"

namespace crucible {
namespace {

using templates::Genome;
using testing_support::OperatorCase;

constexpr int kPerFamily = 120;

struct Sample {
  std::string label;
  Candidate candidate;
  templates::KernelProblem problem;
};

std::vector<Sample> sample(const std::vector<OperatorCase>& cases, std::uint64_t seed) {
  const int perCase = (kPerFamily + static_cast<int>(cases.size()) - 1) / static_cast<int>(cases.size());
  std::vector<Sample> out;
  templates::Rng rng(seed);
  for (const auto& c : cases) {
    const auto p = templates::problemFromSpec(c.spec);
    std::set<std::string> seen;
    for (int attempt = 0; attempt < perCase * 4 && static_cast<int>(seen.size()) < perCase; ++attempt) {
      const Genome g = templates::randomGenome(p, rng);
      if (!seen.insert(g.toJson()).second) continue;
      out.push_back({c.label, TemplateProposer::candidateFor(g, p), p});
    }
  }
  return out;
}

int feature(const CompileReport& r, const std::string& key) {
  const auto it = r.features.find(key);
  return it == r.features.end() ? 0 : it->second;
}

void compileAndCheck(const std::vector<Sample>& samples) {
  std::vector<CompileRequest> requests;
  for (const auto& s : samples) requests.push_back({s.candidate.source, s.candidate.launch.entry, "sm_90", {}});
  NvrtcCompiler compiler;
  const auto results = compileAll(compiler, requests, 2);
  ASSERT_EQ(results.size(), samples.size());
  int failures = 0;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const CompileReport& r = results[i].report;
    const std::string where = samples[i].label + " " + samples[i].candidate.genomeJson;
    if (!r.ok) {
      if (++failures <= 3) ADD_FAILURE() << where << "\n" << r.log << "\n" << samples[i].candidate.source;
      continue;
    }
    EXPECT_FALSE(results[i].cubin.empty()) << where;
    EXPECT_EQ(r.spillStoreBytes, 0) << where;
    const auto& d = samples[i].candidate.descriptor;
    if (samples[i].problem.batched) continue;  // GEMM descriptors: template_compile_test.cpp
    // The output moves in packs of `vector` elements (per-row outputs are one value per row).
    const auto& y = samples[i].problem.outputs.at(0);
    if (y.rowRole != RowRole::PerRow) {
      const std::size_t bytes = std::stoul(d.at("vector")) * sizeOf(y.dtype);
      if (bytes >= 4) {
        EXPECT_GT(feature(r, "st.global." + std::to_string(bytes) + "B"), 0) << where;
      }
    }
    if (d.count("reduction")) {
      EXPECT_EQ(feature(r, "shfl") > 0, d.at("reduction") == "shuffle") << where;
    }
  }
  EXPECT_EQ(failures, 0);
}

TEST(ExprCompile, RandomLegalElementwiseGenomesCompileForSm90) {
  const auto samples = sample(testing_support::elementwiseOperatorCases(), 2026);
  ASSERT_GE(samples.size(), static_cast<std::size_t>(kPerFamily));
  compileAndCheck(samples);
}

TEST(ExprCompile, RandomLegalRowwiseGenomesCompileForSm90) {
  const auto samples = sample(testing_support::rowwiseOperatorCases(), 2027);
  ASSERT_GE(samples.size(), static_cast<std::size_t>(kPerFamily));
  compileAndCheck(samples);
}

TEST(ExprCompile, RandomLegalBatchedGemmGenomesCompileForSm90) {
  const auto samples = sample(testing_support::batchedGemmCases(), 2028);
  ASSERT_GE(samples.size(), static_cast<std::size_t>(kPerFamily));
  compileAndCheck(samples);
}

TEST(ExprCompile, TheUserTasksSeedsBaselinesAndOraclesCompile) {
  TemplateProposer proposer;
  std::vector<Sample> seeds;
  std::vector<CompileRequest> references;
  std::vector<std::string> labels;
  for (const auto& file : testing_support::anyOperatorTaskFiles()) {
    const TaskSpec spec = testing_support::loadTaskFile(file);
    for (const auto& s : proposer.seedsFor(spec, 3)) {
      ASSERT_TRUE(s.ok) << file << ": " << s.error;
      seeds.push_back({spec.name, s.candidate, templates::problemFromSpec(spec)});
    }
    references.push_back({spec.baseline.source, spec.baseline.launch.entry, "sm_90", {}});
    references.push_back({spec.oracle.source, spec.oracle.launch.entry, "sm_90", {}});
    labels.push_back(spec.name + " baseline");
    labels.push_back(spec.name + " oracle");
  }
  ASSERT_GE(labels.size(), 12u);
  compileAndCheck(seeds);
  NvrtcCompiler compiler;
  const auto results = compileAll(compiler, references, 2);
  for (std::size_t i = 0; i < results.size(); ++i) EXPECT_TRUE(results[i].report.ok) << labels[i] << "\n" << results[i].report.log;
}

}  // namespace
}  // namespace crucible
