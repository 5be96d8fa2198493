// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>
#include "core/engine/slot_plan.h"

namespace crucible::engine_detail {
namespace {

RunSettings shares(double tuningShare, double crossoverRate) {
  RunSettings s;
  s.tuningShare = tuningShare;
  s.crossoverRate = crossoverRate;
  return s;
}

MetaPrompt strategy(MetaPromptId id, const std::string& name) {
  MetaPrompt m;
  m.id = id;
  m.name = name;
  return m;
}

TEST(SlotPlan, AnEmptyArchiveMakesAFreshCandidate) {
  Archive archive(1, 2);
  std::mt19937_64 rng(1);
  SlotPlan plan = planSlot(archive, 0, {}, shares(0.5, 0.5), rng);
  EXPECT_EQ(plan.parent, nullptr);
  EXPECT_FALSE(plan.tuneFirst);
  EXPECT_EQ(plan.kind, "fresh");
  EXPECT_FALSE(plan.strategy);
}

TEST(SlotPlan, AnIslandWithoutCellsDrawsFromTheBestIsland) {
  Archive archive(1, 2);
  archive.insert(1, "k", 10, 1.5);
  std::mt19937_64 rng(1);
  SlotPlan plan = planSlot(archive, 0, {}, shares(0, 0), rng);
  ASSERT_NE(plan.parent, nullptr);
  EXPECT_EQ(plan.parent->elite, 10);
  EXPECT_EQ(plan.kind, "mutate");
}

TEST(SlotPlan, TheSharesDecideBetweenTuningMutationAndCrossover) {
  Archive archive(1, 1);
  archive.insert(0, "a", 10, 1.5);
  archive.insert(0, "b", 11, 1.2);
  std::mt19937_64 rng(3);
  SlotPlan tune = planSlot(archive, 0, {}, shares(1.0, 0), rng);
  EXPECT_TRUE(tune.tuneFirst);
  EXPECT_EQ(tune.kind, "mutate") << "what the slot makes when tuning gives nothing";
  EXPECT_EQ(tune.mate, nullptr);

  SlotPlan cross = planSlot(archive, 0, {}, shares(0, 1.0), rng);
  EXPECT_FALSE(cross.tuneFirst);
  ASSERT_NE(cross.mate, nullptr);
  EXPECT_NE(cross.mate, cross.parent);
  EXPECT_EQ(cross.kind, "crossover");

  SlotPlan mutate = planSlot(archive, 0, {}, shares(0, 0), rng);
  EXPECT_EQ(mutate.kind, "mutate");
  EXPECT_EQ(mutate.mate, nullptr);
}

TEST(SlotPlan, ACrossoverStrategyFindsAMateOrIsNotCredited) {
  std::vector<MetaPrompt> crossoverOnly{strategy(1, "crossover")};
  Archive two(1, 1);
  two.insert(0, "a", 10, 1.5);
  two.insert(0, "b", 11, 1.2);
  std::mt19937_64 rng(5);
  SlotPlan plan = planSlot(two, 0, crossoverOnly, shares(0, 0), rng);
  EXPECT_EQ(plan.strategy, 0u);
  ASSERT_NE(plan.mate, nullptr);
  EXPECT_EQ(plan.kind, "crossover");

  Archive one(1, 1);
  one.insert(0, "a", 10, 1.5);
  SlotPlan alone = planSlot(one, 0, crossoverOnly, shares(0, 0), rng);
  EXPECT_FALSE(alone.strategy) << "no second cell: the proposer's default, no strategy credited";
  EXPECT_EQ(alone.kind, "mutate");
}

TEST(SlotPlan, TheSameRngStateGivesTheSamePlan) {
  Archive archive(1, 1);
  for (int i = 0; i < 6; ++i) archive.insert(0, "k" + std::to_string(i), 10 + i, 1.0 + i * 0.1);
  std::vector<MetaPrompt> strategies{strategy(1, "mutate:memory"), strategy(2, "crossover")};
  std::mt19937_64 a(11), b(11);
  for (int slot = 0; slot < 20; ++slot) {
    SlotPlan x = planSlot(archive, 0, strategies, shares(0.25, 0.25), a);
    SlotPlan y = planSlot(archive, 0, strategies, shares(0.25, 0.25), b);
    EXPECT_EQ(x.parent, y.parent);
    EXPECT_EQ(x.mate, y.mate);
    EXPECT_EQ(x.kind, y.kind);
    EXPECT_EQ(x.strategy, y.strategy);
  }
}

}  // namespace
}  // namespace crucible::engine_detail
