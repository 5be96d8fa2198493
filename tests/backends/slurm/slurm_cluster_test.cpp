// SPDX-License-Identifier: GPL-3.0-or-later
// The Slurm dispatcher against a real cluster (ctest label `slurm`), with the
// CPU fake job worker standing in for crucible-worker. Run them with
//   packaging/slurm-tests.sh
// which starts a private one-node cluster (packaging/slurm-test-cluster.sh).
// Without a reachable cluster (SLURM_CONF unset, or sinfo fails) they skip.
#include "backends/dispatch/slurm/slurm_dispatcher.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <deque>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <set>
#include <thread>

#include "backends/cuda/sanitize/bounded_process.h"

namespace crucible {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

std::string clusterUnavailable() {
  if (!std::getenv("SLURM_CONF")) return "SLURM_CONF is not set: no test cluster (run packaging/slurm-tests.sh)";
  std::string why;
  if (!SlurmCommands("", 20).reachable(&why)) return "the Slurm cluster is not reachable: " + why;
  return "";
}

std::string nodeName() {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  std::string h = host;
  return h.substr(0, h.find('.'));
}

class SlurmClusterTest : public ::testing::Test {
protected:
  void SetUp() override {
    if (const std::string why = clusterUnavailable(); !why.empty()) GTEST_SKIP() << why;
    const char* shared = std::getenv("CRUCIBLE_SLURM_SHARED");
    root_ = fs::path(shared ? shared : fs::temp_directory_path().string()) /
            ("test-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(root_);
  }
  void TearDown() override {
    if (!root_.empty()) fs::remove_all(root_);
  }

  SlurmSettings settings(int jobs) const {
    SlurmSettings s;
    s.sharedDirectory = (root_ / "shared").string();
    s.workerExecutable = CRUCIBLE_FAKE_JOB_WORKER;
    s.concurrentJobs = jobs;
    s.timeLimit = "5";
    s.maxAttempts = 3;
    s.pollSeconds = 0.2;
    s.batchWindowSeconds = 0.5;
    s.resultGraceSeconds = 1;
    s.commandTimeoutSeconds = 30;
    return s;
  }
  std::string marker(const std::string& name) const { return (root_ / name).string(); }

  fs::path root_;
};

// The dispatcher's log on stderr: ctest shows it with a failure.
void printLog(const std::string& level, const std::string& text) {
  std::fprintf(stderr, "[%s] %s\n", level.c_str(), text.c_str());
}

struct Request {
  Task task;
  EvaluationRequest request;
  Request(const std::string& behaviour, const std::string& marker, std::uint64_t seed) {
    task.name = behaviour;
    task.family = "test";
    task.specJson = marker;
    request.task = &task;
    request.candidate.cubin = "cubin";
    request.candidate.launch.entry = "k";
    request.seeds = {seed};
  }
};

std::string slurmJobOf(const Evaluation& e) { return e.detail.substr(e.detail.find('=') + 1); }

// Evaluates one request per evaluator, all at once (as the engine drives them).
// A deque: each Request points into itself, so it must never move.
std::vector<Evaluation> evaluateAll(SlurmDispatcher& d, std::deque<Request>& requests) {
  auto evaluators = d.evaluators();
  std::vector<std::future<Evaluation>> futures;
  for (std::size_t i = 0; i < requests.size(); ++i)
    futures.push_back(std::async(std::launch::async, [&, i] {
      return evaluators[i % evaluators.size()]->evaluate(requests[i].request);
    }));
  std::vector<Evaluation> out;
  for (auto& f : futures) out.push_back(f.get());
  return out;
}

bool waitFor(const std::function<bool()>& condition, std::chrono::seconds limit) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    if (condition()) return true;
    std::this_thread::sleep_for(100ms);
  }
  return condition();
}

std::string firstLine(const std::string& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  return line;
}

// `scontrol update` of this node to "down" or "resume"; returns its output, empty when it worked.
std::string scontrolNode(const std::string& state) {
  const std::vector<std::string> args =
      state == "down" ? std::vector<std::string>{"update", "nodename=" + nodeName(), "state=down", "reason=test"}
                      : std::vector<std::string>{"update", "nodename=" + nodeName(), "state=resume"};
  BoundedProcessOptions o;
  o.argv.push_back(SlurmCommands("", 20).tool("scontrol"));
  o.argv.insert(o.argv.end(), args.begin(), args.end());
  o.environment["SLURM_CONF"] = std::getenv("SLURM_CONF");
  o.timeoutSeconds = 20;
  const auto r = runBounded(o);
  return r.exitCode == 0 ? "" : "scontrol state=" + state + " failed: " + r.output;
}

