// SPDX-License-Identifier: GPL-3.0-or-later
// The sanitizers' share of a run (PipelineConfig::sanitizerShare): past it a
// candidate's sanitizers wait, the run searches on, and its best candidate
// is sealed when the run ends, in that session or a later one. The doubles'
// sleeps stand for compute-sanitizer's seconds a seal and a GPU's
// milliseconds an evaluation.
#include <gtest/gtest.h>
#include <algorithm>
#include "core/engine/engine.h"
#include "core/engine/run_loop.h"
#include "tests/core/engine/doubles/engine_bench.h"

namespace crucible {
namespace {

constexpr int kMs = 1000;   // the doubles' delays are in microseconds

using SlowSanitizerRun = testing::EngineBench;   // given a slow sanitizer by each test

using testing::logLinesSaying;

// The run's best candidate, as its stored archive says.
ArchiveCell bestCell(const ProjectStore& store, RunId run) {
  ArchiveCell best;
  for (const ArchiveCell& cell : store.archive(run))
    if (cell.fitness > best.fitness) best = cell;
  return best;
}

TEST(SealDeferral, ASlowSanitizerTakesAtMostItsShareAndTheRunsBestIsSealedAtItsEnd) {
  SlowSanitizerRun f;
  f.sanitizer.delayMicroseconds = 150 * kMs;
  f.dispatcher.evaluator(0).delayMicroseconds = 5 * kMs;
  RunId run = f.engine.createRun(f.project.task(), "slow tools", 7, Budget{40, 0, 0}, false, testing::smallSettings());
  f.engine.run(run);
  auto store = f.project.open();
  ASSERT_EQ(store->run(run)->status, RunStatus::Finished);
  EXPECT_GT(logLinesSaying(*store, run, "not sealed: sealing deferred to the end of the run"), 0)
      << "evaluations of 5 ms and seals of 150 ms: some candidate's sanitizers must wait";

  // While it searched, the sanitizers kept to their share (one seal over it at most, for a loaded
  // machine); the account adds the end's seal, when there was one.
  const auto finished = f.observer.all<events::RunFinished>();
  ASSERT_EQ(finished.size(), 1u);
  const PhaseTimes& spent = finished.front().phases;
  const int sealsAtTheEnd = f.observer.count<events::SealingBest>();
  EXPECT_LE(sealsAtTheEnd, 1);
  EXPECT_LE(spent.sanitizeSeconds, engine_detail::kRunSanitizerShare * spent.wallSeconds + 0.15 * (1 + sealsAtTheEnd))
      << describe(spent);

  // Its best is sealed: at the end, unless a seal on the way already covered it.
  const ArchiveCell best = bestCell(*store, run);
  const auto seal = store->latestSeal(f.project.task());
  ASSERT_TRUE(seal);
  EXPECT_EQ(seal->candidateId, best.elite);
  EXPECT_EQ(f.observer.count<events::Sealed>(), static_cast<int>(store->seals(f.project.task()).size()));
  const auto sealedBest = store->candidate(best.elite);
  EXPECT_EQ(sealedBest->status, CandidateStatus::Valid);
  EXPECT_EQ(sealedBest->statusDetail.find("not sealed"), std::string::npos) << sealedBest->statusDetail;
}

TEST(SealDeferral, AStoppedRunSealsItsBestWhenALaterSessionEndsIt) {
  SlowSanitizerRun f;
  f.sanitizer.delayMicroseconds = 150 * kMs;
  // The first seal's cost is guessed at four evaluations (600 ms): it may take
  // a fifth of a session only once the session is 3 s old, 20 evaluations in
  // (fewer only where all else takes more than 150 ms a candidate, which is
  // far above the doubles' own). Each session here makes 10, so only the end
  // of the run seals.
  f.dispatcher.evaluator(0).delayMicroseconds = 150 * kMs;
  RunSettings settings = testing::smallSettings();
  RunId run = f.engine.createRun(f.project.task(), "stopped", 7, Budget{20, 0, 0}, false, settings);
  f.stopAfter(10);
  f.engine.run(run);
  auto store = f.project.open();
  ASSERT_EQ(store->run(run)->status, RunStatus::Stopped);
  EXPECT_EQ(f.sanitizer.calls.load(), 0) << "a stop ends the run at once, with no seal";
  EXPECT_TRUE(store->seals(f.project.task()).empty());
  EXPECT_GT(logLinesSaying(*store, run, "sealing deferred to the end of the run"), 0);

  f.observer.setHook(nullptr);
  f.engine.run(run);
  ASSERT_EQ(store->run(run)->status, RunStatus::Finished);
  EXPECT_EQ(logLinesSaying(*store, run, "extended validation and sanitizers at the end of the run"), 1);
  ASSERT_EQ(f.observer.count<events::SealingBest>(), 1) << "the seconds before the seal are announced";
  const ArchiveCell best = bestCell(*store, run);
  const auto seal = store->latestSeal(f.project.task());
  ASSERT_TRUE(seal) << "the later session's end seals the run's best";
  EXPECT_EQ(f.observer.all<events::SealingBest>().front().candidate, best.elite);
  EXPECT_EQ(seal->candidateId, best.elite);
  EXPECT_GE(seal->speedup, 1.05);
  // The session's account counts the end's sanitizers (150 ms), the only ones it ran.
  const auto finished = f.observer.all<events::RunFinished>();
  ASSERT_FALSE(finished.empty());
  EXPECT_GE(finished.back().phases.sanitizeSeconds, 0.15) << describe(finished.back().phases);
  EXPECT_GT(finished.back().phases.extendedSeconds, 0) << describe(finished.back().phases);
}

// A run stopped after 10 evaluations with nothing sealed on the way (150 ms
// evaluations: the first seal's guess is over the share), so the session that
// finishes it seals at its end.
RunId runStoppedBeforeAnySeal(SlowSanitizerRun& f, const std::string& name,
                              const RunSettings& settings = testing::smallSettings()) {
  f.sanitizer.delayMicroseconds = 150 * kMs;
  f.dispatcher.evaluator(0).delayMicroseconds = 150 * kMs;
  RunId run = f.engine.createRun(f.project.task(), name, 7, Budget{20, 0, 0}, false, settings);
  f.stopAfter(10);
  f.engine.run(run);
  f.observer.setHook(nullptr);
  return run;
}

// What a demotion at the end must leave: the candidate invalid with fitness 0
// and the reason, no archive cell (memory and store agree: the store is what
// a later session or the GUI reads), and the run's best speedup its archive's.
void expectDemotedAtTheEnd(const ProjectStore& store, RunId run, CandidateId id) {
  const auto c = store.candidate(id);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->status, CandidateStatus::Invalid);
  EXPECT_EQ(c->fitness, 0);
  EXPECT_NE(c->statusDetail.find("extended validation at seal time failed"), std::string::npos) << c->statusDetail;
  for (const ArchiveCell& cell : store.archive(run)) {
    EXPECT_NE(cell.elite, id) << "candidate " << id << " still holds cell " << cell.key;
    EXPECT_EQ(store.candidate(cell.elite)->status, CandidateStatus::Valid) << cell.key;
  }
  EXPECT_EQ(store.run(run)->bestSpeedup, bestCell(store, run).fitness);
}

// Every extended validation of the second session fails: each best the end
// tries is demoted, and it stops after kEndSealAttempts of them.
TEST(SealDeferral, BestsThatFailTheirExtendedValidationAtTheEndAreDemotedAFewAtMost) {
  SlowSanitizerRun f;
  const RunId run = runStoppedBeforeAnySeal(f, "flaky");
  auto store = f.project.open();
  const double bestBefore = store->run(run)->bestSpeedup;
  const std::size_t cellsBefore = store->archive(run).size();
  f.dispatcher.evaluator(0).failExtended = true;
  f.engine.run(run);
  ASSERT_EQ(store->run(run)->status, RunStatus::Finished);
  EXPECT_TRUE(store->seals(f.project.task()).empty());
  EXPECT_EQ(f.sanitizer.calls.load(), 0) << "the sanitizers run only after an extended validation that passed";
  const auto tried = f.observer.all<events::SealingBest>();
  ASSERT_EQ(tried.size(), static_cast<std::size_t>(engine_detail::kEndSealAttempts))
      << "this run has more bests over the seal's bar than the end tries";
  for (std::size_t i = 0; i < tried.size(); ++i) {
    SCOPED_TRACE("best " + std::to_string(i));
    expectDemotedAtTheEnd(*store, run, tried[i].candidate);
    if (i > 0) {
      EXPECT_LE(tried[i].fitness, tried[i - 1].fitness) << "the next best, each time";
    }
  }
  EXPECT_EQ(tried.front().fitness, bestBefore);
  EXPECT_LT(store->run(run)->bestSpeedup, tried.back().fitness);
  EXPECT_LE(store->archive(run).size(), cellsBefore);
  EXPECT_EQ(logLinesSaying(*store, run, "at the end of the run, not sealed: extended validation at seal time failed"),
            engine_detail::kEndSealAttempts);
  EXPECT_EQ(logLinesSaying(*store, run, "bests before it failed their extended validation at the end of the run"), 1)
      << "the next best is left unsealed, and the log says so";
  bool warned = false;
  for (const auto& line : store->log(run)) warned |= line.level == "warning" && line.text.find("demoted") != std::string::npos;
  EXPECT_TRUE(warned);
}

// With two islands the best migrates, so it is the elite of a cell on each:
// a demotion at the end takes it out of both.
TEST(SealDeferral, ABestDemotedAtTheEndLeavesEveryIslandItMigratedTo) {
  SlowSanitizerRun f;
  RunSettings settings = testing::smallSettings();
  settings.islands = 2;
  settings.migrationInterval = 1;
  const RunId run = runStoppedBeforeAnySeal(f, "two islands", settings);
  auto store = f.project.open();
  const ArchiveCell best = bestCell(*store, run);
  int cellsOfTheBest = 0;
  for (const ArchiveCell& cell : store->archive(run)) cellsOfTheBest += cell.elite == best.elite;
  ASSERT_EQ(cellsOfTheBest, 2) << "the best has migrated to the other island";
  f.dispatcher.evaluator(0).failExtended = true;
  f.engine.run(run);
  ASSERT_EQ(store->run(run)->status, RunStatus::Finished);
  const auto tried = f.observer.all<events::SealingBest>();
  ASSERT_FALSE(tried.empty());
  EXPECT_EQ(tried.front().candidate, best.elite);
  for (const auto& t : tried) expectDemotedAtTheEnd(*store, run, t.candidate);
}

// Only the end's first extended validation fails (the pipeline's passed):
// that best is demoted, and the next best takes the seal.
TEST(SealDeferral, WhenTheBestIsDemotedAtTheEndTheNextBestIsSealed) {
  SlowSanitizerRun f;
  const RunId run = runStoppedBeforeAnySeal(f, "one flaky best");
  auto store = f.project.open();
  testing::FakeEvaluator& evaluator = f.dispatcher.evaluator(0);
  bool armed = false;   // the hook runs on the engine's thread, before the end's first extended validation
  f.observer.setHook([&](const EngineEvent& e) {
    if (as<events::SealingBest>(e) && !armed) {
      evaluator.failExtendedFirst = evaluator.extendedEvaluations.load() + 1;
      armed = true;
    }
  });
  f.engine.run(run);
  ASSERT_TRUE(armed);
  ASSERT_EQ(store->run(run)->status, RunStatus::Finished);
  const auto tried = f.observer.all<events::SealingBest>();
  ASSERT_EQ(tried.size(), 2u);
  expectDemotedAtTheEnd(*store, run, tried[0].candidate);
  const auto seal = store->latestSeal(f.project.task());
  ASSERT_TRUE(seal);
  EXPECT_EQ(seal->candidateId, tried[1].candidate);
  EXPECT_EQ(seal->candidateId, bestCell(*store, run).elite) << "the seal goes to the run's best as it stands now";
  EXPECT_EQ(store->run(run)->bestSpeedup, tried[1].fitness);
  EXPECT_EQ(f.sanitizer.calls.load(), 1);
}

}  // namespace
}  // namespace crucible
