// SPDX-License-Identifier: GPL-3.0-or-later
// RunLoop's part that writes the code of accepted plans (plan_first.h): a
// gated run with a plan-first proposer stores plans without code while they
// wait for review; those released by an accept (or left Proposed by a run
// interrupted after the accept) get their code here, before the batch is
// compiled: the code is a new candidate and the plan is retired. Its own file so run_loop.cpp keeps to one responsibility.
#include <algorithm>
#include <future>
#include "core/engine/run_loop.h"
#include "core/engine/run_events.h"
#include "core/engine/seeding.h"

namespace crucible::engine_detail {

std::vector<Candidate> RunLoop::implementPlans(std::vector<Candidate> batch) {
  PlanFirstProposer* planner = planFirstOf(proposer_);
  if (!planner) return batch;
  // What each call reads, owned here and built on this thread (candidateById is not thread-safe).
  struct Call {
    Candidate plan;
    std::vector<Candidate> parents;
    std::optional<MetaPrompt> strategy;
    ProposalContext ctx;
  };
  std::vector<std::unique_ptr<Call>> calls;
  std::vector<Candidate> ready;
  for (Candidate& c : batch) {
    if (!planner->isPlan(c)) {
      ready.push_back(std::move(c));
      continue;
    }
    auto call = std::make_unique<Call>();
    call->plan = std::move(c);
    for (CandidateId id : call->plan.parents) call->parents.push_back(candidateById(id));
    if (MetaPrompt* s = call->plan.metaPrompt ? strategyById(call->plan.metaPrompt) : nullptr) call->strategy = *s;
    call->ctx.task = &task_;
    call->ctx.generation = call->plan.generation;
    call->ctx.seed = deriveSeed(run_.seed, call->plan.generation, static_cast<std::int64_t>(call->plan.id),
                                SeedPurpose::Proposal);
    knowledge_->supply(call->ctx, device_.arch);
    for (const Candidate& p : call->parents) call->ctx.parents.push_back(&p);
    if (call->strategy) call->ctx.strategy = &*call->strategy;
    calls.push_back(std::move(call));
  }
  // As many at once as the proposer allows (a model takes tens of seconds per reply).
  const std::size_t width = static_cast<std::size_t>(std::max(1, proposer_.concurrentProposals()));
  for (std::size_t from = 0; from < calls.size(); from += width) {
    std::vector<std::future<Proposal>> pending;
    for (std::size_t i = from; i < std::min(calls.size(), from + width); ++i)
      pending.push_back(std::async(std::launch::async, [planner, call = calls[i].get()] {
        return planner->implementPlan(call->ctx, call->plan);
      }));
    for (std::size_t i = from; i < std::min(calls.size(), from + width); ++i) {
      const Candidate& plan = calls[i]->plan;
      const Proposal implemented = pending[i - from].get();
      const int island = islandOf(plan.id);
      islandOf_.erase(plan.id);  // the plan itself is final now: never evaluated
      if (!implemented.ok && !implemented.keep) {
        store_.updateCandidate(failedPlan(plan, implemented.error));
        lastProposalError_ = implemented.error;
        log("warning", "candidate #" + std::to_string(plan.id) + ": no code for the accepted architecture " +
                           plan.architectureKey + ": " + implemented.error);
        continue;
      }
      Candidate c = implementationOf(plan, implemented);
      store_.transaction([&] {
        c.id = store_.addCandidate(c);
        store_.updateCandidate(retiredPlan(plan, c.id));
      });
      c = store_.candidate(c.id).value_or(c);  // as stored (its creation time)
      modelSpent_ += modelSpendOfGenome(c.genomeJson);
      ++storedPerGeneration_[c.generation];
      tuning_->addCandidate(c.architectureKey, c.id);
      send(proposedEvent(counters(), c));
      if (implemented.ok) {
        log("info", "plan #" + std::to_string(plan.id) + " (" + plan.architectureKey + "), accepted in review, " +
                        "implemented as candidate #" + std::to_string(c.id));
        islandOf_[c.id] = island;
        ready.push_back(std::move(c));
      } else {
        lastProposalError_ = c.statusDetail;
        log("warning", "plan #" + std::to_string(plan.id) + " (" + plan.architectureKey + "), accepted in review: " +
                           "its implementation #" + std::to_string(c.id) + " failed: " + c.statusDetail);
      }
    }
  }
  return ready;
}

}  // namespace crucible::engine_detail
