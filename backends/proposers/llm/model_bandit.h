// SPDX-License-Identifier: GPL-3.0-or-later
// Which of the settings' models writes the next proposal: a UCB1 bandit (the
// engine's, core/engine/strategy_selection.h) over the models, rewarded by
// the improvements their children brought and penalised by what a proposal
// of each model costs.
//
//   score(m) = ucb1(improvements(m) / outcomes(m), outcomes(m), all outcomes)
//              - costWeight * costPerProposal(m) / max over models of costPerProposal
//
// so the most expensive model loses `costWeight` (in improvement-rate units)
// and a free one nothing; costWeight 0 ignores cost. costPerProposal is priced
// at the model's priceInPerMTok / priceOutPerMTok over the tokens a proposal
// of that model measured on average (before it has any, the average over all
// models, before any the prices alone), so prices and verbosity both count.
//
// A model with no known outcome yet scores +infinity; among those the one
// with the fewest proposals goes first (ties: settings order), so with
// several proposals in flight and outcomes slow to arrive the untried models
// take turns instead of one taking every slot. Not thread-safe: LlmProposer
// holds it under a mutex.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "backends/proposers/llm/llm_settings.h"
#include "backends/proposers/llm/llm_usage.h"

namespace crucible::llm {

struct ModelArmStats {
  std::int64_t proposals = 0;    // proposals started with this model
  std::int64_t outcomes = 0;     // children whose result is known
  double improvements = 0;       // summed rewards of those outcomes, each in [0, 1]
  std::int64_t billedProposals = 0;  // proposals whose tokens were measured (at least one reply)
  std::int64_t tokensIn = 0;
  std::int64_t tokensOut = 0;
  double costUsd = 0;
};

class ModelBandit {
public:
  static constexpr double kExploration = 1.41421356;  // the strategy bandit's

  ModelBandit(std::vector<LlmModelSettings> models, double costWeight, double exploration = kExploration);

  // The model for the next proposal; counts it as started.
  std::size_t start();
  // A proposal of model `arm` spent this (all its requests, when it ended).
  void bill(std::size_t arm, const LlmUsage& usage);
  // A child of model `arm` ended; reward 1 = it improved on its parent, 0 = it did not.
  void reward(std::size_t arm, double reward);

  // The model's index by name; models().size() when it is none of them.
  std::size_t indexOf(const std::string& modelName) const;
  double score(std::size_t arm) const;
  // USD a proposal of this model costs, as measured and priced (see above).
  double costPerProposal(std::size_t arm) const;
  const ModelArmStats& stats(std::size_t arm) const { return stats_.at(arm); }
  const std::vector<LlmModelSettings>& models() const { return models_; }
  double costWeight() const { return costWeight_; }

private:
  std::size_t choose() const;
  std::vector<LlmModelSettings> models_;
  std::vector<ModelArmStats> stats_;
  double costWeight_;
  double exploration_;
};

}  // namespace crucible::llm
