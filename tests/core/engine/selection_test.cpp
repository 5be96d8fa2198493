// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include "core/engine/parent_selection.h"
#include "core/engine/seeding.h"
#include "core/engine/strategy_selection.h"

namespace crucible {
namespace {

std::map<std::string, int> drawMany(const std::vector<const ArchiveCell*>& cells, double w, int n) {
  std::mt19937_64 rng(123);
  std::map<std::string, int> counts;
  for (int i = 0; i < n; ++i) ++counts[selectParentCell(cells, w, rng)->key];
  return counts;
}

TEST(ParentSelection, WithoutExplorationFitterCellsAreDrawnMoreOften) {
  ArchiveCell fast{1, 0, "fast", 1, 2.0, 0, 0};
  ArchiveCell slow{1, 0, "slow", 2, 0.5, 0, 0};
  auto counts = drawMany({&fast, &slow}, 0.0, 10000);
  // weights 1.01 vs 0.26: expect about 80% / 20%
  EXPECT_NEAR(counts["fast"] / 10000.0, 1.01 / 1.27, 0.02);
}

TEST(ParentSelection, ExplorationFavoursCellsWhoseChildrenImprove) {
  ArchiveCell curious{1, 0, "curious", 1, 1.0, 10, 9};   // 9 of 10 children improved
  ArchiveCell stale{1, 0, "stale", 2, 1.0, 10, 0};
  auto counts = drawMany({&curious, &stale}, 5.0, 10000);
  EXPECT_GT(counts["curious"], 3 * counts["stale"]);
  auto pure = drawMany({&curious, &stale}, 0.0, 10000);
  EXPECT_NEAR(pure["curious"] / 10000.0, 0.5, 0.03) << "equal fitness without exploration: a coin flip";
}

TEST(ParentSelection, IsDeterministicForAGivenSeedAndEmptyGivesNull) {
  ArchiveCell a{1, 0, "a", 1, 1.0, 0, 0}, b{1, 0, "b", 2, 1.2, 0, 0}, c{1, 0, "c", 3, 0.3, 4, 1};
  std::vector<const ArchiveCell*> cells{&a, &b, &c};
  std::mt19937_64 r1(deriveSeed(9, 3, 1, SeedPurpose::Selection)), r2(deriveSeed(9, 3, 1, SeedPurpose::Selection));
  for (int i = 0; i < 100; ++i) EXPECT_EQ(selectParentCell(cells, 1.0, r1), selectParentCell(cells, 1.0, r2));
  std::mt19937_64 r(1);
  EXPECT_EQ(selectParentCell({}, 1.0, r), nullptr);
}

TEST(ParentSelection, MateIsAlwaysADifferentCell) {
  ArchiveCell a{1, 0, "a", 1, 5.0, 0, 0}, b{1, 0, "b", 2, 0.1, 0, 0};
  std::mt19937_64 rng(5);
  for (int i = 0; i < 200; ++i) EXPECT_EQ(selectMate({&a, &b}, &a, 1.0, rng), &b);
  EXPECT_EQ(selectMate({&a}, &a, 1.0, rng), nullptr);
}

TEST(DeriveSeed, DiffersByEveryInput) {
  auto s = deriveSeed(1, 2, 3, SeedPurpose::Proposal);
  EXPECT_EQ(s, deriveSeed(1, 2, 3, SeedPurpose::Proposal));
  EXPECT_NE(s, deriveSeed(2, 2, 3, SeedPurpose::Proposal));
  EXPECT_NE(s, deriveSeed(1, 3, 3, SeedPurpose::Proposal));
  EXPECT_NE(s, deriveSeed(1, 2, 4, SeedPurpose::Proposal));
  EXPECT_NE(s, deriveSeed(1, 2, 3, SeedPurpose::Selection));
}

MetaPrompt strategy(MetaPromptId id, std::int64_t uses, std::int64_t improvements) {
  MetaPrompt m;
  m.id = id;
  m.name = "s" + std::to_string(id);
  m.uses = uses;
  m.improvements = improvements;
  return m;
}

TEST(StrategySelection, TriesEveryStrategyOnceThenPrefersTheBetterRate) {
  EXPECT_EQ(chooseStrategy({strategy(1, 3, 1), strategy(2, 0, 0)}), 1u) << "unused first";
  EXPECT_EQ(chooseStrategy({strategy(1, 50, 25), strategy(2, 50, 5)}), 0u);
  // A rarely used strategy gets an exploration bonus over a slightly better, well-known one.
  EXPECT_EQ(chooseStrategy({strategy(1, 1000, 300), strategy(2, 3, 0)}), 1u);
  EXPECT_THROW(chooseStrategy({}), std::invalid_argument);
}

TEST(StrategySelection, Ucb1IsTheStrategyScoreForAnyArm) {
  MetaPrompt m;
  m.uses = 4;
  m.improvements = 1;
  EXPECT_DOUBLE_EQ(ucb1Score(m, 20, 1.4), ucb1(0.25, 4, 20, 1.4));
  EXPECT_TRUE(std::isinf(ucb1(0.9, 0, 20, 1.4)));
  EXPECT_GT(ucb1(0.5, 2, 20, 1.4), ucb1(0.5, 10, 20, 1.4));  // less used: larger bonus
  EXPECT_DOUBLE_EQ(ucb1(0.5, 3, 20, 0), 0.5);                   // no exploration: the mean
}

TEST(StrategySelection, VariesTheBestRateAmongWellUsedStrategies) {
  EXPECT_EQ(strategyToVary({strategy(1, 10, 2), strategy(2, 10, 6), strategy(3, 1, 1)}), 1u);
  EXPECT_EQ(strategyToVary({strategy(1, 1, 1)}), 1u) << "none used enough: size()";
}

}  // namespace
}  // namespace crucible
