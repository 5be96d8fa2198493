// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/proposers/llm/model_bandit.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/engine/strategy_selection.h"

namespace crucible::llm {

ModelBandit::ModelBandit(std::vector<LlmModelSettings> models, double costWeight, double exploration)
    : models_(std::move(models)), stats_(models_.size()), costWeight_(costWeight), exploration_(exploration) {
  if (models_.empty()) throw std::invalid_argument("model bandit: no models");
  if (!(costWeight_ >= 0) || !std::isfinite(costWeight_)) throw std::invalid_argument("model bandit: costWeight must be >= 0");
}

std::size_t ModelBandit::indexOf(const std::string& modelName) const {
  for (std::size_t i = 0; i < models_.size(); ++i)
    if (models_[i].name == modelName) return i;
  return models_.size();
}

double ModelBandit::costPerProposal(std::size_t arm) const {
  const ModelArmStats& s = stats_.at(arm);
  double tokensIn = 1, tokensOut = 1;  // nothing measured anywhere: the prices alone decide
  if (s.billedProposals > 0) {
    tokensIn = static_cast<double>(s.tokensIn) / static_cast<double>(s.billedProposals);
    tokensOut = static_cast<double>(s.tokensOut) / static_cast<double>(s.billedProposals);
  } else {
    std::int64_t n = 0, in = 0, out = 0;
    for (const ModelArmStats& o : stats_) n += o.billedProposals, in += o.tokensIn, out += o.tokensOut;
    if (n > 0) {
      tokensIn = static_cast<double>(in) / static_cast<double>(n);
      tokensOut = static_cast<double>(out) / static_cast<double>(n);
    }
  }
  const LlmModelSettings& m = models_[arm];
  return (m.priceInPerMTok * tokensIn + m.priceOutPerMTok * tokensOut) / 1e6;
}

double ModelBandit::score(std::size_t arm) const {
  std::int64_t total = 0;
  for (const ModelArmStats& s : stats_) total += s.outcomes;
  const ModelArmStats& s = stats_.at(arm);
  const double mean = s.outcomes > 0 ? s.improvements / static_cast<double>(s.outcomes) : 0;
  const double value = ucb1(mean, s.outcomes, total, exploration_);
  double maxCost = 0;
  for (std::size_t i = 0; i < models_.size(); ++i) maxCost = std::max(maxCost, costPerProposal(i));
  if (maxCost <= 0 || costWeight_ == 0) return value;
  return value - costWeight_ * costPerProposal(arm) / maxCost;
}

std::size_t ModelBandit::choose() const {
  // Untried models first (fewest proposals, then the cheaper, then settings order).
  std::size_t best = models_.size();
  for (std::size_t i = 0; i < models_.size(); ++i) {
    if (stats_[i].outcomes > 0) continue;
    if (best == models_.size() || stats_[i].proposals < stats_[best].proposals ||
        (stats_[i].proposals == stats_[best].proposals && costPerProposal(i) < costPerProposal(best)))
      best = i;
  }
  if (best < models_.size()) return best;
  double bestScore = -std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < models_.size(); ++i) {
    const double s = score(i);
    if (s > bestScore) best = i, bestScore = s;
  }
  return best;
}

std::size_t ModelBandit::start() {
  const std::size_t arm = choose();
  ++stats_[arm].proposals;
  return arm;
}

void ModelBandit::bill(std::size_t arm, const LlmUsage& usage) {
  if (arm >= stats_.size() || usage.requests == 0) return;
  ModelArmStats& s = stats_[arm];
  ++s.billedProposals;
  s.tokensIn += usage.tokensIn;
  s.tokensOut += usage.tokensOut;
  s.costUsd += usage.costUsd;
}

void ModelBandit::reward(std::size_t arm, double reward) {
  if (arm >= stats_.size()) return;
  ++stats_[arm].outcomes;
  stats_[arm].improvements += std::clamp(reward, 0.0, 1.0);
}

}  // namespace crucible::llm
