// SPDX-License-Identifier: GPL-3.0-or-later
// Knowledge as priors of the template proposer: a validated claim makes its
// gene value (or parameter value) measurably more frequent in gene
// mutations, explorations and parameter mutations (same seeds, with and
// without the claim), a refuted one less frequent, never impossible.
#include <gtest/gtest.h>

#include "backends/proposers/template/design_space.h"
#include "backends/proposers/template/gene_priors.h"
#include "backends/proposers/template/template_proposer.h"
#include "tests/backends/template/suite_tasks.h"

namespace crucible {
namespace {

using templates::Genome;
using testing_support::makeTask;

constexpr int kDraws = 200;

KnowledgeEntry claim(std::string decision, KnowledgeStatus status, double effect) {
  KnowledgeEntry k;
  k.scopeArch = "sm_90";
  k.scopeFamily = "softmax";
  k.decision = std::move(decision);
  k.status = status;
  k.effect = effect;
  k.observations = 8;
  return k;
}

struct Softmax {
  TemplateProposer proposer;
  TaskSpec spec = makeTask("softmax", DType::F32, {{"M", 4096}, {"N", 4096}});
  templates::KernelProblem p = templates::problemFromSpec(spec);
  Candidate parent = TemplateProposer::candidateFor(
      Genome{"softmax",
             {{"granularity", "block"}, {"memory", "smem"}, {"pass", "multipass"}, {"reduction", "smem"}, {"vector", "1"}},
             {{"WARPS_PER_ROW", 8}}},
      p);

  // How many of kDraws children of `strategy` satisfy `count`.
  template <class Count>
  int children(const std::string& strategy, const std::vector<WeightedClaim>& claims, Count count) {
    MetaPrompt s;
    s.name = strategy;
    s.text = strategy == "mutate:param" ? "count=1" : "";
    int n = 0;
    for (std::uint64_t seed = 0; seed < kDraws; ++seed) {
      ProposalContext ctx;
      ctx.strategy = &s;
      ctx.parents = {&parent};
      ctx.seed = seed;
      ctx.claims = claims;
      const Proposal prop = proposer.proposeFor(spec, ctx);
      EXPECT_TRUE(prop.ok) << prop.error;
      if (prop.ok) n += count(Genome::fromJson(prop.candidate.genomeJson));
    }
    return n;
  }
};

TEST(GenePriors, GeneMutationsFollowValidatedClaimsAndAvoidRefutedOnes) {
  Softmax t;
  auto vector4 = [](const Genome& g) { return g.genes.at("vector") == "4"; };
  auto global = [](const Genome& g) { return g.genes.at("memory") == "global"; };
  const KnowledgeEntry helps = claim("vector: 1 -> 4", KnowledgeStatus::Validated, 1.2);
  const KnowledgeEntry refuted = claim("memory: global -> smem", KnowledgeStatus::Refuted, 1 / 1.01);
  const int cold = t.children("mutate:gene", {}, vector4);
  const int warm = t.children("mutate:gene", {{&helps, 1.0}}, vector4);
  EXPECT_GT(warm, 2 * cold) << "cold " << cold << ", with the claim " << warm;
  RecordProperty("vector4", std::to_string(cold) + " cold, " + std::to_string(warm) + " warm");
  EXPECT_LT(warm, kDraws) << "other genes still mutate";
  const int globalCold = t.children("mutate:gene", {}, global);
  const int globalRefuted = t.children("mutate:gene", {{&refuted, 1.0}}, global);
  EXPECT_LT(globalRefuted, globalCold) << "cold " << globalCold << ", refuted " << globalRefuted;
  EXPECT_GT(globalRefuted, 0) << "never excluded";
  // Claims from a neighbouring scope (weight < 1) shift less.
  const int weaker = t.children("mutate:gene", {{&helps, 0.5}}, vector4);
  RecordProperty("weaker", std::to_string(weaker));
  EXPECT_GT(weaker, cold);
  EXPECT_LT(weaker, warm);
}

TEST(GenePriors, ExplorationsPreferArchitecturesWithTheFavouredGene) {
  Softmax t;
  auto vector4 = [](const Genome& g) { return g.genes.at("vector") == "4"; };
  const KnowledgeEntry helps = claim("vector: 1 -> 4", KnowledgeStatus::Validated, 1.2);
  const int cold = t.children("explore:new-architecture", {}, vector4);
  const int warm = t.children("explore:new-architecture", {{&helps, 1.0}}, vector4);
  EXPECT_GT(warm, cold + kDraws / 10) << "cold " << cold << ", with the claim " << warm;
}

TEST(GenePriors, ParameterMutationsFollowClaimsAboutParameters) {
  Softmax t;
  const auto defs = templates::designSpaceFor("softmax").parameters("softmax", Genome::fromJson(t.parent.genomeJson).genes);
  const auto def = std::find_if(defs.begin(), defs.end(), [](const TunableParameter& d) { return d.name == "WARPS_PER_ROW"; });
  ASSERT_NE(def, defs.end());
  ASSERT_GE(def->values.size(), 3u);
  // The value one step below the parent's: a claim that it is better.
  const auto at = std::find(def->values.begin(), def->values.end(), 8);
  ASSERT_NE(at, def->values.end());
  ASSERT_NE(at, def->values.begin());
  const std::int64_t lower = *(at - 1);
  const KnowledgeEntry helps = claim("params.WARPS_PER_ROW: " + std::to_string(lower) + " -> 8",
                                     KnowledgeStatus::Validated, 1 / 1.25);  // < 1: the lower value is faster
  auto isLower = [lower](const Genome& g) { return g.params.at("WARPS_PER_ROW") == lower; };
  const int cold = t.children("mutate:param", {}, isLower);
  const int warm = t.children("mutate:param", {{&helps, 1.0}}, isLower);
  EXPECT_GT(warm, cold + kDraws / 10) << "cold " << cold << ", with the claim " << warm;
}

TEST(GenePriors, NoClaimAboutTheFamilysChoicesProposesExactlyAsBefore) {
  Softmax t;
  const KnowledgeEntry unrelated = claim("tensor_core: none -> wgmma", KnowledgeStatus::Validated, 1.5);
  for (const char* strategy : {"mutate:gene", "mutate:param", "explore:new-architecture"}) {
    MetaPrompt s;
    s.name = strategy;
    for (std::uint64_t seed = 0; seed < 20; ++seed) {
      ProposalContext with, without;
      with.strategy = without.strategy = &s;
      with.parents = without.parents = {&t.parent};
      with.seed = without.seed = seed;
      with.claims = {{&unrelated, 1.0}};
      EXPECT_EQ(t.proposer.proposeFor(t.spec, with).candidate.genomeJson,
                t.proposer.proposeFor(t.spec, without).candidate.genomeJson)
          << strategy << " seed " << seed;
    }
  }
}

}  // namespace
}  // namespace crucible
