// SPDX-License-Identifier: GPL-3.0-or-later
// Budget tracking: evaluations, wall time and GPU time (Run::budget), and what
// language models may cost (RunSettings::maxModelCostUsd / maxModelTokens);
// 0 = no limit.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include "core/model/run.h"
#include "core/model/saturating_count.h"

namespace crucible {

// What a run's proposals cost in model requests, as recorded with them.
struct ModelSpend {
  std::int64_t tokens = 0;   // in and out
  double costUsd = 0;
  ModelSpend& operator+=(const ModelSpend& o) {
    tokens = saturatingAdd(tokens, o.tokens);  // read from project files: any figure
    costUsd += o.costUsd;
    return *this;
  }
};

// A proposer that pays for its proposals records each one's spend in the
// candidate's genomeJson: "llm" {"tokensIn", "tokensOut", "costUsd"} for the
// proposal, "llmStrategy" (same fields) for strategy rewrites it carries
// (backends/proposers/llm/llm_usage.h). Anything else, or not JSON: nothing.
ModelSpend modelSpendOfGenome(const std::string& genomeJson);

struct Usage {
  std::int64_t evaluations = 0;
  double wallSeconds = 0;
  double gpuSeconds = 0;
  ModelSpend model;
};

struct ModelBudget {
  double costUsd = 0;        // 0 = no limit
  std::int64_t tokens = 0;   // 0 = no limit
};

// Why the budget is spent ("evaluation budget of 100 reached", "model budget
// spent: $1.02 of $1.00"), or nullopt.
std::optional<std::string> budgetExhausted(const Budget& budget, const Usage& used, const ModelBudget& model = {});

// Evaluations that may still start (INT64_MAX without an evaluation limit).
std::int64_t evaluationsLeft(const Budget& budget, const Usage& used);

// "$1.25", or "$0.0042" below a dollar (cents would show a small budget as $0.00).
std::string formatUsd(double usd);

}  // namespace crucible
