// SPDX-License-Identifier: GPL-3.0-or-later
// Several proposers in one run: seeds from all, children and tuning routed to
// the member that owns the parent, strategies merged.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include "backends/proposers/combined/combined_proposer.h"
#include "backends/proposers/tunable/tunable_proposer.h"
#include "example_kernel.h"

namespace crucible {
namespace {

using testing_support::gemvKernel;
using testing_support::gemvTask;

// A member that records what it was asked.
class RecordingProposer final : public Proposer {
public:
  std::string name() const override { return "other"; }
  std::vector<Proposal> seeds(const Task&, std::uint64_t) override {
    Proposal p;
    p.candidate.proposer = "other";
    p.candidate.architectureKey = "other:a";
    return {p, Proposal{{}, false, "no family 'gemv'"}};
  }
  Proposal propose(const ProposalContext& ctx) override {
    ++proposals;
    lastStrategy = ctx.strategy ? ctx.strategy->name : "";
    if (refuse) return Proposal{{}, false, "cannot"};
    Proposal p;
    p.candidate.proposer = "other";
    p.candidate.architectureKey = "other:b";
    return p;
  }
  std::vector<MetaPrompt> initialStrategies() const override {
    MetaPrompt a, b;
    a.name = "mutate:param";
    a.text = "count=1";
    b.name = "mutate:gene";
    return {a, b};
  }
  std::vector<TunableParameter> tunables(const Candidate&) const override { return {{"G", {1, 2}}}; }
  int proposals = 0;
  std::string lastStrategy;
  bool refuse = false;
};

TEST(CombinedProposer, SeedsComeFromEveryMemberInOrder) {
  TunableKernelProposer tunable({gemvKernel()});
  RecordingProposer other;
  CombinedProposer p({{&tunable, [](const Candidate& c) { return TunableKernelProposer::owns(c); }}, {&other, {}}});
  EXPECT_EQ(p.name(), "tunable+other");
  const auto seeds = p.seeds(gemvTask(), 1);
  ASSERT_EQ(seeds.size(), 3u);
  EXPECT_TRUE(seeds[0].ok);
  EXPECT_EQ(seeds[0].candidate.proposer, "user");
  EXPECT_EQ(seeds[1].candidate.proposer, "other");
  EXPECT_FALSE(seeds[2].ok);
  EXPECT_EQ(seeds[2].error, "proposer 'other': no family 'gemv'");
}

TEST(CombinedProposer, ChildrenAndTuningGoToTheParentsOwner) {
  TunableKernelProposer tunable({gemvKernel()});
  RecordingProposer other;
  CombinedProposer p({{&tunable, [](const Candidate& c) { return TunableKernelProposer::owns(c); }}, {&other, {}}});
  const Task task = gemvTask();
  Candidate mine = tunable.seeds(task, 1).at(0).candidate;
  mine.id = 5;
  Candidate theirs;
  theirs.id = 6;
  theirs.proposer = "other";

  ProposalContext ctx;
  ctx.task = &task;
  ctx.parents = {&mine};
  const auto strategies = p.initialStrategies();
  // mutate:param count=1 (both), mutate:param count=2 (tunable), crossover (tunable), mutate:gene (other).
  ASSERT_EQ(strategies.size(), 4u);
  EXPECT_EQ(strategies[3].name, "mutate:gene");
  ctx.strategy = &strategies[3];
  Proposal child = p.propose(ctx);
  ASSERT_TRUE(child.ok) << child.error;
  EXPECT_EQ(child.candidate.proposer, "tunable");
  EXPECT_EQ(other.proposals, 0);
  EXPECT_EQ(p.tunables(mine).size(), 4u);
  EXPECT_EQ(p.parametersOf(mine).size(), 4u);
  EXPECT_TRUE(p.withParameters(task, mine, {{"ROWS", 1}}).ok);

  ctx.parents = {&theirs};
  ctx.strategy = &strategies[2];   // crossover: not the other's, so it gets no strategy
  child = p.propose(ctx);
  ASSERT_TRUE(child.ok);
  EXPECT_EQ(child.candidate.proposer, "other");
  EXPECT_EQ(other.proposals, 1);
  EXPECT_EQ(other.lastStrategy, "");
  ctx.strategy = &strategies[3];
  p.propose(ctx);
  EXPECT_EQ(other.lastStrategy, "mutate:gene");
  EXPECT_EQ(p.tunables(theirs).size(), 1u);
  EXPECT_EQ(p.ownerOf(theirs), &other);
  EXPECT_EQ(p.ownerOf(mine), &tunable);
}

TEST(CombinedProposer, AParentNoMemberOwnsIsOfferedToEachInTurn) {
  TunableKernelProposer tunable({gemvKernel()});
  RecordingProposer other;
  other.refuse = true;
  CombinedProposer p({{&other, {}}, {&tunable, [](const Candidate& c) { return TunableKernelProposer::owns(c); }}});
  const Task task = gemvTask();
  Candidate baseline;
  baseline.id = 1;
  baseline.proposer = "baseline";
  ProposalContext ctx;
  ctx.task = &task;
  ctx.parents = {&baseline};
  // The other refuses; the tunable proposer cannot use a foreign parent either: both reasons come back.
  Proposal child = p.propose(ctx);
  EXPECT_FALSE(child.ok);
  EXPECT_NE(child.error.find("other: cannot"), std::string::npos) << child.error;
  EXPECT_NE(child.error.find("tunable: candidate #1 is not a tunable kernel"), std::string::npos) << child.error;
  EXPECT_TRUE(p.tunables(baseline).empty());
  EXPECT_FALSE(p.withParameters(task, baseline, {}).ok);
  // Without a parent, members take turns; the tunable one explores from its starting kernel.
  ctx.parents.clear();
  int tunableChildren = 0;
  for (std::uint64_t seed = 0; seed < 4; ++seed) {
    ctx.seed = seed;
    child = p.propose(ctx);
    ASSERT_TRUE(child.ok) << child.error;
    tunableChildren += child.candidate.proposer == "tunable";
  }
  EXPECT_EQ(tunableChildren, 4);   // the other refuses every time
  EXPECT_GE(other.proposals, 2);
}

// A member that says how many calls it takes at once and notes how many overlapped.
class OverlapProposer final : public Proposer {
public:
  OverlapProposer(std::string name, int concurrency) : name_(std::move(name)), concurrency_(concurrency) {}
  std::string name() const override { return name_; }
  std::vector<Proposal> seeds(const Task&, std::uint64_t) override { return {}; }
  Proposal propose(const ProposalContext&) override {
    const int now = ++inFlight;
    int seen = most.load();
    while (now > seen && !most.compare_exchange_weak(seen, now)) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    --inFlight;
    Proposal p;
    p.candidate.proposer = name_;
    return p;
  }
  int concurrentProposals() const override { return concurrency_; }
  std::vector<MetaPrompt> initialStrategies() const override { return {}; }
  std::atomic<int> inFlight{0}, most{0};

private:
  std::string name_;
  int concurrency_;
};

// Calls propose() from `threads` threads at once, each with a parent `owner` owns.
void proposeConcurrently(CombinedProposer& p, const std::string& owner, int threads) {
  Candidate parent;
  parent.proposer = owner;
  std::vector<std::thread> workers;
  for (int i = 0; i < threads; ++i)
    workers.emplace_back([&] {
      ProposalContext ctx;
      ctx.parents = {&parent};
      EXPECT_TRUE(p.propose(ctx).ok);
    });
  for (auto& w : workers) w.join();
}

TEST(CombinedProposer, PassesTheLargestConcurrencyThroughAndSerialisesSingleThreadedMembers) {
  OverlapProposer model("llm:m", 4), single("template", 1);
  CombinedProposer p({{&single, {}}, {&model, {}}});
  EXPECT_EQ(p.concurrentProposals(), 4);  // the model's several requests at once survive the combination
  proposeConcurrently(p, "llm:m", 4);
  EXPECT_GE(model.most.load(), 2);       // the concurrent member really ran concurrently
  proposeConcurrently(p, "template", 4);
  EXPECT_EQ(single.most.load(), 1);      // the single-threaded one never saw two calls at once

  OverlapProposer a("a", 1), b("b", 1);
  EXPECT_EQ(CombinedProposer({{&a, {}}, {&b, {}}}).concurrentProposals(), 1);
}

TEST(CombinedProposer, RefusesNoMembers) {
  EXPECT_THROW(CombinedProposer({}), std::invalid_argument);
  EXPECT_THROW(CombinedProposer({{nullptr, {}}}), std::invalid_argument);
}

}  // namespace
}  // namespace crucible
