// SPDX-License-Identifier: GPL-3.0-or-later
// CUPTI counters and device ceilings on a real GPU: the DRAM bytes a copy
// kernel moves match what it must move; the ceilings are measured and shown
// beside the datasheet.
#include <gtest/gtest.h>
#include <cmath>
#include "gelu_kernels.h"
#include "gpu_test_support.h"

namespace crucible::gputest {
namespace {

// A copy of 2^28 floats (1 GiB each way): large against any L2, so what stays
// in the cache at either end is a small share of the traffic.
constexpr const char* kCopyTask = R"json({
  "format": 1, "name": "copy_f32_268435456", "family": "copy",
  "description": "y = x, fp32, for the profiler test",
  "axes": {"N": 268435456},
  "inputs": [{"name": "x", "dtype": "f32", "shape": ["N"], "distribution": {"kind": "uniform", "low": -1, "high": 1}}],
  "outputs": [{"name": "y", "dtype": "f32", "shape": ["N"]}],
  "scalars": ["N"],
  "tolerances": {"y": {"rtol": 0, "atol": 0}},
  "flops": "0", "minBytes": "8*N", "entry": "copy_kernel",
  "baseline": {"launch": {"entry": "copy_kernel", "grid": ["ceil_div(N, 1024)", "1", "1"], "block": ["256", "1", "1"]},
    "source": "extern \"C\" __global__ void copy_kernel(const float* __restrict__ x, float* __restrict__ y, long long N) {\n  const long long i = ((long long)blockIdx.x * blockDim.x + threadIdx.x) * 4;\n  if (i + 3 < N) { *(float4*)(y + i) = *(const float4*)(x + i); return; }\n  for (long long k = i; k < N; ++k) y[k] = x[k];\n}\n"},
  "oracle": {"launch": {"entry": "copy_oracle", "grid": ["ceil_div(N, 256)", "1", "1"], "block": ["256", "1", "1"]},
    "source": "extern \"C\" __global__ void copy_oracle(const float* __restrict__ x, double* __restrict__ y, long long N) {\n  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < N) y[i] = (double)x[i];\n}\n"}
})json";

void print(const ProfileResult& p) {
  std::cout << "[ profile  ] permitted=" << p.permitted << " " << p.detail << "\n";
  for (const auto& [name, value] : p.metrics) std::cout << "[ metric   ] " << name << " = " << value << "\n";
}

TEST(Profile, CopyKernelDramBytesMatchWhatItMustMove) {
  CRUCIBLE_REQUIRE_GPU();
  const Task task = taskFromJson(kCopyTask);
  ProfileResult p = sharedEvaluator().profile(task, compileBaseline(task));
  print(p);
  if (!p.permitted) GTEST_SKIP() << "GPU counters not permitted here: " << p.detail;
  ASSERT_TRUE(p.metrics.count("dram__bytes_read.sum")) << p.detail;
  ASSERT_TRUE(p.metrics.count("dram__bytes_write.sum")) << p.detail;
  const double must = 8.0 * 268435456.0;
  const double moved = p.metrics["dram__bytes_read.sum"] + p.metrics["dram__bytes_write.sum"];
  std::cout << "[ dram     ] moved " << moved << " B, must move " << must << " B, ratio " << moved / must << "\n";
  EXPECT_NEAR(moved / must, 1.0, 0.05);
  // User replay: the kernel is launched once per pass; kernel replay (the
  // fallback) saves and restores the context's 2+ GiB around its passes.
  EXPECT_NE(p.detail.find("user replay"), std::string::npos) << p.detail;
  EXPECT_GT(p.metrics["gpu__time_duration.sum"], 0);
  EXPECT_GT(p.metrics["crucible__theoretical_occupancy_pct"], 0);
}

TEST(Profile, GeluCountsFloatingPointWork) {
  CRUCIBLE_REQUIRE_GPU();
  const Task task = builtinTask(kGeluTask);
  ProfileResult p = sharedEvaluator().profile(task, compileBaseline(task));
  print(p);
  if (!p.permitted) GTEST_SKIP() << "GPU counters not permitted here: " << p.detail;
  ASSERT_TRUE(p.metrics.count("crucible__fp32_flops")) << p.detail;
  // At least a few FP32 operations per element (the erf polynomial alone has more).
  EXPECT_GT(p.metrics["crucible__fp32_flops"], 3.0 * 1048576);
}

// A kernel that works only on its first launch (a count in a module variable)
// is profiled doing its work: every pass starts from the variables as loaded,
// as every timed launch does. Otherwise its figures would show a launch that
// reads nothing, for a kernel that was timed reading everything.
TEST(Profile, EveryProfiledPassStartsFromTheModuleVariablesAsLoaded) {
  CRUCIBLE_REQUIRE_GPU();
  const Task task = builtinTask(kGeluTask);
  const char* onceOnly = CRUCIBLE_GELU_PRELUDE R"(
__device__ unsigned int blocks_done;  // a whole launch has finished once it reaches the grid's size
extern "C" __global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ y, long long N) {
  if (*(volatile unsigned int*)&blocks_done >= gridDim.x) return;
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) y[i] = gelu(x[i]);
  if (threadIdx.x == 0) atomicAdd(&blocks_done, 1u);
})";
  ProfileResult p = sharedEvaluator().profile(task, compileKernel(onceOnly, kGeluEntry, kGeluGrid, "256"));
  print(p);
  if (!p.permitted) GTEST_SKIP() << "GPU counters not permitted here: " << p.detail;
  ASSERT_TRUE(p.metrics.count("dram__bytes_read.sum")) << p.detail;
  EXPECT_GT(p.metrics["dram__bytes_read.sum"], 0.9 * 4.0 * 1048576);
}

