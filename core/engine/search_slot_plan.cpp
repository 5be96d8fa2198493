// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/engine/search_slot_plan.h"

#include "core/engine/parent_selection.h"
#include "core/engine/strategy_selection.h"

namespace crucible::engine_detail {

bool isExplorationStrategy(const std::string& name) {
  return name.rfind("explore", 0) == 0 || name.find(":explore") != std::string::npos;
}

bool isCrossoverStrategy(const std::string& name) { return name.find("crossover") != std::string::npos; }

SlotPlan planHillClimbSlot(const Archive& archive, const std::vector<MetaPrompt>& strategies,
                           const RunSettings& settings, std::mt19937_64& rng) {
  SlotPlan plan;
  plan.parent = archive.best();
  // Drawn whether or not there is a parent, as planSlot does, so one slot's
  // plan does not shift the draws of the strategy below.
  const double r = uniform01(rng);
  if (plan.parent) {
    plan.tuneFirst = r < settings.tuningShare;
    plan.kind = "mutate";
  }
  // Without a parent the proposer's default makes the fresh candidate.
  if (!plan.parent) return plan;
  // A single lineage: no second parent, no jump away from the parent's architecture.
  std::vector<MetaPrompt> oneParent;
  std::vector<std::size_t> index;
  for (std::size_t i = 0; i < strategies.size(); ++i) {
    if (isExplorationStrategy(strategies[i].name) || isCrossoverStrategy(strategies[i].name)) continue;
    oneParent.push_back(strategies[i]);
    index.push_back(i);
  }
  if (!oneParent.empty()) plan.strategy = index[chooseStrategy(oneParent)];
  return plan;
}

SlotPlan planRandomSlot(const std::vector<MetaPrompt>& strategies) {
  SlotPlan plan;   // no parent, no tuning, no mate: "fresh"
  for (std::size_t i = 0; i < strategies.size(); ++i)
    if (isExplorationStrategy(strategies[i].name)) {
      plan.strategy = i;
      break;
    }
  return plan;
}

}  // namespace crucible::engine_detail