std::string nodeState() {
  BoundedProcessOptions o;
  o.argv = {SlurmCommands("", 20).tool("sinfo"), "--noheader", "--nodes=" + nodeName(), "--format=%T"};
  o.environment["SLURM_CONF"] = std::getenv("SLURM_CONF");
  o.timeoutSeconds = 20;
  std::string out = runBounded(o).output;
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out;
}

TEST_F(SlurmClusterTest, SeveralRequestsGoOutAsOneArrayAndEachGetsItsOwnResult) {
  SlurmDispatcher d(settings(4), printLog);
  ASSERT_EQ(d.evaluators().size(), 4u);
  std::deque<Request> requests;
  for (int i = 0; i < 4; ++i) requests.emplace_back("ok", "", 100 + i);
  const auto results = evaluateAll(d, requests);
  std::set<std::string> arrays;
  for (std::size_t i = 0; i < results.size(); ++i) {
    EXPECT_EQ(results[i].status, CandidateStatus::Valid) << results[i].detail;
    ASSERT_EQ(results[i].trials.size(), 1u);
    EXPECT_EQ(results[i].trials[0].seed, 100 + i);  // each caller got its own request's result
    // Each timing names the node's GPU that took it, as its worker reported it.
    ASSERT_TRUE(results[i].timing);
    EXPECT_EQ(results[i].timing->device.gpu, "Fake GPU");
    EXPECT_EQ(results[i].timing->device.host.rfind(nodeName(), 0), 0u) << results[i].timing->device.host;
    const std::string job = slurmJobOf(results[i]);
    arrays.insert(job.substr(0, job.find('_')));
  }
  EXPECT_EQ(arrays.size(), 1u) << "the four requests should have gone out as one job array";
  // Each result carries the fingerprint its worker reported.
  auto* first = dynamic_cast<SlurmEvaluator*>(d.evaluators()[0]);
  ASSERT_TRUE(first->lastResultDevice());
  EXPECT_EQ(first->lastResultDevice()->gpu, "Fake GPU");
  EXPECT_NE(first->lastResultDevice()->host.find("CUDA_VISIBLE_DEVICES="), std::string::npos);
  EXPECT_EQ(first->device().gpu, "Fake GPU");
  const LedgerCounts c = d.counts();
  EXPECT_EQ(c.submittedAttempts, 4u);
  EXPECT_EQ(c.resultsTaken, 4u);
  EXPECT_EQ(c.failedAttempts, 0u);
}

TEST_F(SlurmClusterTest, DeviceAndCeilingsGoThroughJobsToo) {
  SlurmDispatcher d(settings(1), printLog);
  Evaluator* e = d.evaluators()[0];
  EXPECT_EQ(e->device().gpu, "Fake GPU");  // a device-only job
  const auto ceilings = e->measureCeilings();
  ASSERT_EQ(ceilings.size(), 1u);
  EXPECT_EQ(ceilings[0].name, "dram_bw");
}

TEST_F(SlurmClusterTest, AJobKilledWithScancelIsRequeuedAndItsResultArrivesOnce) {
  SlurmDispatcher d(settings(1), printLog);
  Request r("hang-first", marker("hang"), 7);
  auto pending = std::async(std::launch::async, [&] { return d.evaluators()[0]->evaluate(r.request); });
  // The first run writes its job id, then hangs until cancelled.
  ASSERT_TRUE(waitFor([&] { return fs::exists(marker("hang")); }, 60s)) << "the job never ran";
  const std::string cancelled = firstLine(marker("hang"));
  ASSERT_FALSE(cancelled.empty());
  d.commands().scancel({cancelled});
  ASSERT_EQ(pending.wait_for(90s), std::future_status::ready) << "no result after the requeue";
  const Evaluation e = pending.get();
  EXPECT_EQ(e.status, CandidateStatus::Valid);
  EXPECT_NE(slurmJobOf(e), cancelled);  // the requeued attempt answered
  const LedgerCounts c = d.counts();
  EXPECT_EQ(c.submittedAttempts, 2u);
  EXPECT_EQ(c.failedAttempts, 1u);
  EXPECT_EQ(c.requeues, 1u);
  EXPECT_EQ(c.resultsTaken, 1u);
}

