// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>
#include <cmath>
#include <limits>
#include "core/knowledge/decision_diff.h"
#include "core/knowledge/knowledge_statistics.h"

namespace crucible {
namespace {

Candidate withDescriptor(std::map<std::string, std::string> d, std::string genome = "{}") {
  Candidate c;
  c.descriptor = std::move(d);
  c.genomeJson = std::move(genome);
  return c;
}

TEST(DecisionDiff, FindsTheSingleChangedDescriptor) {
  auto change = singleDifference(withDescriptor({{"vec", "1"}, {"mem", "smem"}}),
                                 withDescriptor({{"vec", "4"}, {"mem", "smem"}}));
  ASSERT_TRUE(change);
  EXPECT_EQ(change->dimension, "vec");
  EXPECT_EQ(change->from, "1");
  EXPECT_EQ(change->to, "4");
  EXPECT_FALSE(singleDifference(withDescriptor({{"vec", "1"}, {"mem", "smem"}}),
                                withDescriptor({{"vec", "4"}, {"mem", "regs"}})))
      << "two changes: the effect cannot be attributed";
}

TEST(DecisionDiff, FallsBackToTheGenomeWhenDescriptorsAreEqual) {
  auto change = singleDifference(withDescriptor({{"vec", "1"}}, R"({"params":{"BLOCK":128,"UNROLL":2}})"),
                                 withDescriptor({{"vec", "1"}}, R"({"params":{"BLOCK":256,"UNROLL":2}})"));
  ASSERT_TRUE(change);
  EXPECT_EQ(change->dimension, "params.BLOCK");
  EXPECT_EQ(change->from, "128");
  EXPECT_EQ(change->to, "256");
  EXPECT_FALSE(singleDifference(withDescriptor({}, "{}"), withDescriptor({}, "{}")));
  EXPECT_TRUE(flattenGenome("not json").empty());
}

KnowledgeRules rules() { return KnowledgeRules{5, 0.03, 0.75}; }

TEST(KnowledgeClassify, NeedsEnoughConsistentObservations) {
  std::vector<double> helps(4, std::log(1.2));
  EXPECT_EQ(classify(helps, rules(), KnowledgeStatus::Hypothesis), KnowledgeStatus::Hypothesis) << "only 4";
  helps.push_back(std::log(1.1));
  EXPECT_EQ(classify(helps, rules(), KnowledgeStatus::Hypothesis), KnowledgeStatus::Validated);
  std::vector<double> hurts(6, std::log(0.8));
  EXPECT_EQ(classify(hurts, rules(), KnowledgeStatus::Hypothesis), KnowledgeStatus::Validated)
      << "a consistent slowdown is validated knowledge too (effect < 1)";
  std::vector<double> tiny(6, std::log(1.01));
  EXPECT_EQ(classify(tiny, rules(), KnowledgeStatus::Hypothesis), KnowledgeStatus::Hypothesis);
  tiny.resize(10, std::log(1.01));
  EXPECT_EQ(classify(tiny, rules(), KnowledgeStatus::Hypothesis), KnowledgeStatus::Refuted)
      << "twice the observations and still no effect";
}

TEST(KnowledgeClassify, AValidatedClaimIsRefutedWhenEvidenceTurnsInconsistent) {
  std::vector<double> mixed{std::log(1.3), std::log(0.7), std::log(1.3), std::log(0.7), std::log(1.3),
                            std::log(0.75)};
  EXPECT_EQ(classify(mixed, rules(), KnowledgeStatus::Validated), KnowledgeStatus::Refuted);
  EXPECT_EQ(classify(mixed, rules(), KnowledgeStatus::Hypothesis), KnowledgeStatus::Hypothesis);
}

KnowledgeObservation obs(std::string from, std::string to, double effect, CandidateId child) {
  return KnowledgeObservation{"sm_90", "softmax", DecisionChange{"vec", from, to}, effect, child};
}

TEST(KnowledgeBook, OppositeDirectionsAccumulateOnOneEntry) {
  KnowledgeBook book(rules(), nullptr);
  book.observe(obs("1", "4", 1.25, 10));
  const KnowledgeEntry& e = book.observe(obs("4", "1", 0.8, 11));   // 4 -> 1 made it slower: 1 -> 4 helps
  EXPECT_EQ(book.size(), 1u);
  EXPECT_EQ(e.decision, "vec: 1 -> 4");
  EXPECT_EQ(e.observations, 2);
  EXPECT_NEAR(e.effect, 1.25, 1e-12);
  EXPECT_EQ(e.evidence, (std::vector<CandidateId>{10, 11}));
  EXPECT_EQ(e.status, KnowledgeStatus::Hypothesis);
  EXPECT_NE(e.claim.find("faster"), std::string::npos) << e.claim;
}

TEST(KnowledgeBook, ValidatedEntriesInScopeStrongestFirst) {
  KnowledgeBook book(rules(), nullptr);
  for (int i = 0; i < 5; ++i) book.observe(obs("1", "4", 1.1, i));
  for (int i = 0; i < 5; ++i)
    book.observe(KnowledgeObservation{"sm_90", "softmax", {"mem", "global", "smem"}, 1.5, 100 + i});
  for (int i = 0; i < 5; ++i)
    book.observe(KnowledgeObservation{"sm_100", "softmax", {"mem", "global", "smem"}, 1.5, 200 + i});
  auto scoped = book.validatedInScope("sm_90", "softmax");
  ASSERT_EQ(scoped.size(), 2u);
  EXPECT_EQ(scoped[0]->decision, "mem: global -> smem");
  EXPECT_EQ(scoped[1]->decision, "vec: 1 -> 4");
  EXPECT_TRUE(book.validatedInScope("sm_90", "matmul").empty()) << "family-scoped claims stay in their family";
}

// A claim the store holds, as a run's book loads it: vec 1 -> 4 for softmax on sm_90.
KnowledgeEntry storedVecClaim(std::int64_t observations) {
  KnowledgeEntry stored;
  stored.id = 5;
  stored.scopeArch = "sm_90";
  stored.scopeFamily = "softmax";
  stored.decision = "vec: 1 -> 4";
  stored.observations = observations;
  return stored;
}

TEST(KnowledgeBook, StoredEntriesAreRebuiltFromTheirEvidenceBeforeUpdating) {
  KnowledgeEntry stored = storedVecClaim(4);
  stored.evidence = {1, 2, 3, 4};
  int loads = 0;
  KnowledgeBook book(rules(), [&](const KnowledgeEntry& e, CandidateId) -> std::optional<double> {
    EXPECT_EQ(e.decision, "vec: 1 -> 4");
    ++loads;
    return std::log(1.2);
  });
  book.load({stored});
  const KnowledgeEntry& e = book.observe(obs("1", "4", 1.2, 9));
  EXPECT_EQ(loads, 4);
  EXPECT_EQ(e.id, 5);
  EXPECT_EQ(e.observations, 5);
  EXPECT_EQ(e.status, KnowledgeStatus::Validated) << "4 stored + 1 new consistent observations";
}

// An imported claim (kb import reads any count up to the largest int64) or a
// damaged project's: the next observation keeps the count at its largest.
TEST(KnowledgeBook, AnObservationCountAtTheLargestInt64StaysThere) {
  const KnowledgeEntry stored = storedVecClaim(std::numeric_limits<std::int64_t>::max());
  KnowledgeBook book(rules(), [](const KnowledgeEntry&, CandidateId) { return std::optional<double>(); });
  book.load({stored});
  EXPECT_EQ(book.observe(obs("1", "4", 1.2, 9)).observations, std::numeric_limits<std::int64_t>::max());
}

TEST(KnowledgeBook, StatisticsFollowTheLatestWindowOfObservations) {
  KnowledgeRules r = rules();
  r.window = 6;
  KnowledgeBook book(r, nullptr);
  for (int i = 0; i < 6; ++i) book.observe(obs("1", "4", 1.3, i));
  EXPECT_EQ(book.validatedInScope("sm_90", "softmax").size(), 1u);
  const KnowledgeEntry* e = nullptr;
  for (int i = 6; i < 12; ++i) e = &book.observe(obs("1", "4", 0.7, i));
  EXPECT_EQ(e->observations, 12);
  EXPECT_EQ(e->evidence, (std::vector<CandidateId>{6, 7, 8, 9, 10, 11}));
  EXPECT_NEAR(e->effect, 0.7, 1e-12);
  EXPECT_EQ(e->status, KnowledgeStatus::Validated) << "the claim now says the change hurts";
  EXPECT_LT(e->effect, 1.0);
}

}  // namespace
}  // namespace crucible
