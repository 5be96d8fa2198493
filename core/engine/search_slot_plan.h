// SPDX-License-Identifier: GPL-3.0-or-later
// The slot plans of the searches other than MAP-Elites (search_strategy.h):
// planSlot (slot_plan.h) hands a slot to these when RunSettings::search says
// so. Internal to core/engine.
#pragma once
#include <random>
#include <string>
#include <vector>
#include "core/engine/archive.h"
#include "core/engine/run_settings.h"
#include "core/engine/slot_plan.h"
#include "core/model/seal.h"

namespace crucible::engine_detail {

// Strategy kinds by name, for any proposer's names: exploration ignores its
// parents' architecture ("explore:new-architecture", "llm:explore"),
// crossover needs two parents ("crossover").
bool isExplorationStrategy(const std::string& name);
bool isCrossoverStrategy(const std::string& name);

// Hill climbing: the parent is the archive's best elite (the best valid
// candidate so far, over every island); tuning at the settings' share; the
// strategy drawn (UCB1, strategy_selection.h) among the one-parent ones, none
// when there are none. An empty archive (no valid candidate yet) makes a fresh
// candidate with the proposer's default, as MAP-Elites does.
SlotPlan planHillClimbSlot(const Archive& archive, const std::vector<MetaPrompt>& strategies,
                           const RunSettings& settings, std::mt19937_64& rng);

// Random sampling: a fresh candidate with no parent, never tuned, with the
// first exploration strategy (the proposer's default for no parent when it
// has none). Reads no fitness and no rng.
SlotPlan planRandomSlot(const std::vector<MetaPrompt>& strategies);

}  // namespace crucible::engine_detail
