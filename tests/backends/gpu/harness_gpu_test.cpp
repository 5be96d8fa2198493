// SPDX-License-Identifier: GPL-3.0-or-later
// The harness against kernels that try to tell a checked launch from a timed
// one, on a real GPU, in process (the full corpus is tests/gpu/adversarial):
// timed launches are checked, outputs are refilled before every launch, the
// oracle's device outputs are gone before a candidate runs.
#include <gtest/gtest.h>
#include <algorithm>
#include <iostream>
#include <cmath>
#include <cstring>
#include <memory>
#include "backends/cuda/compile/nvrtc_compiler.h"
#include "backends/cuda/worker/driver_api.h"
#include "backends/cuda/worker/harness_kernels.h"
#include "backends/cuda/worker/host_tensor.h"
#include "backends/cuda/worker/kernel_failure.h"
#include "backends/cuda/worker/task_runtime.h"
#include "gelu_kernels.h"
#include "gpu_test_support.h"

namespace crucible::gputest {
namespace {

// Computes an element only while the output still holds a NaN (the poison
// validation used to fill before every checked launch, and only then).
constexpr const char* kPeeksAtOutput = CRUCIBLE_GELU_PRELUDE R"(
extern "C" __global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ y, long long N) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N && isnan(y[i])) y[i] = gelu(x[i]);
})";

// Counts its launches in a module variable and stops working after the 8th.
constexpr const char* kCountsLaunches = CRUCIBLE_GELU_PRELUDE R"(
__device__ unsigned long long blocksRun;
extern "C" __global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ y, long long N) {
  __shared__ unsigned long long launch;
  if (threadIdx.x == 0) launch = atomicAdd(&blocksRun, 1ull) / gridDim.x;
  __syncthreads();
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (launch < 8 && i < N) y[i] = gelu(x[i]);
})";

// Counts its launches with state no module reset clears, the device heap:
// every block takes 16 bytes per launch and never frees them, and a block
// whose malloc fails (the heap is spent) does nothing.
constexpr const char* kExhaustsTheHeap = CRUCIBLE_GELU_PRELUDE R"(
extern "C" __global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ y, long long N) {
  __shared__ bool lazy;
  if (threadIdx.x == 0) lazy = malloc(16) == nullptr;
  __syncthreads();
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (!lazy && i < N) y[i] = gelu(x[i]);
})";

// Scales by a module variable initialised to 1 and sets it to 7 as it ends:
// right only when every launch finds the variable's load-time value. One
// block (grid-stride), so no block reads it after another wrote it.
constexpr const char* kChangesItsInitialisedVariable = CRUCIBLE_GELU_PRELUDE R"(
__device__ float scale = 1.0f;
extern "C" __global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ y, long long N) {
  const float s = scale;
  __syncthreads();
  for (long long i = threadIdx.x; i < N; i += blockDim.x) y[i] = gelu(x[i]) * s;
  __syncthreads();
  if (threadIdx.x == 0) scale = 7.0f;
})";

class Harness : public ::testing::Test {
protected:
  void SetUp() override {
    CRUCIBLE_REQUIRE_GPU();
    task_ = builtinTask(kGeluTask);
  }
  Evaluation timed(const char* source) {
    Evaluation e = evaluateTimed(task_, compileKernel(source, kGeluEntry, kGeluGrid), {1, 2, 3});
    EXPECT_FALSE(sharedEvaluator().contextLost()) << e.detail;
    return e;
  }
  Task task_;
};

TEST_F(Harness, AnHonestKernelIsTimedAndItsTimedLaunchesChecked) {
  const Evaluation e = timed(kCorrect);
  ASSERT_EQ(e.status, CandidateStatus::Valid) << e.detail;
  ASSERT_TRUE(e.timing.has_value());
  EXPECT_GT(e.timing->speedup, 0);
  EXPECT_NE(e.detail.find(" checked"), std::string::npos) << e.detail;
  EXPECT_EQ(e.trials.size(), 3u);
}

