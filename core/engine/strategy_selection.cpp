// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/engine/strategy_selection.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace crucible {

double ucb1(double meanReward, std::int64_t uses, std::int64_t totalUses, double exploration) {
  if (uses <= 0) return std::numeric_limits<double>::infinity();
  double total = static_cast<double>(std::max<std::int64_t>(totalUses, 1));
  return meanReward + exploration * std::sqrt(std::log(total) / static_cast<double>(uses));
}

double ucb1Score(const MetaPrompt& s, std::int64_t totalUses, double exploration) {
  if (s.uses <= 0) return std::numeric_limits<double>::infinity();
  return ucb1(static_cast<double>(s.improvements) / static_cast<double>(s.uses), s.uses, totalUses, exploration);
}

std::size_t chooseStrategy(const std::vector<MetaPrompt>& strategies, double exploration) {
  if (strategies.empty()) throw std::invalid_argument("strategy selection: the proposer declared no strategies");
  std::int64_t total = 0;
  for (const auto& s : strategies) total += s.uses;
  std::size_t best = 0;
  double bestScore = -std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < strategies.size(); ++i) {
    double score = ucb1Score(strategies[i], total, exploration);
    if (score > bestScore) {
      best = i;
      bestScore = score;
    }
  }
  return best;
}

std::size_t strategyToVary(const std::vector<MetaPrompt>& strategies, std::int64_t minUses) {
  std::size_t best = strategies.size();
  double bestRate = -1;
  for (std::size_t i = 0; i < strategies.size(); ++i) {
    const auto& s = strategies[i];
    if (s.uses < minUses) continue;
    double rate = static_cast<double>(s.improvements) / static_cast<double>(s.uses);
    if (rate > bestRate) {
      best = i;
      bestRate = rate;
    }
  }
  return best;
}

}  // namespace crucible
