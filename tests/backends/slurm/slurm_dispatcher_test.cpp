// SPDX-License-Identifier: GPL-3.0-or-later
// The dispatcher's bookkeeping against stand-in Slurm tools (shell scripts
// whose queue the test writes), so lost, preempted and timed-out jobs and an
// unreachable controller are tested on any machine. The test plays the
// worker: it answers job folders itself. The real cluster: slurm_cluster_test.
#include "backends/dispatch/slurm/slurm_dispatcher.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <future>
#include <thread>

#include "backends/dispatch/frame.h"

namespace crucible {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

class EchoEvaluator : public Evaluator {
public:
  Fingerprint device() const override { return Fingerprint{"Echo GPU", "sm_90", "1", "13.0", "13.0", 0, 0, "node7"}; }
  Evaluation evaluate(const EvaluationRequest& r) override {
    Evaluation e;
    e.status = CandidateStatus::Valid;
    for (auto s : r.seeds) e.trials.push_back(ValidationTrial{s, true, "", 0, 0, 0});
    return e;
  }
  ProfileResult profile(const Task&, const KernelBinary&) override { return {}; }
  std::vector<Ceiling> measureCeilings() override { return {}; }
};

class FakeSlurmTest : public ::testing::Test {
protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("crucible-fake-slurm-" + std::to_string(::getpid()) + "-" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_ / "bin");
    const std::string s = (root_ / "state").string();
    fs::create_directories(s);
    tool("sbatch", "echo \"$@\" >> " + s + "/sbatch.log\n"
                   "n=$(cat " + s + "/next 2>/dev/null || echo 100)\n"
                   "echo $((n + 1)) > " + s + "/next\n"
                   "echo \"$n\"\n");
    tool("squeue", "cat " + s + "/queue 2>/dev/null\nexit $(cat " + s + "/squeue-rc 2>/dev/null || echo 0)\n");
    tool("scancel", "echo \"$@\" >> " + s + "/scancel.log\n");
    tool("scontrol", "exit 0\n");
    setQueue("");
  }
  void TearDown() override { fs::remove_all(root_); }

  void tool(const std::string& name, const std::string& body) {
    const fs::path p = root_ / "bin" / name;
    std::ofstream(p) << "#!/bin/sh\n" << body;
    ::chmod(p.c_str(), 0755);
  }
  void setQueue(const std::string& lines, int rc = 0) {
    std::ofstream(root_ / "state" / "queue.tmp") << lines;
    fs::rename(root_ / "state" / "queue.tmp", root_ / "state" / "queue");
    std::ofstream(root_ / "state" / "squeue-rc") << rc << "\n";
  }
  int submissions() const {
    std::ifstream in(root_ / "state" / "sbatch.log");
    int n = 0;
    for (std::string line; std::getline(in, line);) ++n;
    return n;
  }
  std::string sbatchLog() const {
    std::ifstream in(root_ / "state" / "sbatch.log");
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }
  bool waitForSubmissions(int n) const {
    for (int i = 0; i < 200 && submissions() < n; ++i) std::this_thread::sleep_for(25ms);
    return submissions() >= n;
  }
  SlurmSettings settings() const {
    SlurmSettings s;
    s.sharedDirectory = (root_ / "shared").string();
    s.workerExecutable = "/nonexistent/crucible-worker";
    s.slurmBinDirectory = (root_ / "bin").string();
    s.concurrentJobs = 1;
    s.pollSeconds = 0.05;
    s.batchWindowSeconds = 0;
    s.resultGraceSeconds = 0.2;
    s.commandTimeoutSeconds = 10;
    return s;
  }
  // Answers task 0 of batch `batch` as a worker would.
  void answer(const SlurmDispatcher& d, int batch) {
    const std::string folder = d.batchRoot() + "/batch-" + std::to_string(batch) + "/0";
    EchoEvaluator echo;
    std::ostringstream err;
    ASSERT_EQ(runJobFolder(folder, echo, err), 0) << err.str();
  }

  fs::path root_;
};

struct Request {
  Task task;
  EvaluationRequest request;
  Request() {
    task.name = "t";
    task.specJson = "{}";
    request.task = &task;
    request.seeds = {42};
  }
};

