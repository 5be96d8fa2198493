// SPDX-License-Identifier: GPL-3.0-or-later
// Claims as bounded choice priors.
#include <gtest/gtest.h>
#include <cmath>
#include "core/knowledge/choice_priors.h"

namespace crucible {
namespace {

KnowledgeEntry claim(std::string decision, KnowledgeStatus status, double effect, std::int64_t observations = 6) {
  KnowledgeEntry k;
  k.scopeArch = "sm_90";
  k.decision = std::move(decision);
  k.status = status;
  k.effect = effect;
  k.observations = observations;
  return k;
}

TEST(ChoicePriors, ValidatedEffectFavoursItsSideInProportionToEffectAndWeight) {
  const KnowledgeEntry up = claim("vector: 1 -> 4", KnowledgeStatus::Validated, 1.1);
  const KnowledgeEntry down = claim("memory: global -> smem", KnowledgeStatus::Validated, 1 / 1.1);
  const auto priors = ChoicePriors::fromClaims({{&up, 1.0}, {&down, 1.0}});
  EXPECT_NEAR(priors.factor("vector", "4"), std::exp(8 * std::log(1.1)), 1e-9);
  EXPECT_DOUBLE_EQ(priors.factor("vector", "1"), 1.0) << "only the favoured side moves";
  EXPECT_GT(priors.factor("memory", "global"), 2.0) << "an effect < 1 favours the side it came from";
  EXPECT_DOUBLE_EQ(priors.factor("memory", "smem"), 1.0);
  const auto half = ChoicePriors::fromClaims({{&up, 0.5}});
  EXPECT_NEAR(std::log(half.factor("vector", "4")), 0.5 * std::log(priors.factor("vector", "4")), 1e-9);
}

TEST(ChoicePriors, RefutedLowersDisabledAndHypothesesDoNothing) {
  const KnowledgeEntry refuted = claim("vector: 1 -> 4", KnowledgeStatus::Refuted, 1.01);
  KnowledgeEntry disabled = claim("memory: global -> smem", KnowledgeStatus::Validated, 1.5);
  disabled.disabled = true;
  const KnowledgeEntry hypothesis = claim("grid: 1 -> 2", KnowledgeStatus::Hypothesis, 1.5);
  const auto priors = ChoicePriors::fromClaims({{&refuted, 1.0}, {&disabled, 1.0}, {&hypothesis, 1.0}});
  EXPECT_DOUBLE_EQ(priors.factor("vector", "4"), 0.5);
  EXPECT_DOUBLE_EQ(priors.factor("memory", "smem"), 1.0);
  EXPECT_DOUBLE_EQ(priors.factor("grid", "2"), 1.0);
}

TEST(ChoicePriors, FactorsAreBoundedSoNoChoiceIsEverExcluded) {
  const KnowledgeEntry huge = claim("vector: 1 -> 4", KnowledgeStatus::Validated, 100.0);
  std::vector<KnowledgeEntry> refuted(20, claim("memory: global -> smem", KnowledgeStatus::Refuted, 1.0));
  std::vector<WeightedClaim> claims{{&huge, 1.0}};
  for (const auto& r : refuted) claims.push_back({&r, 1.0});
  const auto priors = ChoicePriors::fromClaims(claims);
  EXPECT_DOUBLE_EQ(priors.factor("vector", "4"), 8.0);
  EXPECT_DOUBLE_EQ(priors.factor("memory", "smem"), 0.125);
  EXPECT_GT(priors.factorOf(std::map<std::string, std::string>{{"vector", "4"}, {"memory", "smem"}}), 0.0);
}

TEST(ChoicePriors, DimensionsAndValuesOfEveryKindOfCandidateMeetByName) {
  const KnowledgeEntry genome = claim("params.BLOCK: 128 -> 256", KnowledgeStatus::Validated, 1.2);
  const KnowledgeEntry binned = claim("tune.TILE: 1..4 -> 16..32", KnowledgeStatus::Validated, 1.2);
  KnowledgeEntry user = claim("vec=8", KnowledgeStatus::Hypothesis, 1.0, 0);
  user.pinned = true;
  const auto priors = ChoicePriors::fromClaims({{&genome, 1.0}, {&binned, 1.0}, {&user, 1.0}});
  EXPECT_GT(priors.factor("BLOCK", std::int64_t{256}), 1.0);
  EXPECT_GT(priors.factor("tune.BLOCK", "256"), 1.0);
  EXPECT_GT(priors.factor("TILE", std::int64_t{24}), 1.0) << "a bin covers the values in it";
  EXPECT_DOUBLE_EQ(priors.factor("TILE", std::int64_t{33}), 1.0);
  EXPECT_DOUBLE_EQ(priors.factor("vector", "8"), 8.0) << "a pinned user's claim with no measurement";
  EXPECT_DOUBLE_EQ(priors.factor("genes.vector", "8"), 8.0);
  EXPECT_TRUE(priors.speaksAbout(std::map<std::string, int>{{"BLOCK", 0}}));
  EXPECT_FALSE(priors.speaksAbout(std::map<std::string, int>{{"UNROLL", 0}}));
}

TEST(ChoicePriors, DrawWeightedFollowsTheWeights) {
  std::mt19937_64 rng(7);
  std::vector<int> counts(3);
  for (int i = 0; i < 8000; ++i) ++counts[drawWeighted({1.0, 0.0, 3.0}, rng)];
  EXPECT_EQ(counts[1], 0);
  EXPECT_NEAR(counts[2] / 8000.0, 0.75, 0.02);
  EXPECT_THROW(drawWeighted({0.0, 0.0}, rng), std::invalid_argument);
  EXPECT_THROW(drawWeighted({1.0, -1.0}, rng), std::invalid_argument);
}

}  // namespace
}  // namespace crucible
