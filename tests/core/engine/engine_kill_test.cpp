// SPDX-License-Identifier: GPL-3.0-or-later
// Resume after SIGKILL: a child process runs the engine with doubles whose
// evaluator records every evaluation's begin and end to a file and hangs on
// the (N+1)-th; the parent kills it there, resumes the run, and checks from
// the record that no candidate was evaluated twice and that the one in
// flight was evaluated on resume.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <chrono>
#include <fstream>
#include <map>
#include <thread>
#include "core/engine/engine.h"
#include "tests/core/engine/doubles/fake_backends.h"
#include "tests/core/engine/doubles/fake_proposer.h"
#include "tests/core/engine/engine_fixture.h"

namespace crucible {
namespace {

using testing::FakeCompiler;
using testing::FakeDispatcher;
using testing::FakeProposer;
using testing::TempProject;

struct Trace {
  std::map<std::string, int> begins, ends;
  std::vector<std::string> order;   // "begin x" / "end x" in file order
};

Trace readTrace(const std::string& path) {
  Trace t;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("begin ", 0) == 0) ++t.begins[line.substr(6)];
    if (line.rfind("end ", 0) == 0) ++t.ends[line.substr(4)];
    t.order.push_back(line);
  }
  return t;
}

int total(const std::map<std::string, int>& m) {
  int n = 0;
  for (const auto& [k, v] : m) n += v;
  return n;
}

class KillTest : public ::testing::TestWithParam<int> {};

TEST_P(KillTest, ResumeAfterSigkillEvaluatesNothingTwice) {
  const int hangAfter = GetParam();
  const int budget = 24;
  TempProject project;
  const std::string record = (project.dir() / "evaluations.log").string();
  RunSettings settings = testing::smallSettings();
  settings.tuningShare = 0.3;
  RunId run;
  {
    FakeProposer proposer;
    FakeCompiler compiler;
    FakeDispatcher dispatcher(1);
    Engine engine(project.path(), proposer, compiler, dispatcher);
    run = engine.createRun(project.task(), "killed", 21, Budget{budget, 0, 0}, false, settings);
  }

  pid_t child = ::fork();
  ASSERT_GE(child, 0) << "fork failed";
  if (child == 0) {
    // The child: run the engine until the evaluator hangs. Never returns to gtest.
    FakeProposer proposer;
    FakeCompiler compiler;
    FakeDispatcher dispatcher(1);
    dispatcher.evaluator(0).recordPath = record;
    dispatcher.evaluator(0).hangAfter = hangAfter;
    Engine engine(project.path(), proposer, compiler, dispatcher);
    try {
      engine.run(run);
    } catch (...) {
    }
    ::_exit(3);   // reaching here means the evaluator did not hang
  }

  // Wait for the hang: hangAfter finished evaluations and one more begun.
  bool hung = false;
  for (int i = 0; i < 2000 && !hung; ++i) {
    Trace t = readTrace(record);
    hung = total(t.ends) == hangAfter && total(t.begins) == hangAfter + 1;
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, WNOHANG), 0) << "the child ended early, status " << status;
    if (!hung) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_TRUE(hung) << "the child never reached evaluation " << hangAfter + 1;
  // Let it sit mid-evaluation with every finished evaluation committed: the
  // commit follows the evaluation's end on the run loop's thread, which a
  // loaded machine (or ThreadSanitizer) can delay well past a fixed pause.
  for (int i = 0; i < 2000 && project.open()->run(run)->evaluationsDone < hangAfter; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_EQ(::kill(child, SIGKILL), 0);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

  Trace beforeResume = readTrace(record);
  std::string inFlight;
  for (const auto& [id, n] : beforeResume.begins)
    if (!beforeResume.ends.count(id)) inFlight = id;
  ASSERT_FALSE(inFlight.empty());

  {
    auto store = project.open();
    EXPECT_EQ(store->run(run)->status, RunStatus::Running) << "the store still says the run was interrupted";
    EXPECT_EQ(store->run(run)->evaluationsDone, hangAfter);
  }

  // Resume in this process.
  FakeProposer proposer;
  FakeCompiler compiler;
  FakeDispatcher dispatcher(1);
  dispatcher.evaluator(0).recordPath = record;
  Engine engine(project.path(), proposer, compiler, dispatcher);
  engine.run(run);

  Trace after = readTrace(record);
  for (const auto& [id, n] : after.ends) EXPECT_EQ(n, 1) << "evaluated " << n << " times: " << id;
  EXPECT_EQ(after.ends.count(inFlight), 1u) << "the candidate in flight was evaluated on resume";
  for (const auto& [id, n] : beforeResume.ends)
    EXPECT_EQ(after.begins.at(id), 1) << "a finished candidate was started again: " << id;

  auto store = project.open();
  auto r = store->run(run);
  EXPECT_EQ(r->status, RunStatus::Finished);
  EXPECT_EQ(r->evaluationsDone, budget);
  int compileFailures = 0, finals = 0;
  for (const auto& s : store->candidateSummaries(run)) {
    if (s.status == CandidateStatus::Reference) continue;
    EXPECT_NE(s.status, CandidateStatus::Proposed) << "candidate " << s.id;
    ++finals;
    compileFailures += s.status == CandidateStatus::CompileFailed;
  }
  EXPECT_EQ(finals, budget);
  EXPECT_EQ(total(after.ends), budget - compileFailures) << "every evaluated candidate appears exactly once";
  int references = 0;
  for (const auto& s : store->candidateSummaries(run)) references += s.status == CandidateStatus::Reference;
  EXPECT_EQ(references, 1) << "the resumed run kept its reference";
}

INSTANTIATE_TEST_SUITE_P(Engine, KillTest, ::testing::Values(0, 5, 13));

}  // namespace
}  // namespace crucible