// 48 KiB of dynamic shared memory and a little static: past the 48 KiB a block has without the
// opt-in, though neither part alone is (the worker raised the limit only for dynamic > 48 KiB, and
// the copy engine's row kernels with three 16 KiB stages failed to launch on the H200).
TEST_F(Harness, AKernelWhoseStaticAndDynamicSharedMemoryPassTheDefaultTogetherLaunches) {
  constexpr const char* kStagesInSharedMemory = CRUCIBLE_GELU_PRELUDE R"(
extern "C" __global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ y, long long N) {
  extern __shared__ float stage[];  // 48 KiB: 12288 floats
  __shared__ float last[256];
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  stage[threadIdx.x * 48] = i < N ? x[i] : 0.0f;
  last[threadIdx.x] = stage[threadIdx.x * 48];
  __syncthreads();
  if (i < N) y[i] = gelu(last[threadIdx.x]);
})";
  EvaluationRequest r;
  r.task = &task_;
  r.candidate = compileKernel(kStagesInSharedMemory, kGeluEntry, kGeluGrid, "256", "49152");
  r.reference = compileBaseline(task_);
  r.seeds = {1};
  r.time = false;
  const Evaluation e = sharedEvaluator().evaluate(r);
  EXPECT_EQ(e.status, CandidateStatus::Valid) << e.detail;
}

TEST_F(Harness, AKernelThatPeeksAtItsOutputIsRejected) {
  const Evaluation e = timed(kPeeksAtOutput);
  EXPECT_EQ(e.status, CandidateStatus::Invalid) << e.detail;
  EXPECT_FALSE(e.timing.has_value()) << "no fake speedup is kept";
}

// Its counter is reset before every launch: every launch is its first, it
// does all its work every time, and its timing is honest.
TEST_F(Harness, AKernelThatCountsItsLaunchesInAModuleVariableWorksEveryTime) {
  const Evaluation e = timed(kCountsLaunches);
  EXPECT_EQ(e.status, CandidateStatus::Valid) << e.detail;
  EXPECT_NE(e.detail.find("1 module variable(s) reset before every launch"), std::string::npos) << e.detail;
}

// An initialised variable is put back to its load-time value (from host
// memory: no copy of it lies in device memory for a kernel to overwrite).
TEST_F(Harness, AKernelFindsItsInitialisedModuleVariableAsLoadedAtEveryLaunch) {
  const Evaluation e = evaluateTimed(task_, compileKernel(kChangesItsInitialisedVariable, kGeluEntry, "1", "1024"), {1, 2});
  EXPECT_EQ(e.status, CandidateStatus::Valid) << e.detail;
  EXPECT_NE(e.detail.find("1 module variable(s) reset before every launch"), std::string::npos) << e.detail;
}

// The heap outlives a launch and cannot be reset (a block one launch
// allocates is found by the next): a kernel that calls it is refused before
// it runs. Until 2026-12-05 this one was caught at a timed launch, once the
// heap was spent; one that read its earlier blocks would not have been.
TEST_F(Harness, AKernelThatUsesTheDeviceHeapIsRefused) {
  const Evaluation e = timed(kExhaustsTheHeap);
  EXPECT_EQ(e.status, CandidateStatus::Invalid) << e.detail;
  EXPECT_NE(e.detail.find("the kernel calls 'malloc' (the device heap)"), std::string::npos) << e.detail;
  EXPECT_FALSE(e.timing.has_value());
  EXPECT_TRUE(e.trials.empty()) << "refused before any launch";
}

