// SPDX-License-Identifier: GPL-3.0-or-later
// The driver's launch-parameter memory on a real GPU (parameter_ring.h): a
// kernel that keeps a mark past its parameters, in its slot or another, is
// refused, naming that memory; one that only reads its parameters by address
// (as TMA kernels do) is valid and timed. And a kernel whose binary declares
// parameters other than the task's is refused before it runs
// (kernel_parameters.h).
#include <gtest/gtest.h>
#include <string>
#include "gelu_kernels.h"
#include "gpu_test_support.h"

namespace crucible::gputest {
namespace {

// Correct gelu that takes N as a __grid_constant__ (its address is where the
// driver put the launch's parameters) and adds 1 to the word at `target`, an
// expression of that address `at`. The address is taken as an integer (cvta.param) and hidden from the
// optimiser: indexed straight off &N, nvcc 13 emitted a generic load from the
// parameter's param-space offset, which faults.
std::string parameterWriter(const std::string& target) {
  return std::string(CRUCIBLE_GELU_PRELUDE) + R"(
extern "C" __global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ y, const __grid_constant__ long long N) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0) {
    unsigned long long at = (unsigned long long)&N;
    asm volatile("" : "+l"(at));
    *(volatile unsigned long long*)()" + target + R"() += 1;
  }
  if (i < N) y[i] = gelu(x[i]);
})";
}

// Correct gelu that reads N through its generic address, as a TMA kernel
// hands its tensor map's to the copy engine.
const char* kReadsItsParameterByAddress = CRUCIBLE_GELU_PRELUDE R"(
extern "C" __global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ y, const __grid_constant__ long long N) {
  unsigned long long at = (unsigned long long)&N;
  asm volatile("" : "+l"(at));
  const long long n = *(const volatile long long*)at;
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = gelu(x[i]);
})";

// Correct gelu that declares a fourth parameter of 4 KiB: the driver would
// copy it from host memory past the worker's three arguments.
const char* kDeclaresAnExtraParameter = CRUCIBLE_GELU_PRELUDE R"(
struct HostBytes { unsigned long long w[512]; };
extern "C" __global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ y, long long N, const __grid_constant__ HostBytes host) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) y[i] = gelu(x[i]) + (host.w[i & 511] == 0x5EC2E7ull ? 1.0f : 0.0f);
})";

// Correct gelu that declares N as an int: 4 of the 8 bytes the task passes.
const char* kDeclaresASmallerParameter = CRUCIBLE_GELU_PRELUDE R"(
extern "C" __global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ y, int N) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) y[i] = gelu(x[i]);
})";

// `source` validated on seeds 1 to 3 (not timed) in the shared evaluator; the verdict is printed.
Evaluation validate(const std::string& source) {
  EvaluationRequest r;
  const Task& task = builtinTask(kGeluTask);
  r.task = &task;
  r.candidate = compileKernel(source, kGeluEntry, kGeluGrid);
  r.seeds = {1, 2, 3};
  r.time = false;
  Evaluation e = sharedEvaluator().evaluate(r);
  EXPECT_FALSE(sharedEvaluator().contextLost()) << e.detail;
  std::cout << "[ verdict  ] " << toString(e.status) << ": " << e.detail << "\n";
  return e;
}

TEST(ParameterRing, AMarkPastTheKernelsParametersIsRefused) {
  CRUCIBLE_REQUIRE_GPU();
  // 8 KiB past them: its own slot's tail, then the next slot's.
  for (const char* target : {"at + 8192", "at + 65536 + 8192"}) {
    const Evaluation e = validate(parameterWriter(target));
    EXPECT_EQ(e.status, CandidateStatus::Invalid) << target << ": " << e.detail;
    EXPECT_NE(e.detail.find("driver's memory around the kernel's launch parameters"), std::string::npos) << e.detail;
  }
  // 1 MiB into the page before: the legacy stream's ring lies there (H100, probe_param_page).
  const Evaluation e = validate(parameterWriter("(at & ~((2ull << 20) - 1)) - (1ull << 20)"));
  EXPECT_EQ(e.status, CandidateStatus::Invalid) << e.detail;
  EXPECT_NE(e.detail.find("the legacy stream's launch parameters"), std::string::npos) << e.detail;
}

TEST(ParameterRing, AKernelThatReadsItsParametersByAddressIsValidAndTimed) {
  CRUCIBLE_REQUIRE_GPU();
  const Evaluation e =
      evaluateTimed(builtinTask(kGeluTask), compileKernel(kReadsItsParameterByAddress, kGeluEntry, kGeluGrid), {1, 2, 3});
  EXPECT_FALSE(sharedEvaluator().contextLost()) << e.detail;
  EXPECT_EQ(e.status, CandidateStatus::Valid) << e.detail;
  EXPECT_TRUE(e.timing.has_value());
  EXPECT_EQ(e.detail.find("launch-parameter memory is not watched"), std::string::npos) << e.detail;
}

TEST(KernelParameters, AKernelThatDeclaresOtherParametersThanTheTasksIsRefusedBeforeItRuns) {
  CRUCIBLE_REQUIRE_GPU();
  const Evaluation extra = validate(kDeclaresAnExtraParameter);
  EXPECT_EQ(extra.status, CandidateStatus::Invalid) << extra.detail;
  EXPECT_NE(extra.detail.find("takes 4 parameter(s), not the task's 3"), std::string::npos) << extra.detail;
  EXPECT_TRUE(extra.trials.empty()) << "refused before any trial ran";
  const Evaluation smaller = validate(kDeclaresASmallerParameter);
  EXPECT_EQ(smaller.status, CandidateStatus::Invalid) << smaller.detail;
  EXPECT_NE(smaller.detail.find("parameter 3 is 4 bytes, not the 8"), std::string::npos) << smaller.detail;
}

}  // namespace
}  // namespace crucible::gputest
