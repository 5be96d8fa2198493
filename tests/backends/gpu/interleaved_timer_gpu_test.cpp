// SPDX-License-Identifier: GPL-3.0-or-later
// The interleaved timer's stop rule on a real GPU: the checks after a pair
// (an oracle run each, since timed launches are checked on inputs drawn for
// them) are not sampling time. Counted as sampling, a check of 10 ms made
// microsecond pairs look slow (5 ms a pair or more), and slow pairs may stop
// on precision after 10 pairs instead of 30. And the hooks before each
// launch of either kernel (the inputs' draw in the worker) run for both, and
// the stash between a pair's launches runs where the candidate went first.
#include <gtest/gtest.h>
#include <chrono>
#include <thread>
#include "backends/cuda/compile/nvrtc_compiler.h"
#include "backends/cuda/worker/harness_kernels.h"
#include "backends/cuda/worker/interleaved_timer.h"
#include "backends/cuda/worker/kernel_module.h"
#include "gpu_test_support.h"

namespace crucible::gputest {
namespace {

constexpr const char* kTiny = R"(
extern "C" __global__ void tiny(unsigned* out) { if (threadIdx.x == 0) out[blockIdx.x] = blockIdx.x; })";

TEST(InterleavedTimer, TheChecksAfterAPairAreNotSamplingTime) {
  CRUCIBLE_REQUIRE_GPU();
  NvrtcCompiler compiler;
  cuda::GpuContext gpu(0);
  cuda::HarnessKernels harness(compiler, gpu.info().arch());
  cuda::L2Flusher flusher(gpu.info(), harness);
  const cuda::NvmlClocks clocks(gpu.info().pciBusId);
  cuda::KernelModule tiny(compileKernel(kTiny, "tiny", "1", "32").cubin, "tiny");
  const cuda::DeviceBuffer out(4096);
  CUdeviceptr where = out.get();
  void* params[] = {&where};
  cuda::LaunchGeometry g;
  g.grid[0] = 4;
  g.block[0] = 32;
  auto launch = [&] { ASSERT_EQ(tiny.launch(g, gpu.stream(), params), CUDA_SUCCESS); };
  auto finish = [&] { ASSERT_EQ(gpu.wait(10).outcome, cuda::WaitOutcome::Done); };

  cuda::TimingOptions o;
  o.precisionTarget = 1.0;  // any precision is enough: the pair count alone decides the stop
  cuda::TimingHooks hooks;
  int checks = 0, beforeCandidate = 0, beforeReference = 0, candidateFirst = 0;
  hooks.beforeCandidate = [&](int) { ++beforeCandidate; };
  hooks.beforeReference = [&] { ++beforeReference; };
  hooks.betweenCandidateAndReference = [&] { ++candidateFirst; };
  hooks.afterPair = [&](int, bool) {
    ++checks;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  };
  const Timing t = cuda::timeInterleaved(gpu, flusher, clocks, launch, launch, finish, o, hooks);
  EXPECT_GE(static_cast<int>(t.samplesUs.size()), o.minSamples)
      << "a pair of microseconds stopped as a slow pair: the checks were counted as sampling";
  EXPECT_EQ(checks, static_cast<int>(t.samplesUs.size()));
  // Both kernels' launches, warm-up ones included, follow their own hook (the inputs' draw in the worker).
  EXPECT_EQ(beforeCandidate, beforeReference);
  EXPECT_GT(beforeReference, static_cast<int>(t.samplesUs.size())) << "the warm-up's launches too";
  // The measured pairs whose candidate went first (every other one, the first included), not the warm-up's.
  EXPECT_EQ(candidateFirst, (static_cast<int>(t.samplesUs.size()) + 1) / 2);

  // With no reference nothing follows the candidate.
  candidateFirst = 0;
  cuda::timeInterleaved(gpu, flusher, clocks, launch, {}, finish, o, hooks);
  EXPECT_EQ(candidateFirst, 0);
}

}  // namespace
}  // namespace crucible::gputest