// The gelu task's runtime on the first GPU, with the harness kernels and the
// oracle it needs (HarnessRuntime tests).
struct GeluRuntime {
  GeluRuntime() : spec(parseTaskSpec(builtinTask(kGeluTask).specJson)), gpu(0), harness(compiler, gpu.info().arch()) {
    CompileRequest req;
    req.source = spec.oracle.source;
    req.entry = spec.oracle.launch.entry;
    req.arch = gpu.info().arch();
    const CompileResult oracle = compiler.compile(req);
    // A constructor cannot ASSERT: a failed compile is reported here, leaves
    // rt empty, and every test ASSERTs rt before it uses it.
    EXPECT_TRUE(oracle.report.ok) << oracle.report.log;
    if (oracle.report.ok) rt = std::make_unique<cuda::TaskRuntime>(gpu, spec, oracle.cubin, harness);
  }
  TaskSpec spec;
  cuda::GpuContext gpu;
  NvrtcCompiler compiler;
  cuda::HarnessKernels harness;
  std::unique_ptr<cuda::TaskRuntime> rt;
};

// The gelu task's baseline, compiled and prepared: it stands in for a correct
// candidate, or for the reference.
struct GeluBaseline {
  explicit GeluBaseline(GeluRuntime& g)
      : geometry(cuda::resolveGeometry(g.spec.baseline.launch, g.spec.axes, g.gpu.info().smCount)) {
    const CompileResult built =
        g.compiler.compile({g.spec.baseline.source, g.spec.baseline.launch.entry, g.gpu.info().arch(), {}});
    EXPECT_TRUE(built.report.ok) << built.report.log;  // and module stays empty, as GeluRuntime's rt
    if (!built.report.ok) return;
    module = std::make_unique<cuda::KernelModule>(built.cubin, g.spec.baseline.launch.entry);
    module->prepare(geometry, g.gpu.info());
  }
  cuda::LaunchGeometry geometry;
  std::unique_ptr<cuda::KernelModule> module;
};

TEST(HarnessRuntime, OracleOutputsAreClearedAndFillsAreWhatThePlanSays) {
  CRUCIBLE_REQUIRE_GPU();
  GeluRuntime g;
  ASSERT_NE(g.rt, nullptr) << "the gelu task's oracle did not compile";
  cuda::GpuContext& gpu = g.gpu;
  cuda::HarnessKernels& harness = g.harness;
  cuda::TaskRuntime& rt = *g.rt;
  // The gelu task's buffers are hundreds of MiB: page-locked, so a trial's copies run at bus speed.
  EXPECT_EQ(rt.hostPinningNote(), "");
  rt.randomizeInputs(1);
  rt.computeReference(10);
  EXPECT_TRUE(rt.oracleOutputsCleared()) << "the oracle's fp64 results stayed in device memory";
  double sum = 0;
  for (double v : rt.referenceForTests(0)) sum += std::fabs(v);
  EXPECT_GT(sum, 0) << "the masked device copy of the reference unmasks to the oracle's results";

  cuda::FillChoice random{cuda::OutputFill::RandomFinite, 0x1234567ull};
  rt.fillOutputs(random, true);
  const std::vector<cuda::HostTensor> got = rt.downloadOutputs();
  ASSERT_EQ(got.size(), 1u);
  for (std::int64_t i : {std::int64_t{0}, std::int64_t{1}, got[0].count / 2, got[0].count - 1}) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, got[0].bytes.data() + i * 4, 4);
    EXPECT_EQ(bits, static_cast<std::uint32_t>(cuda::randomFiniteBits(DType::F32, random.seed, static_cast<std::uint64_t>(i))))
        << "element " << i;
  }
  // The device hash is the host's (the watches compare with it).
  EXPECT_EQ(harness.hash(rt.outputBuffer(0), 4, got[0].count, gpu.stream()),
            cuda::hostHash(got[0].bytes.data(), 4, got[0].count, harness.hashKeyForTests()));
  rt.fillOutputs(cuda::FillChoice{cuda::OutputFill::Poison1, 0}, true);
  const std::vector<cuda::HostTensor> poisoned = rt.downloadOutputs();
  const auto pattern = cuda::poisonPattern(DType::F32, 1);
  EXPECT_EQ(std::memcmp(poisoned[0].bytes.data() + 4 * 77, pattern.data(), 4), 0);
}

