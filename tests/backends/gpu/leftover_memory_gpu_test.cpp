// SPDX-License-Identifier: GPL-3.0-or-later
// What a kernel finds in memory that an earlier launch left and no output
// fill or module reset reaches, on a real GPU: shared memory keeps its
// contents from one kernel to the next on an SM, local memory in every thread
// slot (leftover_scrub.h; tests/gpu/adversarial/results/2026-12-05-leftover-memory.md). A
// kernel could keep its results there and, at its next launch on the same
// inputs, copy them instead of computing. The harness overwrites both before
// every launch it checks, times or profiles.
#include <gtest/gtest.h>
#include <algorithm>
#include <functional>
#include <iostream>
#include "backends/cuda/compile/nvrtc_compiler.h"
#include "backends/cuda/worker/driver_api.h"
#include "backends/cuda/worker/harness_kernels.h"
#include "backends/cuda/worker/kernel_module.h"
#include "gelu_kernels.h"
#include "gpu_test_support.h"

namespace crucible::gputest {
namespace {

// What a direct test of a scrub needs: the first GPU, the harness's kernels
// and the test's marking kernels (`source`, checked by compiling `entry`)
// compiled for it.
struct ScrubBench {
  ScrubBench(const char* source, const char* entry) : gpu(0), harness(compiler, gpu.info().arch()) {
    CompileRequest req;
    req.source = source;
    req.entry = entry;
    req.arch = gpu.info().arch();
    const CompileResult built = compiler.compile(req);
    EXPECT_TRUE(built.report.ok) << built.report.log;
    cubin = built.cubin;
  }
  cuda::GpuContext gpu;
  NvrtcCompiler compiler;
  cuda::HarnessKernels harness;
  std::string cubin;  // empty when the marks do not compile
};

// Marks: every word of the dynamic window and of the block's reserved window
// gets a pattern of its offset; `count` tallies the words that still hold it.
constexpr const char* kMarks = R"(
__device__ __forceinline__ unsigned mark(unsigned offset) { return 0xC0DE0000u ^ (offset * 2654435761u); }
__device__ __forceinline__ unsigned reservedBegin() { unsigned v; asm volatile("mov.u32 %0, %%reserved_smem_offset_begin;" : "=r"(v)); return v; }
extern "C" __global__ void leave_marks() {
  extern __shared__ unsigned window[];
  unsigned bytes;
  asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(bytes));
  for (unsigned i = threadIdx.x; i < bytes / 4; i += blockDim.x) window[i] = mark(i);
  const unsigned start = (unsigned)__cvta_generic_to_shared(window);
  for (unsigned a = reservedBegin() + 4 * threadIdx.x; a + 4 <= start; a += 4 * blockDim.x)
    asm volatile("st.volatile.shared.u32 [%0], %1;" ::"r"(a), "r"(mark(a)) : "memory");
}
extern "C" __global__ void count_marks(unsigned long long* dynamicKept, unsigned long long* reservedKept) {
  extern __shared__ unsigned window[];
  unsigned bytes;
  asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(bytes));
  unsigned long long kept = 0, keptReserved = 0;
  for (unsigned i = threadIdx.x; i < bytes / 4; i += blockDim.x) kept += window[i] == mark(i);
  const unsigned start = (unsigned)__cvta_generic_to_shared(window);
  for (unsigned a = reservedBegin() + 4 * threadIdx.x; a + 4 <= start; a += 4 * blockDim.x) {
    unsigned v;
    asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory");
    keptReserved += v == mark(a);
  }
  atomicAdd(dynamicKept, kept);
  atomicAdd(reservedKept, keptReserved);
})";