TEST_F(FakeSlurmTest, TheArrayAsksForWhatTheSettingsSay) {
  SlurmSettings s = settings();
  s.partition = "gpu";
  s.account = "lab";
  s.gpuType = "h200";
  s.timeLimit = "00:10:00";
  s.extraSbatchOptions = {"--qos=high"};
  SlurmDispatcher d(s);
  Request r;
  auto result = std::async(std::launch::async, [&] { return d.evaluators()[0]->evaluate(r.request); });
  ASSERT_TRUE(waitForSubmissions(1));
  setQueue("100|0|RUNNING|None\n");
  std::ifstream script(d.batchRoot() + "/batch-1/job.sh");
  const std::string text((std::istreambuf_iterator<char>(script)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("exec '/nonexistent/crucible-worker' --job '" + d.batchRoot() + "/batch-1'/\"$SLURM_ARRAY_TASK_ID\""),
            std::string::npos)
      << text;
  answer(d, 1);
  ASSERT_EQ(result.wait_for(10s), std::future_status::ready);
  EXPECT_EQ(result.get().trials.at(0).seed, 42u);
  EXPECT_FALSE(fs::exists(d.batchRoot() + "/batch-1"));  // its result taken, the folder is spent
  const std::string log = sbatchLog();
  for (const char* arg : {"--array=0-0", "--gres=gpu:h200:1", "--partition=gpu", "--account=lab", "--time=00:10:00",
                          "--qos=high", "--no-requeue", "/batch-1/job.sh"})
    EXPECT_NE(log.find(arg), std::string::npos) << arg << " not in: " << log;
  EXPECT_EQ(d.lastDevice()->host, "node7");  // the fingerprint the worker reported
}

TEST_F(FakeSlurmTest, ATimingNamesTheNodeThatRanItsJobNotTheOneBefore) {
  SlurmDispatcher d(settings());
  Request r;
  Evaluator* e = d.evaluators()[0];
  auto first = std::async(std::launch::async, [&] { return e->evaluate(r.request); });
  ASSERT_TRUE(waitForSubmissions(1));
  setQueue("100|0|RUNNING|None\n");
  answer(d, 1);  // node7
  ASSERT_EQ(first.wait_for(10s), std::future_status::ready);
  ASSERT_EQ(first.get().status, CandidateStatus::Valid);
  EXPECT_EQ(e->device().host, "node7");

  // The next job lands on another node, whose worker left its timing's device unrecorded.
  auto second = std::async(std::launch::async, [&] { return e->evaluate(r.request); });
  ASSERT_TRUE(waitForSubmissions(2));
  setQueue("101|0|RUNNING|None\n");
  Evaluation timed;
  timed.status = CandidateStatus::Valid;
  timed.trials = {ValidationTrial{42, true, "", 0, 0, 0}};
  Timing t;
  t.samplesUs = {3.0};
  t.medianUs = 3.0;
  t.referenceMedianUs = 6.0;
  t.speedup = 2.0;
  timed.timing = t;
  const Fingerprint node9{"Other GPU", "sm_80", "2", "13.0", "13.0", 0, 0, "node9"};
  {
    const std::string folder = d.batchRoot() + "/batch-2/0";
    std::ofstream(folder + "/result.tmp", std::ios::binary)
        << encodeFrame(static_cast<std::uint32_t>(WorkerMessage::DeviceReply), encodeFingerprint(node9))
        << encodeFrame(static_cast<std::uint32_t>(WorkerMessage::EvaluateReply), encodeEvaluation(timed));
    fs::rename(folder + "/result.tmp", folder + "/" + kJobResultFile);
  }
  ASSERT_EQ(second.wait_for(10s), std::future_status::ready);
  const Evaluation back = second.get();
  ASSERT_TRUE(back.timing);
  EXPECT_EQ(back.timing->device.host, "node9");
  EXPECT_EQ(back.timing->device.gpu, "Other GPU");
  EXPECT_EQ(e->device().host, "node9");
}

TEST_F(FakeSlurmTest, LostPreemptedAndTimedOutJobsAreRequeued) {
  SlurmDispatcher d(settings());
  Request r;
  auto result = std::async(std::launch::async, [&] { return d.evaluators()[0]->evaluate(r.request); });
  ASSERT_TRUE(waitForSubmissions(1));
  setQueue("");                               // job 100 vanished: lost
  ASSERT_TRUE(waitForSubmissions(2));
  setQueue("101|0|PREEMPTED|None\n");
  ASSERT_TRUE(waitForSubmissions(3));
  setQueue("102|0|RUNNING|None\n");
  std::this_thread::sleep_for(300ms);          // running longer than the grace: nothing happens
  EXPECT_EQ(submissions(), 3);
  answer(d, 3);
  ASSERT_EQ(result.wait_for(10s), std::future_status::ready);
  EXPECT_EQ(result.get().status, CandidateStatus::Valid);
  const LedgerCounts c = d.counts();
  EXPECT_EQ(c.failedAttempts, 2u);
  EXPECT_EQ(c.resultsTaken, 1u);
}

TEST_F(FakeSlurmTest, GivenUpAfterMaxAttemptsWithEveryReason) {
  SlurmDispatcher d(settings());
  Request r;
  auto result = std::async(std::launch::async, [&] { return d.evaluators()[0]->evaluate(r.request); });
  ASSERT_TRUE(waitForSubmissions(1));
  setQueue("100|0|TIMEOUT|TimeLimit\n");
  ASSERT_TRUE(waitForSubmissions(2));
  setQueue("101|0|NODE_FAIL|None\n");
  ASSERT_TRUE(waitForSubmissions(3));
  setQueue("");
  ASSERT_EQ(result.wait_for(10s), std::future_status::ready);
  try {
    result.get();
    FAIL() << "no error";
  } catch (const SlurmError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("after 3 failed attempt"), std::string::npos) << what;
    EXPECT_NE(what.find("attempt 1 (job 100_0): job 100_0: the job ran past its time limit"), std::string::npos) << what;
    EXPECT_NE(what.find("the job's node failed"), std::string::npos) << what;
    EXPECT_NE(what.find("vanished from the queue"), std::string::npos) << what;
  }
  EXPECT_EQ(submissions(), 3);  // bounded
}

