// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>
#include <map>
#include "core/engine/tuning_cache.h"
#include "core/engine/tuning_tracker.h"
#include "tests/core/engine/doubles/fake_proposer.h"

namespace crucible::engine_detail {
namespace {

using testing::FakeGenome;
using testing::FakeProposer;

// Stored candidates of one fake architecture, by id.
struct Candidates {
  std::map<CandidateId, Candidate> byId;
  Candidate& add(CandidateId id, std::int64_t block, std::int64_t unroll, CandidateStatus status, double medianUs,
                 const std::string& mutation = "mutate") {
    FakeGenome g;
    g.block = block;
    g.unroll = unroll;
    Candidate c = FakeProposer::candidateOf(g);
    c.id = id;
    c.status = status;
    c.mutation = mutation;
    if (medianUs > 0) c.timing = Timing{};
    if (medianUs > 0) c.timing->medianUs = medianUs;
    return byId[id] = c;
  }
  TuningTracker::LoadCandidate loader() {
    return [this](CandidateId id) -> std::optional<Candidate> {
      auto it = byId.find(id);
      if (it == byId.end()) return std::nullopt;
      return it->second;
    };
  }
};

ParameterPoint point(std::int64_t block, std::int64_t unroll) { return {{"BLOCK", block}, {"UNROLL", unroll}}; }

const auto nothingKnown = [](const std::string&) { return false; };

TEST(TuningTracker, LoadsAnArchitectureFromItsIndexedCandidatesOnFirstUse) {
  FakeProposer proposer;
  Candidates stored;
  const std::string arch = stored.add(1, 256, 1, CandidateStatus::Valid, 50).architectureKey;
  stored.add(2, 256, 1, CandidateStatus::Valid, 40);                  // a free rewrite, faster
  stored.add(3, 128, 2, CandidateStatus::Invalid, 0, "tune");         // failed: time 0
  stored.add(4, 64, 1, CandidateStatus::Proposed, 0, "tune");         // in flight: tried, not measured
  TuningTracker tracker(proposer, stored.loader(), TuningLimits{TuningStrategy::Random, 16, 8});
  for (CandidateId id : {1, 2, 3, 4, 99}) tracker.addCandidate(arch, id);   // 99 is missing: skipped

  EXPECT_FALSE(tracker.loaded(arch));
  TuningState& s = tracker.state(arch);
  EXPECT_TRUE(tracker.loaded(arch));
  EXPECT_EQ(s.tried.size(), 3u);
  EXPECT_EQ(s.tuned, 2);
  ASSERT_EQ(s.fastest.size(), 2u);
  EXPECT_DOUBLE_EQ(s.fastest.at(point(256, 1)), 40) << "the fastest of one configuration";
  EXPECT_DOUBLE_EQ(s.fastest.at(point(128, 2)), 0) << "failed";
  EXPECT_EQ(s.fastest.count(point(64, 1)), 0u);
}

TEST(TuningTracker, ObserveKeepsTheFastestAndLetsASuccessReplaceAFailure) {
  TuningState s;
  TuningTracker::observe(s, point(64, 1), 0);
  TuningTracker::observe(s, point(64, 1), 30);
  EXPECT_DOUBLE_EQ(s.fastest.at(point(64, 1)), 30);
  TuningTracker::observe(s, point(64, 1), 35);
  TuningTracker::observe(s, point(64, 1), 0);
  EXPECT_DOUBLE_EQ(s.fastest.at(point(64, 1)), 30);
}

TEST(TuningTracker, ProposesEachConfigurationOnceWithinTheBudget) {
  FakeProposer proposer;
  Candidates stored;
  Candidate parent = stored.add(1, 256, 1, CandidateStatus::Valid, 50);
  TuningTracker tracker(proposer, stored.loader(), TuningLimits{TuningStrategy::Random, 5, 8});
  tracker.addCandidate(parent.architectureKey, 1);
  std::set<ParameterPoint> proposed;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    auto c = tracker.propose(Task{}, parent, seed, nothingKnown);
    if (!c) break;
    EXPECT_EQ(c->parents, std::vector<CandidateId>{1});
    EXPECT_EQ(c->mutation, "tune");
    EXPECT_EQ(c->architectureKey, parent.architectureKey);
    EXPECT_TRUE(proposed.insert(proposer.parametersOf(*c)).second) << "proposed twice";
  }
  EXPECT_EQ(proposed.size(), 5u) << "the per-architecture budget";
  EXPECT_EQ(proposed.count(point(256, 1)), 0u) << "the parent's own configuration";
  EXPECT_EQ(proposed.count(point(512, 4)), 0u) << "illegal";
}

TEST(TuningTracker, SkipsConfigurationsTheProjectKnows) {
  FakeProposer proposer;
  Candidates stored;
  Candidate parent = stored.add(1, 256, 1, CandidateStatus::Valid, 50);
  // Ranks the whole space at once, so the one configuration left is among the ranked.
  TuningTracker tracker(proposer, stored.loader(), TuningLimits{TuningStrategy::Random, 100, 12});
  tracker.addCandidate(parent.architectureKey, 1);
  FakeGenome g;
  g.unroll = 4;
  Candidate candidate = FakeProposer::candidateOf(g);
  const std::string allowed = configKey(candidate.architectureKey, point(256, 4), candidate.source);
  // Every configuration but BLOCK 256 / UNROLL 4 counts as measured elsewhere.
  auto known = [&](const std::string& key) { return key != allowed; };
  auto c = tracker.propose(Task{}, parent, 7, known);
  ASSERT_TRUE(c);
  EXPECT_EQ(proposer.parametersOf(*c), point(256, 4));
  EXPECT_FALSE(tracker.propose(Task{}, parent, 8, known)) << "nothing left";
}

TEST(TuningTracker, AdmissionsAndResultsCountOnlyForLoadedArchitectures) {
  FakeProposer proposer;
  Candidates stored;
  Candidate c = stored.add(1, 128, 1, CandidateStatus::Valid, 25);
  TuningTracker tracker(proposer, stored.loader(), TuningLimits{TuningStrategy::Random, 16, 8});
  tracker.noteAdmitted(c);
  tracker.recordResult(c);
  EXPECT_FALSE(tracker.loaded(c.architectureKey)) << "an untouched architecture stays unloaded";

  TuningState& s = tracker.state(c.architectureKey);
  EXPECT_TRUE(s.tried.empty()) << "nothing was indexed";
  tracker.noteAdmitted(c);
  EXPECT_EQ(s.tried.count(point(128, 1)), 1u);
  tracker.recordResult(c);
  EXPECT_DOUBLE_EQ(s.fastest.at(point(128, 1)), 25);
}

}  // namespace
}  // namespace crucible::engine_detail