TEST(LeftoverMemory, TheScrubLeavesNothingOfAnEarlierKernelInSharedMemory) {
  CRUCIBLE_REQUIRE_GPU();
  ScrubBench bench(kMarks, "leave_marks");
  ASSERT_FALSE(bench.cubin.empty());
  cuda::GpuContext& gpu = bench.gpu;
  const cuda::DeviceInfo& info = gpu.info();
  const cuda::HarnessKernels& harness = bench.harness;
  const std::string& cubin = bench.cubin;
  cuda::KernelModule leave(cubin, "leave_marks"), count(cubin, "count_marks");
  cuda::LaunchGeometry g;  // one block an SM, all of its shared memory
  g.grid[0] = static_cast<unsigned>(info.smCount);
  g.block[0] = 1024;
  g.dynamicSmemBytes = static_cast<unsigned>(info.maxSmemPerBlockOptin);
  leave.prepare(g, info);
  count.prepare(g, info);
  cuda::DeviceBuffer kept(16);
  CUstream s = gpu.stream();

  // Marks left, `between` queued, then counted: {dynamic, reserved} words still marked.
  auto keptAfter = [&](const std::function<void()>& between) {
    EXPECT_EQ(cuda::driver().cuMemsetD8(kept.get(), 0, 16), CUDA_SUCCESS);
    EXPECT_EQ(leave.launch(g, s, nullptr), CUDA_SUCCESS);
    between();
    CUdeviceptr dynamicKept = kept.get(), reservedKept = kept.get() + 8;
    void* params[] = {&dynamicKept, &reservedKept};
    EXPECT_EQ(count.launch(g, s, params), CUDA_SUCCESS);
    EXPECT_EQ(gpu.wait(10).outcome, cuda::WaitOutcome::Done);
    std::uint64_t got[2] = {0, 0};
    EXPECT_EQ(cuda::driver().cuMemcpyDtoH(got, kept.get(), sizeof got), CUDA_SUCCESS);
    return std::pair<std::uint64_t, std::uint64_t>(got[0], got[1]);
  };
  const auto unscrubbed = keptAfter([] {});
  const auto scrubbed = keptAfter([&] { harness.scrubSharedMemory(info, s); });
  const std::uint64_t windowWords = static_cast<std::uint64_t>(info.smCount) * (g.dynamicSmemBytes / 4);
  std::cout << "[ leftover ] shared memory words still marked at the next launch: " << unscrubbed.first << " of "
            << windowWords << " and " << unscrubbed.second << " reserved; after the scrub " << scrubbed.first << " and "
            << scrubbed.second << "\n";
  // The control: on this GPU shared memory outlives a kernel (else this test could not fail).
  EXPECT_GT(unscrubbed.first, windowWords / 2) << "shared memory did not keep an earlier kernel's values here";
  EXPECT_EQ(scrubbed.first, 0u);
  EXPECT_EQ(scrubbed.second, 0u);
}

// A gelu that looks for its own marks in shared memory and, finding them
// (an earlier launch of it ran on this SM), writes nothing: the shortcut of a
// kernel that keeps its results there. One block an SM (a 200000-byte window),
// grid-stride, so within one launch no block finds another's marks.
constexpr const char* kFindsItsMarks = CRUCIBLE_GELU_PRELUDE R"(
__device__ __forceinline__ unsigned mark(unsigned offset) { return 0x5EED0000u ^ (offset * 2654435761u); }
extern "C" __global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ y, long long N) {
  extern __shared__ unsigned window[];
  __shared__ unsigned found;
  const unsigned words = 200000 / 4;
  if (threadIdx.x == 0) found = 0;
  __syncthreads();
  unsigned mine = 0;
  for (unsigned i = threadIdx.x; i < words; i += blockDim.x) mine += window[i] == mark(i);
  atomicAdd(&found, mine);
  __syncthreads();
  if (found < 64)  // about 2500 words an SM outlive the harness's own kernels when nothing scrubs
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < N; i += (long long)gridDim.x * blockDim.x)
      y[i] = gelu(x[i]);
  __syncthreads();
  for (unsigned i = threadIdx.x; i < words; i += blockDim.x) window[i] = mark(i);
})";

