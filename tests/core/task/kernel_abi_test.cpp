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

// Template kernels put launch attributes between `void` and the name; anything else there is not the ABI.
TEST(KernelAbi, SourceCheckAllowsLaunchAttributesBeforeTheName) {
  const TaskSpec s = parseTaskSpec(testing_support::validSpecJson().dump());
  const std::string params =
      "(const float* __restrict__ x, const long long* __restrict__ idx, float* __restrict__ y, long long M, long long N) {}";
  const std::string bounded = "extern \"C\" __global__ void __launch_bounds__(THREADS, 1) scale_kernel" + params;
  EXPECT_TRUE(sourceHasSignature(bounded, s, KernelRole::Candidate, "scale_kernel"));
  const std::string clustered =
      "extern \"C\" __global__ void __cluster_dims__(CLUSTER_M, 1, 1) __launch_bounds__(min(256, (N)), 2)\n"
      "    scale_kernel" + params;
  EXPECT_TRUE(sourceHasSignature(clustered, s, KernelRole::Candidate, "scale_kernel"));
  EXPECT_FALSE(sourceHasSignature("extern \"C\" __global__ void wrapper(int) scale_kernel" + params, s,
                                  KernelRole::Candidate, "scale_kernel"));
  EXPECT_FALSE(sourceHasSignature("extern \"C\" __global__ void other_scale_kernel" + params, s, KernelRole::Candidate,
                                  "scale_kernel"));
  EXPECT_FALSE(sourceHasSignature("__global__ void __launch_bounds__(256) scale_kernel" + params, s,
                                  KernelRole::Candidate, "scale_kernel"));  // not extern "C"
}

// ---------------------------------------------------------------- tensor maps

TEST(KernelAbi, TensorMapsAreParametersAfterTheTasksInRuleOrder) {
  const TaskSpec s = parseTaskSpec(testing_support::validSpecJson().dump());
  const std::vector<TensorMapRule> maps = {{"y", 16, 8, "none"}, {"x", 32, 32, "128B"}};
  const auto p = kernelParameters(s, KernelRole::Candidate, maps);
  ASSERT_EQ(p.size(), 7u);
  EXPECT_EQ(p[5].type, "const __grid_constant__ CUtensorMap");
  EXPECT_EQ(p[5].name, "tmap_y");
  EXPECT_EQ(p[6].name, "tmap_x");
  EXPECT_EQ(kernelSignature(s, KernelRole::Candidate, "k", maps),
            "extern \"C\" __global__ void k(const float* __restrict__ x, const long long* __restrict__ idx, "
            "float* __restrict__ y, long long M, long long N, const __grid_constant__ CUtensorMap tmap_y, "
            "const __grid_constant__ CUtensorMap tmap_x)");
  // Without maps the signature is exactly what it always was.
  EXPECT_EQ(kernelSignature(s, KernelRole::Candidate, "k", {}), kernelSignature(s, KernelRole::Candidate, "k"));
}

TEST(KernelAbi, SourceCheckWantsTheTensorMapParameters) {
  const TaskSpec s = parseTaskSpec(testing_support::validSpecJson().dump());
  const std::vector<TensorMapRule> maps = {{"x", 32, 32, "none"}};
  const std::string source = tensorMapTypeDeclaration() +
                             "\nextern \"C\" __global__ void k(const float* __restrict__ x,\n"
                             "  const long long* __restrict__ idx, float* __restrict__ y, long long M, long long N,\n"
                             "  const __grid_constant__ CUtensorMap tmap_x) {}";
  EXPECT_TRUE(sourceHasSignature(source, s, KernelRole::Candidate, "k", maps));
  EXPECT_FALSE(sourceHasSignature(source, s, KernelRole::Candidate, "k"));  // the ABI without maps ends at N)
  EXPECT_FALSE(sourceHasSignature(source, s, KernelRole::Candidate, "k", {{"y", 32, 32, "none"}}));
}

TEST(KernelAbi, TheTensorMapTypeHasTheDriversSizeAndAlignment) {
  EXPECT_EQ(tensorMapTypeDeclaration(), "struct alignas(64) CUtensorMap { unsigned long long opaque[16]; };");
}

TEST(KernelAbi, ATensorIsAMatrixOfItsLastAxisByTheRest) {
  nlohmann::json j = testing_support::validSpecJson();
  j["axes"]["B"] = 3;
  j["outputs"][0]["shape"] = {"B", "M", "N"};
  j["minBytes"] = "4*M*N + 8*M + 12*M*N";
  const TaskSpec s = parseTaskSpec(j.dump());
  const TensorMatrix x = tensorMatrix(s, "x");
  EXPECT_EQ(x.rows, 64);
  EXPECT_EQ(x.cols, 32);
  EXPECT_EQ(x.elementBytes, 4u);
  EXPECT_EQ(x.rowStrideBytes(), 128);
  const TensorMatrix y = tensorMatrix(s, "y");
  EXPECT_EQ(y.rows, 3 * 64);
  EXPECT_EQ(y.cols, 32);
  const TensorMatrix idx = tensorMatrix(s, "idx");  // a vector: one row
  EXPECT_EQ(idx.rows, 1);
  EXPECT_EQ(idx.cols, 64);
  EXPECT_EQ(idx.elementBytes, 8u);
  EXPECT_THROW(tensorMatrix(s, "z"), std::invalid_argument);
}

