// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>
#include "core/engine/run_events.h"

namespace crucible::engine_detail {
namespace {

Run runWithCounters() {
  Run r;
  r.id = 7;
  r.evaluationsDone = 12;
  r.budget = Budget{100, 0, 0};
  r.bestSpeedup = 1.8;
  r.gpuSecondsUsed = 3.5;
  return r;
}

Candidate candidate() {
  Candidate c;
  c.id = 42;
  c.architectureKey = "smem/warp/v4";
  c.status = CandidateStatus::Valid;
  c.generation = 3;
  c.fitness = 1.6;
  c.mutation = "crossover";
  c.statusDetail = "all seeds passed";
  return c;
}

TEST(RunEvents, EveryEventCarriesTheRunsCounters) {
  EngineEvent e = runEvent(EngineEvent::Kind::Progress, runWithCounters(), 61.0, 5);
  EXPECT_EQ(e.kind, EngineEvent::Kind::Progress);
  EXPECT_EQ(e.run, 7);
  EXPECT_EQ(e.evaluationsDone, 12);
  EXPECT_EQ(e.budget.evaluations, 100);
  EXPECT_DOUBLE_EQ(e.bestSpeedup, 1.8);
  EXPECT_DOUBLE_EQ(e.elapsedSeconds, 61.0);
  EXPECT_DOUBLE_EQ(e.gpuSeconds, 3.5);
  EXPECT_EQ(e.generation, 5);
  EXPECT_EQ(runEvent(EngineEvent::Kind::RunStarted, runWithCounters(), 0, -1).generation, 0)
      << "before the first generation";
}

TEST(RunEvents, CandidateEventsSayWhatHappenedToTheCandidate) {
  EngineEvent counters = runEvent(EngineEvent::Kind::Progress, runWithCounters(), 1.0, 4);
  EngineEvent proposed = proposedEvent(counters, candidate());
  EXPECT_EQ(proposed.kind, EngineEvent::Kind::CandidateProposed);
  EXPECT_EQ(proposed.candidate, 42);
  EXPECT_EQ(proposed.generation, 3) << "the candidate's generation";
  EXPECT_EQ(proposed.message, "crossover");
  EXPECT_EQ(proposed.evaluationsDone, 12);

  EngineEvent waiting = awaitingReviewEvent(counters, candidate());
  EXPECT_EQ(waiting.kind, EngineEvent::Kind::AwaitingReview);
  EXPECT_EQ(waiting.message, "new architecture smem/warp/v4 waits for review");

  EngineEvent evaluated = evaluatedEvent(counters, candidate());
  EXPECT_EQ(evaluated.kind, EngineEvent::Kind::CandidateEvaluated);
  EXPECT_EQ(evaluated.status, CandidateStatus::Valid);
  EXPECT_DOUBLE_EQ(evaluated.fitness, 1.6);
  EXPECT_EQ(evaluated.message, "all seeds passed");

  EngineEvent elite = eliteImprovedEvent(counters, candidate(), Placement::NewCell, "k1");
  EXPECT_EQ(elite.kind, EngineEvent::Kind::EliteImproved);
  EXPECT_EQ(elite.message, "new cell k1");
  EXPECT_EQ(elite.generation, 4) << "the run's generation";
  EXPECT_EQ(eliteImprovedEvent(counters, candidate(), Placement::Replaced, "k1").message, "better elite for k1");

  EngineEvent sealed = sealedEvent(counters, 42, 1.7);
  EXPECT_EQ(sealed.kind, EngineEvent::Kind::Sealed);
  EXPECT_DOUBLE_EQ(sealed.fitness, 1.7);

  KnowledgeEntry entry;
  entry.claim = "vector loads help";
  entry.status = KnowledgeStatus::Validated;
  EngineEvent learned = knowledgeEvent(counters, 42, entry);
  EXPECT_EQ(learned.kind, EngineEvent::Kind::KnowledgeUpdated);
  EXPECT_EQ(learned.message, std::string(toString(KnowledgeStatus::Validated)) + ": vector loads help");

  EngineEvent line = logEvent(counters, "warning", "careful");
  EXPECT_EQ(line.kind, EngineEvent::Kind::Log);
  EXPECT_EQ(line.level, "warning");
  EXPECT_EQ(line.message, "careful");
  EXPECT_EQ(withMessage(counters, EngineEvent::Kind::RunFailed, "why").message, "why");
}

TEST(RunEvents, ACompiledEventCarriesNoCounters) {
  CompileResult failed;
  failed.report.ok = false;
  EngineEvent e = compiledEvent(7, candidate(), failed);
  EXPECT_EQ(e.kind, EngineEvent::Kind::CandidateCompiled);
  EXPECT_EQ(e.run, 7);
  EXPECT_EQ(e.candidate, 42);
  EXPECT_EQ(e.status, CandidateStatus::CompileFailed);
  EXPECT_EQ(e.evaluationsDone, 0);
  CompileResult ok;
  ok.report.ok = true;
  EXPECT_EQ(compiledEvent(7, candidate(), ok).status, CandidateStatus::Compiled);
}

}  // namespace
}  // namespace crucible::engine_detail
