// SPDX-License-Identifier: GPL-3.0-or-later
// Scope matching: same family and GPU first, then neighbouring shape classes,
// then other families; pinned and disabled claims.
#include <gtest/gtest.h>
#include "core/knowledge/claim_scope.h"
#include "core/knowledge/knowledge_statistics.h"

namespace crucible {
namespace {

KnowledgeEntry claim(KnowledgeId id, std::string arch, std::string family, std::string shape,
                     KnowledgeStatus status = KnowledgeStatus::Validated, double effect = 1.2) {
  KnowledgeEntry k;
  k.id = id;
  k.scopeArch = std::move(arch);
  k.scopeFamily = std::move(family);
  k.scopeShape = std::move(shape);
  k.decision = "vector: 1 -> 4";
  k.status = status;
  k.effect = effect;
  k.observations = 6;
  return k;
}

TEST(ShapeClass, RoundsEachAxisToThePowerOfTwo) {
  EXPECT_EQ(shapeClassOf({{"M", 8192}, {"N", 4096}}), "M~2^13 N~2^12");
  EXPECT_EQ(shapeClassOf({{"N", 3000}}), "N~2^12") << "3000 is nearer 4096 than 2048 in log terms";
  EXPECT_EQ(shapeClassOf({{"N", 0}}), "N~2^0");
  EXPECT_EQ(shapeClassOf({}), "");
}

TEST(ShapeClass, DistanceCountsPowersOfTwoAndNeedsTheSameAxes) {
  EXPECT_EQ(shapeClassDistance("M~2^13 N~2^12", "M~2^13 N~2^12"), 0);
  EXPECT_EQ(shapeClassDistance("M~2^13 N~2^12", "M~2^12 N~2^14"), 3);
  EXPECT_FALSE(shapeClassDistance("M~2^13 N~2^12", "M~2^13 K~2^12"));
  EXPECT_FALSE(shapeClassDistance("M~2^13", "M~2^13 N~2^12"));
  EXPECT_FALSE(shapeClassDistance("", "M~2^13"));
  EXPECT_FALSE(shapeClassDistance("M=8192", "M~2^13"));
}

TEST(ClaimScope, RanksExactThenNeighbourShapeThenOtherFamily) {
  const ClaimScope scope{"sm_90", "softmax", "M~2^13 N~2^12"};
  const KnowledgeEntry otherFamily = claim(1, "sm_90", "layernorm", "M~2^13 N~2^12", KnowledgeStatus::Validated, 2.0);
  const KnowledgeEntry farNeighbour = claim(2, "sm_90", "softmax", "M~2^13 N~2^15");
  const KnowledgeEntry nearNeighbour = claim(3, "sm_90", "softmax", "M~2^13 N~2^13");
  const KnowledgeEntry exact = claim(4, "sm_90", "softmax", "M~2^13 N~2^12", KnowledgeStatus::Validated, 1.05);
  const KnowledgeEntry anyShape = claim(5, "sm_90", "softmax", "");
  const KnowledgeEntry otherArch = claim(6, "sm_80", "softmax", "M~2^13 N~2^12");
  const KnowledgeEntry tooFar = claim(7, "sm_90", "softmax", "M~2^10 N~2^15");
  const KnowledgeEntry otherAxes = claim(8, "sm_90", "softmax", "K~2^13");
  const auto ranked = rankClaims({&otherFamily, &farNeighbour, &nearNeighbour, &exact, &anyShape, &otherArch, &tooFar,
                                  &otherAxes},
                                 scope);
  ASSERT_EQ(ranked.size(), 5u);
  // Exact: the any-shape claim first (stronger effect), then the exact shape.
  EXPECT_EQ(ranked[0].entry->id, 5);
  EXPECT_EQ(ranked[1].entry->id, 4);
  EXPECT_EQ(ranked[0].level, ScopeLevel::Exact);
  EXPECT_EQ(ranked[2].entry->id, 3);
  EXPECT_EQ(ranked[2].level, ScopeLevel::NeighbourShape);
  EXPECT_EQ(ranked[3].entry->id, 2);
  EXPECT_EQ(ranked[4].entry->id, 1);
  EXPECT_EQ(ranked[4].level, ScopeLevel::OtherFamily);
  // Each level weighs less than the one before, whatever the effect.
  EXPECT_DOUBLE_EQ(ranked[0].weight, 1.0);
  EXPECT_DOUBLE_EQ(ranked[2].weight, 0.5);
  EXPECT_LT(ranked[3].weight, ranked[2].weight);
  EXPECT_GT(ranked[3].weight, ranked[4].weight);
  EXPECT_DOUBLE_EQ(ranked[4].weight, 0.25);
}

TEST(ClaimScope, PinnedCountsAsValidatedDisabledNeverAndHypothesesAreLeftOut) {
  const ClaimScope scope{"sm_90", "softmax", ""};
  KnowledgeEntry pinned = claim(1, "sm_90", "softmax", "", KnowledgeStatus::Hypothesis);
  pinned.pinned = true;
  KnowledgeEntry disabled = claim(2, "sm_90", "softmax", "");
  disabled.disabled = true;
  const KnowledgeEntry hypothesis = claim(3, "sm_90", "softmax", "", KnowledgeStatus::Hypothesis);
  const KnowledgeEntry refuted = claim(4, "sm_90", "softmax", "", KnowledgeStatus::Refuted);
  const auto ranked = rankClaims({&pinned, &disabled, &hypothesis, &refuted}, scope);
  ASSERT_EQ(ranked.size(), 2u);
  const auto facts = factsOf(ranked);
  ASSERT_EQ(facts.size(), 1u);
  EXPECT_EQ(facts[0]->id, 1);
  EXPECT_EQ(weightedOf(ranked).size(), 2u) << "priors see the refuted claim too";
  EXPECT_EQ(effectiveStatus(pinned), KnowledgeStatus::Validated);
}

TEST(KnowledgeBook, InScopePresentsPinnedClaimsWithTheUsersWording) {
  KnowledgeBook book(KnowledgeRules{5, 0.03, 0.75}, nullptr);
  KnowledgeEntry mine = claim(9, "sm_90", "softmax", "", KnowledgeStatus::Hypothesis);
  mine.pinned = true;
  mine.userAdded = true;
  mine.userClaim = "Wide loads help short rows";
  mine.observations = 0;
  mine.decision = "vector: 4 -> 1";  // as the user wrote it
  KnowledgeEntry off = claim(10, "sm_90", "softmax", "");
  off.decision = "memory: global -> smem";
  off.disabled = true;
  book.load({mine, off});
  const auto ranked = book.inScope(ClaimScope{"sm_90", "softmax", "M~2^12"});
  ASSERT_EQ(ranked.size(), 1u);
  EXPECT_EQ(ranked[0].entry->claim, "Wide loads help short rows");
  EXPECT_EQ(ranked[0].entry->status, KnowledgeStatus::Validated);
  EXPECT_TRUE(book.validatedInScope("sm_90", "softmax").size() == 1u);

  // Observations of the decision (either orientation) reach the user's claim.
  for (int i = 0; i < 5; ++i) {
    KnowledgeObservation o{"sm_90", "softmax", DecisionChange{"vector", "1", "4"}, 1.2, 100 + i, ""};
    const KnowledgeEntry& e = book.observe(o);
    EXPECT_EQ(e.id, 9);
    EXPECT_TRUE(e.pinned);
  }
  EXPECT_EQ(book.size(), 2u);
  const auto after = book.inScope(ClaimScope{"sm_90", "softmax", ""});
  ASSERT_EQ(after.size(), 1u);
  EXPECT_EQ(after[0].entry->decision, "vector: 1 -> 4") << "the measured orientation";
  EXPECT_NEAR(after[0].entry->effect, 1.2, 1e-9);
}

TEST(KnowledgeBook, ObservationsAreFiledByShapeClass) {
  KnowledgeBook book(KnowledgeRules{5, 0.03, 0.75}, nullptr);
  book.observe({"sm_90", "softmax", DecisionChange{"vector", "1", "4"}, 1.2, 1, "N~2^12"});
  book.observe({"sm_90", "softmax", DecisionChange{"vector", "1", "4"}, 1.2, 2, "N~2^15"});
  EXPECT_EQ(book.size(), 2u);
}

TEST(KnowledgeBook, PutKeepsTheStoreIdAndTheUsersWord) {
  KnowledgeBook book(KnowledgeRules{}, nullptr);
  KnowledgeEntry e = claim(0, "sm_90", "rowsum", "N~2^12");
  e.decision = "reference.bound";
  const KnowledgeEntry& first = book.put(e);
  EXPECT_EQ(first.id, 0);
  book.setId(first, 42);
  KnowledgeEntry loaded = e;
  loaded.id = 42;
  loaded.disabled = true;
  KnowledgeBook stored(KnowledgeRules{}, nullptr);
  stored.load({loaded});
  e.claim = "again";
  const KnowledgeEntry& second = stored.put(e);
  EXPECT_EQ(second.id, 42);
  EXPECT_TRUE(second.disabled);
  EXPECT_EQ(second.claim, "again");
}

}  // namespace
}  // namespace crucible