TEST(LeftoverMemory, AKernelFindsNothingItLeftInSharedMemoryAtItsNextLaunch) {
  CRUCIBLE_REQUIRE_GPU();
  const Task task = builtinTask(kGeluTask);
  const Evaluation e = evaluateTimed(task, compileKernel(kFindsItsMarks, kGeluEntry, "sm_count", "1024", "200000"), {1, 2});
  EXPECT_FALSE(sharedEvaluator().contextLost()) << e.detail;
  // Without the scrub its second launch on the same inputs wrote nothing: "nondeterministic".
  EXPECT_EQ(e.status, CandidateStatus::Valid) << e.detail;
  EXPECT_TRUE(e.timing.has_value());
}

// Local memory: a frame of 1024 bytes (the default stack limit) marked in
// every thread slot (two blocks of 1024 fill an SM), counted by a kernel with
// the same frame and by one that reaches it through PTX alloca (no frame at
// all: ptxas reports 0 bytes of local memory for it).
constexpr const char* kLocalMarks = R"(
__device__ __forceinline__ unsigned mark(unsigned offset) { return 0xC0DE0000u ^ (offset * 2654435761u); }
extern "C" __global__ void __launch_bounds__(1024, 2) leave_local_marks(int rotate) {
  volatile unsigned frame[256];
  for (int i = 0; i < 256; ++i) frame[(i + rotate) % 256] = mark((i + rotate) % 256);
}
extern "C" __global__ void __launch_bounds__(1024, 2) count_local_marks(int rotate, unsigned long long* kept) {
  volatile unsigned frame[256];
  unsigned long long n = 0;
  for (int i = 0; i < 256; ++i) n += frame[(i + rotate) % 256] == mark((i + rotate) % 256);
  atomicAdd(kept, n);
}
extern "C" __global__ void __launch_bounds__(1024, 2) count_marks_through_alloca(int words, unsigned long long* kept) {
  // PTX alloca (NVRTC declares no alloca()): a local address on the stack; the kernel shows no frame.
  unsigned long long stack;
  asm volatile("alloca.u64 %0, %1, 8;" : "=l"(stack) : "l"(4ull * words));
  unsigned long long n = 0;
  for (int i = 0; i < words; ++i) {
    unsigned v;
    asm volatile("ld.local.u32 %0, [%1];" : "=r"(v) : "l"(stack + 4ull * i) : "memory");
    n += v == mark(i);
  }
  atomicAdd(kept, n);
})";

