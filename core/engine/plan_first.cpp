// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/engine/plan_first.h"

namespace crucible {

Proposal proposeThroughReview(PlanFirstProposer& proposer, const ReviewGate& gate, const ProposalContext& ctx) {
  Proposal plan = proposer.planFirst(ctx);
  if (!plan.ok || !proposer.isPlan(plan.candidate)) return plan;
  // A new (or rejected) architecture goes to the review queue / is discarded by the engine as it is.
  if (gate.decide(plan.candidate.architectureKey) != ReviewGate::Decision::Proceed) return plan;
  return proposer.implementPlan(ctx, plan.candidate);
}

Candidate implementationOf(const Candidate& plan, const Proposal& implemented) {
  Candidate c = implemented.candidate;
  c.id = 0;
  c.runId = plan.runId;
  c.generation = plan.generation;
  c.parents = plan.parents;
  c.metaPrompt = plan.metaPrompt;
  c.createdAt = 0;  // now
  if (c.proposer.empty()) c.proposer = plan.proposer;
  if (c.mutation.empty()) c.mutation = plan.mutation;
  if (c.architectureKey.empty()) c.architectureKey = plan.architectureKey;
  if (implemented.ok) {
    c.status = CandidateStatus::Proposed;
    c.statusDetail = "implements plan #" + std::to_string(plan.id) + ", accepted in review";
  } else {
    if (c.status == CandidateStatus::Proposed || c.status == CandidateStatus::AwaitingReview)
      c.status = CandidateStatus::CompileFailed;  // a failure is never evaluated
    if (c.statusDetail.empty()) c.statusDetail = implemented.error.empty() ? "no code for the plan" : implemented.error;
  }
  return c;
}

Candidate retiredPlan(Candidate plan, CandidateId implementation) {
  plan.status = CandidateStatus::Rejected;
  plan.statusDetail = "architecture accepted in review; implemented as candidate #" + std::to_string(implementation);
  return plan;
}

Candidate failedPlan(Candidate plan, const std::string& error) {
  plan.status = CandidateStatus::CompileFailed;
  plan.statusDetail = "architecture accepted in review; no code came: " + error;
  return plan;
}

}  // namespace crucible
