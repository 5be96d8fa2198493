// SPDX-License-Identifier: GPL-3.0-or-later
// ProposerSlot (backends/proposers/combined/proposer_slot.h): the GUI's
// engine keeps one proposer for its life; the slot passes each call to the
// proposer set for the run, and plans first only when that one does.
#include <gtest/gtest.h>
#include "backends/proposers/combined/combined_proposer.h"
#include "backends/proposers/combined/proposer_slot.h"
#include "backends/proposers/combined/run_proposer.h"
#include "example_kernel.h"

namespace crucible {
namespace {

class Named : public Proposer {
public:
  explicit Named(std::string name) : name_(std::move(name)) {}
  std::string name() const override { return name_; }
  std::vector<Proposal> seeds(const Task&, std::uint64_t) override {
    Proposal p;
    p.candidate.proposer = name_;
    return {p};
  }
  Proposal propose(const ProposalContext&) override {
    Proposal p;
    p.candidate.proposer = name_ + "-child";
    return p;
  }
  int concurrentProposals() const override { return 3; }
  void setDevice(const Fingerprint& device) override { smCount = device.smCount; }
  std::vector<MetaPrompt> initialStrategies() const override { return {}; }
  int smCount = -1;  // -1: never told

private:
  std::string name_;
};

// The engine tells its proposer the run's GPU (Proposer::setDevice); the slot and a combined
// proposer pass it on, and a proposer set later in the slot is told it too.
TEST(ProposerSlot, PassesTheRunsDeviceOnToEveryProposerItHolds) {
  Named first("first"), second("second"), third("third");
  ProposerSlot slot(first);
  slot.set(second);
  EXPECT_EQ(second.smCount, -1) << "no device told yet";
  Fingerprint h200;
  h200.smCount = 132;
  slot.setDevice(h200);
  EXPECT_EQ(second.smCount, 132);
  EXPECT_EQ(first.smCount, -1) << "no longer in the slot";
  slot.set(first);
  EXPECT_EQ(first.smCount, 132);
  CombinedProposer combined({{&second, {}}, {&third, {}}});
  Fingerprint slice;
  slice.smCount = 16;
  combined.setDevice(slice);
  EXPECT_EQ(second.smCount, 16);
  EXPECT_EQ(third.smCount, 16);
}

TEST(ProposerSlot, PassesEveryCallToTheProposerSetForTheRun) {
  Named first("first"), second("second");
  ProposerSlot slot(first);
  EXPECT_EQ(slot.name(), "first");
  EXPECT_EQ(slot.concurrentProposals(), 3);
  slot.set(second);
  EXPECT_EQ(&slot.current(), &second);
  EXPECT_EQ(slot.name(), "second");
  EXPECT_EQ(slot.seeds(Task{}, 1).at(0).candidate.proposer, "second");
  EXPECT_EQ(slot.propose(ProposalContext{}).candidate.proposer, "second-child");
}

TEST(ProposerSlot, PlansFirstOnlyWhenTheProposerSetDoes) {
  Named plain("plain");
  ProposerSlot slot(plain);
  // A proposer that does not plan first: its proposals are whole, none is a plan.
  const Proposal p = slot.planFirst(ProposalContext{});
  EXPECT_EQ(p.candidate.proposer, "plain-child");
  EXPECT_FALSE(slot.isPlan(p.candidate));
  EXPECT_EQ(slot.seedPlans(Task{}, 1).at(0).candidate.proposer, "plain");
  const Proposal none = slot.implementPlan(ProposalContext{}, Candidate{});
  EXPECT_FALSE(none.ok);
  EXPECT_NE(none.error.find("does not plan first"), std::string::npos) << none.error;
  // The run's proposer with starting kernels (a combined proposer, which plans first) is passed on.
  RunProposer run({testing_support::gemvKernel()});
  slot.set(run.get());
  EXPECT_EQ(slot.name(), "tunable+template");
  const auto seeds = slot.seedPlans(testing_support::gemvTask(), 1);
  ASSERT_FALSE(seeds.empty());
  EXPECT_TRUE(seeds[0].ok) << seeds[0].error;
  EXPECT_EQ(seeds[0].candidate.proposer, "user");
}

}  // namespace
}  // namespace crucible
