// SPDX-License-Identifier: GPL-3.0-or-later
// The L2 flush before every timed launch (L2Flusher), on a real GPU: it
// evicts (a read of a quarter of L2 that hits when repeated is slower right
// after the flush), and it leaves L2 clean. The old flush, a memset of the
// same size, charges the next kernel for writing back its dirty lines: on the
// H200 a 30 MiB read took 14.4-14.5 us after it and 11.0 us after the read
// flush; dirt written just before the read flush added 0.4-0.55 us (five
// runs), and may add at most a quarter of the write flush's charge. The probe
// kernel is the flush's own read, over smaller buffers.
#include <gtest/gtest.h>
#include <algorithm>
#include <iostream>
#include <vector>
#include "backends/cuda/compile/nvrtc_compiler.h"
#include "backends/cuda/worker/driver_api.h"
#include "backends/cuda/worker/harness_kernels.h"
#include "backends/cuda/worker/interleaved_timer.h"
#include "gpu_test_support.h"

namespace crucible::gputest {
namespace {

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

  // Probes that fit in L2: a quarter of it for eviction, half (at most 32 MiB) for write-backs; the
  // dirt fills it.
  const std::size_t l2 = static_cast<std::size_t>(info.l2Bytes);
  cuda::DeviceBuffer small((l2 / 4) & ~15ull), large(std::min<std::size_t>(32u << 20, l2 / 2) & ~15ull), dirt(l2);
  ASSERT_EQ(d.cuMemsetD8(small.get(), 0, small.size()), CUDA_SUCCESS);
  ASSERT_EQ(d.cuMemsetD8(large.get(), 0, large.size()), CUDA_SUCCESS);

  auto timeRead = [&](const cuda::DeviceBuffer& probe, const std::function<void()>& before) {
    std::vector<double> us;
    for (int i = 0; i < 25; ++i) {
      before();
      cuda::EventPair ev;
      ev.recordStart(s);
      harness.readThrough(probe.get(), probe.size(), info.smCount, s);
      ev.recordStop(s);
      EXPECT_EQ(gpu.wait(10).outcome, cuda::WaitOutcome::Done);
      us.push_back(ev.elapsedMs() * 1000.0);
    }
    return cuda::median(us);
  };
  unsigned char value = 0;
  auto writeDirt = [&](const cuda::DeviceBuffer& b) {
    ASSERT_EQ(d.cuMemsetD8Async(b.get(), ++value, b.size(), s), CUDA_SUCCESS);
  };
  const auto readSmall = [&] { harness.readThrough(small.get(), small.size(), info.smCount, s); };
  const double hot = timeRead(small, readSmall);
  const double cold = timeRead(small, [&] { flusher.flush(s); });
  std::cout << "[ l2 flush ] " << (small.size() >> 20) << " MiB read: hot " << hot << " us, after the flush " << cold
            << " us (L2 " << (info.l2Bytes >> 20) << " MiB)\n";
  // Hits are not much faster for a read spread over every SM (the H200's L2 is two partitions): in
  // five runs of this test a 15 MiB read took 6.0-7.2 us hot and 7.7-7.9 us after the flush (1.10-1.29x).
  EXPECT_GT(cold, 1.05 * hot) << "the flush did not evict the probe";

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
