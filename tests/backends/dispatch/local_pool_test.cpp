// SPDX-License-Identifier: GPL-3.0-or-later
// The local GPU pool driven by the engine's own pipeline, with the fake
// worker standing in for crucible-worker on each "GPU": one worker per
// visible GPU of one model, evaluations spread over them, each result naming
// the GPU that timed it, and no speedup taken across hardware.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <optional>
#include <set>

#include "backends/dispatch/local_gpu_dispatcher.h"
#include "tests/backends/dispatch/scoped_env.h"
#include "core/engine/batch_pipeline.h"

namespace crucible {
namespace {

using engine_detail::BatchPipeline;
using engine_detail::PipelineConfig;
using engine_detail::PipelineItem;
using engine_detail::PipelineResult;

using testing_support::ScopedEnv;

class EchoCompiler : public Compiler {
public:
  CompileResult compile(const CompileRequest& request) override {
    CompileResult r;
    r.report.ok = true;
    r.report.arch = request.arch;
    r.cubin = "cubin of " + request.entry;
    return r;
  }
};

GpuProbe fakeGpus(const std::vector<GpuInfo>& gpus) {
  GpuProbe probe;
  probe.driverFound = true;
  probe.driverVersion = "13.0";
  probe.gpus = gpus;
  probe.message = std::to_string(gpus.size()) + " GPU(s), CUDA driver 13.0";
  return probe;
}

LocalGpuDispatcherOptions fakeWorkers() {
  LocalGpuDispatcherOptions o;
  o.workerExecutable = CRUCIBLE_FAKE_WORKER;
  return o;
}

// The fake worker's device (fake_worker.cpp): its model, without the host.
Fingerprint fakeModel() {
  Fingerprint f;
  f.gpu = "Fake GPU";
  f.arch = "sm_90";
  return f;
}

// Runs `count` candidates of the fake task `behaviour` through the engine's
// pipeline on the dispatcher's evaluators; the fake worker times each at a
// median of 2 us, with no interleaved reference.
std::vector<PipelineResult> runPipeline(Dispatcher& d, int count, const std::string& behaviour,
                                        double referenceMedianUs, const Fingerprint& referenceDevice) {
  Task task;
  task.name = behaviour;
  task.family = "test";
  task.specJson = "{}";
  EchoCompiler compiler;
  PipelineConfig config;
  config.compiler = &compiler;
  config.evaluators = d.evaluators();
  config.compileThreads = 2;
  config.compileArch = "sm_90";
  config.task = &task;
  config.reference = KernelBinary{"reference cubin", {}};
  config.referenceMedianUs = referenceMedianUs;
  config.referenceDevice = referenceDevice;
  config.sealMargin = 0.05;
  std::vector<PipelineItem> items;
  for (int i = 0; i < count; ++i) {
    PipelineItem item;
    item.candidate.id = 100 + i;
    item.candidate.launch.entry = "k" + std::to_string(i);
    item.seeds = {static_cast<std::uint64_t>(i)};
    item.profileAbove = 1e9;        // no profiling: this is about evaluations
    item.bestSealedSpeedup = 1e9;   // and no seal's extended validation
    items.push_back(std::move(item));
  }
  BatchPipeline pipeline(std::move(config), std::move(items));
  std::vector<PipelineResult> results;
  for (int i = 0; i < count; ++i) results.push_back(pipeline.waitFor(static_cast<std::size_t>(i), {}));
  return results;
}

TEST(LocalPool, EvaluationsSpreadOverOneWorkerPerGpuAndEachResultNamesItsGpu) {
  ScopedEnv env("CUDA_VISIBLE_DEVICES", nullptr);
  LocalGpuDispatcher d(fakeGpus({{0, "Fake GPU", 9, 0}, {1, "Fake GPU", 9, 0}}), fakeWorkers());
  ASSERT_EQ(d.evaluators().size(), 2u);
  const auto results = runPipeline(d, 8, "slow", 4.0, fakeModel());
  std::map<std::string, int> perGpu;
  for (const PipelineResult& r : results) {
    ASSERT_EQ(r.state, PipelineResult::State::Done) << r.failure;
    ASSERT_TRUE(r.evaluation && r.evaluation->timing);
    EXPECT_EQ(r.evaluation->status, CandidateStatus::Valid) << r.evaluation->detail;
    // The worker recorded the GPU it timed on; the pipeline keeps it as the result's device.
    const Fingerprint& timed = r.evaluation->timing->device;
    EXPECT_EQ(timed.gpu, "Fake GPU");
    EXPECT_EQ(r.device.host, timed.host);
    ++perGpu[timed.host];
    // Same model and driver as the run's reference: its 4 us over the candidate's 2 us.
    EXPECT_DOUBLE_EQ(r.fitness, 2.0);
    EXPECT_TRUE(r.speedupRefusal.empty()) << r.speedupRefusal;
  }
  EXPECT_EQ(perGpu.size(), 2u) << "both GPUs' workers should have evaluated";
  EXPECT_GE(perGpu["visible=0"], 2);
  EXPECT_GE(perGpu["visible=1"], 2);
}

TEST(LocalPool, WorkersSeeTheGpusOfTheEnginesOwnVisibleDevices) {
  ScopedEnv env("CUDA_VISIBLE_DEVICES", "GPU-5a1e,7");
  // This process sees two GPUs, its ordinals 0 and 1: the machine's GPU-5a1e and 7.
  LocalGpuDispatcher d(fakeGpus({{0, "Fake GPU", 9, 0}, {1, "Fake GPU", 9, 0}}), fakeWorkers());
  EXPECT_EQ(d.workerDevices(), (std::vector<std::string>{"GPU-5a1e", "7"}));
  std::set<std::string> hosts;
  for (const PipelineResult& r : runPipeline(d, 4, "slow", 4.0, fakeModel())) {
    ASSERT_TRUE(r.evaluation && r.evaluation->timing) << r.failure;
    hosts.insert(r.evaluation->timing->device.host);
  }
  EXPECT_EQ(hosts, (std::set<std::string>{"visible=GPU-5a1e", "visible=7"}));
}

TEST(LocalPool, OnlyGpusOfTheFirstVisibleGpusModelJoinThePool) {
  ScopedEnv env("CUDA_VISIBLE_DEVICES", nullptr);
  LocalGpuDispatcher d(
      fakeGpus({{0, "Fake GPU", 9, 0}, {1, "Older GPU", 8, 0}, {2, "Fake GPU", 9, 0}, {3, "Fake GPU", 8, 0}}),
      fakeWorkers());
  EXPECT_EQ(d.evaluators().size(), 2u);
  EXPECT_EQ(d.workerDevices(), (std::vector<std::string>{"0", "2"}));
  EXPECT_NE(d.status().find("2 GPU worker(s)"), std::string::npos) << d.status();
  EXPECT_NE(d.status().find("Left out, as not a Fake GPU (sm_90): GPU 1 (Older GPU, sm_80), GPU 3 (Fake GPU, sm_80)"),
            std::string::npos)
      << d.status();
}

TEST(LocalPool, ASpeedupIsNeverTakenAgainstAReferenceTimedOnOtherHardware) {
  ScopedEnv env("CUDA_VISIBLE_DEVICES", nullptr);
  LocalGpuDispatcher d(fakeGpus({{0, "Fake GPU", 9, 0}}), fakeWorkers());
  Fingerprint h200;
  h200.gpu = "NVIDIA H200";
  h200.arch = "sm_90";
  h200.driver = "580.159.04";
  for (const PipelineResult& r : runPipeline(d, 2, "ok", 4.0, h200)) {
    ASSERT_EQ(r.state, PipelineResult::State::Done) << r.failure;
    EXPECT_EQ(r.evaluation->status, CandidateStatus::Valid);
    EXPECT_EQ(r.fitness, 0);
    EXPECT_NE(r.speedupRefusal.find("timed on Fake GPU"), std::string::npos) << r.speedupRefusal;
    EXPECT_NE(r.speedupRefusal.find("the run's reference on NVIDIA H200"), std::string::npos) << r.speedupRefusal;
  }
}

}  // namespace
}  // namespace crucible