// The harness's buffers that no launch touches during timing are hashed when
// timing begins; a write into one (what a kernel that found it would do to
// keep something between launches) is named at the next check.
// The harness's own memory is watched from the moment the harness writes it,
// not from when timing starts: a word written into the masked reference
// right after it was kept (a validation launch could do that, and only read
// it while timed) is named at the next check. So are writes into the guards
// around the stash of the candidate's outputs, into the unused ends of the harness's
// pages, and into a candidate guard past its first 256 KiB (the trailing
// guard now runs to the end of the page).
TEST(HarnessRuntime, AWriteIntoTheHarnessesMemoryIsNamed) {
  CRUCIBLE_REQUIRE_GPU();
  GeluRuntime g;
  ASSERT_NE(g.rt, nullptr) << "the gelu task's oracle did not compile";
  cuda::TaskRuntime& rt = *g.rt;
  rt.randomizeInputs(1);
  rt.computeReference(10);
  rt.fillOutputs(cuda::FillChoice{cuda::OutputFill::Poison0, 0}, true);
  rt.keepOutputs();
  ASSERT_EQ(rt.harnessMemoryDamage(), "");
  ASSERT_EQ(rt.outputGuardDamage(), "");
  const cuda::DriverApi& d = cuda::driver();
  auto poke = [&](CUdeviceptr where) {
    std::uint32_t word = 0;
    EXPECT_EQ(d.cuMemcpyDtoH(&word, where, sizeof word), CUDA_SUCCESS);
    word ^= 0x5EED;
    EXPECT_EQ(d.cuMemcpyHtoD(where, &word, sizeof word), CUDA_SUCCESS);
    return word ^ 0x5EED;
  };
  auto unpoke = [&](CUdeviceptr where, std::uint32_t word) {
    EXPECT_EQ(d.cuMemcpyHtoD(where, &word, sizeof word), CUDA_SUCCESS);
  };
  struct Case {
    const char* named;
    CUdeviceptr where;
  };
  const cuda::GuardedBuffer& stash = rt.stashedOutputForTests(0);
  const cuda::GuardedBuffer& oracle = rt.oracleOutputForTests(0);
  const std::vector<Case> cases = {
      {"oracle's buffer for output 'y'", oracle.data() + 4096},
      {"oracle's buffer for output 'y'", oracle.data() + oracle.dataBytes() - 4},  // its last word
      {"guard after the stash of the candidate's output 'y'", stash.trailingGuard() + stash.trailingGuardBytes() - 4},
      {"guard before the stash of the candidate's output 'y'", stash.leadingGuard()},
      {"unused end of the page of the harness's result words", g.harness.resultPageTail() + 64},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.named);
    const std::uint32_t was = poke(c.where);
    const std::string damage = rt.harnessMemoryDamage();
    EXPECT_NE(damage.find(c.named), std::string::npos) << damage;
    unpoke(c.where, was);
    EXPECT_EQ(rt.harnessMemoryDamage(), "") << "put back, the region hashes as recorded again";
  }
  // A word a kernel left next to a region the harness then rewrites is not
  // taken into the new record: the oracle's guard stays changed after the
  // oracle's buffer is written and recorded again.
  {
    const CUdeviceptr guard = rt.oracleOutputForTests(0).trailingGuard() + 64;
    const std::uint32_t was = poke(guard);
    rt.computeReference(10);
    const std::string damage = rt.harnessMemoryDamage();
    EXPECT_NE(damage.find("guard after the oracle's buffer for output 'y'"), std::string::npos) << damage;
    unpoke(guard, was);
    EXPECT_EQ(rt.harnessMemoryDamage(), "");
  }
  const cuda::GuardedBuffer& y = rt.output(0);
  ASSERT_GT(y.trailingGuardBytes(), cuda::GuardedBuffer::kGuardBytes) << "the trailing guard runs to the page end";
  const CUdeviceptr far = y.trailingGuard() + y.trailingGuardBytes() - 4;
  const std::uint32_t was = poke(far);
  EXPECT_NE(rt.outputGuardDamage().find("wrote out of bounds of output 'y': 2 bytes"), std::string::npos)
      << rt.outputGuardDamage();
  unpoke(far, was);
  EXPECT_EQ(rt.outputGuardDamage(), "");
}