#include "core/knowledge/user_claims.h"

namespace crucible {
namespace {

TEST(UserClaims, ADraftIsCheckedFieldByFieldAndAgainstTheProject) {
  UserClaimDraft d{"sm_90", "softmax", "", "vector: 4 -> 1", "Wide loads help", true};
  EXPECT_FALSE(userClaimProblem(d, {}));
  KnowledgeEntry known;
  known.id = 3;
  known.scopeArch = "sm_90";
  known.scopeFamily = "softmax";
  known.decision = "vector: 1 -> 4";
  const auto dup = userClaimProblem(d, {known});
  ASSERT_TRUE(dup);
  EXPECT_NE(dup->find("#3"), std::string::npos) << *dup << " (the same decision the other way round)";
  UserClaimDraft bad = d;
  bad.arch = " ";
  EXPECT_EQ(userClaimProblem(bad, {})->rfind("architecture:", 0), 0u);
  bad = d;
  bad.text = "";
  EXPECT_EQ(userClaimProblem(bad, {})->rfind("claim:", 0), 0u);
  bad = d;
  bad.shape = "big";
  EXPECT_EQ(userClaimProblem(bad, {})->rfind("shape:", 0), 0u);
  bad.shape = "M~2^13";
  EXPECT_FALSE(userClaimProblem(bad, {}));

  const KnowledgeEntry e = userClaimEntry(d);
  EXPECT_EQ(e.status, KnowledgeStatus::Hypothesis);
  EXPECT_EQ(e.observations, 0);
  EXPECT_TRUE(e.evidence.empty());
  EXPECT_TRUE(e.userAdded);
  EXPECT_TRUE(e.pinned);
  EXPECT_EQ(e.userClaim, "Wide loads help");
}

}  // namespace
}  // namespace crucible