TEST(KernelAbi, GoodTensorMapRulesHaveNoProblems) {
  const TaskSpec s = parseTaskSpec(testing_support::validSpecJson().dump());
  EXPECT_TRUE(tensorMapProblems(s, {}).empty());
  // f32: 32 cols x 4 B = 128 B fits the 128B swizzle exactly; 4 cols x 4 B = 16 B is the smallest box row.
  const auto problems = tensorMapProblems(
      s, {{"x", 256, 32, "128B"}, {"y", 1, 4, "none"}, {"idx", 1, 2, "32B"}, {"y", 1, 1, "none"}});
  // Only the last rule is wrong (twice: a repeated tensor, and 1 x 4 B is not 16 B).
  ASSERT_EQ(problems.size(), 2u) << ::testing::PrintToString(problems);
  EXPECT_EQ(problems[0], "tensorMaps[3] (y): a second map of the same tensor (tensorMaps[1]): both would be the "
                         "parameter tmap_y");
  EXPECT_EQ(problems[1], "tensorMaps[3] (y): box cols 1 x 4 B (f32) = 4 B is not a multiple of 16 bytes");
}

TEST(KernelAbi, EachTensorMapProblemNamesItsRule) {
  const TaskSpec s = parseTaskSpec(testing_support::validSpecJson().dump());
  auto problemsOf = [&](const TensorMapRule& rule) {
    // Behind a good rule, so that the index in the message is checked too.
    const auto p = tensorMapProblems(s, {{"x", 8, 8, "none"}, rule});
    return ::testing::PrintToString(p);
  };
  EXPECT_EQ(problemsOf({"z", 8, 8, "none"}),
            ::testing::PrintToString(std::vector<std::string>{
                "tensorMaps[1] (z): unknown tensor 'z' (not an input or output of task 'scale_f32_64x32')"}));
  EXPECT_EQ(problemsOf({"y", 300, 8, "none"}),
            ::testing::PrintToString(std::vector<std::string>{"tensorMaps[1] (y): box rows 300 outside 1..256"}));
  EXPECT_EQ(problemsOf({"y", 0, 8, "none"}),
            ::testing::PrintToString(std::vector<std::string>{"tensorMaps[1] (y): box rows 0 outside 1..256"}));
  EXPECT_EQ(problemsOf({"y", 8, 512, "none"}),
            ::testing::PrintToString(std::vector<std::string>{"tensorMaps[1] (y): box cols 512 outside 1..256"}));
  EXPECT_EQ(problemsOf({"y", 8, 6, "none"}),
            ::testing::PrintToString(std::vector<std::string>{
                "tensorMaps[1] (y): box cols 6 x 4 B (f32) = 24 B is not a multiple of 16 bytes"}));
  EXPECT_EQ(problemsOf({"y", 8, 16, "32B"}),
            ::testing::PrintToString(std::vector<std::string>{
                "tensorMaps[1] (y): box cols 16 x 4 B (f32) = 64 B exceed the 32B swizzle span"}));
  EXPECT_EQ(problemsOf({"y", 8, 8, "256B"}),
            ::testing::PrintToString(std::vector<std::string>{
                "tensorMaps[1] (y): unknown swizzle '256B' (none, 32B, 64B or 128B)"}));
}

TEST(KernelAbi, ARowStrideThatIsNotSixteenBytesCannotBeMapped) {
  nlohmann::json j = testing_support::validSpecJson();
  j["axes"]["N"] = 30;  // 30 x 4 B = 120 B per row
  const TaskSpec s = parseTaskSpec(j.dump());
  const auto problems = tensorMapProblems(s, {{"x", 8, 8, "none"}});
  ASSERT_EQ(problems.size(), 1u) << ::testing::PrintToString(problems);
  EXPECT_EQ(problems[0],
            "tensorMaps[0] (x): row stride 30 x 4 B (f32) = 120 B is not a multiple of 16 bytes below 2^40");
}

TEST(KernelAbi, TheOracleTakesNoTensorMaps) {
  const TaskSpec s = parseTaskSpec(testing_support::validSpecJson().dump());
  const auto problems = tensorMapProblems(s, {{"x", 8, 8, "none"}}, KernelRole::Oracle);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0], "tensorMaps[0] (x): the oracle takes no tensor maps (they are for candidates and baselines)");
}

TEST(KernelAbi, SwizzleSpans) {
  EXPECT_EQ(swizzleBytes("none"), 0);
  EXPECT_EQ(swizzleBytes("32B"), 32);
  EXPECT_EQ(swizzleBytes("64B"), 64);
  EXPECT_EQ(swizzleBytes("128B"), 128);
  EXPECT_EQ(swizzleBytes("128"), -1);
  EXPECT_EQ(swizzleBytes(""), -1);
}

}  // namespace
}  // namespace crucible
