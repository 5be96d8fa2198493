// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/proposers/combined/combined_proposer.h"

#include <algorithm>
#include <stdexcept>

namespace crucible {

CombinedProposer::CombinedProposer(std::vector<Member> members) : members_(std::move(members)) {
  if (members_.empty()) throw std::invalid_argument("a combined proposer needs at least one member");
  for (Member& m : members_) {
    if (!m.proposer) throw std::invalid_argument("a combined proposer's member is null");
    if (!m.owns) {
      const std::string name = m.proposer->name();
      m.owns = [name](const Candidate& c) { return c.proposer == name; };
    }
    locks_.push_back(m.proposer->concurrentProposals() > 1 ? nullptr : std::make_unique<std::mutex>());
  }
}

int CombinedProposer::concurrentProposals() const {
  int most = 1;
  for (const Member& m : members_) most = std::max(most, m.proposer->concurrentProposals());
  return most;
}

void CombinedProposer::setDevice(const Fingerprint& device) {
  for (const Member& m : members_) m.proposer->setDevice(device);
}

std::unique_lock<std::mutex> CombinedProposer::serialise(const Proposer& p) const {
  for (std::size_t i = 0; i < members_.size(); ++i)
    if (members_[i].proposer == &p && locks_[i]) return std::unique_lock<std::mutex>(*locks_[i]);
  return {};
}

std::string CombinedProposer::name() const {
  std::string n;
  for (const Member& m : members_) n += (n.empty() ? "" : "+") + m.proposer->name();
  return n;
}

Proposer* CombinedProposer::ownerOf(const Candidate& c) const {
  for (const Member& m : members_)
    if (m.owns(c)) return m.proposer;
  return nullptr;
}

std::vector<Proposal> CombinedProposer::seeds(const Task& task, std::uint64_t seed) { return seedsOf(task, seed, false); }

std::vector<Proposal> CombinedProposer::seedPlans(const Task& task, std::uint64_t seed) {
  return seedsOf(task, seed, true);
}

std::vector<Proposal> CombinedProposer::seedsOf(const Task& task, std::uint64_t seed, bool plans) {
  std::vector<Proposal> out;
  for (const Member& m : members_) {
    PlanFirstProposer* planner = plans ? planFirstOf(*m.proposer) : nullptr;
    for (Proposal& p : planner ? planner->seedPlans(task, seed) : m.proposer->seeds(task, seed)) {
      if (!p.ok) p.error = "proposer '" + m.proposer->name() + "': " + p.error;
      out.push_back(std::move(p));
    }
  }
  return out;
}

Proposal CombinedProposer::proposeWith(Proposer& p, const ProposalContext& ctx, bool planFirst) const {
  ProposalContext own = ctx;
  if (ctx.strategy) {
    bool known = false;
    for (const MetaPrompt& s : p.initialStrategies()) known = known || s.name == ctx.strategy->name;
    if (!known) own.strategy = nullptr;
  }
  const auto lock = serialise(p);
  if (PlanFirstProposer* planner = planFirst ? planFirstOf(p) : nullptr) return planner->planFirst(own);
  return p.propose(own);
}

Proposal CombinedProposer::propose(const ProposalContext& ctx) { return route(ctx, false); }

Proposal CombinedProposer::planFirst(const ProposalContext& ctx) { return route(ctx, true); }

Proposal CombinedProposer::route(const ProposalContext& ctx, bool planFirst) {
  const Candidate* parent = ctx.parents.empty() ? nullptr : ctx.parents[0];
  if (parent)
    if (Proposer* owner = ownerOf(*parent)) return proposeWith(*owner, ctx, planFirst);
  // No owner (or no parent): each member in turn, starting where the seed says when there is no parent.
  const std::size_t n = members_.size(), first = parent ? 0 : static_cast<std::size_t>(ctx.seed % n);
  std::string errors;
  for (std::size_t i = 0; i < n; ++i) {
    Proposer& p = *members_[(first + i) % n].proposer;
    Proposal out = proposeWith(p, ctx, planFirst);
    if (out.ok) return out;
    errors += (errors.empty() ? "" : "; ") + p.name() + ": " + out.error;
  }
  return Proposal{{}, false, errors};
}

bool CombinedProposer::isPlan(const Candidate& c) const {
  Proposer* owner = ownerOf(c);
  PlanFirstProposer* planner = owner ? planFirstOf(*owner) : nullptr;
  return planner && planner->isPlan(c);
}

Proposal CombinedProposer::implementPlan(const ProposalContext& ctx, const Candidate& plan) {
  Proposer* owner = ownerOf(plan);
  PlanFirstProposer* planner = owner ? planFirstOf(*owner) : nullptr;
  if (!planner) return Proposal{{}, false, "no proposer of this run plans candidate #" + std::to_string(plan.id)};
  const auto lock = serialise(*owner);
  return planner->implementPlan(ctx, plan);
}

std::vector<MetaPrompt> CombinedProposer::initialStrategies() const {
  std::vector<MetaPrompt> out;
  for (const Member& m : members_)
    for (const MetaPrompt& s : m.proposer->initialStrategies()) {
      bool repeated = false;
      for (const MetaPrompt& o : out) repeated = repeated || (o.name == s.name && o.text == s.text);
      if (!repeated) out.push_back(s);
    }
  return out;
}

MetaPrompt CombinedProposer::varyStrategy(const MetaPrompt& s, std::uint64_t seed) const {
  for (const Member& m : members_)
    for (const MetaPrompt& own : m.proposer->initialStrategies())
      if (own.name == s.name) return m.proposer->varyStrategy(s, seed);
  return s;
}

std::vector<TunableParameter> CombinedProposer::tunables(const Candidate& c) const {
  Proposer* owner = ownerOf(c);
  if (!owner) return {};
  const auto lock = serialise(*owner);
  return owner->tunables(c);
}

ParameterPoint CombinedProposer::parametersOf(const Candidate& c) const {
  Proposer* owner = ownerOf(c);
  if (!owner) return {};
  const auto lock = serialise(*owner);
  return owner->parametersOf(c);
}

Proposal CombinedProposer::withParameters(const Task& task, const Candidate& base, const ParameterPoint& p) {
  Proposer* owner = ownerOf(base);
  if (!owner) return Proposal{{}, false, "no proposer of this run made candidate #" + std::to_string(base.id)};
  const auto lock = serialise(*owner);
  return owner->withParameters(task, base, p);
}

}  // namespace crucible
