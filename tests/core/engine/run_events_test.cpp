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

TEST(RunEvents, CountersAreTheRunsAtTheTime) {
  RunCounters c = runCounters(runWithCounters(), 61.0, 5);
  EXPECT_EQ(c.evaluationsDone, 12);
  EXPECT_EQ(c.budget.evaluations, 100);
  EXPECT_DOUBLE_EQ(c.bestSpeedup, 1.8);
  EXPECT_DOUBLE_EQ(c.elapsedSeconds, 61.0);
  EXPECT_DOUBLE_EQ(c.gpuSeconds, 3.5);
  EXPECT_EQ(c.generation, 5);
  EXPECT_EQ(runCounters(runWithCounters(), 0, -1).generation, 0) << "before the first generation";
}

TEST(RunEvents, CandidateEventsSayWhatHappenedToTheCandidate) {
  RunCounters counters = runCounters(runWithCounters(), 1.0, 4);
  events::CandidateProposed proposed = proposedEvent(counters, candidate());
  EXPECT_EQ(proposed.candidate, 42);
  EXPECT_EQ(proposed.generation, 3) << "the candidate's generation";
  EXPECT_EQ(proposed.architectureKey, "smem/warp/v4");
  EXPECT_EQ(proposed.status, CandidateStatus::Valid);
  EXPECT_EQ(proposed.mutation, "crossover");
  EXPECT_EQ(proposed.counters.evaluationsDone, 12);

  events::AwaitingReview waiting = awaitingReviewEvent(counters, candidate());
  EXPECT_EQ(waiting.candidate, 42);
  EXPECT_EQ(waiting.architectureKey, "smem/warp/v4");

  events::CandidateEvaluated evaluated = evaluatedEvent(counters, candidate());
  EXPECT_EQ(evaluated.status, CandidateStatus::Valid);
  EXPECT_DOUBLE_EQ(evaluated.fitness, 1.6);
  EXPECT_EQ(evaluated.detail, "all seeds passed");
  EXPECT_EQ(evaluated.generation, 3);

  events::EliteImproved elite = eliteImprovedEvent(counters, candidate(), Placement::NewCell, "k1");
  EXPECT_TRUE(elite.newCell);
  EXPECT_EQ(elite.cellKey, "k1");
  EXPECT_DOUBLE_EQ(elite.fitness, 1.6);
  EXPECT_EQ(elite.counters.generation, 4) << "the run's generation";
  EXPECT_FALSE(eliteImprovedEvent(counters, candidate(), Placement::Replaced, "k1").newCell);

  KnowledgeEntry entry;
  entry.claim = "vector loads help";
  entry.status = KnowledgeStatus::Validated;
  events::KnowledgeUpdated learned = knowledgeEvent(counters, 42, entry);
  EXPECT_EQ(learned.candidate, 42);
  EXPECT_EQ(learned.status, KnowledgeStatus::Validated);
  EXPECT_EQ(learned.claim, "vector loads help");
}

TEST(RunEvents, ACompiledEventCarriesNoCounters) {
  CompileResult failed;
  failed.report.ok = false;
  EngineEvent e{7, compiledEvent(candidate(), failed)};
  const auto* compiled = as<events::CandidateCompiled>(e);
  ASSERT_NE(compiled, nullptr);
  EXPECT_EQ(compiled->candidate, 42);
  EXPECT_EQ(compiled->status, CandidateStatus::CompileFailed);
  EXPECT_EQ(countersOf(e), nullptr);
  CompileResult ok;
  ok.report.ok = true;
  EXPECT_EQ(compiledEvent(candidate(), ok).status, CandidateStatus::Compiled);
}

}  // namespace
}  // namespace crucible::engine_detail
