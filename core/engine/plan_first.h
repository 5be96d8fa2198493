// SPDX-License-Identifier: GPL-3.0-or-later
// Architecture first, for gated runs: a proposer that can split a proposal in
// two (a language model: a named plan, then its code) lets a reviewer accept
// or reject the plan before any code is written. The engine asks for the
// plan; a plan of an architecture that needs review is stored without code as
// AwaitingReview (what the review queue shows); a rejected plan is Rejected
// and no code is ever requested. Once accepted the engine asks for the code,
// stores it as a new candidate (same generation, parents and strategy; its
// genome holds what the implementation cost, the plan's keeps the plan's
// turn) and retires the plan: status Rejected with the detail
// "architecture accepted in review; implemented as candidate #N" (the store
// cannot replace a candidate's source, and the plan must not be evaluated).
// A plan of an architecture already accepted is implemented at once. Ungated
// runs call propose() as before.
#pragma once
#include "core/engine/interfaces.h"
#include "core/engine/review_gate.h"

namespace crucible {

// Implemented beside Proposer by proposers that plan first (found by dynamic_cast).
class PlanFirstProposer {
public:
  virtual ~PlanFirstProposer() = default;
  // The first step of a proposal: a candidate without code for which
  // isPlan() holds (architectureKey set, the plan in its genomeJson), or, when
  // this proposal has no plan step, a whole candidate as propose() makes.
  // ok=false (and keep) as for propose(). Thread-safe like propose().
  virtual Proposal planFirst(const ProposalContext& ctx) = 0;
  // seeds() the same way: the starting candidates as plans (or whole ones).
  virtual std::vector<Proposal> seedPlans(const Task& task, std::uint64_t seed) = 0;
  // A candidate that is a plan still waiting for its code (as returned, or as stored).
  virtual bool isPlan(const Candidate& c) const = 0;
  // The code for a plan: the whole candidate (source, launch, descriptor,
  // genomeJson accounting what the implementation cost, not the plan's turn,
  // which the stored plan keeps; a plan with id 0, never stored, is
  // accounted in full). `ctx` as for the plan (the stored
  // candidate's parents and strategy). ok=false (keep: its candidate says
  // why) when no usable code came. Thread-safe like propose().
  virtual Proposal implementPlan(const ProposalContext& ctx, const Candidate& plan) = 0;
};

inline PlanFirstProposer* planFirstOf(Proposer& p) { return dynamic_cast<PlanFirstProposer*>(&p); }

// One slot of a gated run with a plan-first proposer: the plan; its code at
// once when `gate` lets its architecture proceed without review. `gate` is
// a copy of the run's gate taken when the slot was planned (verdicts may
// arrive meanwhile).
Proposal proposeThroughReview(PlanFirstProposer& proposer, const ReviewGate& gate, const ProposalContext& ctx);

// The candidate to store for a plan's implementation: the implementation's
// content with the plan's place (run, generation, parents, strategy), id 0,
// status Proposed when ok; as the proposer failed it (kept) otherwise.
Candidate implementationOf(const Candidate& plan, const Proposal& implemented);
// The plan once its implementation is stored as `implementation`.
Candidate retiredPlan(Candidate plan, CandidateId implementation);
// The plan when no implementation could be stored (the model gave no reply at all).
Candidate failedPlan(Candidate plan, const std::string& error);

}  // namespace crucible
