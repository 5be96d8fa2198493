// SPDX-License-Identifier: GPL-3.0-or-later
// The L2 flush before every timed launch (L2Flusher), on a real GPU: it
// evicts, and it leaves L2 clean.
//
// Eviction is seen by one warp chasing pointers through random lines of a
// buffer of a quarter of L2, loads that bypass L1: each load waits for the
// last, so the chase takes as long as its loads' latency, which is an L2
// hit's when the lines are there and a DRAM access's after the flush. Until
// 2026-12-05 the test timed a read of the buffer by every SM instead, and hits
// were not much faster for such a read: 1.10-1.29x on the H200, and on the
// H100 no faster at all in three of five runs (a 12 MiB read 8.4 us hot, 8.0
// after the flush).
//
// The old flush, a memset of the same size, charges the next kernel for
// writing back its dirty lines: on the H200 a 30 MiB read took 14.4-14.5 us
// after it and 11.0 us after the read flush; dirt written just before the
// read flush added 0.4-0.55 us (five runs), and may add at most a quarter of
// the write flush's charge. That probe is the flush's own read.
#include <gtest/gtest.h>
#include <algorithm>
#include <functional>
#include <iostream>
#include <numeric>
#include <random>
#include <vector>
#include "backends/cuda/compile/nvrtc_compiler.h"
#include "backends/cuda/worker/driver_api.h"
#include "backends/cuda/worker/harness_kernels.h"
#include "backends/cuda/worker/interleaved_timer.h"
#include "backends/cuda/worker/kernel_module.h"
#include "gpu_test_support.h"

