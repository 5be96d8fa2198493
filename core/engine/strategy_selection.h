// SPDX-License-Identifier: GPL-3.0-or-later
// Meta-prompts / mutation strategies are individuals too: each proposal
// records the strategy that produced it, and strategies are chosen by a UCB1
// bandit over their improvement rate (improvements / uses). Now and then a
// good strategy is varied (Proposer::varyStrategy) and the variant competes.
#pragma once
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>
#include "core/model/seal.h"

namespace crucible {

// UCB1 for any arm whose rewards lie in [0, 1]: the mean reward plus the
// exploration bonus; an arm with no uses scores +infinity. The strategies
// below and the language-model proposer's choice of model
// (backends/proposers/llm/model_bandit.h) both use it.
double ucb1(double meanReward, std::int64_t uses, std::int64_t totalUses, double exploration);

// UCB1 score; an unused strategy scores +infinity so every one is tried once.
double ucb1Score(const MetaPrompt& s, std::int64_t totalUses, double exploration);

// The index of the strategy to use next: highest UCB1 score, ties broken by
// position (the strategies' id order), so the choice is deterministic.
// Throws std::invalid_argument when strategies is empty.
std::size_t chooseStrategy(const std::vector<MetaPrompt>& strategies, double exploration = 1.41421356);

// The strategy worth varying: the best improvement rate among those used at
// least minUses times; strategies.size() when none qualifies.
std::size_t strategyToVary(const std::vector<MetaPrompt>& strategies, std::int64_t minUses = 4);

}  // namespace crucible
