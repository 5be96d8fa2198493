// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/engine/budget.h"

#include <algorithm>
#include <limits>

namespace crucible {

std::optional<std::string> budgetExhausted(const Budget& budget, const Usage& used) {
  if (budget.evaluations > 0 && used.evaluations >= budget.evaluations)
    return "evaluation budget of " + std::to_string(budget.evaluations) + " reached";
  if (budget.wallSeconds > 0 && used.wallSeconds >= budget.wallSeconds)
    return "wall-time budget of " + std::to_string(budget.wallSeconds) + " s reached";
  if (budget.gpuSeconds > 0 && used.gpuSeconds >= budget.gpuSeconds)
    return "GPU-time budget of " + std::to_string(budget.gpuSeconds) + " s reached";
  return std::nullopt;
}

std::int64_t evaluationsLeft(const Budget& budget, const Usage& used) {
  if (budget.evaluations <= 0) return std::numeric_limits<std::int64_t>::max();
  return std::max<std::int64_t>(0, budget.evaluations - used.evaluations);
}

}  // namespace crucible
