// SPDX-License-Identifier: GPL-3.0-or-later
// Genomes, task binding and legality of the template design spaces.
#include <gtest/gtest.h>

#include "backends/proposers/template/design_space.h"
#include "backends/proposers/template/genome.h"
#include "backends/proposers/template/genome_ops.h"
#include "backends/proposers/template/kernel_problem.h"
#include "backends/proposers/template/template_proposer.h"
#include "tests/backends/template/suite_tasks.h"

namespace crucible {
namespace {

using namespace templates;
using testing_support::makeTask;

TEST(TemplateGenome, JsonRoundTripAndKeyIgnoresParameters) {
  Genome g{"softmax", {{"memory", "registers"}, {"vector", "4"}}, {{"ROWS_PER_BLOCK", 4}}};
  const Genome back = Genome::fromJson(g.toJson());
  EXPECT_EQ(back, g);
  EXPECT_EQ(g.architectureKey(), "template:softmax:memory=registers;vector=4");
  Genome other = g;
  other.params["ROWS_PER_BLOCK"] = 8;
  EXPECT_EQ(other.architectureKey(), g.architectureKey());
}

TEST(TemplateGenome, MalformedJsonNamesTheField) {
  auto message = [](const std::string& json) {
    try {
      Genome::fromJson(json);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("{}").find("genome.family"), std::string::npos);
  EXPECT_NE(message(R"({"family":"gelu","genes":{"vector":4}})").find("genome.genes.vector"), std::string::npos);
  EXPECT_NE(message(R"({"family":"gelu","params":{"THREADS":"x"}})").find("genome.params.THREADS"), std::string::npos);
  EXPECT_NE(message("not json").find("not JSON"), std::string::npos);
  EXPECT_NE(message(R"({"family":"gelu","params":{"THREADS":1e999}})").find("not JSON"), std::string::npos);
}

TEST(TemplateProblem, RejectsSpecsThatDoNotFitTheFamily) {
  TaskSpec s = makeTask("layernorm", DType::F32, {{"M", 64}, {"N", 64}});
  s.inputs.pop_back();
  try {
    problemFromSpec(s);
    FAIL() << "accepted a layernorm without bias";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("expects 3 tensors"), std::string::npos) << e.what();
  }
  TaskSpec t = makeTask("matmul", DType::F32, {{"M", 64}, {"N", 64}, {"K", 64}});
  t.inputs[1].shape = {"M", "N"};  // inner dimensions disagree when M != K
  t.axes["M"] = 32;
  EXPECT_THROW(problemFromSpec(t), std::invalid_argument);
  TaskSpec u = makeTask("softmax", DType::F32, {{"M", 8}, {"N", 8}});
  u.family = "conv2d";
  try {
    problemFromSpec(u);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("conv2d"), std::string::npos);
  }
}

TEST(TemplateProblem, SignatureFollowsTheAbi) {
  const KernelProblem p = problemFromSpec(makeTask("cross_entropy", DType::F32, {{"M", 8}, {"V", 100}}));
  const std::string sig = p.signature("");
  EXPECT_NE(sig.find("extern \"C\" __global__ void cross_entropy_kernel(const float* __restrict__ logits"), std::string::npos) << sig;
  EXPECT_NE(sig.find("const long long* __restrict__ targets"), std::string::npos) << sig;
  EXPECT_NE(sig.find("float* __restrict__ loss"), std::string::npos) << sig;
  EXPECT_LT(sig.find("long long M"), sig.find("long long V"));
}

TEST(TemplateLegality, ViolationsExplainWhy) {
  const KernelProblem p = problemFromSpec(makeTask("softmax", DType::F32, {{"M", 77}, {"N", 333}}));
  Genome g{"softmax",
           {{"granularity", "warp"}, {"memory", "global"}, {"pass", "online"}, {"reduction", "shuffle"}, {"vector", "4"}},
           {{"ROWS_PER_BLOCK", 4}}};
  const auto errors = checkGenome(g, p);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("divisible by vector width"), std::string::npos) << errors[0];
  g.genes["vector"] = "1";
  EXPECT_TRUE(checkGenome(g, p).empty());
  g.params["ROWS_PER_BLOCK"] = 3;
  EXPECT_NE(checkGenome(g, p).at(0).find("outside its domain"), std::string::npos);
  g.params["ROWS_PER_BLOCK"] = 4;
  g.genes["tensor_core"] = "mma";
  EXPECT_NE(checkGenome(g, p).at(0).find("unknown gene"), std::string::npos);
  EXPECT_THROW(TemplateProposer::candidateFor(g, p), std::invalid_argument);
}

