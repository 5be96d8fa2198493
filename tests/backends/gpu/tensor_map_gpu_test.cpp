// SPDX-License-Identifier: GPL-3.0-or-later
// TMA tensor maps on a real GPU: kernels that read their input only through a
// tensor map the worker encodes (tma_kernels.h) validate, are timed against a
// reference without maps and profiled, in process and through a worker
// process; a rule the hardware cannot take is a ResourceError that says why.
#include <gtest/gtest.h>
#include "backends/dispatch/local_gpu_dispatcher.h"
#include "gpu_test_support.h"
#include "tma_kernels.h"

namespace crucible::gputest {
namespace {

class TensorMapsOnGpu : public ::testing::Test {
protected:
  void SetUp() override {
    CRUCIBLE_REQUIRE_GPU();
    task_ = taskFromJson(kTmaTaskJson);
  }
  EvaluationRequest request(const std::string& source, const LaunchRule& launch, bool time) {
    EvaluationRequest r;
    r.task = &task_;
    r.candidate = compileKernel(source, launch);
    if (time) r.reference = compileBaseline(task_);  // the reference takes no maps
    r.seeds = {1, 2, 3};
    r.time = time;
    return r;
  }
  static Evaluation show(Evaluation e) {
    std::cout << "[ verdict  ] " << toString(e.status) << ": " << e.detail << "\n";
    return e;
  }
  void expectValid(const Evaluation& e) {
    EXPECT_EQ(e.status, CandidateStatus::Valid) << e.detail;
    ASSERT_EQ(e.trials.size(), 3u);
    for (const auto& t : e.trials) {
      EXPECT_TRUE(t.passed) << t.reason;
      EXPECT_EQ(t.mismatches, 0);
    }
  }
  Task task_;
};

TEST_F(TensorMapsOnGpu, ABoxCopiedWithATensorMapValidatesAndIsTimed) {
  const Evaluation e = show(sharedEvaluator().evaluate(request(kTmaScaleKernel, tmaScaleLaunch(), true)));
  EXPECT_FALSE(sharedEvaluator().contextLost()) << e.detail;
  expectValid(e);
  ASSERT_TRUE(e.timing.has_value()) << e.detail;
  EXPECT_GT(e.timing->medianUs, 0);
  EXPECT_GT(e.timing->referenceMedianUs, 0);
}

TEST_F(TensorMapsOnGpu, A128ByteSwizzledBoxValidates) {
  const Evaluation e = show(sharedEvaluator().evaluate(request(kTmaScaleSwizzledKernel, tmaScaleSwizzledLaunch(), false)));
  EXPECT_FALSE(sharedEvaluator().contextLost()) << e.detail;
  expectValid(e);
}

TEST_F(TensorMapsOnGpu, TheProfilerLaunchesTheKernelWithItsMaps) {
  const KernelBinary kernel = compileKernel(kTmaScaleKernel, tmaScaleLaunch());
  const ProfileResult p = sharedEvaluator().profile(task_, kernel);
  std::cout << "[ profile  ] permitted=" << p.permitted << " " << p.detail << "\n";
  EXPECT_EQ(p.detail.find("profiling failed"), std::string::npos) << p.detail;
  EXPECT_FALSE(sharedEvaluator().contextLost()) << p.detail;
}

TEST_F(TensorMapsOnGpu, ABoxTheHardwareCannotTakeIsAResourceErrorThatSaysWhy) {
  LaunchRule launch = tmaScaleLaunch();
  launch.tensorMaps[0].boxRows = 300;
  const Evaluation e = show(sharedEvaluator().evaluate(request(kTmaScaleKernel, launch, false)));
  EXPECT_EQ(e.status, CandidateStatus::ResourceError) << e.detail;
  EXPECT_NE(e.detail.find("tensorMaps[0] (x): box rows 300 outside 1..256"), std::string::npos) << e.detail;
  EXPECT_TRUE(e.trials.empty());  // never launched without its map
  // The worker is fine: the correct rule still validates.
  expectValid(show(sharedEvaluator().evaluate(request(kTmaScaleKernel, tmaScaleLaunch(), false))));
}

TEST_F(TensorMapsOnGpu, TheMapsTravelToAWorkerProcess) {
  LocalGpuDispatcherOptions o;
  o.workerExecutable = CRUCIBLE_WORKER_EXECUTABLE;
  LocalGpuDispatcher dispatcher(o);
  ASSERT_TRUE(dispatcher.canEvaluate()) << dispatcher.status();
  expectValid(show(dispatcher.evaluators().front()->evaluate(request(kTmaScaleKernel, tmaScaleLaunch(), true))));
}

}  // namespace
}  // namespace crucible::gputest
