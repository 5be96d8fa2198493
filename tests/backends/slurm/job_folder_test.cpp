// SPDX-License-Identifier: GPL-3.0-or-later
// Job folders: the request and result files, the worker side, and the
// workers' --job mode on good and malformed folders (no cluster needed).
#include "backends/dispatch/slurm/job_folder.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "backends/cuda/sanitize/bounded_process.h"
#include "backends/dispatch/frame.h"

namespace crucible {
namespace {

namespace fs = std::filesystem;

class JobFolderTest : public ::testing::Test {
protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("crucible-job-folder-" + std::to_string(::getpid()) + "-" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  std::string dir(const std::string& name) const { return (root_ / name).string(); }
  fs::path root_;
};

struct Request {
  Task task;
  EvaluationRequest request;
  explicit Request(const std::string& behaviour) {
    task.name = behaviour;
    task.family = "test";
    task.specJson = "{}";
    request.task = &task;
    request.candidate.cubin = std::string("\x7f" "ELF\0\1", 6);
    request.candidate.launch.entry = "k";
    request.seeds = {5, 6};
  }
};

class EchoEvaluator : public Evaluator {
public:
  Fingerprint device() const override { return Fingerprint{"Echo GPU", "sm_90", "1", "13.0", "13.0", 0, 0, "here"}; }
  Evaluation evaluate(const EvaluationRequest& r) override {
    if (r.task->name == "throw") throw std::runtime_error("no such luck");
    Evaluation e;
    e.status = CandidateStatus::Valid;
    e.detail = "entry=" + r.candidate.launch.entry;
    for (auto s : r.seeds) e.trials.push_back(ValidationTrial{s, true, "", 0, 0, 0});
    if (r.task->name == "timed") {
      Timing t;
      t.samplesUs = {3.0};
      t.medianUs = 3.0;
      t.referenceMedianUs = 6.0;
      t.speedup = 2.0;
      e.timing = t;
    }
    return e;
  }
  ProfileResult profile(const Task&, const KernelBinary&) override { return {}; }
  std::vector<Ceiling> measureCeilings() override { return {Ceiling{"Echo GPU", "dram_bw", 1, 2, "B/s", 0}}; }
};

TEST_F(JobFolderTest, RequestAndResultRoundTrip) {
  Request r("ok");
  writeJobRequest(dir("0"), JobRequest{WorkerMessage::EvaluateRequest, encodeEvaluationRequest(r.request)});
  EXPECT_FALSE(readJobResult(dir("0")));  // none yet
  EchoEvaluator echo;
  std::ostringstream err;
  EXPECT_EQ(runJobFolder(dir("0"), echo, err), 0) << err.str();
  const auto result = readJobResult(dir("0"));
  ASSERT_TRUE(result);
  EXPECT_EQ(result->device.gpu, "Echo GPU");
  EXPECT_EQ(result->device.host, "here");
  ASSERT_EQ(result->type, WorkerMessage::EvaluateReply);
  const Evaluation e = decodeEvaluation(result->payload);
  EXPECT_EQ(e.status, CandidateStatus::Valid);
  EXPECT_EQ(e.detail, "entry=k");
  ASSERT_EQ(e.trials.size(), 2u);
  EXPECT_EQ(e.trials[1].seed, 6u);
  // Nothing but the request and the result: the temp file was renamed.
  std::size_t files = 0;
  for (const auto& f : fs::directory_iterator(dir("0"))) ++files, (void)f;
  EXPECT_EQ(files, 2u);
}

TEST_F(JobFolderTest, ATimedResultNamesTheNodesGpu) {
  Request r("timed");
  writeJobRequest(dir("0"), JobRequest{WorkerMessage::EvaluateRequest, encodeEvaluationRequest(r.request)});
  EchoEvaluator echo;
  std::ostringstream err;
  ASSERT_EQ(runJobFolder(dir("0"), echo, err), 0) << err.str();
  const Evaluation e = decodeEvaluation(readJobResult(dir("0"))->payload);
  ASSERT_TRUE(e.timing);
  EXPECT_EQ(e.timing->device.gpu, "Echo GPU");
  EXPECT_EQ(e.timing->device.host, "here");
  EXPECT_DOUBLE_EQ(e.timing->speedup, 2.0);
}

TEST_F(JobFolderTest, DeviceAndCeilingsRequests) {
  EchoEvaluator echo;
  std::ostringstream err;
  writeJobRequest(dir("d"), JobRequest{WorkerMessage::DeviceRequest, ""});
  ASSERT_EQ(runJobFolder(dir("d"), echo, err), 0);
  EXPECT_EQ(readJobResult(dir("d"))->type, WorkerMessage::DeviceReply);
  writeJobRequest(dir("c"), JobRequest{WorkerMessage::CeilingsRequest, ""});
  ASSERT_EQ(runJobFolder(dir("c"), echo, err), 0);
  const auto c = decodeCeilings(readJobResult(dir("c"))->payload);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].name, "dram_bw");
}

TEST_F(JobFolderTest, AnEvaluatorErrorIsAnErrorResult) {
  Request r("throw");
  writeJobRequest(dir("0"), JobRequest{WorkerMessage::EvaluateRequest, encodeEvaluationRequest(r.request)});
  EchoEvaluator echo;
  std::ostringstream err;
  ASSERT_EQ(runJobFolder(dir("0"), echo, err), 0);
  const auto result = readJobResult(dir("0"));
  ASSERT_TRUE(result);
  EXPECT_EQ(result->type, WorkerMessage::ErrorReply);
  EXPECT_EQ(result->error, "no such luck");
}

void writeRaw(const std::string& file, const std::string& data) {
  fs::create_directories(fs::path(file).parent_path());
  std::ofstream(file, std::ios::binary) << data;
}

TEST_F(JobFolderTest, MalformedJobsSayWhyAndLeaveNoResult) {
  EchoEvaluator echo;
  const std::string frame = encodeFrame(static_cast<std::uint32_t>(WorkerMessage::EvaluateRequest), "not cbor");
  const struct {
    const char* name;
    std::string request;   // empty name: no request file at all
    const char* expected;
  } cases[] = {
      {"missing", "", "does not exist"},
      {"truncated-header", "CRF", "truncated"},
      {"not-a-frame", std::string(32, 'x'), "not a worker frame"},
      {"truncated-payload", frame.substr(0, frame.size() - 2), "truncated"},
      {"bad-payload", frame, "does not decode"},
      {"a-reply", encodeFrame(static_cast<std::uint32_t>(WorkerMessage::EvaluateReply), ""), "not a request"},
      {"two-frames", encodeFrame(static_cast<std::uint32_t>(WorkerMessage::DeviceRequest), "") +
                         encodeFrame(static_cast<std::uint32_t>(WorkerMessage::DeviceRequest), ""),
       "exactly one"},
  };
  for (const auto& c : cases) {
    const std::string d = dir(c.name);
    fs::create_directories(d);
    if (!c.request.empty()) writeRaw(d + "/request", c.request);
    std::ostringstream err;
    EXPECT_EQ(runJobFolder(d, echo, err), 2) << c.name;
    EXPECT_NE(err.str().find("malformed job"), std::string::npos) << c.name << ": " << err.str();
    EXPECT_NE(err.str().find(c.expected), std::string::npos) << c.name << ": " << err.str();
    EXPECT_FALSE(fs::exists(d + "/result")) << c.name;
  }
}

TEST_F(JobFolderTest, MalformedResultsAreRefused) {
  writeRaw(dir("a") + "/result", "garbage");
  EXPECT_THROW(readJobResult(dir("a")), JobFolderError);
  writeRaw(dir("b") + "/result", encodeFrame(static_cast<std::uint32_t>(WorkerMessage::EvaluateReply), ""));
  EXPECT_THROW(readJobResult(dir("b")), JobFolderError);  // no device frame
  writeRaw(dir("c") + "/result",
           encodeFrame(static_cast<std::uint32_t>(WorkerMessage::DeviceReply), encodeFingerprint({})) +
               encodeFrame(static_cast<std::uint32_t>(WorkerMessage::EvaluateRequest), ""));
  EXPECT_THROW(readJobResult(dir("c")), JobFolderError);  // a request is no reply
}

BoundedProcessResult runWorker(const std::string& exe, const std::vector<std::string>& args) {
  BoundedProcessOptions o;
  o.argv.push_back(exe);
  o.argv.insert(o.argv.end(), args.begin(), args.end());
  o.environment["PATH"] = "/usr/bin:/bin";
  o.timeoutSeconds = 60;
  return runBounded(o);
}

TEST_F(JobFolderTest, FakeJobWorkerAnswersAFolder) {
  Request r("ok");
  writeJobRequest(dir("0"), JobRequest{WorkerMessage::EvaluateRequest, encodeEvaluationRequest(r.request)});
  const auto run = runWorker(CRUCIBLE_FAKE_JOB_WORKER, {"--job", dir("0")});
  ASSERT_EQ(run.exitCode, 0) << run.output;
  const auto result = readJobResult(dir("0"));
  ASSERT_TRUE(result);
  EXPECT_EQ(result->device.gpu, "Fake GPU");
  EXPECT_EQ(decodeEvaluation(result->payload).status, CandidateStatus::Valid);
}

#ifdef CRUCIBLE_WORKER
// The real crucible-worker checks the job before it opens a GPU: a malformed
// job fails at once with its reason on any machine.
TEST_F(JobFolderTest, CrucibleWorkerRefusesAMalformedJob) {
  fs::create_directories(dir("bad"));
  writeRaw(dir("bad") + "/request", "this is no frame at all");
  const auto run = runWorker(CRUCIBLE_WORKER, {"--job", dir("bad")});
  EXPECT_TRUE(run.started) << run.startError;
  EXPECT_EQ(run.exitCode, 2) << run.output;
  EXPECT_NE(run.output.find("malformed job"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("not a worker frame"), std::string::npos) << run.output;
  EXPECT_FALSE(fs::exists(dir("bad") + "/result"));

  const auto missing = runWorker(CRUCIBLE_WORKER, {"--job", dir("nowhere")});
  EXPECT_EQ(missing.exitCode, 2) << missing.output;
  EXPECT_NE(missing.output.find("does not exist"), std::string::npos) << missing.output;

  const auto noFolder = runWorker(CRUCIBLE_WORKER, {"--job"});
  EXPECT_EQ(noFolder.exitCode, 2) << noFolder.output;
  EXPECT_NE(noFolder.output.find("--job needs a folder"), std::string::npos) << noFolder.output;
}

// Without a GPU (this machine), a valid job gets a result that says why: the
// dispatcher then runs it elsewhere instead of losing it.
TEST_F(JobFolderTest, CrucibleWorkerWithoutAGpuAnswersWithTheReason) {
  Request r("ok");
  writeJobRequest(dir("0"), JobRequest{WorkerMessage::EvaluateRequest, encodeEvaluationRequest(r.request)});
  const auto run = runWorker(CRUCIBLE_WORKER, {"--job", dir("0")});
  ASSERT_EQ(run.exitCode, 0) << run.output;
  const auto result = readJobResult(dir("0"));
  ASSERT_TRUE(result);
  if (result->type != WorkerMessage::ErrorReply) GTEST_SKIP() << "this machine has a usable GPU";
  EXPECT_FALSE(result->error.empty());
}
#endif

}  // namespace
}  // namespace crucible