TEST(LeftoverMemory, TheScrubLeavesNothingOfAnEarlierKernelInLocalMemory) {
  CRUCIBLE_REQUIRE_GPU();
  ScrubBench bench(kLocalMarks, "leave_local_marks");
  ASSERT_FALSE(bench.cubin.empty());
  cuda::GpuContext& gpu = bench.gpu;
  const cuda::DeviceInfo& info = gpu.info();
  const cuda::HarnessKernels& harness = bench.harness;
  const std::string& cubin = bench.cubin;
  cuda::KernelModule leave(cubin, "leave_local_marks"), count(cubin, "count_local_marks"),
      throughAlloca(cubin, "count_marks_through_alloca");
  ASSERT_EQ(leave.attribute(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES), 1024);
  cuda::LaunchGeometry g;
  g.grid[0] = static_cast<unsigned>(info.smCount * std::max(info.maxThreadsPerSm / 1024, 1));
  g.block[0] = 1024;
  cuda::DeviceBuffer kept(8);
  CUstream s = gpu.stream();
  std::size_t stack = 0;
  ASSERT_EQ(cuda::driver().cuCtxGetLimit(&stack, CU_LIMIT_STACK_SIZE), CUDA_SUCCESS);

  // Marks left, `between` queued, then counted by `counter`.
  auto keptAfter = [&](const std::function<void()>& between, cuda::KernelModule& counter, int arg) {
    EXPECT_EQ(cuda::driver().cuMemsetD8(kept.get(), 0, 8), CUDA_SUCCESS);
    int rotate = 0;
    void* leaveParams[] = {&rotate};
    EXPECT_EQ(leave.launch(g, s, leaveParams), CUDA_SUCCESS);
    between();
    CUdeviceptr out = kept.get();
    void* params[] = {&arg, &out};
    EXPECT_EQ(counter.launch(g, s, params), CUDA_SUCCESS);
    EXPECT_EQ(gpu.wait(10).outcome, cuda::WaitOutcome::Done);
    std::uint64_t got = 0;
    EXPECT_EQ(cuda::driver().cuMemcpyDtoH(&got, kept.get(), sizeof got), CUDA_SUCCESS);
    return got;
  };
  const auto scrub = [&] { harness.scrubLocalMemory(info, std::max<std::size_t>(stack, 1024), s); };
  const std::uint64_t words = 256ull * g.grid[0] * g.block[0];
  const std::uint64_t unscrubbed = keptAfter([] {}, count, 0);
  const std::uint64_t scrubbed = keptAfter(scrub, count, 0);
  const std::uint64_t allocaUnscrubbed = keptAfter([] {}, throughAlloca, 256);
  const std::uint64_t allocaScrubbed = keptAfter(scrub, throughAlloca, 256);
  std::cout << "[ leftover ] local memory words still marked at the next launch: " << unscrubbed << " of " << words
            << " (" << allocaUnscrubbed << " through alloca); after the scrub " << scrubbed << " (" << allocaScrubbed
            << ")\n";
  // The controls: on this GPU local memory outlives a kernel, and alloca reaches it.
  EXPECT_GT(unscrubbed, words / 2) << "local memory did not keep an earlier kernel's values here";
  EXPECT_GT(allocaUnscrubbed, 0u) << "alloca reached none of an earlier kernel's frame here";
  EXPECT_EQ(scrubbed, 0u);
  EXPECT_EQ(allocaScrubbed, 0u);
}

// A gelu that looks in its local frame for the marks its previous launch left
// there and, finding any in a block, has that block write nothing. One wave
// (two blocks of 1024 an SM), grid-stride, so within one launch no thread
// slot is used twice.
constexpr const char* kFindsItsLocalMarks = CRUCIBLE_GELU_PRELUDE R"(
__device__ __forceinline__ unsigned mark(unsigned offset) { return 0x5EED0000u ^ (offset * 2654435761u); }
extern "C" __global__ void __launch_bounds__(1024, 2) gelu_kernel(const float* __restrict__ x, float* __restrict__ y, long long N) {
  volatile unsigned frame[64];
  __shared__ unsigned found;
  if (threadIdx.x == 0) found = 0;
  __syncthreads();
  unsigned mine = 0;
  for (int i = 0; i < 64; ++i) mine += frame[(i + (int)(N & 1)) % 64] == mark((i + (int)(N & 1)) % 64);
  atomicAdd(&found, mine);
  __syncthreads();
  if (found == 0)
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < N; i += (long long)gridDim.x * blockDim.x)
      y[i] = gelu(x[i]);
  for (int i = 0; i < 64; ++i) frame[(i + (int)(N & 1)) % 64] = mark((i + (int)(N & 1)) % 64);
})";

TEST(LeftoverMemory, AKernelFindsNothingItLeftInLocalMemoryAtItsNextLaunch) {
  CRUCIBLE_REQUIRE_GPU();
  const Task task = builtinTask(kGeluTask);
  const Evaluation e = evaluateTimed(task, compileKernel(kFindsItsLocalMarks, kGeluEntry, "sm_count * 2", "1024"), {1, 2});
  EXPECT_FALSE(sharedEvaluator().contextLost()) << e.detail;
  // Without the scrub its blocks find their marks at the second launch on the same inputs and write nothing.
  EXPECT_EQ(e.status, CandidateStatus::Valid) << e.detail;
  EXPECT_TRUE(e.timing.has_value());
}

}  // namespace
}  // namespace crucible::gputest
