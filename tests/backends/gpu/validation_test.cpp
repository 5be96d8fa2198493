// SPDX-License-Identifier: GPL-3.0-or-later
// Validation on a real GPU, in process: a correct kernel passes; kernels wrong
// in one known way each are rejected with the reason that names their fault.
// (Kernels that kill the CUDA context run in worker_pool_test.cpp instead.)
#include <gtest/gtest.h>
#include "gelu_kernels.h"
#include "gpu_test_support.h"

namespace crucible::gputest {
namespace {

class Validation : public ::testing::Test {
protected:
  void SetUp() override {
    CRUCIBLE_REQUIRE_GPU();
    task_ = builtinTask(kGeluTask);
  }
  Evaluation run(const char* source, const std::string& grid = kGeluGrid, const std::string& block = "256",
                 const std::string& smem = "0", std::vector<std::uint64_t> seeds = {1, 2, 3}) {
    EvaluationRequest r;
    r.task = &task_;
    r.candidate = compileKernel(source, kGeluEntry, grid, block, smem);
    r.seeds = std::move(seeds);
    r.time = false;
    Evaluation e = sharedEvaluator().evaluate(r);
    EXPECT_FALSE(sharedEvaluator().contextLost()) << e.detail;
    std::cout << "[ verdict  ] " << toString(e.status) << ": " << e.detail << "\n";
    return e;
  }
  void expectInvalid(const Evaluation& e, const std::string& reasonPart) {
    EXPECT_EQ(e.status, CandidateStatus::Invalid) << e.detail;
    EXPECT_NE(e.detail.find(reasonPart), std::string::npos) << "detail: " << e.detail;
    ASSERT_FALSE(e.trials.empty());
    EXPECT_FALSE(e.trials.back().passed);
    EXPECT_NE(e.trials.back().reason.find(reasonPart), std::string::npos) << e.trials.back().reason;
  }
  Task task_;
};

TEST_F(Validation, CorrectKernelPassesEverySeed) {
  Evaluation e = run(kCorrect);
  EXPECT_EQ(e.status, CandidateStatus::Valid) << e.detail;
  ASSERT_EQ(e.trials.size(), 3u);
  for (const auto& t : e.trials) {
    EXPECT_TRUE(t.passed) << t.reason;
    EXPECT_EQ(t.mismatches, 0);
    EXPECT_LT(t.maxRelError, 1e-5);
  }
}

TEST_F(Validation, TheTaskBaselinePasses) {
  EvaluationRequest r;
  r.task = &task_;
  r.candidate = compileBaseline(task_);
  r.time = false;
  Evaluation e = sharedEvaluator().evaluate(r);
  EXPECT_EQ(e.status, CandidateStatus::Valid) << e.detail;
}

TEST_F(Validation, AllZeroOutputIsRejected) { expectInvalid(run(kWritesZeros), "all zeros"); }

TEST_F(Validation, MissingTailBlockLeavesUnwrittenElements) {
  Evaluation e = run(kSkipsTail, "ceil_div(N, 256) - 1");
  expectInvalid(e, "256 of 1048576 elements never written");
}

TEST_F(Validation, WritingEveryOtherElementIsRejected) {
  expectInvalid(run(kWritesEvenOnly), "524288 of 1048576 elements never written");
}

TEST_F(Validation, RaceShowsAsNondeterminism) { expectInvalid(run(kRaces), "nondeterministic"); }

TEST_F(Validation, ReadingPastTheInputHitsTheNanGuard) { expectInvalid(run(kReadsPastEnd), "NaN or Inf"); }

TEST_F(Validation, WritingPastTheOutputDamagesTheGuard) { expectInvalid(run(kWritesPastEnd), "out of bounds of output 'y'"); }

TEST_F(Validation, ModifyingAnInputIsRejected) { expectInvalid(run(kModifiesInput), "modified input 'x'"); }

// The cache lives in module variables, which are reset before every launch:
// the kernel computes every element every time, and is right.
TEST_F(Validation, CachingResultsInModuleVariablesIsNeutralised) {
  const Evaluation e = run(kCachesResults);
  EXPECT_EQ(e.status, CandidateStatus::Valid) << e.detail;
  EXPECT_NE(e.detail.find("2 module variable(s) reset before every launch"), std::string::npos) << e.detail;
}

TEST_F(Validation, CachingResultsIsNeutralisedWithASingleSeed) {
  const Evaluation e = run(kCachesResults, kGeluGrid, "256", "0", {7});
  EXPECT_EQ(e.status, CandidateStatus::Valid) << e.detail;
}

TEST_F(Validation, HalfPrecisionIsOutsideTolerance) {
  Evaluation e = run(kHalfPrecision);
  expectInvalid(e, "outside tolerance");
  ASSERT_FALSE(e.trials.empty());
  EXPECT_GT(e.trials.back().maxRelError, 1e-4);
}

TEST_F(Validation, TooManyThreadsPerBlockIsAResourceError) {
  Evaluation e = run(kCorrect, kGeluGrid, "2048");
  EXPECT_EQ(e.status, CandidateStatus::ResourceError) << e.detail;
  EXPECT_NE(e.detail.find("block.x"), std::string::npos) << e.detail;
}

TEST_F(Validation, TooMuchSharedMemoryIsAResourceError) {
  Evaluation e = run(kCorrect, kGeluGrid, "256", "1048576");
  EXPECT_EQ(e.status, CandidateStatus::ResourceError) << e.detail;
  EXPECT_NE(e.detail.find("shared memory"), std::string::npos) << e.detail;
}

TEST_F(Validation, WrongEntryNameIsACompileFailure) {
  EvaluationRequest r;
  r.task = &task_;
  r.candidate = compileKernel(kCorrect, kGeluEntry, kGeluGrid);
  r.candidate.launch.entry = "no_such_kernel";
  r.time = false;
  Evaluation e = sharedEvaluator().evaluate(r);
  EXPECT_EQ(e.status, CandidateStatus::CompileFailed) << e.detail;
}

TEST_F(Validation, StillPassesAfterTheRejections) {
  // The evaluator's buffers and oracle survive every rejection above.
  EXPECT_EQ(run(kCorrect).status, CandidateStatus::Valid);
}

}  // namespace
}  // namespace crucible::gputest
