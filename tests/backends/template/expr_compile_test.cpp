// SPDX-License-Identifier: GPL-3.0-or-later
// The expression families compile: random legal genomes (at least 100 per
// family, over every generated operator case: each dtype, broadcast kind, odd
// and single rows) are compiled for sm_90 (NVRTC, whole-program) and fit their registers, and
// the PTX backs the descriptors (16-byte accesses, shuffles). The user tasks
// of tests/tasks/any-operator compile too, and so do batched GEMMs: their seeds, baselines and oracles.
#include <gtest/gtest.h>

#include <set>
#include "backends/cuda/compile/compile_all.h"
#include "backends/proposers/template/design_space.h"
#include "backends/cuda/compile/nvrtc_compiler.h"
#include "backends/proposers/template/genome_ops.h"
#include "backends/proposers/template/template_proposer.h"
#include "tests/backends/template/operator_tasks.h"
#include "tests/backends/compile/register_fit.h"

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
    EXPECT_LE(r.spillStoreBytes, compile_tests::kOccupancySpillBytes) << where;
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

// Rows that are not whole packs (5003, 1001, 7) at every vector width and every
// architecture: f32 (vector 2, 4), bf16 with bf16 [N] weights (vector 2, 4, 8)
// and f16 rows with an f32 [N] weight (mixed element sizes along the row).
TEST(ExprCompile, OddRowsCompileAtEveryVectorWidth) {
  using testing_support::makeOperatorTask;
  const DType F = DType::F32, H = DType::F16, B = DType::BF16;
  const OperatorSpec logSoftmax{"rowwise", "x - m - log(s)", {{"m", "max", "x"}, {"s", "sum", "exp(x - m)"}}};
  const OperatorSpec layerNorm{"rowwise", "(x - mu) * rsqrt(var + 1e-5) * w + b",
                               {{"mu", "mean", "x"}, {"var", "mean", "(x - mu) * (x - mu)"}}};
  const OperatorSpec addRmsNorm{"rowwise", "(x + r) * rsqrt(ms + 1e-6) * w", {{"ms", "mean", "(x + r) * (x + r)"}}};
  std::vector<Sample> samples;
  std::set<std::string> vectors;
  for (const std::int64_t N : {5003, 1001, 7}) {
    const std::map<std::string, std::int64_t> axes = {{"M", 64}, {"N", N}};
    const std::string n = std::to_string(N);
    for (const auto& spec : {makeOperatorTask("logsoftmax_f32_" + n, logSoftmax, {{"x", F, {"M", "N"}}}, {"y", F, {"M", "N"}}, axes),
                             makeOperatorTask("layernorm_bf16_" + n, layerNorm,
                                              {{"x", B, {"M", "N"}}, {"w", B, {"N"}}, {"b", B, {"N"}}}, {"y", B, {"M", "N"}}, axes),
                             makeOperatorTask("add_rmsnorm_f16_" + n, addRmsNorm,
                                              {{"x", H, {"M", "N"}}, {"r", H, {"M", "N"}}, {"w", F, {"N"}}},
                                              {"y", H, {"M", "N"}}, axes)}) {
      const auto p = templates::problemFromSpec(spec);
      for (const auto& genes : templates::legalArchitectures(p)) {
        if (genes.at("vector") == "1") continue;
        const auto points = templates::legalParameterPoints(p, genes);
        ASSERT_FALSE(points.empty());
        const Genome g{p.family, genes, points.front()};
        vectors.insert(spec.name.substr(0, spec.name.find('_')) + " " + genes.at("vector"));
        samples.push_back({spec.name, TemplateProposer::candidateFor(g, p), p});
        EXPECT_NE(samples.back().candidate.source.find("cr_pack_whole(cr_col, cr_cols, VEC)"), std::string::npos)
            << spec.name << " " << g.genesText();
      }
    }
  }
  EXPECT_TRUE(vectors.count("logsoftmax 2") && vectors.count("logsoftmax 4"));
  EXPECT_TRUE(vectors.count("layernorm 2") && vectors.count("layernorm 4") && vectors.count("layernorm 8"));
  EXPECT_TRUE(vectors.count("add 2") && vectors.count("add 4"));
  ASSERT_GE(samples.size(), 60u);
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
