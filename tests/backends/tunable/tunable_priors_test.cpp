// SPDX-License-Identifier: GPL-3.0-or-later
// Knowledge as priors of the tunable proposer's parameter choices: a
// validated claim about a parameter value makes children with it measurably
// more frequent (same seeds, with and without), a refuted one less frequent,
// and no claim leaves the proposer exactly as it was.
#include <gtest/gtest.h>
#include "backends/proposers/tunable/tunable_priors.h"
#include "backends/proposers/tunable/tunable_proposer.h"
#include "tests/backends/tunable/example_kernel.h"

namespace crucible {
namespace {

using testing_support::gemvKernel;
using testing_support::gemvTask;

KnowledgeEntry claim(std::string decision, KnowledgeStatus status, double effect) {
  KnowledgeEntry k;
  k.scopeArch = "sm_90";
  k.scopeFamily = "gemv";
  k.decision = std::move(decision);
  k.status = status;
  k.effect = effect;
  k.observations = 8;
  return k;
}

constexpr int kDraws = 400;

// How many of kDraws children (seeds 0..kDraws-1) have UNROLL == 4.
int unrollFour(const std::vector<WeightedClaim>& claims) {
  TunableKernelProposer p({gemvKernel()});
  const Task task = gemvTask();
  auto seeds = p.seeds(task, 1);
  Candidate parent = seeds.at(0).candidate;
  parent.id = 10;
  const auto strategies = p.initialStrategies();
  int n = 0;
  for (std::uint64_t seed = 0; seed < kDraws; ++seed) {
    ProposalContext ctx;
    ctx.task = &task;
    ctx.parents = {&parent};
    ctx.seed = seed;
    ctx.strategy = &strategies[0];  // one parameter at a time
    ctx.claims = claims;
    const Proposal child = p.propose(ctx);
    EXPECT_TRUE(child.ok) << child.error;
    n += p.parametersOf(child.candidate).at("UNROLL") == 4;
  }
  return n;
}

TEST(TunablePriors, AValidatedClaimShiftsParameterChoicesAndARefutedOneLowersThem) {
  const int cold = unrollFour({});
  const KnowledgeEntry helps = claim("tune.UNROLL: 2 -> 4", KnowledgeStatus::Validated, 1.3);
  const KnowledgeEntry refuted = claim("tune.UNROLL: 2 -> 4", KnowledgeStatus::Refuted, 1.02);
  const int favoured = unrollFour({{&helps, 1.0}});
  const int lowered = unrollFour({{&refuted, 1.0}});
  // One parameter of four moves, to one of its other values: UNROLL=4 about 1/8 of the time cold.
  EXPECT_GT(cold, kDraws / 20);
  EXPECT_GT(favoured, 2 * cold) << "cold " << cold << ", with the claim " << favoured;
  EXPECT_LT(lowered, cold) << "cold " << cold << ", refuted " << lowered;
  EXPECT_GT(lowered, 0) << "a refuted choice stays possible";
  // A weaker scope match shifts less.
  const int neighbour = unrollFour({{&helps, 0.25}});
  EXPECT_GT(neighbour, cold);
  EXPECT_LT(neighbour, favoured);
}

TEST(TunablePriors, ClaimsAboutOtherChoicesChangeNothing) {
  const KnowledgeEntry other = claim("vector: 1 -> 4", KnowledgeStatus::Validated, 1.3);
  const auto start = gemvKernel();
  const TunableKernel k(start.name, start.source, start.tune, testing_support::gemvSpec());
  const ChoicePriors priors = ChoicePriors::fromClaims({{&other, 1.0}});
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    std::mt19937_64 a(seed), b(seed);
    EXPECT_EQ(neighbourWithPriors(k, k.startingPoint(), 1, a, priors), k.neighbour(k.startingPoint(), 1, b));
  }
}

}  // namespace
}  // namespace crucible
