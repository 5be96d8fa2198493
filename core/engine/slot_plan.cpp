// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/engine/slot_plan.h"

#include "core/engine/parent_selection.h"
#include "core/engine/search_slot_plan.h"
#include "core/engine/strategy_selection.h"

namespace crucible::engine_detail {

SlotPlan planSlot(const Archive& archive, int island, const std::vector<MetaPrompt>& strategies,
                  const RunSettings& settings, std::mt19937_64& rng) {
  if (settings.search == SearchStrategy::HillClimb) return planHillClimbSlot(archive, strategies, settings, rng);
  if (settings.search == SearchStrategy::Random) return planRandomSlot(strategies);
  auto cells = archive.cells(island);
  if (cells.empty() && archive.size() > 0) cells = archive.cells(archive.best()->island);

  // The draws keep one order (parent, share, mate, strategy's mate) so a
  // run's seed reproduces its plans.
  SlotPlan plan;
  plan.parent = selectParentCell(cells, settings.explorationWeight, rng);
  double r = uniform01(rng);
  if (plan.parent) {
    plan.tuneFirst = r < settings.tuningShare;
    plan.kind = "mutate";
    if (r >= settings.tuningShare && r < settings.tuningShare + settings.crossoverRate) {
      plan.mate = selectMate(cells, plan.parent, settings.explorationWeight, rng);
      if (plan.mate) plan.kind = "crossover";
    }
  }
  if (strategies.empty()) return plan;
  plan.strategy = chooseStrategy(strategies);
  // A crossover strategy needs two parents: find a mate for it, or, when the
  // archive has no second cell, let the proposer apply its default for one
  // parent rather than fail (and credit no strategy for the child).
  if (strategies[*plan.strategy].name == "crossover" && plan.parent && !plan.mate) {
    plan.mate = selectMate(cells, plan.parent, settings.explorationWeight, rng);
    if (plan.mate)
      plan.kind = "crossover";
    else
      plan.strategy.reset();
  }
  return plan;
}

}  // namespace crucible::engine_detail
