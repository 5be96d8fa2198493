// SPDX-License-Identifier: GPL-3.0-or-later
// The driver's memory around a candidate's module variables (DriverPagesWatch)
// on a real GPU: a kernel that keeps something past its own variable is
// refused, naming that memory, and so is one that writes its own constants or
// past them through cvta.const; a kernel that only uses its own variables and
// constants is valid, timed beside a reference that has variables of its own.
#include <gtest/gtest.h>
#include <string>
#include "gelu_kernels.h"
#include "gpu_test_support.h"

namespace crucible::gputest {
namespace {

// Correct gelu whose launches also leave a word 32 KiB past its variable, in
// the driver's page (as a kernel keeping results there would).
const char* kWritesPastItsVariable = CRUCIBLE_GELU_PRELUDE R"(
__device__ unsigned long long anchor[4];
extern "C" __global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ y, long long N) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0) ((volatile unsigned long long*)anchor)[4096] = 0x4D41524Bull;
  if (i < N) y[i] = gelu(x[i]);
})";

// Correct gelu with a launch counter, an initialised table and constants: everything it writes is its own.
const char* kUsesItsOwnVariables = CRUCIBLE_GELU_PRELUDE R"(
__device__ int calls;  // 4 bytes: the watched memory after it starts 4-byte aligned
__device__ unsigned long long launches;
__device__ float ones[4] = {1.0f, 1.0f, 1.0f, 1.0f};
__constant__ float scale[2] = {1.0f, 0.0f};
extern "C" __global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ y, long long N) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0) atomicAdd(&launches, 1ull);
  if (i == 1) atomicAdd(&calls, 1);
  if (i < 4) ones[i] = 1.0f;
  if (i < N) y[i] = gelu(x[i]) * scale[0] * ones[i & 3] + scale[1];
})";

// Correct gelu whose only module variable is a constant; its launches write a
// counter into that constant through the generic address cvta.const gives (the
// write outlives the launch: probe_module_constant), or a word 32 KiB past it.
std::string constantWriter(const std::string& word) {
  return std::string(CRUCIBLE_GELU_PRELUDE) + R"(
__constant__ unsigned long long table[2] = {1, 0};
extern "C" __global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ y, long long N) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0) {
    unsigned long long at;
    asm volatile("cvta.const.u64 %0, table;" : "=l"(at));
    ((volatile unsigned long long*)at)[)" + word + R"(] += 1;
  }
  if (i < N) y[i] = gelu(x[i]) * (float)table[0];
})";
}
const std::string kWritesItsConstant = constantWriter("1");
const std::string kWritesPastItsConstant = constantWriter("4096");

// Correct gelu whose only module variable is a constant it reads: its pages are watched, and nothing changes them.
const char* kReadsOnlyItsConstant = CRUCIBLE_GELU_PRELUDE R"(
__constant__ float scale[2] = {1.0f, 0.0f};
extern "C" __global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ y, long long N) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) y[i] = gelu(x[i]) * scale[0] + scale[1];
})";

// The reference timed beside it, with a variable of its own that it writes at every launch.
const char* kReferenceWithAVariable = CRUCIBLE_GELU_PRELUDE R"(
__device__ unsigned long long reference_launches;
extern "C" __global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ y, long long N) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0) atomicAdd(&reference_launches, 1ull);
  if (i < N) y[i] = gelu(x[i]);
})";

Evaluation evaluate(const Task& task, const KernelBinary& candidate, const KernelBinary* reference) {
  EvaluationRequest r;
  r.task = &task;
  r.candidate = candidate;
  if (reference) r.reference = *reference;
  r.seeds = {1, 2, 3};
  r.time = reference != nullptr;
  Evaluation e = sharedEvaluator().evaluate(r);
  EXPECT_FALSE(sharedEvaluator().contextLost()) << e.detail;
  std::cout << "[ verdict  ] " << toString(e.status) << ": " << e.detail << "\n";
  return e;
}

// The candidate refused, naming the driver's memory it wrote.
void expectRefusedForTheDriversMemory(const std::string& source) {
  const Evaluation e = evaluate(builtinTask(kGeluTask), compileKernel(source, kGeluEntry, kGeluGrid), nullptr);
  EXPECT_EQ(e.status, CandidateStatus::Invalid) << e.detail;
  EXPECT_NE(e.detail.find("driver's memory around the kernel's module variables"), std::string::npos) << e.detail;
}

// The candidate valid and timed beside a reference that writes a variable of its own.
void expectValidAndTimed(const std::string& source) {
  const KernelBinary reference = compileKernel(kReferenceWithAVariable, kGeluEntry, kGeluGrid);
  const Evaluation e = evaluate(builtinTask(kGeluTask), compileKernel(source, kGeluEntry, kGeluGrid), &reference);
  EXPECT_EQ(e.status, CandidateStatus::Valid) << e.detail;
  EXPECT_TRUE(e.timing.has_value());
}

TEST(ModulePages, AWordLeftPastTheKernelsOwnVariableIsRefused) {
  CRUCIBLE_REQUIRE_GPU();
  expectRefusedForTheDriversMemory(kWritesPastItsVariable);
}

TEST(ModulePages, AKernelThatWritesOnlyItsOwnVariablesIsValidTimedBesideAReferenceWithVariables) {
  CRUCIBLE_REQUIRE_GPU();
  expectValidAndTimed(kUsesItsOwnVariables);
  // The same again: the next candidate's module may land in the pages the last one left.
  expectValidAndTimed(kUsesItsOwnVariables);
}

TEST(ModulePages, AKernelThatWritesItsOwnConstantIsRefused) {
  CRUCIBLE_REQUIRE_GPU();
  expectRefusedForTheDriversMemory(kWritesItsConstant);
  expectRefusedForTheDriversMemory(kWritesPastItsConstant);
}

TEST(ModulePages, AKernelThatOnlyReadsItsConstantsIsValidAndTimed) {
  CRUCIBLE_REQUIRE_GPU();
  expectValidAndTimed(kReadsOnlyItsConstant);
}

}  // namespace
}  // namespace crucible::gputest
