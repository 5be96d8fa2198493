// SPDX-License-Identifier: GPL-3.0-or-later
// A kernel of the user's own as the run's reference (issue 22,
// core/engine/user_reference.h): built from the kernel and its launch rule,
// recorded with the run so every session measures against it, and refused
// when it does not fit the task or does not pass validation.
#include <gtest/gtest.h>
#include "core/engine/engine.h"
#include "core/engine/run_restore.h"
#include "core/engine/user_reference.h"
#include "core/task/task_spec.h"
#include "tests/core/engine/doubles/fake_backends.h"
#include "tests/core/engine/doubles/fake_proposer.h"
#include "tests/core/engine/doubles/fake_sanitizer.h"
#include "tests/core/engine/engine_fixture.h"
#include "tests/core/engine/unit_fixture.h"

namespace crucible {
namespace {

using testing::FakeCompiler;
using testing::FakeDispatcher;
using testing::FakeProposer;
using testing::RecordingObserver;
using testing::TempProject;

// The GELU baseline's source under a launch rule of the user's, with a fake
// genome line the fake compiler and evaluator read: `genome` decides whether
// it validates ("regs thread 1 512 ..." computes wrong results) and its time.
UserReferenceKernel userKernel(const std::string& genomeLine = "smem warp 4 256 1 0") {
  const TaskSpec spec = parseTaskSpec(testing::geluTask().specJson);
  UserReferenceKernel k;
  k.name = "my_gelu";
  k.source = "#define FAKE_GENOME \" " + genomeLine + "\"\n" + spec.baseline.source;
  k.tune = parseTuneSpec(R"J({"format": 1, "parameters": {"THREADS": [128, 256]},
                             "launch": {"grid": ["ceil_div(N, THREADS)", "1", "1"], "block": ["THREADS", "1", "1"]},
                             "default": {"THREADS": 256}})J");
  k.origin = "my_gelu.cu with my_gelu.tune.json";
  return k;
}

struct Bench {
  TempProject project;
  FakeProposer proposer;
  FakeCompiler compiler;
  FakeDispatcher dispatcher{1};
  RecordingObserver observer;
  testing::FakeSanitizer sanitizer;
  Engine engine{project.path(), proposer, compiler, dispatcher, &observer, &sanitizer};
};

TEST(UserReference, TheKernelAtItsDefaultPointIsTheReferenceCandidate) {
  const Task task = testing::geluTask();
  const Candidate c = referenceFromUserKernel(userKernel(), task, 7);
  EXPECT_EQ(c.runId, 7);
  EXPECT_EQ(c.status, CandidateStatus::Reference);
  EXPECT_EQ(c.proposer, kUserReferenceProposer);
  EXPECT_NE(c.source.find("#define THREADS 256"), std::string::npos) << "its parameters reach the source";
  EXPECT_NE(c.source.find("FAKE_GENOME"), std::string::npos) << "the user's source follows";
  EXPECT_EQ(c.launch.entry, "gelu_kernel");
  EXPECT_EQ(c.launch.block[0], "256");
  EXPECT_NE(c.statusDetail.find("my_gelu.cu with my_gelu.tune.json"), std::string::npos) << c.statusDetail;
  EXPECT_EQ(userReferenceProblem(userKernel(), task), "");
}

TEST(UserReference, AKernelThatDoesNotFitTheTaskIsRefusedWithTheReason) {
  const Task task = testing::geluTask();
  UserReferenceKernel wrong = userKernel();
  wrong.source = "extern \"C\" __global__ void gelu_kernel(float* x) {}\n";
  const std::string problem = userReferenceProblem(wrong, task);
  EXPECT_NE(problem.find("reference kernel 'my_gelu'"), std::string::npos) << problem;
  EXPECT_NE(problem.find("does not fit task"), std::string::npos) << problem;
  EXPECT_THROW(referenceFromUserKernel(wrong, task, 1), UserReferenceError);

  UserReferenceKernel unknownName = userKernel();
  unknownName.tune.launch.grid[0] = "ceil_div(M, THREADS)";  // no axis M in the task
  EXPECT_NE(userReferenceProblem(unknownName, task), "");

  // Engine::createRun refuses it and stores no run.
  Bench b;
  EXPECT_THROW(b.engine.createRun(b.project.task(), "r", 1, Budget{4, 0, 0}, false, testing::smallSettings(), &wrong),
               EngineError);
  EXPECT_TRUE(b.project.open()->runs().empty()) << "no run without its reference";
}

TEST(UserReference, TheRunMeasuresAgainstItInEverySessionAndTimesItOnce) {
  Bench b;
  const UserReferenceKernel kernel = userKernel();
  const RunId run =
      b.engine.createRun(b.project.task(), "r", 3, Budget{24, 0, 0}, false, testing::smallSettings(), &kernel);
  CandidateId referenceId = 0;
  {
    auto store = b.project.open();
    referenceId = store->run(run)->referenceCandidate;
    ASSERT_NE(referenceId, 0) << "recorded with the run, before any session";
    EXPECT_EQ(store->candidate(referenceId)->proposer, kUserReferenceProposer);
    EXPECT_FALSE(store->candidate(referenceId)->timing) << "not validated yet";
  }
  // The first session stops after a few evaluations; the second resumes.
  std::atomic<int> evaluated{0};
  b.observer.setHook([&](const EngineEvent& e) {
    if (std::holds_alternative<events::CandidateEvaluated>(e.what) && ++evaluated == 4) b.engine.stop();
  });
  b.engine.run(run);
  {
    auto store = b.project.open();
    ASSERT_EQ(store->run(run)->status, RunStatus::Stopped);
    const auto reference = store->candidate(referenceId);
    ASSERT_TRUE(reference->timing) << "validated and timed in the first session";
    EXPECT_EQ(reference->status, CandidateStatus::Reference);
    EXPECT_FALSE(reference->validation.empty());
  }
  b.observer.setHook({});
  b.engine.run(run);
  auto store = b.project.open();
  EXPECT_EQ(store->run(run)->status, RunStatus::Finished);
  EXPECT_EQ(store->run(run)->referenceCandidate, referenceId) << "the resumed run keeps the user's reference";
  EXPECT_EQ(b.dispatcher.evaluator(0).referenceEvaluations.load(), 1) << "timed once, in the first session";
  int references = 0;
  for (const auto& s : store->candidateSummaries(run)) references += s.status == CandidateStatus::Reference;
  EXPECT_EQ(references, 1) << "no baseline was made beside it";
  EXPECT_EQ(b.observer.count<events::RunFailed>(), 0);
}

TEST(UserReference, AReferenceThatFailsValidationIsRefusedNeverUsed) {
  Bench b;
  const UserReferenceKernel wrong = userKernel("regs thread 1 512 1 0");  // computes wrong results
  const RunId run =
      b.engine.createRun(b.project.task(), "r", 3, Budget{24, 0, 0}, false, testing::smallSettings(), &wrong);
  b.engine.run(run);
  auto store = b.project.open();
  EXPECT_EQ(store->run(run)->status, RunStatus::Failed);
  const auto failed = b.observer.all<events::RunFailed>();
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_NE(failed[0].reason.find("reference kernel (the user's reference kernel 'my_gelu'"), std::string::npos)
      << failed[0].reason;
  EXPECT_NE(failed[0].reason.find("does not pass validation"), std::string::npos) << failed[0].reason;
  EXPECT_NE(failed[0].reason.find("cannot be this run's reference"), std::string::npos) << failed[0].reason;
  EXPECT_EQ(b.dispatcher.evaluator(0).evaluations.load(), 0) << "no candidate measured against it";
  EXPECT_FALSE(store->candidate(store->run(run)->referenceCandidate)->timing);
}

TEST(UserReference, ARunThatHasBegunKeepsItsReference) {
  TempProject project;
  auto store = project.open();
  const RunId run = testing::addTestRun(*store, project.task());
  crucible::Run r = *store->run(run);
  const Task task = *store->task(project.task());
  const Candidate baseline = engine_detail::establishReference(*store, r, task);
  EXPECT_THROW(recordUserReference(*store, run, userKernel()), UserReferenceError);
  EXPECT_EQ(store->run(run)->referenceCandidate, baseline.id);
  EXPECT_THROW(recordUserReference(*store, run + 100, userKernel()), UserReferenceError);
}

}  // namespace
}  // namespace crucible
