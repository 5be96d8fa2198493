// SPDX-License-Identifier: GPL-3.0-or-later
// Interleaved timing on a real GPU: a kernel against itself is a speedup of
// about 1, a kernel doing more work per element is measurably slower, and
// every timing says at what SM clock it was taken.
#include <gtest/gtest.h>
#include "backends/cuda/worker/driver_api.h"
#include "backends/cuda/worker/kernel_module.h"
#include "backends/cuda/worker/shared_carveout.h"
#include "gelu_kernels.h"
#include "gpu_test_support.h"

namespace crucible::gputest {
namespace {

Evaluation timed(const Task& task, const KernelBinary& candidate, const KernelBinary& reference) {
  Evaluation e = sharedEvaluator().evaluate(timedRequest(task, candidate, reference));
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
// prepares the two kernels' launches alike, and both write the same output
// buffers, so neither side is favoured. (On the H100 softmax's baseline came
// out 8.6-9% off against itself while each side wrote buffers of its own,
// 107 against 116 us; gelu's, the test above, stayed within 0.25%.)
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

// The carveout preference prepare() sets (shared_carveout.h): none unless one
// is asked for, exactly the percent asked, and for "least" the formula's
// percent, which costs no block an SM.
TEST(Timing, APreparedKernelHasTheCarveoutItWasAskedFor) {
  CRUCIBLE_REQUIRE_GPU();
  constexpr const char* kRows = R"(
extern "C" __global__ void rows(float* out) {
  __shared__ float red[256];
  red[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = red[255 - threadIdx.x];
})";
  constexpr const char* kTiles = R"(
extern "C" __global__ void tiles(float* out) {
  extern __shared__ float tile[];
  tile[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[blockIdx.x * 128 + threadIdx.x] = tile[127 - threadIdx.x];
})";
  using Kind = cuda::CarveoutPreference::Kind;
  cuda::GpuContext gpu(0);
  const cuda::DeviceInfo& info = gpu.info();
  ASSERT_GT(info.maxSmemPerSm, 0);
  struct Case { const char* source; const char* entry; unsigned threads; unsigned dynamicSmem; int staticSmem; };
  for (const Case& c : {Case{kRows, "rows", 256, 0, 1024}, Case{kTiles, "tiles", 128, 100 * 1024, 0}}) {
    cuda::KernelModule m(compileKernel(c.source, c.entry, "1", std::to_string(c.threads)).cubin, c.entry);
    cuda::LaunchGeometry g;
    g.grid[0] = 1;
    g.block[0] = c.threads;
    g.dynamicSmemBytes = c.dynamicSmem;
    auto carveout = [&] { return m.attribute(CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT); };
    m.prepare(g, info);
    EXPECT_EQ(carveout(), -1) << c.entry << ": no preference unless one is asked for";
    const int blocksWithout = m.maxActiveBlocksPerSm(g);
    ASSERT_GE(blocksWithout, 1) << c.entry;
    for (int percent : {0, 37, 100}) {
      m.prepare(g, info, {Kind::Percent, percent});
      EXPECT_EQ(carveout(), percent) << c.entry;
    }
    ASSERT_EQ(cuda::driver().cuFuncSetAttribute(m.function(), CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, -1),
              CUDA_SUCCESS);
    m.prepare(g, info, {Kind::LeastForOccupancy, 0});
    const int least = carveout();
    EXPECT_EQ(least, cuda::carveoutPercentFor(blocksWithout, c.dynamicSmem + c.staticSmem, info.reservedSmemPerBlock,
                                              info.maxSmemPerSm))
        << c.entry;
    EXPECT_LT(least, 100) << c.entry << ": these kernels leave room for L1";
    EXPECT_EQ(m.maxActiveBlocksPerSm(g), blocksWithout) << c.entry << ": the preference cost occupancy";
    // Prepared again, the occupancy now asked under the preference: the same percent.
    m.prepare(g, info, {Kind::LeastForOccupancy, 0});
    EXPECT_EQ(carveout(), least) << c.entry;
    std::cout << "[ carveout ] " << c.entry << ": " << blocksWithout << " blocks an SM, least " << least << "% of "
              << info.maxSmemPerSm << " B\n";
  }
}

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