TEST_F(SlurmClusterTest, ANodeSetDownAndResumedIsSurvived) {
  SlurmDispatcher d(settings(3), printLog);
  std::deque<Request> requests;
  for (int i = 0; i < 3; ++i) requests.emplace_back("slow", marker("slow"), 200 + i);
  auto all = std::async(std::launch::async, [&] { return evaluateAll(d, requests); });
  ASSERT_TRUE(waitFor([&] { return fs::exists(marker("slow")); }, 60s)) << "no job ran";
  struct Resume {
    bool done = false;
    ~Resume() {
      if (!done) scontrolNode("resume");
    }
  } resume;  // whatever happens, the node comes back for the next test
  const std::size_t before = d.counts().resultsTaken;
  ASSERT_EQ(scontrolNode("down"), "");
  EXPECT_TRUE(waitFor([] { return nodeState().rfind("down", 0) == 0; }, 10s)) << "node state: " << nodeState();
  std::this_thread::sleep_for(2s);  // the requests wait (or are requeued) while no node can run them
  EXPECT_EQ(d.counts().resultsTaken, before);  // a killed job writes no result
  ASSERT_EQ(scontrolNode("resume"), "");
  resume.done = true;
  ASSERT_EQ(all.wait_for(120s), std::future_status::ready) << "not every request came back";
  const auto results = all.get();
  for (std::size_t i = 0; i < results.size(); ++i) {
    EXPECT_EQ(results[i].status, CandidateStatus::Valid);
    ASSERT_EQ(results[i].trials.size(), 1u);
    EXPECT_EQ(results[i].trials[0].seed, 200 + i);
  }
  const LedgerCounts c = d.counts();
  EXPECT_EQ(c.resultsTaken, 3u);
  EXPECT_EQ(c.givenUp, 0u);
  // The running job died with the node, and was run again.
  EXPECT_GE(c.failedAttempts, 1u);
  EXPECT_EQ(c.submittedAttempts, 3u + c.failedAttempts);
}

TEST_F(SlurmClusterTest, AJobThatFailsEveryTimeIsGivenUpWithEveryReason) {
  SlurmSettings s = settings(1);
  s.maxAttempts = 2;
  SlurmDispatcher d(s, printLog);
  Request r("exit", "", 1);
  try {
    d.evaluators()[0]->evaluate(r.request);
    FAIL() << "a job that never answers gave a result";
  } catch (const SlurmError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("after 2 failed attempt"), std::string::npos) << what;
    EXPECT_NE(what.find("attempt 1"), std::string::npos) << what;
    EXPECT_NE(what.find("attempt 2"), std::string::npos) << what;
    EXPECT_NE(what.find("exit code 3"), std::string::npos) << what;
    EXPECT_NE(what.find("exiting without a result as asked"), std::string::npos) << what;  // its log
  }
  EXPECT_EQ(d.counts().submittedAttempts, 2u);
  EXPECT_EQ(d.counts().resultsTaken, 0u);
}

TEST_F(SlurmClusterTest, AMalformedResultIsNotTakenAndSaysSo) {
  SlurmSettings s = settings(1);
  s.maxAttempts = 2;
  SlurmDispatcher d(s, printLog);
  Request r("garbage", "", 1);
  try {
    d.evaluators()[0]->evaluate(r.request);
    FAIL() << "a malformed result was taken";
  } catch (const SlurmError& e) {
    EXPECT_NE(std::string(e.what()).find("malformed result"), std::string::npos) << e.what();
  }
  EXPECT_EQ(d.counts().resultsTaken, 0u);
}

// A job whose folder is malformed fails on the node with the reason in its
// log, and leaves no result.
TEST_F(SlurmClusterTest, AMalformedJobFolderFailsOnTheNodeAndSaysWhy) {
  const fs::path job = root_ / "bad-job";
  fs::create_directories(job);
  std::ofstream(job / "request") << "no frame here";
  BoundedProcessOptions o;
  o.argv = {SlurmCommands("", 20).tool("sbatch"), "--wait", "--parsable", "--gres=gpu:1", "--time=2",
            "--output=" + (job / "log").string(), "--wrap",
            std::string(CRUCIBLE_FAKE_JOB_WORKER) + " --job " + job.string()};
  o.environment["SLURM_CONF"] = std::getenv("SLURM_CONF");
  o.timeoutSeconds = 90;
  const auto r = runBounded(o);
  EXPECT_NE(r.exitCode, 0) << r.output;  // sbatch --wait exits with the job's code
  std::ifstream in(job / "log");
  const std::string log((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(log.find("malformed job"), std::string::npos) << log;
  EXPECT_FALSE(fs::exists(job / "result"));
}

TEST_F(SlurmClusterTest, AnUnknownPartitionIsAClearError) {
  SlurmSettings s = settings(1);
  s.partition = "no-such-partition";
  s.maxAttempts = 1;
  SlurmDispatcher d(s, printLog);
  Request r("ok", "", 1);
  try {
    d.evaluators()[0]->evaluate(r.request);
    FAIL() << "sbatch accepted an unknown partition";
  } catch (const SlurmError& e) {
    EXPECT_NE(std::string(e.what()).find("could not be submitted"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("partition"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace crucible