namespace crucible::gputest {
namespace {

// One warp's lane 0 follows `next` for `steps` loads (ld.global.cg: L2, not L1).
constexpr const char* kChase = R"(
extern "C" __global__ void chase(const unsigned* next, unsigned steps, unsigned* out) {
  if (threadIdx.x != 0) return;
  unsigned i = 0;
  for (unsigned s = 0; s < steps; ++s) i = __ldcg(next + i);
  *out = i;
})";

TEST(L2Flush, EvictsAndLeavesNoDirtyLinesForTheNextKernel) {
  CRUCIBLE_REQUIRE_GPU();
  NvrtcCompiler compiler;
  cuda::GpuContext gpu(0);
  const cuda::DriverApi& d = cuda::driver();
  const cuda::DeviceInfo& info = gpu.info();
  cuda::HarnessKernels harness(compiler, info.arch());
  cuda::L2Flusher flusher(info, harness);
  ASSERT_GE(flusher.bytes(), 2 * static_cast<std::size_t>(info.l2Bytes));
  CUstream s = gpu.stream();
  const std::size_t l2 = static_cast<std::size_t>(info.l2Bytes);

  // Median microseconds of `timed` over `reps` runs, each after `before` (outside the events).
  auto medianMicros = [&](int reps, const std::function<void()>& before, const std::function<void()>& timed) {
    std::vector<double> us;
    for (int i = 0; i < reps; ++i) {
      before();
      cuda::EventPair ev;
      ev.recordStart(s);
      timed();
      ev.recordStop(s);
      EXPECT_EQ(gpu.wait(10).outcome, cuda::WaitOutcome::Done);
      us.push_back(ev.elapsedMs() * 1000.0);
    }
    return cuda::median(us);
  };

  // The chase: a random cycle through `lines` lines of 128 bytes of a quarter of L2.
  cuda::KernelModule chase(compileKernel(kChase, "chase", "1", "32").cubin, "chase");
  // Line k starts at word k * strideWords: the lines are spread over the quarter of L2.
  const std::size_t lines = std::min<std::size_t>(l2 / 4 / 128, 8192);
  const std::size_t strideWords = (l2 / 4 / 128 / lines) * (128 / sizeof(unsigned));
  std::vector<unsigned> order(lines), image(lines * strideWords, 0);
  std::iota(order.begin(), order.end(), 0u);
  std::shuffle(order.begin() + 1, order.end(), std::mt19937(7));  // the chase starts at word 0, line 0
  for (std::size_t k = 0; k < lines; ++k)
    image[order[k] * strideWords] = static_cast<unsigned>(order[(k + 1) % lines] * strideWords);
  cuda::DeviceBuffer chain(image.size() * sizeof(unsigned)), sink(sizeof(unsigned));
  ASSERT_EQ(d.cuMemcpyHtoD(chain.get(), image.data(), chain.size()), CUDA_SUCCESS);
  cuda::LaunchGeometry one;
  one.block[0] = 32;
  CUdeviceptr chainPtr = chain.get(), sinkPtr = sink.get();
  unsigned steps = static_cast<unsigned>(lines);
  void* chaseParams[] = {&chainPtr, &steps, &sinkPtr};
  auto runChase = [&] { EXPECT_EQ(chase.launch(one, s, chaseParams), CUDA_SUCCESS); };
  const double hot = medianMicros(9, runChase, runChase);
  const double cold = medianMicros(9, [&] { flusher.flush(s); }, runChase);
  std::cout << "[ l2 flush ] chase through " << lines << " lines of " << (l2 / 4 >> 20) << " MiB: hot " << hot
            << " us, after the flush " << cold << " us (" << hot * 1000.0 / lines << " and " << cold * 1000.0 / lines
            << " ns a load; L2 " << (l2 >> 20) << " MiB)\n";
  // An L2 hit's latency is about half a DRAM access's or less on Hopper (both
  // L2 partitions counted); 1.3x leaves room for the far partition's hits.
  EXPECT_GT(cold, 1.3 * hot) << "the flush did not evict the chased lines";

  // Probes for write-backs: half of L2 (at most 32 MiB), read by every SM; the dirt fills L2.
  cuda::DeviceBuffer large(std::min<std::size_t>(32u << 20, l2 / 2) & ~15ull), dirt(l2);
  ASSERT_EQ(d.cuMemsetD8(large.get(), 0, large.size()), CUDA_SUCCESS);
  auto timeRead = [&](const cuda::DeviceBuffer& probe, const std::function<void()>& before) {
    return medianMicros(25, before, [&] { harness.readThrough(probe.get(), probe.size(), info.smCount, s); });
  };
  unsigned char value = 0;
  auto writeDirt = [&](const cuda::DeviceBuffer& b) {
    ASSERT_EQ(d.cuMemsetD8Async(b.get(), ++value, b.size(), s), CUDA_SUCCESS);
  };
  const double flushed = timeRead(large, [&] { flusher.flush(s); });
  const double dirtThenFlush = timeRead(large, [&] {
    writeDirt(dirt);
    flusher.flush(s);
  });
  // What the flush was until 2026-12-03: a memset of twice the L2.
  cuda::DeviceBuffer old(flusher.bytes());
  const double writeFlushed = timeRead(large, [&] { writeDirt(old); });
  std::cout << "[ l2 flush ] " << (large.size() >> 20) << " MiB read: after the flush " << flushed
            << " us, after dirt and the flush " << dirtThenFlush << " us, after a write flush " << writeFlushed
            << " us\n";
  const double writeBackCharge = writeFlushed - flushed;
  EXPECT_GT(writeBackCharge, 0.05 * flushed) << "a write flush cost the next kernel nothing here";
  EXPECT_LT(dirtThenFlush - flushed, 0.25 * writeBackCharge) << "dirt written before the flush slowed the next kernel";
}

// The flush buffer stays zero; a word a kernel wrote there (to keep something
// between launches) is seen by the next flush, and a reset clears both.
TEST(L2Flush, SeesAWriteIntoItsBuffer) {
  CRUCIBLE_REQUIRE_GPU();
  NvrtcCompiler compiler;
  cuda::GpuContext gpu(0);
  const cuda::DeviceInfo& info = gpu.info();
  cuda::HarnessKernels harness(compiler, info.arch());
  cuda::L2Flusher flusher(info, harness);
  CUstream s = gpu.stream();
  auto flushed = [&] {
    flusher.flush(s);
    EXPECT_EQ(gpu.wait(10).outcome, cuda::WaitOutcome::Done);
    return flusher.foundWrites();
  };
  EXPECT_FALSE(flushed());
  const std::uint32_t word = 0x5EED;
  const std::size_t at = (flusher.bytes() / 3) & ~std::size_t{3};  // anywhere in it
  ASSERT_EQ(cuda::driver().cuMemcpyHtoD(flusher.bufferForTests() + at, &word, sizeof word), CUDA_SUCCESS);
  EXPECT_TRUE(flushed());
  flusher.reset(s);
  EXPECT_FALSE(flushed()) << "the reset leaves the buffer and the flag clear";
}

}  // namespace
}  // namespace crucible::gputest
