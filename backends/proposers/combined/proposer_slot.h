// SPDX-License-Identifier: GPL-3.0-or-later
// A proposer that stands for another, set before each run: an engine takes
// its proposer once, for its lifetime, while the GUI gives every run its own
// (a run's starting kernels make a RunProposer of their own). Every call is
// passed to the proposer set; set() must only be called while the engine
// runs nothing (the GUI sets it on its thread before it starts a run).
//
// It plans first exactly when the proposer set does: planFirst() of one
// that does not is its propose(), seedPlans() its seeds(), and nothing is a
// plan, which the engine treats as a proposer that does not plan first.
#pragma once
#include <optional>
#include "core/engine/interfaces.h"
#include "core/engine/plan_first.h"

namespace crucible {

class ProposerSlot final : public Proposer, public PlanFirstProposer {
public:
  explicit ProposerSlot(Proposer& initial) : current_(&initial) {}
  // `p` must outlive its use (until the next set(), or the engine's end). It is told the
  // device the slot was told, if any.
  void set(Proposer& p) {
    current_ = &p;
    if (device_) current_->setDevice(*device_);
  }
  Proposer& current() const { return *current_; }

  std::string name() const override { return current_->name(); }
  std::vector<Proposal> seeds(const Task& task, std::uint64_t seed) override { return current_->seeds(task, seed); }
  Proposal propose(const ProposalContext& ctx) override { return current_->propose(ctx); }
  int concurrentProposals() const override { return current_->concurrentProposals(); }
  void setDevice(const Fingerprint& device) override {
    device_ = device;
    current_->setDevice(device);
  }
  std::vector<MetaPrompt> initialStrategies() const override { return current_->initialStrategies(); }
  MetaPrompt varyStrategy(const MetaPrompt& s, std::uint64_t seed) const override {
    return current_->varyStrategy(s, seed);
  }
  std::vector<TunableParameter> tunables(const Candidate& c) const override { return current_->tunables(c); }
  ParameterPoint parametersOf(const Candidate& c) const override { return current_->parametersOf(c); }
  Proposal withParameters(const Task& task, const Candidate& base, const ParameterPoint& p) override {
    return current_->withParameters(task, base, p);
  }

  Proposal planFirst(const ProposalContext& ctx) override;
  std::vector<Proposal> seedPlans(const Task& task, std::uint64_t seed) override;
  bool isPlan(const Candidate& c) const override;
  Proposal implementPlan(const ProposalContext& ctx, const Candidate& plan) override;

private:
  Proposer* current_;
  std::optional<Fingerprint> device_;
};

}  // namespace crucible
