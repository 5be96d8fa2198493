// SPDX-License-Identifier: GPL-3.0-or-later
// A user's edited kernel evaluated into a run (core/engine/user_evaluation.h)
// with the CPU doubles, and a running engine that notices it and builds on it.
#include <gtest/gtest.h>
#include <atomic>
#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>
#include "core/engine/engine.h"
#include "core/engine/pipeline_items.h"
#include "core/engine/run_settings.h"
#include "core/engine/tuning_cache.h"
#include "core/engine/user_evaluation.h"
#include "tests/core/engine/doubles/fake_backends.h"
#include "tests/core/engine/doubles/fake_proposer.h"
#include "tests/core/engine/doubles/fake_sanitizer.h"
#include "tests/core/engine/engine_fixture.h"

namespace crucible {
namespace {

using testing::FakeCompiler;
using testing::FakeDispatcher;
using testing::FakeEvaluator;
using testing::FakeGenome;
using testing::FakeProposer;
using testing::RecordingObserver;
using testing::TempProject;

// The user's edit: a fake kernel of the given genes (indices into kMemory, kGranularity, kVector).
std::string editedSource(int mem, int gran, int vec, std::int64_t block = 256, std::int64_t unroll = 2) {
  FakeGenome g;
  g.mem = mem;
  g.gran = gran;
  g.vec = vec;
  g.block = block;
  g.unroll = unroll;
  g.nonce = 777;   // a source the engine never proposes itself
  return g.source();
}

// A finished run of the fake engine, with a Valid candidate to fork.
struct FinishedRun {
  explicit FinishedRun(int budget = 8) {
    Engine engine{project.path(), proposer, compiler, dispatcher, nullptr, &sanitizer};
    run = engine.createRun(project.task(), "forkable", 7, Budget{budget, 0, 0}, false, testing::smallSettings());
    engine.run(run);
    store = project.open();
    for (const auto& s : store->candidateSummaries(run))
      if (s.status == CandidateStatus::Valid && s.proposer == "fake") parent = s.id;
  }
  TempProject project;
  FakeProposer proposer;
  FakeCompiler compiler;
  FakeDispatcher dispatcher;
  testing::FakeSanitizer sanitizer;
  RunId run = 0;
  CandidateId parent = 0;
  std::unique_ptr<ProjectStore> store;
};

TEST(UserEvaluation, AValidEditBecomesAChildOfTheForkedCandidate) {
  FinishedRun f;
  ASSERT_NE(f.parent, 0);
  ASSERT_EQ(f.store->run(f.run)->status, RunStatus::Finished);
  const Candidate parent = *f.store->candidate(f.parent);
  const crucible::Run before = *f.store->run(f.run);
  const std::int64_t countBefore = f.store->candidateCount(f.run);

  FakeCompiler compiler;
  FakeEvaluator gpu;
  std::vector<UserEvaluationStage> stages;
  UserEvaluationOptions options;
  options.progress = [&](const UserEvaluationProgress& p) { stages.push_back(p.stage); };
  UserKernel kernel;
  kernel.parent = f.parent;
  kernel.source = editedSource(2, 1, 3);
  kernel.note = "registers instead of shared memory";
  // A finished run accepts a user's kernel (see user_evaluation.h).
  UserEvaluation result = evaluateUserKernel(*f.store, compiler, gpu, kernel, options);

  ASSERT_FALSE(result.cancelled);
  ASSERT_GT(result.candidate.id, 0);
  EXPECT_EQ(f.store->candidateCount(f.run), countBefore + 1);
  const Candidate c = *f.store->candidate(result.candidate.id);
  EXPECT_EQ(c.runId, f.run);
  EXPECT_EQ(c.parents, std::vector<CandidateId>{f.parent});
  EXPECT_EQ(c.proposer, "user");
  EXPECT_EQ(c.mutation, "edit");
  EXPECT_EQ(c.generation, parent.generation + 1);
  EXPECT_EQ(c.source, kernel.source);
  EXPECT_EQ(c.launch.entry, parent.launch.entry) << "the launch rule defaults to the parent's";
  EXPECT_EQ(c.descriptor, parent.descriptor);
  EXPECT_EQ(c.architectureKey, userArchitectureKey(kernel.source));
  EXPECT_EQ(c.architectureKey.rfind("user:", 0), 0u);
  EXPECT_EQ(nlohmann::json::parse(c.genomeJson).at("note"), kernel.note);
  EXPECT_EQ(c.status, CandidateStatus::Valid) << c.statusDetail;
  ASSERT_TRUE(c.timing.has_value());
  const double expectedUs = testing::fakeTimeUs(*testing::parseFakeSource(kernel.source));
  EXPECT_DOUBLE_EQ(c.timing->medianUs, expectedUs);
  EXPECT_DOUBLE_EQ(c.fitness, 100.0 / expectedUs);
  EXPECT_FALSE(c.profile.empty()) << "profiled";
  ASSERT_TRUE(c.compile.has_value());
  EXPECT_TRUE(c.compile->ok);

  // Validated on the seeds the engine gives this source in this run (pipeline_items.h).
  RunSettings settings = runSettingsFromJson(before.settingsJson);
  engine_detail::PipelineItem same = engine_detail::pipelineItemFor(c, nullptr, settings, before.seed, 0);
  ASSERT_EQ(c.validation.size(), same.seeds.size());
  for (std::size_t i = 0; i < same.seeds.size(); ++i) EXPECT_EQ(c.validation[i].seed, same.seeds[i]);
  // Timed against the run's reference, compiled again; its stored timing is reused, not measured again.
  EXPECT_EQ(gpu.referenceEvaluations, 0);
  EXPECT_EQ(gpu.evaluations, 1);

  // Not charged to the run, and the run row is left to the engine.
  const crucible::Run after = *f.store->run(f.run);
  EXPECT_EQ(after.evaluationsDone, before.evaluationsDone);
  EXPECT_DOUBLE_EQ(after.gpuSecondsUsed, before.gpuSecondsUsed);
  EXPECT_EQ(after.status, RunStatus::Finished);

  ASSERT_FALSE(stages.empty());
  EXPECT_EQ(stages.front(), UserEvaluationStage::Preparing);
  EXPECT_EQ(stages.back(), UserEvaluationStage::Done);
  EXPECT_NE(std::find(stages.begin(), stages.end(), UserEvaluationStage::Evaluating), stages.end());
  bool logged = false;
  for (const auto& line : f.store->log(f.run))
    logged |= line.text.find("user candidate " + std::to_string(c.id)) != std::string::npos;
  EXPECT_TRUE(logged) << "the run's log says a user kernel joined";
}

TEST(UserEvaluation, AnInvalidEditIsStoredWithItsStatus) {
  FinishedRun f;
  FakeCompiler compiler;
  FakeEvaluator gpu;
  UserKernel kernel;
  kernel.parent = f.parent;
  kernel.source = editedSource(2, 1, 1, 512);   // regs with BLOCK 512 computes wrong results
  UserEvaluation r = evaluateUserKernel(*f.store, compiler, gpu, kernel);
  ASSERT_GT(r.candidate.id, 0);
  const Candidate c = *f.store->candidate(r.candidate.id);
  EXPECT_EQ(c.status, CandidateStatus::Invalid);
  EXPECT_EQ(c.fitness, 0);
  EXPECT_FALSE(c.timing.has_value());
  ASSERT_FALSE(c.validation.empty());
  EXPECT_FALSE(c.validation.front().passed);
  EXPECT_EQ(c.parents, std::vector<CandidateId>{f.parent});
  EXPECT_TRUE(c.profile.empty()) << "only a valid kernel is profiled";
}

TEST(UserEvaluation, ACompileErrorIsStoredAsCompileFailedWithItsDiagnostics) {
  FinishedRun f;
  FakeCompiler compiler;
  FakeEvaluator gpu;
  UserKernel kernel;
  kernel.parent = f.parent;
  kernel.source = editedSource(0, 0, 3);   // vector width 8 at thread granularity does not compile
  UserEvaluation r = evaluateUserKernel(*f.store, compiler, gpu, kernel);
  ASSERT_GT(r.candidate.id, 0);
  const Candidate c = *f.store->candidate(r.candidate.id);
  EXPECT_EQ(c.status, CandidateStatus::CompileFailed);
  ASSERT_TRUE(c.compile.has_value());
  ASSERT_EQ(c.compile->diagnostics.size(), 1u);
  EXPECT_EQ(c.compile->diagnostics[0].line, 3);
  EXPECT_NE(c.statusDetail.find("line 3"), std::string::npos) << c.statusDetail;
  EXPECT_EQ(gpu.evaluations, 0) << "nothing that does not compile runs";
}

TEST(UserEvaluation, ACancelBeforeStoringStoresNothing) {
  FinishedRun f;
  const std::int64_t count = f.store->candidateCount(f.run);
  const auto logLines = f.store->log(f.run).size();
  for (UserEvaluationStage cancelAt : {UserEvaluationStage::Preparing, UserEvaluationStage::Compiling,
                                       UserEvaluationStage::Evaluating}) {
    SCOPED_TRACE(toString(cancelAt));
    FakeCompiler compiler;
    FakeEvaluator gpu;
    gpu.delayMicroseconds = 200000;   // the cancel arrives while the kernel is on the "GPU"
    std::atomic<bool> cancel{false};
    UserEvaluationOptions options;
    options.cancel = &cancel;
    options.progress = [&](const UserEvaluationProgress& p) {
      if (p.stage == cancelAt) cancel = true;
    };
    UserKernel kernel;
    kernel.parent = f.parent;
    kernel.source = editedSource(2, 1, 3);
    UserEvaluation r = evaluateUserKernel(*f.store, compiler, gpu, kernel, options);
    EXPECT_TRUE(r.cancelled);
    EXPECT_EQ(r.candidate.id, 0);
    EXPECT_EQ(f.store->candidateCount(f.run), count);
    EXPECT_EQ(f.store->log(f.run).size(), logLines);
  }
}

// The same seal policy as the engine's (batch_pipeline.cpp, commit_outcome.cpp):
// a kernel fast enough for a seal gets the extended validation and the
// sanitizers first, and is demoted when the extended validation fails.
TEST(UserEvaluation, AFastEditMeetsTheEnginesSealPolicy) {
  FinishedRun f;
  const double bar = [&] {
    double best = 0;
    for (const auto& seal : f.store->seals()) best = std::max(best, seal.speedup);
    return best;
  }();
  UserKernel kernel;
  kernel.parent = f.parent;
  kernel.source = editedSource(2, 1, 3);   // 3.9x: above any seal of a short fake run
  ASSERT_GT(100.0 / testing::fakeTimeUs(*testing::parseFakeSource(kernel.source)), 1.05 * std::max(1.0, bar));

  {  // no sanitizer: validated further, never sealed, and it says why
    FakeCompiler compiler;
    FakeEvaluator gpu;
    UserEvaluation r = evaluateUserKernel(*f.store, compiler, gpu, kernel);
    EXPECT_EQ(gpu.extendedEvaluations, 1);
    EXPECT_FALSE(r.seal.has_value());
    EXPECT_FALSE(r.sealNote.empty());
    EXPECT_EQ(r.candidate.status, CandidateStatus::Valid);
  }
  {  // the extended validation finds it wrong: demoted, as the engine demotes its own
    FakeCompiler compiler;
    FakeEvaluator gpu;
    gpu.failExtended = true;
    testing::FakeSanitizer sanitizer;
    UserEvaluationOptions options;
    options.sanitizer = &sanitizer;
    UserEvaluation r = evaluateUserKernel(*f.store, compiler, gpu, kernel, options);
    EXPECT_EQ(f.store->candidate(r.candidate.id)->status, CandidateStatus::Invalid);
    EXPECT_EQ(r.candidate.fitness, 0);
    EXPECT_FALSE(r.seal.has_value());
    EXPECT_EQ(sanitizer.calls, 0) << "the sanitizers run only after the extended validation passed";
  }
  {  // clean: sealed, the seal names the stored candidate
    FakeCompiler compiler;
    FakeEvaluator gpu;
    testing::FakeSanitizer sanitizer;
    UserEvaluationOptions options;
    options.sanitizer = &sanitizer;
    UserEvaluation r = evaluateUserKernel(*f.store, compiler, gpu, kernel, options);
    ASSERT_TRUE(r.seal.has_value()) << r.sealNote;
    EXPECT_EQ(sanitizer.calls, 1);
    auto latest = f.store->latestSeal(f.store->run(f.run)->taskId);
    ASSERT_TRUE(latest.has_value());
    EXPECT_EQ(latest->candidateId, r.candidate.id);
    EXPECT_EQ(latest->runId, f.run);
  }
}

TEST(UserEvaluation, AKernelFromAFileJoinsARunWithoutAParent) {
  FinishedRun f;
  FakeCompiler compiler;
  FakeEvaluator gpu;
  UserKernel kernel;
  kernel.run = f.run;
  kernel.source = editedSource(1, 1, 2);
  UserEvaluation r = evaluateUserKernel(*f.store, compiler, gpu, kernel);
  const Candidate c = *f.store->candidate(r.candidate.id);
  EXPECT_TRUE(c.parents.empty());
  EXPECT_EQ(c.generation, 0);
  EXPECT_EQ(c.status, CandidateStatus::Valid);
  const Candidate reference = *f.store->candidate(f.store->run(f.run)->referenceCandidate);
  EXPECT_EQ(c.launch.entry, reference.launch.entry) << "the launch rule defaults to the reference's";
  EXPECT_EQ(c.descriptor.at("origin"), "user");
}

TEST(UserEvaluation, BadRequestsAreRefusedAndStoreNothing) {
  FinishedRun f;
  const std::int64_t count = f.store->candidateCount();
  FakeCompiler compiler;
  FakeEvaluator gpu;
  UserKernel missing;
  missing.parent = 999999;
  missing.source = editedSource(1, 1, 1);
  try {
    evaluateUserKernel(*f.store, compiler, gpu, missing);
    FAIL() << "no error for a missing candidate";
  } catch (const UserEvaluationError& e) {
    EXPECT_NE(std::string(e.what()).find("candidate 999999 does not exist"), std::string::npos) << e.what();
  }
  UserKernel empty;
  empty.parent = f.parent;
  empty.source = " \n\t";
  EXPECT_THROW(evaluateUserKernel(*f.store, compiler, gpu, empty), UserEvaluationError);
  UserKernel noRun;
  noRun.run = 424242;
  noRun.source = editedSource(1, 1, 1);
  EXPECT_THROW(evaluateUserKernel(*f.store, compiler, gpu, noRun), UserEvaluationError);
  UserKernel nothing;
  nothing.source = editedSource(1, 1, 1);
  EXPECT_THROW(evaluateUserKernel(*f.store, compiler, gpu, nothing), UserEvaluationError);
  UserKernel otherRun;
  otherRun.parent = f.parent;
  otherRun.run = f.run + 1;
  otherRun.source = editedSource(1, 1, 1);
  EXPECT_THROW(evaluateUserKernel(*f.store, compiler, gpu, otherRun), UserEvaluationError);
  EXPECT_EQ(f.store->candidateCount(), count);
  EXPECT_EQ(gpu.evaluations, 0);
}

TEST(UserEvaluation, TheArchitectureKeyIgnoresLayoutButNotCode) {
  const std::string a = "// mine\n__global__ void k(float* x) {\n  x[0] = 1;\n}\n";
  const std::string relaid = "__global__ void k(float* x) {\r\n\n    x[0] = 1;   \n   // changed my mind\n}";
  const std::string other = "__global__ void k(float* x) {\n  x[0] = 2;\n}\n";
  EXPECT_EQ(userArchitectureKey(a), userArchitectureKey(relaid));
  EXPECT_NE(userArchitectureKey(a), userArchitectureKey(other));
  EXPECT_EQ(userArchitectureKey(a).size(), 5u + 16u);
}

// ---------------------------------------------------------------- the engine sees it

bool isChildOf(const Candidate& c, CandidateId parent) {
  return std::find(c.parents.begin(), c.parents.end(), parent) != c.parents.end();
}

TEST(UserEvaluation, ARunningEngineAdoptsAUserCandidateAndBuildsOnIt) {
  TempProject project;
  FakeProposer proposer;
  FakeCompiler compiler;
  FakeDispatcher dispatcher;
  const std::string record = (project.dir() / "evaluations.txt").string();
  dispatcher.evaluator(0).recordPath = record;
  testing::FakeSanitizer sanitizer;
  RecordingObserver observer;
  Engine engine{project.path(), proposer, compiler, dispatcher, &observer, &sanitizer};
  RunId run = engine.createRun(project.task(), "live", 11, Budget{64, 0, 0}, false, testing::smallSettings());
  std::atomic<int> evaluated{0};
  observer.setHook([&](const EngineEvent& e) {
    if (as<events::CandidateEvaluated>(e) && ++evaluated == 8) engine.pause();
  });
  std::thread engineThread([&] { engine.run(run); });

  auto store = project.open();
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (store->run(run)->status != RunStatus::Paused && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_EQ(store->run(run)->status, RunStatus::Paused);

  CandidateId parent = 0;
  for (const auto& s : store->candidateSummaries(run))
    if (s.status == CandidateStatus::Valid && s.proposer == "fake") parent = s.id;
  ASSERT_NE(parent, 0);
  FakeCompiler userCompiler;
  FakeEvaluator userGpu;
  UserKernel kernel;
  kernel.parent = parent;
  kernel.source = editedSource(2, 1, 3);   // faster than anything the run has: its cell's elite
  UserEvaluation mine = evaluateUserKernel(*store, userCompiler, userGpu, kernel);
  ASSERT_EQ(mine.candidate.status, CandidateStatus::Valid);
  const std::int64_t doneAtFork = store->run(run)->evaluationsDone;
  engine.resume();
  engineThread.join();

  const crucible::Run finished = *store->run(run);
  ASSERT_EQ(finished.status, RunStatus::Finished);
  EXPECT_EQ(finished.evaluationsDone, 64) << "the user's kernel is not charged to the run's budget";
  EXPECT_GT(finished.evaluationsDone, doneAtFork);
  EXPECT_GE(finished.bestSpeedup, mine.candidate.fitness) << "the run's best includes the user's kernel";
  int children = 0;
  for (const auto& s : store->candidateSummaries(run))
    if (s.id > mine.candidate.id && isChildOf(*store->candidate(s.id), mine.candidate.id)) ++children;
  EXPECT_GT(children, 0) << "a later proposal took the user's kernel as a parent";
  bool inArchive = false;
  for (const ArchiveCell& cell : store->archive(run)) inArchive |= cell.elite == mine.candidate.id;
  EXPECT_TRUE(inArchive);
  // Never evaluated again by the engine.
  std::ifstream in(record);
  std::string line, userKey = configKey("", {}, kernel.source);
  int evaluationsOfUserKernel = 0;
  while (std::getline(in, line)) evaluationsOfUserKernel += line == "begin " + userKey;
  EXPECT_EQ(evaluationsOfUserKernel, 0);
  EXPECT_EQ(store->candidate(mine.candidate.id)->status, CandidateStatus::Valid);
}

TEST(UserEvaluation, AResumedRunAdoptsAUserCandidateStoredWhileItWasDown) {
  FinishedRun f(12);
  FakeCompiler compiler;
  FakeEvaluator gpu;
  UserKernel kernel;
  kernel.parent = f.parent;
  kernel.source = editedSource(2, 1, 3);
  UserEvaluation mine = evaluateUserKernel(*f.store, compiler, gpu, kernel);
  ASSERT_EQ(mine.candidate.status, CandidateStatus::Valid);

  crucible::Run more = *f.store->run(f.run);
  more.budget.evaluations = 60;
  f.store->updateRun(more);
  Engine engine{f.project.path(), f.proposer, f.compiler, f.dispatcher, nullptr, &f.sanitizer};
  engine.run(f.run);
  ASSERT_EQ(f.store->run(f.run)->status, RunStatus::Finished);
  int children = 0;
  for (const auto& s : f.store->candidateSummaries(f.run))
    if (s.id > mine.candidate.id && isChildOf(*f.store->candidate(s.id), mine.candidate.id)) ++children;
  EXPECT_GT(children, 0);
  EXPECT_EQ(f.store->run(f.run)->evaluationsDone, 60);
}

}  // namespace
}  // namespace crucible
