// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>
#include <set>
#include <thread>
#include "core/engine/engine.h"
#include "core/engine/review_gate.h"
#include "tests/core/engine/doubles/fake_backends.h"
#include "tests/core/engine/doubles/fake_proposer.h"
#include "tests/core/engine/engine_fixture.h"

namespace crucible {
namespace {

using testing::FakeCompiler;
using testing::FakeDispatcher;
using testing::FakeProposer;
using testing::RecordingObserver;
using testing::TempProject;
using Decision = ReviewGate::Decision;

TEST(ReviewGate, UngatedRunsNeverWait) {
  ReviewGate gate(false);
  EXPECT_EQ(gate.decide("new"), Decision::Proceed);
  gate.markRejected("bad");
  EXPECT_EQ(gate.decide("bad"), Decision::Discard) << "a rejection holds even without the gate";
}

TEST(ReviewGate, NewArchitecturesWaitUntilAVerdict) {
  ReviewGate gate(true);
  gate.markAccepted("known");
  EXPECT_EQ(gate.decide("known"), Decision::Proceed);
  EXPECT_EQ(gate.decide("new"), Decision::Wait);
  gate.enqueue("new", 5);
  gate.enqueue("new", 9);
  gate.enqueue("other", 7);
  EXPECT_EQ(gate.waitingCount(), 3u);
  EXPECT_EQ(gate.applyVerdict("new", true), (std::vector<CandidateId>{5, 9}));
  EXPECT_EQ(gate.decide("new"), Decision::Proceed);
  EXPECT_EQ(gate.applyVerdict("other", false), (std::vector<CandidateId>{7}));
  EXPECT_EQ(gate.decide("other"), Decision::Discard);
  EXPECT_FALSE(gate.isWaiting());
}

// A gated run: proposals of new architectures wait (stored AwaitingReview, an
// event each), are not evaluated, and the engine keeps working; an accepted
// verdict releases them into evaluation, a rejection marks them Rejected and
// discards later proposals of that architecture.
TEST(GatedRun, VerdictsReleaseOrRejectWaitingCandidates) {
  TempProject project;
  FakeProposer proposer;
  FakeCompiler compiler;
  FakeDispatcher dispatcher(1);
  RecordingObserver observer;
  Engine engine(project.path(), proposer, compiler, dispatcher, &observer);
  RunSettings settings = testing::smallSettings();
  settings.tuningShare = 0;
  RunId run = engine.createRun(project.task(), "gated", 4, Budget{40, 0, 0}, true, settings);

  std::thread worker([&] { engine.run(run); });
  // Wait until the engine has nothing left but architectures to review.
  auto waitingArchitectures = [&] {
    std::set<std::string> keys;
    for (const auto& waiting : observer.all<events::AwaitingReview>()) keys.insert(waiting.architectureKey);
    return keys;
  };
  for (int i = 0; i < 400 && waitingArchitectures().size() < 2; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  auto keys = waitingArchitectures();
  ASSERT_GE(keys.size(), 2u) << "the seeds' architectures wait for review";
  EXPECT_EQ(dispatcher.totalEvaluations(), 0) << "nothing of an unreviewed architecture is evaluated";
  {
    auto store = project.open();
    auto waiting = store->candidatesWithStatus(run, CandidateStatus::AwaitingReview);
    EXPECT_GE(waiting.size(), keys.size());
  }

  std::string accepted = *keys.begin();
  std::string rejected = *std::next(keys.begin());
  engine.submitVerdict(run, rejected, false, "uses too much shared memory");
  engine.submitVerdict(run, accepted, true, "");
  // From now on accept every other new architecture, so the run can finish.
  observer.setHook([&](const EngineEvent& e) {
    const auto* waiting = as<events::AwaitingReview>(e);
    if (waiting && waiting->architectureKey != rejected)
      engine.submitVerdict(run, waiting->architectureKey, true, "ok");
  });
  for (const auto& key : waitingArchitectures())
    if (key != rejected && key != accepted) engine.submitVerdict(run, key, true, "ok");
  worker.join();

  auto store = project.open();
  EXPECT_EQ(store->run(run)->status, RunStatus::Finished);
  int rejectedCount = 0, evaluatedOfAccepted = 0;
  for (const auto& s : store->candidateSummaries(run)) {
    if (s.architectureKey == rejected) {
      EXPECT_EQ(s.status, CandidateStatus::Rejected) << "candidate " << s.id;
      ++rejectedCount;
    }
    if (s.architectureKey == accepted && s.status == CandidateStatus::Valid) ++evaluatedOfAccepted;
  }
  EXPECT_GE(rejectedCount, 1);
  EXPECT_GE(evaluatedOfAccepted, 1) << "the accepted architecture's waiting candidates were evaluated";
  auto v = store->verdict(run, rejected);
  ASSERT_TRUE(v);
  EXPECT_FALSE(v->accepted);
  EXPECT_EQ(v->note, "uses too much shared memory");
  auto rejectedOnes = store->candidatesWithStatus(run, CandidateStatus::Rejected);
  ASSERT_FALSE(rejectedOnes.empty());
  EXPECT_NE(rejectedOnes.front().statusDetail.find("too much shared memory"), std::string::npos);
  // Later proposals of the rejected architecture were discarded, not stored.
  for (const auto& c : rejectedOnes) EXPECT_LE(c.generation, 1) << "stored after the rejection";
}

TEST(GatedRun, VerdictGivenWhileStoppedIsAppliedOnResume) {
  TempProject project;
  FakeProposer proposer;
  FakeCompiler compiler;
  FakeDispatcher dispatcher(1);
  RecordingObserver observer;
  Engine engine(project.path(), proposer, compiler, dispatcher, &observer);
  RunSettings settings = testing::smallSettings();
  RunId run = engine.createRun(project.task(), "gated", 4, Budget{6, 0, 0}, true, settings);
  observer.setHook([&](const EngineEvent& e) {
    if (is<events::AwaitingReview>(e)) engine.stop();
  });
  engine.run(run);
  auto store = project.open();
  EXPECT_EQ(store->run(run)->status, RunStatus::Stopped);
  auto waiting = store->candidatesWithStatus(run, CandidateStatus::AwaitingReview);
  ASSERT_FALSE(waiting.empty());
  observer.setHook(nullptr);
  std::set<std::string> keys;
  for (const auto& c : waiting) keys.insert(c.architectureKey);
  for (const auto& k : keys) engine.submitVerdict(run, k, true, "");
  observer.setHook([&](const EngineEvent& e) {
    if (const auto* waiting = as<events::AwaitingReview>(e))
      engine.submitVerdict(run, waiting->architectureKey, true, "");
  });
  engine.run(run);
  EXPECT_EQ(store->run(run)->status, RunStatus::Finished);
  for (const auto& c : waiting) {
    auto now = store->candidate(c.id);
    EXPECT_NE(now->status, CandidateStatus::AwaitingReview) << "candidate " << c.id;
    EXPECT_NE(now->status, CandidateStatus::Proposed) << "candidate " << c.id;
  }
}

}  // namespace
}  // namespace crucible