// A kernel that issues a known number of bf16 mma.sync instructions (each
// warp: kRepeats x m16n8k16 = 2048 multiply-adds) and nothing else of note.
// Only its counters matter, so the task's oracle is a plain copy (profile()
// does not validate).
constexpr long long kMmaThreads = 132LL * 4 * 256;
constexpr int kMmaRepeats = 256;
constexpr const char* kMmaCountTask = R"json({
  "format": 1, "name": "mma_count_135168", "family": "copy",
  "description": "bf16 mma.sync issued a known number of times, for the profiler test",
  "axes": {"N": 135168},
  "inputs": [{"name": "x", "dtype": "f32", "shape": ["N"], "distribution": {"kind": "uniform", "low": -1, "high": 1}}],
  "outputs": [{"name": "y", "dtype": "f32", "shape": ["N"]}],
  "scalars": ["N"],
  "tolerances": {"y": {"rtol": 0, "atol": 0}},
  "flops": "0", "minBytes": "8*N", "entry": "mma_count",
  "baseline": {"launch": {"entry": "mma_count", "grid": ["ceil_div(N, 256)", "1", "1"], "block": ["256", "1", "1"]},
    "source": "extern \"C\" __global__ void mma_count(const float* __restrict__ x, float* __restrict__ y, long long N) {\n  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n  const unsigned a0 = __float_as_uint(x[i]), a1 = a0 ^ 1u, a2 = a0 ^ 2u, a3 = a0 ^ 3u, b0 = a0 ^ 4u, b1 = a0 ^ 5u;\n  float c0 = 0.f, c1 = 0.f, c2 = 0.f, c3 = 0.f;\n#pragma unroll 1\n  for (int r = 0; r < 256; ++r)\n    asm volatile(\"mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\"\n                 : \"+f\"(c0), \"+f\"(c1), \"+f\"(c2), \"+f\"(c3) : \"r\"(a0), \"r\"(a1), \"r\"(a2), \"r\"(a3), \"r\"(b0), \"r\"(b1));\n  y[i] = c0 + c1 + c2 + c3;\n}\n"},
  "oracle": {"launch": {"entry": "copy_oracle", "grid": ["ceil_div(N, 256)", "1", "1"], "block": ["256", "1", "1"]},
    "source": "extern \"C\" __global__ void copy_oracle(const float* __restrict__ x, double* __restrict__ y, long long N) {\n  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < N) y[i] = (double)x[i];\n}\n"}
})json";

TEST(Profile, TensorFlopsOfMmaSyncKernelMatchItsShape) {
  CRUCIBLE_REQUIRE_GPU();
  const Task task = taskFromJson(kMmaCountTask);
  ProfileResult p = sharedEvaluator().profile(task, compileBaseline(task));
  print(p);
  if (!p.permitted) GTEST_SKIP() << "GPU counters not permitted here: " << p.detail;
  ASSERT_TRUE(p.metrics.count("crucible__tensor_flops")) << p.detail;
  const double mmas = static_cast<double>(kMmaThreads / 32) * kMmaRepeats;
  const double must = mmas * 16 * 8 * 16 * 2;
  std::cout << "[ metric   ] tensor FLOPs " << p.metrics["crucible__tensor_flops"] << ", the kernel's shape says " << must
            << ", ratio " << p.metrics["crucible__tensor_flops"] / must << "\n";
  EXPECT_NEAR(p.metrics["crucible__tensor_flops"] / must, 1.0, 0.02);
}

TEST(Profile, ElementwiseKernelDoesNoTensorWork) {
  CRUCIBLE_REQUIRE_GPU();
  const Task task = builtinTask(kGeluTask);
  ProfileResult p = sharedEvaluator().profile(task, compileBaseline(task));
  if (!p.permitted) GTEST_SKIP() << "GPU counters not permitted here: " << p.detail;
  ASSERT_TRUE(p.metrics.count("crucible__tensor_flops")) << p.detail;
  EXPECT_EQ(p.metrics["crucible__tensor_flops"], 0.0);
}

TEST(Ceilings, AreMeasuredAndShownBesideTheDatasheet) {
  CRUCIBLE_REQUIRE_GPU();
  const std::vector<Ceiling> ceilings = sharedEvaluator().measureCeilings();
  ASSERT_EQ(ceilings.size(), 4u);
  for (const Ceiling& c : ceilings) {
    std::cout << "[ ceiling  ] " << c.device << " " << c.name << ": measured " << c.measured << " " << c.unit
              << ", datasheet " << (c.datasheet > 0 ? std::to_string(c.datasheet) : std::string("unknown")) << "\n";
    EXPECT_GT(c.measured, 0) << c.name;
    if (c.datasheet > 0) {
      EXPECT_LT(c.measured, 1.1 * c.datasheet) << c.name << " above its datasheet value: a measuring error";
      EXPECT_GT(c.measured, 0.3 * c.datasheet) << c.name;
    }
  }
}

}  // namespace
}  // namespace crucible::gputest
