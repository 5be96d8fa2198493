// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>
#include "core/engine/engine.h"
#include "core/engine/run_restore.h"
#include "tests/core/engine/doubles/fake_backends.h"
#include "tests/core/engine/engine_fixture.h"
#include "tests/core/engine/unit_fixture.h"

namespace crucible::engine_detail {
namespace {

using namespace crucible::testing;

struct Logged {
  std::vector<std::string> lines;
  LogFn fn() {
    return [this](const std::string& level, const std::string& text) { lines.push_back(level + ": " + text); };
  }
};

TEST(RunRestore, StrategiesAreMadeOnceAndReadBackAfterwards) {
  TempProject project;
  auto store = project.open();
  RunId run = addTestRun(*store, project.task());
  FakeProposer proposer;
  auto first = restoreStrategies(*store, run, proposer);
  ASSERT_EQ(first.size(), proposer.initialStrategies().size());
  for (const auto& m : first) {
    EXPECT_GT(m.id, 0);
    EXPECT_EQ(m.runId, run);
  }
  auto again = restoreStrategies(*store, run, proposer);
  ASSERT_EQ(again.size(), first.size());
  EXPECT_EQ(again.front().id, first.front().id) << "not made twice";
}

TEST(RunRestore, TheIndexResumesInFlightCandidatesAndReplaysVerdicts) {
  TempProject project;
  auto store = project.open();
  RunId run = addTestRun(*store, project.task(), true);
  Candidate valid = addTestCandidate(*store, run, genome(0), CandidateStatus::Valid, 0, 1.3);
  Candidate inFlight = addTestCandidate(*store, run, genome(1), CandidateStatus::Compiled, 0);
  Candidate waits = addTestCandidate(*store, run, genome(2), CandidateStatus::AwaitingReview, 1);
  Candidate acceptedMeanwhile = addTestCandidate(*store, run, genome(0, 1), CandidateStatus::AwaitingReview, 1);
  Candidate rejectedMeanwhile = addTestCandidate(*store, run, genome(0, 2), CandidateStatus::AwaitingReview, 1);
  store->recordVerdict(ReviewVerdict{run, acceptedMeanwhile.architectureKey, true, "", 1});
  store->recordVerdict(ReviewVerdict{run, rejectedMeanwhile.architectureKey, false, "", 1});
  Seal seal;
  seal.taskId = project.task();
  seal.runId = run;
  seal.candidateId = valid.id;
  seal.speedup = 1.3;
  store->addSeal(seal);

  ReviewGate gate(true);
  RestoredIndex index = restoreIndex(*store, run, project.task(), 2, gate);
  EXPECT_EQ(index.lastGeneration, 1);
  EXPECT_EQ(index.storedPerGeneration, (std::map<int, int>{{0, 2}, {1, 3}}));
  EXPECT_EQ(index.candidatesByArchitecture.at(valid.architectureKey), std::vector<CandidateId>{valid.id});
  ASSERT_EQ(index.recovery.size(), 2u);
  EXPECT_EQ(index.recovery[0].id, inFlight.id);
  EXPECT_EQ(index.recovery[1].id, acceptedMeanwhile.id) << "its verdict came while the engine was down";
  EXPECT_EQ(index.islandOf.at(inFlight.id), 1) << "second of generation 0 on two islands";
  EXPECT_EQ(index.islandOf.at(waits.id), 0);
  EXPECT_DOUBLE_EQ(index.bestSealed, 1.3);

  EXPECT_EQ(gate.decide(valid.architectureKey), ReviewGate::Decision::Proceed) << "it passed the gate once";
  EXPECT_TRUE(gate.isWaiting());
  EXPECT_EQ(store->candidate(acceptedMeanwhile.id)->status, CandidateStatus::Proposed);
  EXPECT_EQ(store->candidate(rejectedMeanwhile.id)->status, CandidateStatus::Rejected);
}

TEST(RunRestore, TheReferenceIsMadeOnceAndTimedOnce) {
  TempProject project;
  auto store = project.open();
  RunId run = addTestRun(*store, project.task());
  crucible::Run r = *store->run(run);
  Task task = *store->task(project.task());
  Candidate reference = establishReference(*store, r, task);
  EXPECT_EQ(reference.status, CandidateStatus::Reference);
  EXPECT_EQ(store->run(run)->referenceCandidate, reference.id);
  EXPECT_EQ(establishReference(*store, r, task).id, reference.id) << "the stored one on later sessions";

  FakeCompiler compiler;
  FakeDispatcher dispatcher(1);
  Logged log;
  ReferenceTiming timing = prepareReference(*store, r, reference, task, compiler, dispatcher.evaluator(0), "sm_90",
                                            "Fake GPU", 2, log.fn());
  EXPECT_FALSE(timing.cubin.empty());
  EXPECT_GT(timing.medianUs, 0);
  EXPECT_EQ(dispatcher.evaluator(0).referenceEvaluations.load(), 1);
  ASSERT_TRUE(store->candidate(reference.id)->timing);
  EXPECT_EQ(log.lines.size(), 1u);

  Candidate stored = *store->candidate(reference.id);
  ReferenceTiming again = prepareReference(*store, r, stored, task, compiler, dispatcher.evaluator(0), "sm_90",
                                           "Fake GPU", 2, log.fn());
  EXPECT_DOUBLE_EQ(again.medianUs, timing.medianUs);
  EXPECT_EQ(dispatcher.evaluator(0).referenceEvaluations.load(), 1) << "compiled again, not timed again";
}

TEST(RunRestore, ARunFromItsSealStartsItsArchiveAtTheSeal) {
  TempProject project;
  auto store = project.open();
  RunId run = addTestRun(*store, project.task());
  Candidate reference = addTestCandidate(*store, run, genome(1), CandidateStatus::Reference);
  reference.proposer = "seal";
  RunSettings settings = smallSettings();
  settings.islands = 2;
  settings.sealStart = SealStart::FromSeal;
  Logged log;
  Archive archive(run, 2);
  restoreArchive(*store, archive, reference, settings, log.fn());
  EXPECT_EQ(archive.size(), 2u) << "one cell per island";
  EXPECT_EQ(store->archive(run).size(), 2u);
  EXPECT_EQ(log.lines.size(), 1u);

  Archive restored(run, 2);
  restoreArchive(*store, restored, reference, settings, log.fn());
  EXPECT_EQ(restored.size(), 2u);
  EXPECT_EQ(log.lines.size(), 1u) << "read back, not seeded again";

  settings.sealStart = SealStart::AwayFromSeal;
  RunId other = addTestRun(*store, project.task());
  Archive away(other, 2);
  restoreArchive(*store, away, reference, settings, log.fn());
  EXPECT_EQ(away.size(), 0u);
}

TEST(RunRestore, CeilingsAreMeasuredOncePerDevice) {
  TempProject project;
  auto store = project.open();
  FakeDispatcher dispatcher(1);
  dispatcher.evaluator(0).ceilings = {Ceiling{"", "dram_bw", 4.2e12, 4.8e12, "B/s", 1}};
  Logged log;
  ensureCeilings(*store, dispatcher.evaluator(0), "Fake GPU", log.fn());
  ensureCeilings(*store, dispatcher.evaluator(0), "Fake GPU", log.fn());
  EXPECT_EQ(dispatcher.evaluator(0).ceilingMeasurements.load(), 1);
  ASSERT_EQ(store->ceilings("Fake GPU").size(), 1u);
  EXPECT_EQ(store->ceilings("Fake GPU")[0].device, "Fake GPU") << "keyed by the device it was measured on";
}

}  // namespace
}  // namespace crucible::engine_detail
