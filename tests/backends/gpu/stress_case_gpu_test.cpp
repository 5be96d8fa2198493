// SPDX-License-Identifier: GPL-3.0-or-later
// Stress cases (TaskSpec::stress) on a real GPU: kernels that are right only
// for the task's usual inputs pass without them and are refused with them,
// naming the case; the suite's baselines pass their own stress cases.
#include <gtest/gtest.h>
#include <iostream>
#include <string>
#include "core/task/task_library.h"
#include "gpu_test_support.h"

namespace crucible::gputest {
namespace {

// One 256-thread block a row, reduced in shared memory, as the suite's baselines.
const std::string kBlockSum = R"(
#define THREADS 256
__device__ float blockSum(float v, float* red) {
  red[threadIdx.x] = v;
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) red[threadIdx.x] += red[threadIdx.x + s];
    __syncthreads();
  }
  const float r = red[0];
  __syncthreads();
  return r;
}
)";

// A softmax with no max subtraction: exact for normal(0, 1) logits, exp
// overflows to inf (and inf/inf to NaN) once a logit passes 88.7.
const std::string kSoftmaxWithoutMax = kBlockSum + R"(
extern "C" __global__ void softmax_kernel(const float* __restrict__ x, float* __restrict__ y, long long M, long long N) {
  __shared__ float red[THREADS];
  const float* xr = x + blockIdx.x * N;
  float* yr = y + blockIdx.x * N;
  float s = 0.0f;
  for (long long j = threadIdx.x; j < N; j += THREADS) s += expf(xr[j]);
  const float inv = 1.0f / blockSum(s, red);
  for (long long j = threadIdx.x; j < N; j += THREADS) yr[j] = expf(xr[j]) * inv;
}
)";

// A layer norm with the one-pass variance E[x^2] - E[x]^2 in fp32: fine for
// a mean of 0, cancels catastrophically when the mean is large against the spread.
const std::string kLayerNormOnePass = kBlockSum + R"(
#define EPS 1e-5f
extern "C" __global__ void layernorm_kernel(const float* __restrict__ x, const float* __restrict__ weight,
                                            const float* __restrict__ bias, float* __restrict__ y,
                                            long long M, long long N) {
  __shared__ float red[THREADS];
  const float* xr = x + blockIdx.x * N;
  float* yr = y + blockIdx.x * N;
  float s = 0.0f, sq = 0.0f;
  for (long long j = threadIdx.x; j < N; j += THREADS) {
    s += xr[j];
    sq += xr[j] * xr[j];
  }
  const float mean = blockSum(s, red) / (float)N;
  const float var = blockSum(sq, red) / (float)N - mean * mean;
  const float rstd = rsqrtf(fmaxf(var, 0.0f) + EPS);
  for (long long j = threadIdx.x; j < N; j += THREADS) yr[j] = (xr[j] - mean) * rstd * weight[j] + bias[j];
}
)";

// Cross-entropy with log(sum exp(x)) and no max: overflows for large logits.
const std::string kCrossEntropyWithoutMax = kBlockSum + R"(
extern "C" __global__ void cross_entropy_kernel(const float* __restrict__ logits, const long long* __restrict__ targets,
                                                float* __restrict__ loss, long long M, long long V) {
  __shared__ float red[THREADS];
  const float* xr = logits + blockIdx.x * V;
  float s = 0.0f;
  for (long long j = threadIdx.x; j < V; j += THREADS) s += expf(xr[j]);
  const float sum = blockSum(s, red);
  if (threadIdx.x == 0) loss[blockIdx.x] = logf(sum) - xr[targets[blockIdx.x]];
}
)";

Evaluation validate(const Task& task, const KernelBinary& kernel) {
  EvaluationRequest r;
  r.task = &task;
  r.candidate = kernel;
  r.seeds = {1, 2, 3};
  r.time = false;
  Evaluation e = sharedEvaluator().evaluate(r);
  EXPECT_FALSE(sharedEvaluator().contextLost()) << e.detail;
  std::cout << "[ verdict  ] " << task.name << ": " << toString(e.status) << ": " << e.detail << "\n";
  return e;
}

// The built-in task without its stress cases.
Task withoutStress(const std::string& name) {
  TaskSpec spec = parseTaskSpec(builtinTask(name).specJson);
  EXPECT_FALSE(spec.stress.empty()) << name << " has no stress cases";
  spec.stress.clear();
  return taskFromJson(toJson(spec));
}

struct NaiveKernel {
  const char* task;
  std::string source;
  const char* entry;
  const char* stressCase;
};

TEST(StressCases, AKernelRightOnlyForUsualInputsPassesWithoutThemAndIsRefusedWithThem) {
  CRUCIBLE_REQUIRE_GPU();
  const NaiveKernel kernels[] = {
      {"softmax_f32_1024x1024", kSoftmaxWithoutMax, "softmax_kernel", "large logits"},
      {"cross_entropy_f32_1024x32000", kCrossEntropyWithoutMax, "cross_entropy_kernel", "large logits"},
      {"layernorm_f32_1024x1024", kLayerNormOnePass, "layernorm_kernel", "large mean"},
  };
  for (const auto& k : kernels) {
    SCOPED_TRACE(k.task);
    const KernelBinary binary = compileKernel(k.source, k.entry, "M");
    // The hole the stress cases close: the usual inputs cannot tell this kernel from a right one.
    EXPECT_EQ(validate(withoutStress(k.task), binary).status, CandidateStatus::Valid);
    const Evaluation e = validate(builtinTask(k.task), binary);
    EXPECT_EQ(e.status, CandidateStatus::Invalid) << e.detail;
    EXPECT_NE(e.detail.find(std::string("stress case '") + k.stressCase + "'"), std::string::npos) << e.detail;
  }
}

TEST(StressCases, EverySuiteBaselinePassesItsStressCases) {
  CRUCIBLE_REQUIRE_GPU();
  int withStress = 0;
  for (const auto& file : builtinTaskFiles()) {
    const Task task = taskFromJson(readTaskSpecText(file));
    if (parseTaskSpec(task.specJson).stress.empty()) continue;
    ++withStress;
    SCOPED_TRACE(task.name);
    const Evaluation e = validate(task, compileBaseline(task));
    EXPECT_EQ(e.status, CandidateStatus::Valid) << e.detail;
    EXPECT_NE(e.detail.find("stress case(s)"), std::string::npos) << e.detail;
  }
  EXPECT_GE(withStress, 6);  // softmax, cross-entropy and layer norm, two shapes each
}

}  // namespace
}  // namespace crucible::gputest