// The oracle's outputs are checked on the device, never downloaded: an
// oracle that leaves elements unwritten (the NaN fill) or writes an infinity
// is a task bug, named as such, with the count and the first index.
TEST(HarnessRuntime, AnOracleThatLeavesNonFiniteValuesIsATaskBug) {
  CRUCIBLE_REQUIRE_GPU();
  TaskSpec spec = parseTaskSpec(builtinTask(kGeluTask).specJson);
  spec.oracle.source = R"(extern "C" __global__ void gelu_oracle(const float* x, double* y, long long N) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N || i % 1000 == 7) return;  // every thousandth element unwritten
  y[i] = i == 5 ? 1.0 / 0.0 : (double)x[i];
})";
  cuda::GpuContext gpu(0);
  NvrtcCompiler compiler;
  cuda::HarnessKernels harness(compiler, gpu.info().arch());
  const CompileResult oracle = compiler.compile({spec.oracle.source, spec.oracle.launch.entry, gpu.info().arch(), {}});
  ASSERT_TRUE(oracle.report.ok) << oracle.report.log;
  cuda::TaskRuntime rt(gpu, spec, oracle.cubin, harness);
  rt.randomizeInputs(1);
  const std::int64_t n = elementCount(spec, spec.outputs[0]);
  try {
    rt.computeReference(10);
    ADD_FAILURE() << "the oracle's non-finite outputs were not found";
  } catch (const cuda::KernelFailure& e) {
    const std::string want = "the task's oracle left " + std::to_string(n / 1000 + (n % 1000 > 7 ? 1 : 0) + 1) +
                             " of " + std::to_string(n) + " elements of output 'y' non-finite or unwritten (first at index 5)";
    EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
  }
  EXPECT_TRUE(rt.oracleOutputsCleared()) << "cleared before the verdict, as after a good run";
}

// A checked timed launch is judged on its own inputs, drawn again from its
// seed: the reference's draw after it (every launch of either kernel gets
// inputs of its own) does not change the verdict, and the same outputs
// checked against another draw's inputs fail. Outputs that still hold the
// fill are named as unwritten.
TEST(HarnessRuntime, ACheckedTimedLaunchIsJudgedOnItsOwnInputs) {
  CRUCIBLE_REQUIRE_GPU();
  GeluRuntime g;
  ASSERT_NE(g.rt, nullptr) << "the gelu task's oracle did not compile";
  cuda::TaskRuntime& rt = *g.rt;
  rt.randomizeInputs(1);
  rt.computeReference(10);
  const cuda::FillChoice fill{cuda::OutputFill::Poison0, 0};
  rt.fillOutputs(fill, true);
  rt.drawTimedInputs(0xD1CEull);
  const std::string unwritten = rt.checkTimedLaunch(fill, 0xD1CEull, 10);
  EXPECT_NE(unwritten.find("elements of output 'y' still hold the NaN poison 0"), std::string::npos) << unwritten;

  // The task's baseline stands in for a correct candidate.
  const GeluBaseline b(g);
  ASSERT_NE(b.module, nullptr) << "the gelu task's baseline did not compile";
  const cuda::KernelModule& baseline = *b.module;
  const cuda::LaunchGeometry& geometry = b.geometry;
  rt.fillOutputs(fill, true);
  rt.drawTimedInputs(0xD1CE2ull);
  rt.run(baseline, geometry, cuda::TensorMaps{}, "the candidate", 10);
  rt.drawTimedInputs(0xD1CE3ull);  // the reference's inputs, drawn before its launch
  EXPECT_EQ(rt.checkTimedLaunch(fill, 0xD1CE2ull, 10), "");
  const std::string other = rt.checkTimedLaunch(fill, 0xD1CE3ull, 10);
  EXPECT_NE(other.find("outside tolerance"), std::string::npos) << "judged against another launch's inputs: " << other;
}