// fp32 never runs on bf16 or TF32 tensor-core inputs: only CUDA cores or the three-term
// bf16 split, which holds every fp32 operand exactly (emit_gemm_wgmma_split.cpp).
TEST(TemplateLegality, Fp32GemmOffersOnlyCudaCoresOrTheExactSplit) {
  const KernelProblem p = problemFromSpec(makeTask("matmul", DType::F32, {{"M", 256}, {"N", 256}, {"K", 256}}));
  int split = 0;
  for (const auto& genes : legalArchitectures(p)) {
    EXPECT_TRUE(genes.at("tensor_core") == "none" || genes.at("tensor_core") == "wgmma_bf16x3") << genes.at("tensor_core");
    split += genes.at("tensor_core") == "wgmma_bf16x3";
  }
  EXPECT_EQ(split, 2);  // fed by cp.async or by the copy engine
  const KernelProblem b = problemFromSpec(makeTask("matmul", DType::BF16, {{"M", 256}, {"N", 256}, {"K", 256}}));
  int mma = 0;
  for (const auto& genes : legalArchitectures(b)) mma += genes.at("tensor_core") == "mma";
  EXPECT_GT(mma, 0);
}

TEST(TemplateLegality, EveryLegalPointRespectsHardwareLimits) {
  // Launch dimensions and shared memory of every legal point of a few spaces.
  for (const std::string family : {"softmax", "transpose", "matmul_bias_relu"}) {
    for (const auto& sc : testing_support::shapeCases(family)) {
      const KernelProblem p = problemFromSpec(sc.spec);
      for (const auto& genes : legalArchitectures(p)) {
        for (const auto& params : legalParameterPoints(p, genes)) {
          const Candidate c = TemplateProposer::candidateFor(Genome{family, genes, params}, p);
          const std::int64_t threads = evalExpression(c.launch.block[0], sc.spec.axes) *
                                       evalExpression(c.launch.block[1], sc.spec.axes) *
                                       evalExpression(c.launch.block[2], sc.spec.axes);
          ASSERT_GE(threads, 32) << sc.label << " " << Genome{family, genes, params}.toJson();
          ASSERT_LE(threads, 1024) << sc.label << " " << Genome{family, genes, params}.toJson();
          ASSERT_LE(evalExpression(c.launch.dynamicSmemBytes, sc.spec.axes), 227 * 1024) << sc.label;
          ASSERT_EQ(c.source.find("{{"), std::string::npos) << c.source;
        }
      }
    }
  }
}

TEST(TemplateDecisions, ParsesKnowledgeDecisions) {
  auto a = parseDecision("vector: 1 -> 4");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->gene, "vector");
  EXPECT_EQ(a->value, "4");
  auto b = parseDecision("vec=4");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->gene, "vector");
  auto c = parseDecision("memory: registers");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->value, "registers");
  EXPECT_FALSE(parseDecision("use more threads"));
}

// The legal points of an architecture are the nested product of its parameter
// domains (the first parameter slowest), filtered by the space's rules: the
// enumeration steps one genome in place, and must give exactly these, in this order.
TEST(LegalParameterPoints, AreTheFilteredProductInOrder) {
  for (const auto& spec : {makeTask("matmul", DType::BF16, {{"M", 2048}, {"N", 2048}, {"K", 2048}}),
                           makeTask("rmsnorm", DType::BF16, {{"M", 8192}, {"N", 8192}})}) {
    const KernelProblem p = problemFromSpec(spec);
    const DesignSpace& space = designSpaceFor(p.family);
    const auto combinations = geneCombinations(p);
    std::size_t compared = 0;
    for (const GeneMap& genes : combinations) {
      std::vector<ParamMap> product{ParamMap{}};
      for (const auto& def : space.parameters(p.family, genes)) {
        std::vector<ParamMap> next;
        for (const auto& partial : product)
          for (auto v : def.values) {
            ParamMap m = partial;
            m[def.name] = v;
            next.push_back(m);
          }
        product = next;
      }
      std::vector<ParamMap> want;
      for (const auto& point : product)
        if (space.violations(Genome{p.family, genes, point}, p).empty()) want.push_back(point);
      EXPECT_EQ(legalParameterPoints(p, genes), want) << Genome{p.family, genes, {}}.architectureKey();
      if (++compared == 60) break;  // enough architectures, legal and not, to cover the stepping
    }
    EXPECT_EQ(compared, std::min<std::size_t>(60, combinations.size())) << p.family;
  }
}

}  // namespace
}  // namespace crucible
