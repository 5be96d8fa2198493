// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/proposers/combined/proposer_slot.h"

namespace crucible {

Proposal ProposerSlot::planFirst(const ProposalContext& ctx) {
  if (PlanFirstProposer* planner = planFirstOf(*current_)) return planner->planFirst(ctx);
  return current_->propose(ctx);
}

std::vector<Proposal> ProposerSlot::seedPlans(const Task& task, std::uint64_t seed) {
  if (PlanFirstProposer* planner = planFirstOf(*current_)) return planner->seedPlans(task, seed);
  return current_->seeds(task, seed);
}

bool ProposerSlot::isPlan(const Candidate& c) const {
  const PlanFirstProposer* planner = planFirstOf(*current_);
  return planner && planner->isPlan(c);
}

Proposal ProposerSlot::implementPlan(const ProposalContext& ctx, const Candidate& plan) {
  if (PlanFirstProposer* planner = planFirstOf(*current_)) return planner->implementPlan(ctx, plan);
  return Proposal{{}, false, "proposer '" + current_->name() + "' does not plan first: candidate #" +
                                 std::to_string(plan.id) + " is not its plan"};
}

}  // namespace crucible