TEST_F(FakeSlurmTest, AnUnreachableQueueDecidesNothing) {
  SlurmDispatcher d(settings());
  Request r;
  auto result = std::async(std::launch::async, [&] { return d.evaluators()[0]->evaluate(r.request); });
  ASSERT_TRUE(waitForSubmissions(1));
  setQueue("squeue: error: Unable to contact slurm controller\n", 1);
  std::this_thread::sleep_for(500ms);  // well past the grace
  EXPECT_EQ(submissions(), 1);
  EXPECT_EQ(d.counts().failedAttempts, 0u);
  setQueue("100|0|COMPLETING|None\n");
  answer(d, 1);
  ASSERT_EQ(result.wait_for(10s), std::future_status::ready);
  EXPECT_EQ(result.get().status, CandidateStatus::Valid);
  EXPECT_EQ(d.counts().failedAttempts, 0u);
}

TEST_F(FakeSlurmTest, AResultThatLandsAfterTheJobEndedStillCounts) {
  SlurmSettings s = settings();
  s.resultGraceSeconds = 1;
  SlurmDispatcher d(s);
  Request r;
  auto result = std::async(std::launch::async, [&] { return d.evaluators()[0]->evaluate(r.request); });
  ASSERT_TRUE(waitForSubmissions(1));
  setQueue("100|0|COMPLETED|None\n");   // ended, but the shared filesystem is slow to show the result
  std::this_thread::sleep_for(400ms);
  answer(d, 1);
  ASSERT_EQ(result.wait_for(10s), std::future_status::ready);
  EXPECT_EQ(result.get().status, CandidateStatus::Valid);
  EXPECT_EQ(submissions(), 1);
  EXPECT_EQ(d.counts().failedAttempts, 0u);
}

TEST_F(FakeSlurmTest, ShuttingDownCancelsTheJobsStillQueued) {
  auto d = std::make_unique<SlurmDispatcher>(settings());
  Request r;
  auto result = std::async(std::launch::async, [&] { return d->evaluators()[0]->evaluate(r.request); });
  ASSERT_TRUE(waitForSubmissions(1));
  setQueue("100|0|PENDING|Resources\n");
  std::this_thread::sleep_for(100ms);
  const std::string root = d->batchRoot();
  // The caller is still waiting: it is told, then the dispatcher goes.
  std::thread destroy([&] { d.reset(); });
  ASSERT_EQ(result.wait_for(10s), std::future_status::ready);
  EXPECT_THROW(result.get(), SlurmError);
  destroy.join();
  std::ifstream in(root_ / "state" / "scancel.log");
  std::string cancelled;
  std::getline(in, cancelled);
  EXPECT_EQ(cancelled, "100");
  EXPECT_FALSE(fs::exists(root));  // job folders removed
}

TEST_F(FakeSlurmTest, MissingToolsAreAClearError) {
  SlurmSettings s = settings();
  s.slurmBinDirectory = (root_ / "nowhere").string();
  s.maxAttempts = 1;
  SlurmDispatcher d(s);
  Request r;
  try {
    d.evaluators()[0]->evaluate(r.request);
    FAIL() << "no error";
  } catch (const SlurmError& e) {
    EXPECT_NE(std::string(e.what()).find("sbatch is not in"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace crucible
