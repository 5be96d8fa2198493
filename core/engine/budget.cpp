// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/engine/budget.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <nlohmann/json.hpp>
#include "core/io/json_integer.h"

namespace crucible {
namespace {

ModelSpend spendOf(const nlohmann::json& u) {
  ModelSpend s;
  if (!u.is_object()) return s;
  for (const char* field : {"tokensIn", "tokensOut"})
    if (auto it = u.find(field); it != u.end())
      if (const auto n = jsonIntegerIn(*it, 1, std::numeric_limits<std::int64_t>::max()))
        s.tokens = saturatingAdd(s.tokens, *n);
  if (auto it = u.find("costUsd"); it != u.end() && it->is_number() && std::isfinite(it->get<double>()) &&
                                    it->get<double>() > 0)
    s.costUsd = it->get<double>();
  return s;
}

}  // namespace

ModelSpend modelSpendOfGenome(const std::string& genomeJson) {
  ModelSpend s;
  // Cheap refusal first: most genomes (template proposals) mention no model.
  if (genomeJson.find("\"llm") == std::string::npos) return s;
  const nlohmann::json g = nlohmann::json::parse(genomeJson, nullptr, false);
  if (g.is_discarded() || !g.is_object()) return s;
  for (const char* key : {"llm", "llmStrategy"})
    if (auto it = g.find(key); it != g.end()) s += spendOf(*it);
  return s;
}

std::string formatUsd(double usd) {
  char text[64];
  std::snprintf(text, sizeof text, usd >= 1 ? "$%.2f" : "$%.4f", usd);
  return text;
}

std::optional<std::string> budgetExhausted(const Budget& budget, const Usage& used, const ModelBudget& model) {
  if (budget.evaluations > 0 && used.evaluations >= budget.evaluations)
    return "evaluation budget of " + std::to_string(budget.evaluations) + " reached";
  if (budget.wallSeconds > 0 && used.wallSeconds >= budget.wallSeconds)
    return "wall-time budget of " + std::to_string(budget.wallSeconds) + " s reached";
  if (budget.gpuSeconds > 0 && used.gpuSeconds >= budget.gpuSeconds)
    return "GPU-time budget of " + std::to_string(budget.gpuSeconds) + " s reached";
  if (model.costUsd > 0 && used.model.costUsd >= model.costUsd)
    return "model budget spent: " + formatUsd(used.model.costUsd) + " of " + formatUsd(model.costUsd);
  if (model.tokens > 0 && used.model.tokens >= model.tokens)
    return "model token budget spent: " + std::to_string(used.model.tokens) + " of " + std::to_string(model.tokens) +
           " tokens";
  return std::nullopt;
}

std::int64_t evaluationsLeft(const Budget& budget, const Usage& used) {
  if (budget.evaluations <= 0) return std::numeric_limits<std::int64_t>::max();
  return std::max<std::int64_t>(0, budget.evaluations - used.evaluations);
}

}  // namespace crucible
