// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>
#include <atomic>
#include <set>
#include <thread>
#include "core/engine/engine.h"
#include "tests/core/engine/doubles/fake_backends.h"
#include "tests/core/engine/doubles/fake_proposer.h"
#include "tests/core/engine/doubles/fake_sanitizer.h"
#include "tests/core/engine/engine_fixture.h"

namespace crucible {
namespace {

using testing::FakeCompiler;
using testing::FakeDispatcher;
using testing::FakeProposer;
using testing::RecordingObserver;
using testing::TempProject;
namespace ev = events;

struct Bench {
  explicit Bench(int evaluators = 1) : dispatcher(evaluators) {}
  TempProject project;
  FakeProposer proposer;
  FakeCompiler compiler;
  FakeDispatcher dispatcher;
  RecordingObserver observer;
  testing::FakeSanitizer sanitizer;
  Engine engine{project.path(), proposer, compiler, dispatcher, &observer, &sanitizer};
};

std::vector<std::string> runOnce(std::uint64_t seed, int evaluators, RunSettings settings, int budget = 48) {
  Bench b(evaluators);
  RunId run = b.engine.createRun(b.project.task(), "det", seed, Budget{budget, 0, 0}, false, settings);
  b.engine.run(run);
  auto store = b.project.open();
  EXPECT_EQ(store->run(run)->status, RunStatus::Finished);
  return testing::candidateSequence(*store, run);
}

TEST(EngineRun, SameSeedGivesIdenticalCandidateSequences) {
  RunSettings s = testing::smallSettings();
  s.islands = 2;
  s.migrationInterval = 2;
  s.crossoverRate = 0.2;
  s.tuningShare = 0.3;
  s.strategyVariationRate = 0.3;
  auto a = runOnce(42, 2, s);
  auto b = runOnce(42, 2, s);
  ASSERT_GT(a.size(), 40u);
  EXPECT_EQ(a, b);
  auto c = runOnce(43, 2, s);
  EXPECT_NE(a, c) << "a different seed explores differently";
  // The evaluator count changes only where candidates run, not what they are.
  EXPECT_EQ(a, runOnce(42, 1, s));
}

// The proposer is told the GPU the run evaluates on before it seeds (the template proposer
// judges its persistent grids by that GPU's SM count).
TEST(EngineRun, TheProposerIsToldTheRunsDeviceBeforeItSeeds) {
  Bench b;
  RunId run = b.engine.createRun(b.project.task(), "device", 5, Budget{4, 0, 0}, false, testing::smallSettings());
  b.engine.run(run);
  EXPECT_EQ(b.proposer.deviceTold, b.dispatcher.evaluators().front()->device().gpu);
  EXPECT_FALSE(b.proposer.deviceTold.empty());
  EXPECT_FALSE(b.proposer.seededBeforeDevice);
}

TEST(EngineRun, EvaluationBudgetIsMetExactlyAndEverythingIsRecorded) {
  Bench b;
  RunId run = b.engine.createRun(b.project.task(), "budget", 5, Budget{25, 0, 0}, false, testing::smallSettings());
  b.engine.run(run);
  auto store = b.project.open();
  auto r = store->run(run);
  EXPECT_EQ(r->status, RunStatus::Finished);
  EXPECT_EQ(r->evaluationsDone, 25);
  int finals = 0;
  double best = 0;
  for (const auto& s : store->candidateSummaries(run)) {
    if (s.status == CandidateStatus::Reference) continue;
    EXPECT_NE(s.status, CandidateStatus::Proposed) << "candidate " << s.id << " left unevaluated";
    ++finals;
    if (s.status == CandidateStatus::Valid) best = std::max(best, s.fitness);
  }
  EXPECT_EQ(finals, 25);
  EXPECT_DOUBLE_EQ(r->bestSpeedup, best);
  EXPECT_GT(r->gpuSecondsUsed, 0.025 - 1e-9) << "each fake evaluation reports 1 ms of GPU time";
  // A compile failure and an invalid candidate are recorded as such, not as faults of the run.
  EXPECT_EQ(b.observer.count<ev::RunStarted>(), 1);
  EXPECT_EQ(b.observer.count<ev::RunFinished>(), 1);
  EXPECT_EQ(b.observer.count<ev::CandidateEvaluated>(), 25);
  EXPECT_GE(b.observer.count<ev::EliteImproved>(), 1);
  // Strategies are individuals: stored, and their uses recorded.
  std::int64_t uses = 0;
  for (const auto& m : store->metaPrompts(run)) uses += m.uses;
  EXPECT_GT(uses, 0);
  // The archive holds the best valid candidate of each cell.
  auto cells = store->archive(run);
  ASSERT_FALSE(cells.empty());
  for (const auto& cell : cells) {
    auto elite = store->candidate(cell.elite);
    EXPECT_EQ(elite->status, CandidateStatus::Valid);
    EXPECT_DOUBLE_EQ(elite->fitness, cell.fitness);
  }
}

TEST(EngineRun, DeviceCeilingsAreMeasuredOncePerDeviceAndKeptInTheProject) {
  Bench b;
  auto& evaluator = b.dispatcher.evaluator(0);
  evaluator.ceilings = {Ceiling{"Fake GPU", "dram_bw", 4.2e12, 4.8e12, "B/s", 1},
                        Ceiling{"Fake GPU", "fp32_fma", 6.0e13, 6.7e13, "FLOP/s", 1}};
  for (int i = 0; i < 2; ++i) {
    RunId run = b.engine.createRun(b.project.task(), "ceilings", 7 + i, Budget{3, 0, 0}, false, testing::smallSettings());
    b.engine.run(run);
  }
  EXPECT_EQ(evaluator.ceilingMeasurements, 1) << "the second run reads the stored ceilings";
  auto stored = b.project.open()->ceilings(evaluator.device().gpu);
  ASSERT_EQ(stored.size(), 2u);
  for (const auto& c : stored) EXPECT_GT(c.measured, 0);
}

TEST(EngineRun, CompileFailuresAndInvalidResultsAreRecordedWithReasons) {
  Bench b;
  RunSettings s = testing::smallSettings();
  s.tuningShare = 0.5;
  // The search path on which seed 11 reaches a genome that does not compile
  // within the budget (the look-ahead draws parents from another archive state).
  s.lookAhead = false;
  RunId run = b.engine.createRun(b.project.task(), "failures", 11, Budget{120, 0, 0}, false, s);
  b.engine.run(run);
  auto store = b.project.open();
  auto failed = store->candidatesWithStatus(run, CandidateStatus::CompileFailed);
  auto invalid = store->candidatesWithStatus(run, CandidateStatus::Invalid);
  ASSERT_FALSE(failed.empty());
  EXPECT_NE(failed.front().statusDetail.find("vector width 8"), std::string::npos) << failed.front().statusDetail;
  EXPECT_EQ(failed.front().fitness, 0);
  for (const auto& c : invalid) EXPECT_EQ(c.fitness, 0);
}

TEST(EngineRun, PauseHoldsTheRunAndResumeContinuesIt) {
  Bench b;
  b.dispatcher.evaluator(0).delayMicroseconds = 2000;
  RunId run = b.engine.createRun(b.project.task(), "pause", 3, Budget{30, 0, 0}, false, testing::smallSettings());
  std::atomic<bool> pausedOnce{false};
  b.observer.setHook([&](const EngineEvent& e) {
    const auto* evaluated = as<ev::CandidateEvaluated>(e);
    if (evaluated && evaluated->counters.evaluationsDone == 8 && !pausedOnce.exchange(true)) b.engine.pause();
  });
  std::thread worker([&] { b.engine.run(run); });
  for (int i = 0; i < 500 && b.observer.count<ev::RunPaused>() == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_EQ(b.observer.count<ev::RunPaused>(), 1);
  // While paused, the batch in flight may finish, but nothing new starts.
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  int during = b.dispatcher.totalEvaluations();
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  EXPECT_EQ(b.dispatcher.totalEvaluations(), during) << "evaluations continued during the pause";
  EXPECT_LT(during, 30);
  EXPECT_TRUE(b.engine.isPaused());
  {
    auto store = b.project.open(); 
    EXPECT_EQ(store->run(run)->status, RunStatus::Paused);
  }
  b.engine.resume();
  worker.join();
  auto store = b.project.open();
  EXPECT_EQ(store->run(run)->status, RunStatus::Finished);
  // (The fake's crossovers soon repeat configurations, so the run may end early: not the point here.)
  EXPECT_EQ(b.observer.count<ev::RunResumed>(), 1);
  auto compileFailed = store->candidatesWithStatus(run, CandidateStatus::CompileFailed).size();
  EXPECT_EQ(b.dispatcher.totalEvaluations(), 30 - static_cast<int>(compileFailed));
}

TEST(EngineRun, StopLeavesAResumableRunAndResumeEvaluatesNothingTwice) {
  Bench b;
  std::string record = (b.project.dir() / "evaluations.log").string();
  b.dispatcher.evaluator(0).recordPath = record;
  RunId run = b.engine.createRun(b.project.task(), "stop", 9, Budget{30, 0, 0}, false, testing::smallSettings());
  b.observer.setHook([&](const EngineEvent& e) {
    const auto* evaluated = as<ev::CandidateEvaluated>(e);
    if (evaluated && evaluated->counters.evaluationsDone == 10) b.engine.stop();
  });
  b.engine.run(run);
  auto store = b.project.open();
  EXPECT_EQ(store->run(run)->status, RunStatus::Stopped);
  EXPECT_EQ(b.observer.count<ev::RunStopped>(), 1);
  std::int64_t done = store->run(run)->evaluationsDone;
  EXPECT_GE(done, 10);
  EXPECT_LT(done, 30);
  b.observer.setHook(nullptr);
  b.engine.run(run);
  EXPECT_EQ(store->run(run)->status, RunStatus::Finished);
  for (const auto& line : store->log(run)) std::printf("%s %s\n", line.level.c_str(), line.text.c_str());
  EXPECT_EQ(store->run(run)->evaluationsDone, 30);
  auto compileFailed = store->candidatesWithStatus(run, CandidateStatus::CompileFailed).size();
  EXPECT_EQ(b.dispatcher.totalEvaluations(), 30 - static_cast<int>(compileFailed))
      << "every candidate that reached the evaluator was evaluated once";
}

// The GUI creates a run on its worker thread before run() starts: a Stop
// pressed in between used to be wiped by run() and the run went on for its
// whole budget (and the window waited for it on close).
TEST(EngineRun, AStopThatArrivesBeforeRunStartsStopsThatRun) {
  Bench b;
  RunId run = b.engine.createRun(b.project.task(), "early stop", 4, Budget{30, 0, 0}, false, testing::smallSettings());
  b.engine.stop();
  b.engine.run(run);
  auto store = b.project.open();
  EXPECT_EQ(store->run(run)->status, RunStatus::Stopped);
  EXPECT_LT(store->run(run)->evaluationsDone, 30);
  EXPECT_EQ(b.observer.count<ev::RunStopped>(), 1);
  // Consumed by that run: the next run() goes on to the end.
  b.engine.run(run);
  EXPECT_EQ(store->run(run)->status, RunStatus::Finished);
  EXPECT_EQ(store->run(run)->evaluationsDone, 30);
}

TEST(EngineRun, AForgottenStopDoesNotStopTheNextRun) {
  Bench b;
  RunId run = b.engine.createRun(b.project.task(), "fresh", 4, Budget{12, 0, 0}, false, testing::smallSettings());
  b.engine.stop();               // aimed at an attempt that never reached run()
  b.engine.forgetStopRequest();  // what a front end does before it starts anew
  b.engine.run(run);
  EXPECT_EQ(b.project.open()->run(run)->status, RunStatus::Finished);
}

// A task of an operator family the proposer has no template for: the run
// ends saying so in plain words, not "search space exhausted".
TEST(EngineRun, ARunNoProposerCanServeSaysWhyInPlainWords) {
  TempProject project;
  FakeProposer::Options o;
  o.cannotPropose = "family: the template proposer has no design space for 'swiglu'";
  FakeProposer proposer(o);
  FakeCompiler compiler;
  FakeDispatcher dispatcher(1);
  RecordingObserver observer;
  testing::FakeSanitizer sanitizer;
  Engine engine{project.path(), proposer, compiler, dispatcher, &observer, &sanitizer};
  RunId run = engine.createRun(project.task(), "no family", 1, Budget{20, 0, 0}, false, testing::smallSettings());
  engine.run(run);
  auto store = project.open();
  EXPECT_EQ(store->run(run)->status, RunStatus::Finished);
  EXPECT_EQ(store->run(run)->evaluationsDone, 0);
  std::string finished;
  for (const auto& line : store->log(run))
    if (line.text.rfind("run finished: ", 0) == 0) finished = line.text;
  EXPECT_NE(finished.find("no candidate could be made"), std::string::npos) << finished;
  EXPECT_NE(finished.find("no design space for 'swiglu'"), std::string::npos) << finished;
  EXPECT_NE(finished.find("add a tunable kernel, or use a language-model proposer"), std::string::npos) << finished;
  EXPECT_EQ(finished.find("search space exhausted"), std::string::npos) << finished;
}

TEST(EngineRun, SetBudgetExtendsAFinishedRun) {
  Bench b;
  RunId run = b.engine.createRun(b.project.task(), "grow", 2, Budget{10, 0, 0}, false, testing::smallSettings());
  b.engine.run(run);
  b.observer.setHook([&](const EngineEvent& e) {
    if (is<ev::RunStarted>(e)) b.engine.setBudget(Budget{18, 0, 0});
  });
  b.engine.run(run);
  auto store = b.project.open();
  EXPECT_EQ(store->run(run)->evaluationsDone, 18);
  EXPECT_EQ(store->run(run)->budget.evaluations, 18);
}

TEST(EngineRun, ProfilesElitesOnlyOrEverything) {
  for (ProfileMode mode : {ProfileMode::Elites, ProfileMode::All, ProfileMode::None}) {
    Bench b;
    RunSettings s = testing::smallSettings();
    s.profile = mode;
    RunId run = b.engine.createRun(b.project.task(), "profile", 6, Budget{30, 0, 0}, false, s);
    b.engine.run(run);
    auto store = b.project.open();
    auto valid = store->candidatesWithStatus(run, CandidateStatus::Valid);
    int profiled = 0;
    for (const auto& c : valid) profiled += !c.profile.empty();
    if (mode == ProfileMode::All) {
      EXPECT_EQ(profiled, static_cast<int>(valid.size()));
    }
    if (mode == ProfileMode::None) {
      EXPECT_EQ(profiled, 0);
    }
    if (mode == ProfileMode::Elites) {
      EXPECT_GT(profiled, 0);
      EXPECT_LT(profiled, static_cast<int>(valid.size()));
      for (const auto& cell : store->archive(run)) EXPECT_FALSE(store->candidate(cell.elite)->profile.empty());
    }
  }
}

TEST(EngineRun, KnowledgeIsLearnedFromOneChangeMutationsAndReachesTheProposer) {
  Bench b;
  RunSettings s = testing::smallSettings();
  s.knowledgeMinObservations = 3;
  s.batchSize = 8;
  RunId run = b.engine.createRun(b.project.task(), "learn", 12, Budget{160, 0, 0}, false, s);
  b.engine.run(run);
  auto store = b.project.open();
  auto knowledge = store->knowledge();
  ASSERT_FALSE(knowledge.empty());
  bool validated = false;
  for (const auto& k : knowledge) {
    EXPECT_EQ(k.scopeArch, "sm_90");
    EXPECT_EQ(k.scopeFamily, "gelu");
    EXPECT_GT(k.evidence.size(), 0u);
    EXPECT_LE(static_cast<std::int64_t>(k.evidence.size()), k.observations);
    validated |= k.status == KnowledgeStatus::Validated;
  }
  EXPECT_TRUE(validated);
  EXPECT_GT(b.proposer.maxKnowledgeSeen.load(), 0u) << "validated knowledge is passed to the proposer";
  EXPECT_GE(b.observer.count<ev::KnowledgeUpdated>(), 1);
}

TEST(EngineRun, ADispatcherWithoutEvaluatorsFailsTheRunWithAReason) {
  TempProject project;
  FakeProposer proposer;
  FakeCompiler compiler;
  FakeDispatcher none(0);
  RecordingObserver observer;
  Engine engine(project.path(), proposer, compiler, none, &observer);
  RunId run = engine.createRun(project.task(), "nogpu", 1, Budget{5, 0, 0}, false, testing::smallSettings());
  engine.run(run);
  auto store = project.open();
  EXPECT_EQ(store->run(run)->status, RunStatus::Failed);
  ASSERT_EQ(observer.count<ev::RunFailed>(), 1);
  for (const auto& failed : observer.all<ev::RunFailed>())
    EXPECT_NE(failed.reason.find("no evaluator"), std::string::npos) << failed.reason;
}

TEST(EngineRun, BadRequestsAreRefusedClearly) {
  TempProject project;
  FakeProposer proposer;
  FakeCompiler compiler;
  FakeDispatcher dispatcher(1);
  Engine engine(project.path(), proposer, compiler, dispatcher);
  EXPECT_THROW(engine.run(999), EngineError);
  EXPECT_THROW(engine.createRun(999, "x", 1, Budget{}, false, RunSettings{}), EngineError);
  RunSettings bad;
  bad.batchSize = 0;
  EXPECT_THROW(engine.createRun(project.task(), "x", 1, Budget{}, false, bad), EngineError);
}

}  // namespace
}  // namespace crucible

namespace crucible {
namespace {

// A proposer whose only strategy is "crossover" and that, like the template
// proposer, cannot cross over a single parent.
class CrossoverOnlyProposer : public FakeProposer {
public:
  std::vector<MetaPrompt> initialStrategies() const override {
    MetaPrompt m;
    m.name = "crossover";
    m.text = "combine two parents";
    return {m};
  }
  Proposal propose(const ProposalContext& ctx) override {
    if (ctx.strategy && ctx.strategy->name == "crossover" && ctx.parents.size() < 2) {
      ++refusals;
      return Proposal{{}, false, "crossover needs two parents"};
    }
    return FakeProposer::propose(ctx);
  }
  std::atomic<int> refusals{0};
};

TEST(EngineRun, ACrossoverStrategyIsGivenTwoParentsOrNone) {
  TempProject project;
  CrossoverOnlyProposer proposer;
  FakeCompiler compiler;
  FakeDispatcher dispatcher;
  Engine engine(project.path(), proposer, compiler, dispatcher);
  RunSettings s = testing::smallSettings();
  s.crossoverRate = 0;  // only the strategy asks for crossovers
  s.tuningShare = 0;
  RunId run = engine.createRun(project.task(), "crossover", 3, Budget{30, 0, 0}, false, s);
  engine.run(run);
  EXPECT_EQ(proposer.refusals, 0) << "the engine handed a crossover strategy a single parent";
  auto store = project.open();
  int crossovers = 0;
  for (const auto& c : store->candidateSummaries(run)) crossovers += c.parents.size() == 2;
  EXPECT_GT(crossovers, 0);
  // (The fake's crossovers soon repeat configurations, so the run may end early: not the point here.)
}

}  // namespace
}  // namespace crucible
