// SPDX-License-Identifier: GPL-3.0-or-later
// WorkerEvaluator / WorkerProcess against the fake worker executable
// (fake_worker.cpp), whose behaviour each request picks by its task name.
#include "backends/dispatch/worker_evaluator.h"

#include <gtest/gtest.h>
#include <signal.h>

#include <cerrno>
#include <thread>

namespace crucible {
namespace {

using namespace std::chrono_literals;

WorkerProcessOptions fakeWorker() {
  WorkerProcessOptions o;
  o.executable = CRUCIBLE_FAKE_WORKER;
  o.environment["CUDA_VISIBLE_DEVICES"] = "5";
  o.startTimeout = 10s;
  return o;
}

WorkerEvaluatorOptions shortDeadlines() {
  WorkerEvaluatorOptions o;
  o.evaluateTimeout = 300ms;  // the fake answers at once unless told to hang
  o.profileTimeout = 300ms;
  o.ceilingsTimeout = 300ms;
  return o;
}

struct Request {
  Task task;
  EvaluationRequest request;
  explicit Request(const std::string& behaviour) {
    task.name = behaviour;
    task.family = "test";
    task.specJson = R"({"spec":"fake"})";
    request.task = &task;
    request.candidate.cubin = std::string("\x7f" "ELF\0\1\2", 7);
    request.candidate.launch.entry = "kernel_under_test";
    request.reference.cubin = std::string(100, '\0');
    request.seeds = {11, 22, 33};
  }
};

void expectHealthy(WorkerEvaluator& w) {
  Request ok("ok");
  const Evaluation e = w.evaluate(ok.request);
  EXPECT_EQ(e.status, CandidateStatus::Valid) << e.detail;
}

TEST(WorkerEvaluator, NormalRequestGetsItsReply) {
  WorkerEvaluator w(fakeWorker(), shortDeadlines());
  Request ok("ok");
  const Evaluation e = w.evaluate(ok.request);
  EXPECT_EQ(e.status, CandidateStatus::Valid);
  // The worker saw the whole request: both cubins, the entry, the task's spec, the seeds.
  EXPECT_EQ(e.detail, R"(cubin=7 reference=100 entry=kernel_under_test spec={"spec":"fake"})");
  ASSERT_EQ(e.trials.size(), 3u);
  EXPECT_EQ(e.trials[2].seed, 33u);
  ASSERT_TRUE(e.timing);
  EXPECT_EQ(e.timing->samplesUs.size(), 3u);
  EXPECT_EQ(e.gpuSeconds, 0.5);
  EXPECT_EQ(w.workerStarts(), 1);
}

TEST(WorkerEvaluator, DeviceComesFromTheWorkersHelloInItsEnvironment) {
  WorkerEvaluator w(fakeWorker(), shortDeadlines());
  const Fingerprint f = w.device();
  EXPECT_EQ(f.gpu, "Fake GPU");
  EXPECT_EQ(f.host, "visible=5");  // CUDA_VISIBLE_DEVICES reached the worker
}

TEST(WorkerEvaluator, AbortIsFaultedWithTheSignalAndTheNextRequestSucceeds) {
  WorkerEvaluator w(fakeWorker(), shortDeadlines());
  expectHealthy(w);
  Request abort("abort");
  const Evaluation e = w.evaluate(abort.request);
  EXPECT_EQ(e.status, CandidateStatus::Faulted);
  EXPECT_NE(e.detail.find("worker died: SIGABRT"), std::string::npos) << e.detail;
  EXPECT_NE(e.detail.find("aborting as asked"), std::string::npos) << "stderr tail missing: " << e.detail;
  EXPECT_TRUE(e.trials.empty());
  expectHealthy(w);  // restarted lazily
  EXPECT_EQ(w.workerStarts(), 2);
}

TEST(WorkerEvaluator, SegfaultAndExitAreDescribed) {
  WorkerEvaluator w(fakeWorker(), shortDeadlines());
  Request segv("segv");
  const Evaluation a = w.evaluate(segv.request);
  EXPECT_EQ(a.status, CandidateStatus::Faulted);
  EXPECT_NE(a.detail.find("worker died: SIGSEGV"), std::string::npos) << a.detail;
  Request exit("exit");
  const Evaluation b = w.evaluate(exit.request);
  EXPECT_EQ(b.status, CandidateStatus::Faulted);
  EXPECT_NE(b.detail.find("worker exited with code 3"), std::string::npos) << b.detail;
  expectHealthy(w);
  EXPECT_EQ(w.workerStarts(), 3);
}

TEST(WorkerEvaluator, HangIsKilledAtItsDeadlineAndTheNextRequestSucceeds) {
  WorkerEvaluator w(fakeWorker(), shortDeadlines());
  expectHealthy(w);
  Request hang("hang");
  const auto start = std::chrono::steady_clock::now();
  const Evaluation e = w.evaluate(hang.request);
  const auto took = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(e.status, CandidateStatus::TimedOut);
  EXPECT_NE(e.detail.find("no reply within 300 ms"), std::string::npos) << e.detail;
  EXPECT_GE(took, 300ms);
  EXPECT_LT(took, 3s);
  expectHealthy(w);
  EXPECT_EQ(w.workerStarts(), 2);
}

TEST(WorkerEvaluator, AFaultedReplyRecyclesTheWorkerSoTheNextCandidateIsNotBlamed) {
  WorkerEvaluator w(fakeWorker(), shortDeadlines());
  for (int i = 0; i < 5; ++i) {
    Request faulted("faulted-then-exit");
    EXPECT_EQ(w.evaluate(faulted.request).status, CandidateStatus::Faulted);
    expectHealthy(w);  // straight after: must not land in the exiting worker
  }
  // The first worker, then one fresh worker after each fault (which the next fault then uses).
  EXPECT_EQ(w.workerStarts(), 6);
}

TEST(WorkerEvaluator, AWorkerThatExitedBetweenCallsIsReplacedNotBlamed) {
  WorkerEvaluator w(fakeWorker(), shortDeadlines());
  Request leaving("ok-then-exit");
  EXPECT_EQ(w.evaluate(leaving.request).status, CandidateStatus::Valid);
  std::this_thread::sleep_for(100ms);  // it is gone by now
  expectHealthy(w);
  EXPECT_EQ(w.workerStarts(), 2);
}

TEST(WorkerEvaluator, AnEvaluatorExceptionIsFaultedAndTheWorkerLivesOn) {
  WorkerEvaluator w(fakeWorker(), shortDeadlines());
  Request bad("throw");
  const Evaluation e = w.evaluate(bad.request);
  EXPECT_EQ(e.status, CandidateStatus::Faulted);
  EXPECT_EQ(e.detail, "the worker could not evaluate: the fake evaluator refuses");
  expectHealthy(w);
  EXPECT_EQ(w.workerStarts(), 1);
}

TEST(WorkerEvaluator, StrayStdoutInTheWorkerDoesNotCorruptTheChannel) {
  WorkerEvaluator w(fakeWorker(), shortDeadlines());
  Request print("print");
  EXPECT_EQ(w.evaluate(print.request).status, CandidateStatus::Valid);
  expectHealthy(w);
  EXPECT_EQ(w.workerStarts(), 1);
}

TEST(WorkerEvaluator, LargeCubinsCrossTheChannel) {
  Request big("ok");
  big.request.candidate.cubin.assign(16u << 20, '\x5a');
  WorkerEvaluator patient(fakeWorker(), WorkerEvaluatorOptions{10s, 10s, 10s, 10s});
  const Evaluation e = patient.evaluate(big.request);
  EXPECT_EQ(e.status, CandidateStatus::Valid) << e.detail;
  EXPECT_EQ(e.detail.substr(0, 15), "cubin=16777216 ");
}

TEST(WorkerEvaluator, ProfileAndCeilingsGoThroughTheWorker) {
  WorkerEvaluator w(fakeWorker(), shortDeadlines());
  Request ok("ok");
  const ProfileResult p = w.profile(ok.task, ok.request.candidate);
  EXPECT_TRUE(p.permitted);
  EXPECT_EQ(p.metrics.at("cubin_bytes"), 7.0);
  const auto ceilings = w.measureCeilings();
  ASSERT_EQ(ceilings.size(), 1u);
  EXPECT_EQ(ceilings[0].name, "dram_bw");

  Request abort("abort");
  const ProfileResult crashed = w.profile(abort.task, abort.request.candidate);
  EXPECT_TRUE(crashed.metrics.empty());
  EXPECT_NE(crashed.detail.find("SIGABRT"), std::string::npos) << crashed.detail;
  EXPECT_EQ(w.measureCeilings().size(), 1u);  // restarted
}

TEST(WorkerEvaluator, MissingExecutableIsAClearError) {
  WorkerProcessOptions o = fakeWorker();
  o.executable = "/nonexistent/crucible-worker";
  WorkerEvaluator w(o, shortDeadlines());
  Request ok("ok");
  try {
    w.evaluate(ok.request);
    FAIL() << "a worker that cannot start must throw";
  } catch (const WorkerError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/crucible-worker"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("No such file"), std::string::npos) << e.what();
  }
}

TEST(WorkerEvaluator, WorkerThatFailsBeforeItsHelloIsAClearError) {
  WorkerProcessOptions o = fakeWorker();
  o.environment["FAKE_WORKER_FAIL_AT_START"] = "1";
  WorkerEvaluator w(o, shortDeadlines());
  try {
    w.device();
    FAIL() << "a worker that exits at start must throw";
  } catch (const WorkerError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("ended before its hello"), std::string::npos) << what;
    EXPECT_NE(what.find("exited with code 1"), std::string::npos) << what;
    EXPECT_NE(what.find("no device for you"), std::string::npos) << what;
  }
}

TEST(WorkerProcess, StopReapsTheWorker) {
  WorkerProcess p(fakeWorker());
  const Hello& hello = p.start();
  const pid_t pid = p.pid();
  EXPECT_EQ(hello.pid, pid);
  ASSERT_GT(pid, 0);
  p.stop();
  EXPECT_FALSE(p.running());
  errno = 0;
  EXPECT_EQ(::kill(pid, 0), -1);  // gone and reaped: no zombie left behind
  EXPECT_EQ(errno, ESRCH);
}

TEST(WorkerProcess, DescribesWaitStatuses) {
  EXPECT_EQ(signalName(SIGABRT), "SIGABRT");
  EXPECT_EQ(signalName(SIGSEGV), "SIGSEGV");
  EXPECT_EQ(signalName(63), "signal 63");
}

}  // namespace
}  // namespace crucible
