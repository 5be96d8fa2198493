// SPDX-License-Identifier: GPL-3.0-or-later
// Several proposers competing in one run (the engine takes one Proposer):
// the template proposer's families and the user's tunable kernels, say.
//
// - seeds(): every member's seeds, members in order (failed seeds included,
//   so the engine reports each one's reason).
// - propose(): a child goes to the member that owns its first parent (each
//   member says which candidates it owns); a parent no member owns (the
//   task's baseline, a language model's kernel) is offered to each member in
//   order until one makes a child. With no parent, members take turns by
//   the proposal's seed. A strategy a member does not know is not passed to
//   it (it then uses its default).
// - tunables()/parametersOf()/withParameters(): the owner's; none when no member owns it.
// - initialStrategies(): every member's, without repeats (same name and text).
// - concurrentProposals(): the largest of the members' (a language model's
//   several requests at once stay several when it competes with the
//   template proposer). A member that allows only 1 is still called one at a
//   time: its calls (propose, tunables, parametersOf, withParameters) are
//   serialised by a lock of its own, since the engine plans and tunes on one
//   thread while proposals run on others.
// - planFirst()/implementPlan()/isPlan() (gated runs, plan_first.h): routed
//   as propose() is; a member that does not plan first answers planFirst()
//   with a whole proposal.
#pragma once
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>
#include "core/engine/interfaces.h"
#include "core/engine/plan_first.h"

namespace crucible {

class CombinedProposer final : public Proposer, public PlanFirstProposer {
public:
  struct Member {
    Proposer* proposer = nullptr;                   // not owned; outlives this
    std::function<bool(const Candidate&)> owns;     // empty: candidate.proposer == proposer->name()
  };
  // Throws std::invalid_argument for no members or a null proposer.
  explicit CombinedProposer(std::vector<Member> members);

  std::string name() const override;   // the members' names joined by '+': "tunable+template"
  std::vector<Proposal> seeds(const Task& task, std::uint64_t seed) override;
  Proposal propose(const ProposalContext& ctx) override;
  int concurrentProposals() const override;
  void setDevice(const Fingerprint& device) override;  // every member is told
  Proposal planFirst(const ProposalContext& ctx) override;
  std::vector<Proposal> seedPlans(const Task& task, std::uint64_t seed) override;
  bool isPlan(const Candidate& c) const override;
  Proposal implementPlan(const ProposalContext& ctx, const Candidate& plan) override;
  std::vector<MetaPrompt> initialStrategies() const override;
  MetaPrompt varyStrategy(const MetaPrompt& s, std::uint64_t seed) const override;
  std::vector<TunableParameter> tunables(const Candidate& c) const override;
  ParameterPoint parametersOf(const Candidate& c) const override;
  Proposal withParameters(const Task& task, const Candidate& base, const ParameterPoint& p) override;

  // The member that owns the candidate, or nullptr.
  Proposer* ownerOf(const Candidate& c) const;

private:
  // planFirst: the member's planFirst() when it plans first, else its propose().
  Proposal proposeWith(Proposer& p, const ProposalContext& ctx, bool planFirst = false) const;
  Proposal route(const ProposalContext& ctx, bool planFirst);
  std::vector<Proposal> seedsOf(const Task& task, std::uint64_t seed, bool plans);
  // Held while a single-threaded member works; an unlocked lock for the others.
  std::unique_lock<std::mutex> serialise(const Proposer& p) const;

  std::vector<Member> members_;
  // Per member: a lock when it allows one call at a time, null otherwise.
  std::vector<std::unique_ptr<std::mutex>> locks_;
};

}  // namespace crucible
