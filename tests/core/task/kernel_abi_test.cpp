// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>
#include "core/task/kernel_abi.h"
#include "tests/core/task/spec_fixture.h"

namespace crucible {
namespace {

TEST(KernelAbi, ParametersFollowTheSpecOrder) {
  const TaskSpec s = parseTaskSpec(testing_support::validSpecJson().dump());
  const auto p = kernelParameters(s, KernelRole::Candidate);
  ASSERT_EQ(p.size(), 5u);
  EXPECT_EQ(p[0].type, "const float* __restrict__");
  EXPECT_EQ(p[0].name, "x");
  EXPECT_EQ(p[1].type, "const long long* __restrict__");
  EXPECT_EQ(p[2].type, "float* __restrict__");
  EXPECT_EQ(p[2].name, "y");
  EXPECT_EQ(p[3].type, "long long");
  EXPECT_EQ(p[4].name, "N");
  EXPECT_EQ(kernelParameters(s, KernelRole::Oracle)[2].type, "double* __restrict__");
  EXPECT_EQ(kernelSignature(s, KernelRole::Candidate, "k"),
            "extern \"C\" __global__ void k(const float* __restrict__ x, const long long* __restrict__ idx, "
            "float* __restrict__ y, long long M, long long N)");
}

TEST(KernelAbi, SourceCheckIgnoresLayoutButNotTypes) {
  const TaskSpec s = parseTaskSpec(testing_support::validSpecJson().dump());
  EXPECT_TRUE(sourceHasSignature(s.baseline.source, s, KernelRole::Candidate, "scale_kernel"));
  EXPECT_TRUE(sourceHasSignature(s.oracle.source, s, KernelRole::Oracle, "scale_oracle"));
  EXPECT_FALSE(sourceHasSignature(s.oracle.source, s, KernelRole::Candidate, "scale_oracle"));  // double* output
  const std::string wrongOrder =
      "extern \"C\" __global__ void scale_kernel(const float* __restrict__ x, const long long* __restrict__ idx,\n"
      "    float* __restrict__ y, long long N, long long M) {}";
  EXPECT_FALSE(sourceHasSignature(wrongOrder, s, KernelRole::Candidate, "scale_kernel"));
  const std::string reflowed =
      "extern  \"C\"\n__global__ void scale_kernel(\n  const float* __restrict__ x,\n  const long long* __restrict__ idx,\n"
      "  float* __restrict__ y,\n  long long M,\n  long long N\n) {}";
  EXPECT_TRUE(sourceHasSignature(reflowed, s, KernelRole::Candidate, "scale_kernel"));
}

}  // namespace
}  // namespace crucible
