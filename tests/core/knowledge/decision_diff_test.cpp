// SPDX-License-Identifier: GPL-3.0-or-later
// Evidence from candidates with no design genome (a model's or a user's
// kernel): effects come from descriptor differences only, and only when the
// pair differs in exactly one decision.
#include <gtest/gtest.h>
#include "core/knowledge/decision_diff.h"
#include "core/knowledge/knowledge_statistics.h"

namespace crucible {
namespace {

// A model's kernel: descriptors computed from its code, a genome of bookkeeping.
Candidate modelKernel(std::map<std::string, std::string> d, int tokens) {
  Candidate c;
  c.descriptor = std::move(d);
  c.genomeJson = R"({"llm":{"tokensIn":)" + std::to_string(tokens) + R"(},"mode":"rewrite","descriptorFrom":"ptx"})";
  return c;
}

Candidate userKernel(std::map<std::string, std::string> d, const std::string& note) {
  Candidate c;
  c.descriptor = std::move(d);
  c.genomeJson = R"({"note":")" + note + R"("})";
  return c;
}

const std::map<std::string, std::string> kBase{
    {"memory", "global"}, {"tensor_core", "none"}, {"vector_bytes", "4"}, {"reduction", "shuffle"}};

TEST(DecisionDiff, GenomeLessKernelsDifferingInOneDescriptorAreOneDecision) {
  auto wider = kBase;
  wider["vector_bytes"] = "16";
  const auto change = singleDifference(modelKernel(kBase, 100), modelKernel(wider, 250));
  ASSERT_TRUE(change) << "the model's bookkeeping is not a decision";
  EXPECT_EQ(change->dimension, "vector_bytes");
  EXPECT_EQ(change->from, "4");
  EXPECT_EQ(change->to, "16");
  EXPECT_TRUE(singleDifference(userKernel(kBase, "mine"), modelKernel(wider, 1))) << "a user's parent, a model's child";
  EXPECT_FALSE(hasDesignGenome(modelKernel(kBase, 1)));
  EXPECT_FALSE(hasDesignGenome(userKernel(kBase, "x")));
}

TEST(DecisionDiff, GenomeLessKernelsWithEqualDescriptorsSayNothing) {
  EXPECT_FALSE(singleDifference(userKernel(kBase, "first try"), userKernel(kBase, "second try")))
      << "a different note is not a decision";
  EXPECT_FALSE(singleDifference(modelKernel(kBase, 100), modelKernel(kBase, 100)));
}

TEST(DecisionDiff, UnknownOrForeignDescriptorsAreNotAttributed) {
  std::map<std::string, std::string> one{{"vector_bytes", "16"}};
  EXPECT_FALSE(singleDifference(userKernel({}, "no descriptor"), userKernel(one, "x")))
      << "a missing descriptor is not a change from (none)";
  // A template kernel (genes) and a model kernel name their dimensions differently.
  Candidate templ;
  templ.descriptor = {{"memory", "global"}, {"vector", "4"}, {"reduction", "shuffle"}, {"granularity", "warp"}};
  templ.genomeJson = R"({"family":"rowsum","genes":{"vector":"4"},"params":{"BLOCK":128}})";
  auto d = kBase;
  EXPECT_FALSE(singleDifference(templ, modelKernel(d, 1)));
}

TEST(DecisionDiff, TemplateGenomesMayGainAGene) {
  Candidate a, b;
  a.descriptor = {{"vector", "4"}, {"memory", "smem"}};
  b.descriptor = {{"vector", "4"}, {"memory", "smem"}, {"pass", "online"}};
  a.genomeJson = R"({"family":"softmax","genes":{"vector":"4"},"params":{}})";
  b.genomeJson = R"({"family":"softmax","genes":{"vector":"4","pass":"online"},"params":{}})";
  const auto change = singleDifference(a, b);
  ASSERT_TRUE(change);
  EXPECT_EQ(change->dimension, "pass");
  EXPECT_EQ(change->from, "(none)");
}

TEST(DecisionDiff, TunableKernelsDifferInTheirParametersNotTheirIdentity) {
  auto tunable = [](const std::string& kernel, int block, const std::string& bin) {
    Candidate c;
    c.descriptor = {{"kernel", kernel}, {"tune.BLOCK", bin}};
    c.genomeJson = R"({"tunable":{"kernel":")" + kernel + R"(","tune":{"parameters":[]}},"params":{"BLOCK":)" +
                   std::to_string(block) + "}}";
    return c;
  };
  auto change = singleDifference(tunable("gemv", 128, "128..256"), tunable("gemv", 512, "512..1024"));
  ASSERT_TRUE(change);
  EXPECT_EQ(change->dimension, "tune.BLOCK");
  change = singleDifference(tunable("gemv", 128, "128..256"), tunable("gemv", 256, "128..256"));
  ASSERT_TRUE(change) << "within one bin, the genome's parameter says what changed";
  EXPECT_EQ(change->dimension, "params.BLOCK");
  EXPECT_EQ(change->to, "256");
  EXPECT_FALSE(singleDifference(tunable("gemv", 128, "128..256"), tunable("gemv2", 128, "128..256")))
      << "another kernel is not one decision";
}

TEST(DecisionDiff, ObservationsOfGenomeLessPairsBecomeClaims) {
  KnowledgeBook book(KnowledgeRules{5, 0.03, 0.75}, nullptr);
  auto wider = kBase;
  wider["vector_bytes"] = "16";
  for (int i = 0; i < 5; ++i) {
    const auto change = singleDifference(modelKernel(kBase, i), modelKernel(wider, 10 + i));
    ASSERT_TRUE(change);
    book.observe(KnowledgeObservation{"sm_90", "rowsum", *change, 1.3, 100 + i, ""});
  }
  const auto facts = book.validatedInScope("sm_90", "rowsum");
  ASSERT_EQ(facts.size(), 1u);
  EXPECT_EQ(facts[0]->decision, "vector_bytes: 16 -> 4") << "canonical (text) order; the effect is inverted";
  EXPECT_NEAR(facts[0]->effect, 1 / 1.3, 1e-9);
}

}  // namespace
}  // namespace crucible
