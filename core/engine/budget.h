// SPDX-License-Identifier: GPL-3.0-or-later
// Budget tracking: evaluations, wall time and GPU time; 0 = no limit.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include "core/model/run.h"

namespace crucible {

struct Usage {
  std::int64_t evaluations = 0;
  double wallSeconds = 0;
  double gpuSeconds = 0;
};

// Why the budget is spent ("evaluation budget of 100 reached"), or nullopt.
std::optional<std::string> budgetExhausted(const Budget& budget, const Usage& used);

// Evaluations that may still start (INT64_MAX without an evaluation limit).
std::int64_t evaluationsLeft(const Budget& budget, const Usage& used);

}  // namespace crucible
