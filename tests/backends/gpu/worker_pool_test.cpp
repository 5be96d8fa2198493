// SPDX-License-Identifier: GPL-3.0-or-later
// Kernels that kill their CUDA context (illegal address, trap) or never end
// cost one candidate: the worker answers Faulted / TimedOut, exits, and the
// next evaluation runs in a fresh worker and passes.
#include <gtest/gtest.h>
#include "backends/dispatch/local_gpu_dispatcher.h"
#include "gelu_kernels.h"
#include "gpu_test_support.h"

namespace crucible::gputest {
namespace {

class WorkerPool : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    if (!whyNoGpu().empty()) return;
    LocalGpuDispatcherOptions o;
    o.workerExecutable = CRUCIBLE_WORKER_EXECUTABLE;
    o.workerArguments = {"--launch-timeout", "3"};  // a hung kernel is reported after 3 s
    dispatcher_ = new LocalGpuDispatcher(o);
  }
  static void TearDownTestSuite() {
    delete dispatcher_;
    dispatcher_ = nullptr;
  }
  void SetUp() override {
    CRUCIBLE_REQUIRE_GPU();
    ASSERT_TRUE(dispatcher_->canEvaluate()) << dispatcher_->status();
    task_ = builtinTask(kGeluTask);
  }
  Evaluation evaluate(const char* source) {
    EvaluationRequest r;
    r.task = &task_;
    r.candidate = compileKernel(source, kGeluEntry, kGeluGrid);
    r.seeds = {1, 2};
    r.time = false;
    Evaluation e = dispatcher_->evaluators().front()->evaluate(r);
    std::cout << "[ verdict  ] " << toString(e.status) << ": " << e.detail << "\n";
    return e;
  }
  void expectHealthyAfter(const char* bad, CandidateStatus expected, const std::string& detailPart) {
    Evaluation e = evaluate(bad);
    EXPECT_EQ(e.status, expected) << e.detail;
    EXPECT_NE(e.detail.find(detailPart), std::string::npos) << e.detail;
    Evaluation next = evaluate(kCorrect);
    EXPECT_EQ(next.status, CandidateStatus::Valid) << next.detail;
  }
  static LocalGpuDispatcher* dispatcher_;
  Task task_;
};
LocalGpuDispatcher* WorkerPool::dispatcher_ = nullptr;

TEST_F(WorkerPool, CorrectKernelPassesThroughTheWorker) {
  EXPECT_EQ(evaluate(kCorrect).status, CandidateStatus::Valid);
  const Fingerprint f = dispatcher_->evaluators().front()->device();
  EXPECT_FALSE(f.gpu.empty());
}

TEST_F(WorkerPool, IllegalAddressFaultsAndThePoolRecovers) {
  expectHealthyAfter(kIllegalAddress, CandidateStatus::Faulted, "ILLEGAL_ADDRESS");
}

TEST_F(WorkerPool, TrapFaultsAndThePoolRecovers) {
  expectHealthyAfter(kTraps, CandidateStatus::Faulted, "CUDA_ERROR");
}

TEST_F(WorkerPool, EndlessLoopTimesOutAndThePoolRecovers) {
  expectHealthyAfter(kSpinsForever, CandidateStatus::TimedOut, "still running");
}

}  // namespace
}  // namespace crucible::gputest