// The reference's timed launches write the candidate's output buffers (so
// both kernels write the same memory). When the reference follows the
// candidate, the candidate's outputs are stashed, and the check puts them back:
// a candidate that wrote nothing is still named, though the reference wrote
// correct outputs into its buffers, and a correct one still passes. A fill
// reaches the stash too, so nothing a kernel leaves there outlives it.
TEST(HarnessRuntime, ATimedLaunchTheReferenceFollowsIsJudgedOnWhatTheCandidateWrote) {
  CRUCIBLE_REQUIRE_GPU();
  GeluRuntime g;
  ASSERT_NE(g.rt, nullptr) << "the gelu task's oracle did not compile";
  cuda::TaskRuntime& rt = *g.rt;
  rt.randomizeInputs(1);
  rt.computeReference(10);
  const GeluBaseline b(g);
  ASSERT_NE(b.module, nullptr) << "the gelu task's baseline did not compile";
  const cuda::KernelModule& baseline = *b.module;
  const cuda::LaunchGeometry& geometry = b.geometry;
  const cuda::FillChoice fill{cuda::OutputFill::Poison0, 0};
  auto referenceFollows = [&](std::uint64_t seed) {
    rt.stashOutputs();
    rt.drawTimedInputs(seed);
    rt.enqueue(baseline, geometry, cuda::TensorMaps{}, "the reference");
    rt.finish("the reference", 10);
  };

  // A candidate launch that wrote nothing: the reference after it wrote its buffers.
  rt.fillOutputs(fill, true);
  rt.drawTimedInputs(0xD1CE4ull);
  referenceFollows(0xD1CE4ull);  // the same inputs: without the stash its outputs would pass
  const std::string unwritten = rt.checkTimedLaunch(fill, 0xD1CE4ull, 10);
  EXPECT_NE(unwritten.find("elements of output 'y' still hold the NaN poison 0"), std::string::npos) << unwritten;

  // A correct candidate launch, the reference after it on other inputs.
  rt.fillOutputs(fill, true);
  rt.drawTimedInputs(0xD1CE5ull);
  rt.run(baseline, geometry, cuda::TensorMaps{}, "the candidate", 10);
  referenceFollows(0xD1CE6ull);
  EXPECT_EQ(rt.checkTimedLaunch(fill, 0xD1CE5ull, 10), "");

  // The fill before a candidate launch reaches the stash.
  rt.fillOutputs(fill, true);
  const cuda::GuardedBuffer& stash = rt.stashedOutputForTests(0);
  std::vector<std::byte> got(16);
  ASSERT_EQ(cuda::driver().cuMemcpyDtoH(got.data(), stash.data() + stash.dataBytes() / 2, got.size()), CUDA_SUCCESS);
  const auto pattern = cuda::poisonPattern(DType::F32, 0);
  for (std::size_t i = 0; i < got.size(); i += 4) EXPECT_EQ(std::memcmp(got.data() + i, pattern.data(), 4), 0) << i;
  EXPECT_EQ(rt.harnessMemoryDamage(), "");
}

