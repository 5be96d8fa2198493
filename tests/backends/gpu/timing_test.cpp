// SPDX-License-Identifier: GPL-3.0-or-later
// Interleaved timing on a real GPU: a kernel against itself is a speedup of
// about 1, a kernel doing more work per element is measurably slower, and
// every timing says at what SM clock it was taken.
#include <gtest/gtest.h>
#include "gelu_kernels.h"
#include "gpu_test_support.h"

namespace crucible::gputest {
namespace {

Evaluation timed(const Task& task, const KernelBinary& candidate, const KernelBinary& reference) {
  EvaluationRequest r;
  r.task = &task;
  r.candidate = candidate;
  r.reference = reference;
  r.seeds = {1};
  r.time = true;
  Evaluation e = sharedEvaluator().evaluate(r);
  if (e.timing)
    std::cout << "[ timing   ] candidate " << e.timing->medianUs << " us (IQR " << e.timing->iqrUs << "), reference "
              << e.timing->referenceMedianUs << " us (IQR " << e.timing->referenceIqrUs << "), speedup "
              << e.timing->speedup << ", " << e.timing->samplesUs.size() << " samples, SM clock "
              << e.timing->smClockMHz << " MHz\n";
  return e;
}

TEST(Timing, AKernelAgainstItselfIsASpeedupOfAboutOne) {
  CRUCIBLE_REQUIRE_GPU();
  const Task task = builtinTask("gelu_f32_67108864");  // 256 MiB in, 256 MiB out: well past L2
  const KernelBinary baseline = compileBaseline(task);
  Evaluation e = timed(task, baseline, baseline);
  ASSERT_EQ(e.status, CandidateStatus::Valid) << e.detail;
  ASSERT_TRUE(e.timing.has_value());
  EXPECT_GE(e.timing->samplesUs.size(), 30u);
  EXPECT_GT(e.timing->medianUs, 0);
  EXPECT_NEAR(e.timing->speedup, 1.0, 0.05);
  EXPECT_LT(e.timing->iqrUs, 0.1 * e.timing->medianUs);
}

// Every memory-bound task's baseline against itself, within 2%: the harness
// prepares the two kernels' launches alike, so neither side is favoured. (On
// the H100 on 2026-12-06 softmax's baseline came out 8.6-9% off against
// itself while gelu's, the test above, stayed within 0.25%.)
class SelfTiming : public testing::TestWithParam<const char*> {};

TEST_P(SelfTiming, ABaselineAgainstItselfIsWithinTwoPercentOfOne) {
  CRUCIBLE_REQUIRE_GPU();
  const Task task = builtinTask(GetParam());
  const KernelBinary baseline = compileBaseline(task);
  Evaluation e = timed(task, baseline, baseline);
  ASSERT_EQ(e.status, CandidateStatus::Valid) << e.detail;
  ASSERT_TRUE(e.timing.has_value());
  EXPECT_NEAR(e.timing->speedup, 1.0, 0.02) << GetParam();
}

INSTANTIATE_TEST_SUITE_P(MemoryBoundTasks, SelfTiming,
                         testing::Values("softmax_f32_8192x4096", "layernorm_f32_8192x4096", "rmsnorm_bf16_8192x8192",
                                         "rowsum_f32_8192x8192", "transpose_f32_8192x8192",
                                         "cross_entropy_f32_8192x32000"),
                         [](const testing::TestParamInfo<const char*>& i) { return std::string(i.param); });

TEST(Timing, MoreWorkPerElementIsSlower) {
  CRUCIBLE_REQUIRE_GPU();
  const Task task = builtinTask(kGeluTask);
  Evaluation e = timed(task, compileKernel(kSlowCorrect, kGeluEntry, kGeluGrid), compileBaseline(task));
  ASSERT_EQ(e.status, CandidateStatus::Valid) << e.detail;
  ASSERT_TRUE(e.timing.has_value());
  EXPECT_LT(e.timing->speedup, 0.8);
}

TEST(Timing, FingerprintNamesTheDevice) {
  CRUCIBLE_REQUIRE_GPU();
  const Fingerprint f = sharedEvaluator().device();
  std::cout << "[ device   ] " << f.gpu << " " << f.arch << ", driver " << f.driver << ", CUDA " << f.cudaRuntime
            << ", NVRTC " << f.nvrtc << ", SM " << f.smClockMHz << " MHz, memory " << f.memClockMHz << " MHz, host "
            << f.host << "\n";
  EXPECT_FALSE(f.gpu.empty());
  EXPECT_EQ(f.arch.rfind("sm_", 0), 0u);
  EXPECT_FALSE(f.driver.empty());
  EXPECT_FALSE(f.nvrtc.empty());
}

}  // namespace
}  // namespace crucible::gputest
