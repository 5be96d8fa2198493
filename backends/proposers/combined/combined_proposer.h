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
#pragma once
#include <functional>
#include <string>
#include <vector>
#include "core/engine/interfaces.h"

namespace crucible {

class CombinedProposer final : public Proposer {
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
  std::vector<MetaPrompt> initialStrategies() const override;
  MetaPrompt varyStrategy(const MetaPrompt& s, std::uint64_t seed) const override;
  std::vector<TunableParameter> tunables(const Candidate& c) const override;
  ParameterPoint parametersOf(const Candidate& c) const override;
  Proposal withParameters(const Task& task, const Candidate& base, const ParameterPoint& p) override;

  // The member that owns the candidate, or nullptr.
  Proposer* ownerOf(const Candidate& c) const;

private:
  Proposal proposeWith(Proposer& p, const ProposalContext& ctx) const;

  std::vector<Member> members_;
};

}  // namespace crucible