// Whole pages: the extent is a multiple of the device's granularity, the
// address is aligned to it, the end past the size starts zero, and the
// harness's keyed hash is the host's hash with the same key.
TEST(HarnessRuntime, WholePageBuffersOwnTheirPages) {
  CRUCIBLE_REQUIRE_GPU();
  cuda::GpuContext gpu(0);
  NvrtcCompiler compiler;
  cuda::HarnessKernels harness(compiler, gpu.info().arch());
  const std::size_t page = cuda::devicePageBytes();
  ASSERT_GT(page, 0u);
  std::cout << "[ whole pages ] allocation granularity " << page << " bytes\n";
  for (std::size_t bytes : {std::size_t{4}, std::size_t{80}, page, page + 12, 3 * page - 8}) {
    SCOPED_TRACE(bytes);
    cuda::DeviceBuffer b = cuda::DeviceBuffer::wholePages(bytes);
    EXPECT_EQ(b.size(), bytes);
    EXPECT_EQ(b.extent() % page, 0u);
    EXPECT_GE(b.extent(), bytes);
    EXPECT_LT(b.extent() - bytes, page);
    EXPECT_EQ(b.get() % page, 0u);
    std::vector<unsigned char> tail(b.extent() - bytes, 0xAB);
    if (!tail.empty()) {
      ASSERT_EQ(cuda::driver().cuMemcpyDtoH(tail.data(), b.get() + bytes, tail.size()), CUDA_SUCCESS);
      EXPECT_EQ(std::count(tail.begin(), tail.end(), 0), static_cast<std::ptrdiff_t>(tail.size()));
    }
  }
  std::vector<std::uint64_t> words(1000);
  for (std::size_t i = 0; i < words.size(); ++i) words[i] = i * 0x9E3779B97F4A7C15ull;
  cuda::DeviceBuffer b = cuda::DeviceBuffer::wholePages(words.size() * 8);
  ASSERT_EQ(cuda::driver().cuMemcpyHtoD(b.get(), words.data(), words.size() * 8), CUDA_SUCCESS);
  const std::uint64_t keyed = harness.hashBytes(b.get(), words.size() * 8, gpu.stream());
  EXPECT_EQ(keyed, cuda::hostHash(words.data(), 8, 1000, harness.hashKeyForTests()));
  EXPECT_NE(keyed, cuda::hostHash(words.data(), 8, 1000, 0)) << "the hash is keyed";
}

// The device draws validation inputs as the host's fillRandom does: uniform
// and randint bit for bit, the normals to the last bit of float math.
TEST(HarnessRuntime, DeviceDrawsAreTheHostsDraws) {
  CRUCIBLE_REQUIRE_GPU();
  cuda::GpuContext gpu(0);
  NvrtcCompiler compiler;
  cuda::HarnessKernels harness(compiler, gpu.info().arch());
  struct Case {
    DType dtype;
    Distribution dist;
    double tolerance;  // largest |device - host| allowed, relative to max(1, |host|)
  };
  const std::vector<Case> cases = {
      {DType::F32, {"uniform", -2, 3}, 0},           {DType::I32, {"randint", -5, 1000}, 0},
      {DType::I64, {"randint", 0, 32000}, 0},        {DType::F64, {"uniform", 0, 1}, 0},
      {DType::F32, {"normal", 0.5, 2}, 1e-5},        {DType::F64, {"normal", 0, 1}, 1e-12},
      {DType::BF16, {"normal", 0, 1}, 1.0 / 128},    {DType::F16, {"normal", 1, 0.25}, 1.0 / 1024}};
  const std::int64_t n = 100003;  // odd: the last normal pair is cut in half
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(toString(c.dtype)) + " " + c.dist.kind);
    cuda::HostTensor host(c.dtype, n), device(c.dtype, n);
    cuda::fillRandom(host, c.dist, 42, 3);
    cuda::DeviceBuffer buffer(host.byteSize());
    harness.draw(buffer.get(), c.dtype, n, c.dist, 42, 3, gpu.stream());
    ASSERT_EQ(cuda::driver().cuStreamSynchronize(gpu.stream()), CUDA_SUCCESS);
    ASSERT_EQ(cuda::driver().cuMemcpyDtoH(device.bytes.data(), buffer.get(), device.byteSize()), CUDA_SUCCESS);
    double worst = 0;
    for (std::int64_t i = 0; i < n; ++i)
      worst = std::max(worst, std::fabs(device.valueAt(i) - host.valueAt(i)) / std::max(1.0, std::fabs(host.valueAt(i))));
    EXPECT_LE(worst, c.tolerance);
    if (c.tolerance == 0) {
      EXPECT_EQ(device.bytes, host.bytes);
    }
  }
  cuda::DeviceBuffer small(64);
  EXPECT_THROW(harness.draw(small.get(), DType::F32, 4, {"uniform", 1, 1}, 1, 0, gpu.stream()), std::invalid_argument);
}

}  // namespace
}  // namespace crucible::gputest
