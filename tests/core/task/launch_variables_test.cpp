// SPDX-License-Identifier: GPL-3.0-or-later
// sm_count in launch rules (issue 20, core/task/launch_variables.h): evaluated
// with a GPU's SM count, refused where none is known and in every other
// expression, never an axis or a tunable parameter; a task's or tunable
// kernel's rule that uses it is checked at each SM count it could meet, and
// a refusal says which one.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include "core/task/expression.h"
#include "core/task/launch_variables.h"
#include "core/task/tunable_kernel.h"
#include "spec_fixture.h"

namespace crucible {
namespace {

using nlohmann::json;
using testing::HasSubstr;

const std::map<std::string, std::int64_t> kAxes = {{"M", 8192}, {"N", 8192}};

std::string messageOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(SmCount, EvaluatesWithTheSmCountOfTheGpu) {
  // The persistent GEMM's grid: 64 x 32 tiles of 128 x 256, at most one block per SM.
  const std::string grid = "min(ceil_div(N, 256) * ceil_div(M, 128), sm_count)";
  EXPECT_EQ(evaluateAxisExpression(grid, launchNames(kAxes, 132)), 132);
  EXPECT_EQ(evaluateAxisExpression(grid, launchNames(kAxes, 16)), 16);
  EXPECT_EQ(evaluateAxisExpression(grid, launchNames({{"M", 1000}, {"N", 1000}}, 132)), 8 * 4);  // fewer tiles than SMs
  // Integer division truncates, as in C (and as suite_bench.py's evaluator does).
  EXPECT_EQ(evaluateAxisExpression("sm_count / 2 * 2", launchNames(kAxes, 133)), 132);
  EXPECT_EQ(evaluateAxisExpression("(0 - sm_count) / 2", launchNames(kAxes, 133)), -66);
  EXPECT_EQ(evaluateAxisExpression("ceil_div(M, sm_count)", launchNames(kAxes, 132)), 63);
  EXPECT_EQ(evaluateAxisExpression("ceil_div(0 - sm_count, 0 - 5)", launchNames(kAxes, 132)), 27);
  EXPECT_EQ(evaluateAxisExpression("max(1, -(-(sm_count % 7)) - 3)", launchNames(kAxes, 132)), 3);
}

TEST(SmCount, IsRefusedWhereNoGpuIsKnown) {
  // Over the axes alone (a shape, flops, a rule where no GPU is known) it is not an unknown
  // axis: the message says where it is known.
  const std::string m = messageOf([] { evaluateAxisExpression("min(M, sm_count)", kAxes); });
  EXPECT_THAT(m, HasSubstr("'sm_count' (the GPU's SM count) is known only in a launch rule evaluated for a GPU"));
  EXPECT_EQ(launchNames(kAxes, 0), kAxes);  // 0: not known, nothing added
  EXPECT_THAT(messageOf([] { launchNames(kAxes, -1); }), HasSubstr("not a GPU's"));
  EXPECT_THAT(messageOf([] { launchNames({{"sm_count", 4}}, 132); }), HasSubstr("not an axis or parameter"));
}

TEST(SmCount, IsFoundAsAWholeNameOnly) {
  EXPECT_TRUE(usesSmCount("sm_count"));
  EXPECT_TRUE(usesSmCount("min(ceil_div(M, 128), sm_count / 2 * 2)"));
  EXPECT_TRUE(usesSmCount("2*sm_count"));
  EXPECT_FALSE(usesSmCount("sm_counts"));
  EXPECT_FALSE(usesSmCount("my_sm_count + 1"));
  EXPECT_FALSE(usesSmCount("ceil_div(M, 128)"));
  LaunchRule rule;
  EXPECT_FALSE(usesSmCount(rule));
  EXPECT_EQ(smCountsCheckedWithoutGpu(rule), (std::vector<std::int64_t>{0}));
  rule.dynamicSmemBytes = "1024 * sm_count";
  EXPECT_TRUE(usesSmCount(rule));
  EXPECT_EQ(smCountsCheckedWithoutGpu(rule),
            std::vector<std::int64_t>(std::begin(kSmCountsCheckedWithoutGpu), std::end(kSmCountsCheckedWithoutGpu)));
  EXPECT_EQ(smCountNote(0), "");
  EXPECT_THAT(smCountNote(1), HasSubstr("at sm_count = 1 (no GPU is known here"));
}

// ---------------------------------------------------------------- task specs

std::string specError(const std::function<void(json&)>& mutate, std::string* field = nullptr) {
  json j = testing_support::validSpecJson();
  mutate(j);
  try {
    parseTaskSpec(j.dump());
  } catch (const TaskSpecError& e) {
    if (field) *field = e.field();
    return e.what();
  }
  return "(no error)";
}

TEST(SmCount, NoAxisMayBeNamedSmCount) {
  std::string field;
  const std::string m = specError([](json& j) { j["axes"]["sm_count"] = 132; }, &field);
  EXPECT_EQ(field, "axes.sm_count");
  EXPECT_THAT(m, HasSubstr("is the GPU's SM count in launch rules"));
}

TEST(SmCount, ATaskLaunchRuleMayUseIt) {
  json j = testing_support::validSpecJson();
  j["baseline"]["launch"]["grid"][0] = "min(ceil_div(M*N, 256), 4 * sm_count)";
  const TaskSpec s = parseTaskSpec(j.dump());
  EXPECT_EQ(s.baseline.launch.grid[0], "min(ceil_div(M*N, 256), 4 * sm_count)");
  EXPECT_EQ(parseTaskSpec(toJson(s)).baseline.launch.grid[0], s.baseline.launch.grid[0]);
}

TEST(SmCount, ATaskLaunchRuleIsCheckedAtEverySmCountItCouldMeet) {
  std::string field;
  // Positive on a big GPU, 0 on a one-SM device.
  std::string m = specError([](json& j) { j["baseline"]["launch"]["grid"][0] = "sm_count - 1"; }, &field);
  EXPECT_EQ(field, "baseline.launch.grid[0]");
  EXPECT_THAT(m, HasSubstr("evaluates to 0 at sm_count = 1 (no GPU is known here"));
  // Within the limit at 1 SM, above it on a big GPU.
  m = specError([](json& j) { j["baseline"]["launch"]["dynamicSmemBytes"] = "1024 * sm_count"; }, &field);
  EXPECT_EQ(field, "baseline.launch.dynamicSmemBytes");
  EXPECT_THAT(m, HasSubstr("at sm_count = 1024"));
  m = specError([](json& j) { j["baseline"]["launch"]["grid"][0] = "ceil_div(M, 128 - sm_count)"; }, &field);
  EXPECT_THAT(m, HasSubstr("at sm_count = 1024"));
}

TEST(SmCount, OnlyLaunchRulesMayUseIt) {
  std::string field;
  const std::string m = specError([](json& j) { j["flops"] = "M * N * sm_count"; }, &field);
  EXPECT_EQ(field, "flops");
  EXPECT_THAT(m, HasSubstr("known only in a launch rule"));
  specError([](json& j) { j["outputs"][0]["shape"][0] = "sm_count"; }, &field);
  EXPECT_EQ(field, "outputs[0].shape[0]");
}

// ---------------------------------------------------------------- tunable kernels

const char* kSource = R"CU(extern "C" __global__ void scale_kernel(const float* __restrict__ x,
    const long long* __restrict__ idx, float* __restrict__ y, long long M, long long N) {
  for (long long i = (long long)blockIdx.x * THREADS + threadIdx.x; i < M * N; i += (long long)gridDim.x * THREADS)
    y[i] = 2.0f * x[i];
}
)CU";

TaskSpec task() { return parseTaskSpec(testing_support::validSpecJson().dump()); }  // M=64, N=32

std::string bindError(const std::string& doc, std::string* field = nullptr) {
  try {
    TunableKernel k("scale", kSource, parseTuneSpec(doc), task());
  } catch (const TaskSpecError& e) {
    if (field) *field = e.field();
    return e.what();
  }
  return "(no error)";
}

TEST(SmCount, NoTunableParameterMayBeNamedSmCount) {
  try {
    parseTuneSpec(R"({"parameters": {"sm_count": [1, 2]}, "launch": {"grid": [1], "block": [32]}})");
    FAIL() << "a parameter named sm_count was accepted";
  } catch (const TaskSpecError& e) {
    EXPECT_EQ(e.field(), "parameters.sm_count");
    EXPECT_THAT(e.what(), HasSubstr("is the GPU's SM count in launch rules"));
  }
}

TEST(SmCount, ATunableLaunchRuleMaySizeItsGridToTheGpu) {
  const TunableKernel k("scale", kSource,
                        parseTuneSpec(R"J({"parameters": {"THREADS": [64, 128], "WAVES": [1, 2]},
                                          "launch": {"grid": ["min(ceil_div(M * N, THREADS), WAVES * sm_count)"],
                                                     "block": ["THREADS"]}})J"),
                        task());
  // The parameters are replaced; sm_count stays for the worker to resolve.
  const LaunchRule r = k.launchAt({{"THREADS", 128}, {"WAVES", 2}});
  EXPECT_EQ(r.grid[0], "min(ceil_div(M * N, 128), 2 * sm_count)");
  EXPECT_EQ(evaluateAxisExpression(r.grid[0], launchNames(task().axes, 4)), 8);
  EXPECT_EQ(evaluateAxisExpression(r.grid[0], launchNames(task().axes, 132)), 16);  // 64 * 32 / 128
  EXPECT_FALSE(k.problem({{"THREADS", 128}, {"WAVES", 2}}).has_value());
}

TEST(SmCount, ATunablePointIsCheckedAtEverySmCountItCouldMeet) {
  const TunableKernel k("scale", kSource,
                        parseTuneSpec(R"J({"parameters": {"THREADS": [64, 128], "OFF": [0, 1]},
                                          "launch": {"grid": ["sm_count - OFF"], "block": ["THREADS"]}})J"),
                        task());
  EXPECT_FALSE(k.problem({{"THREADS", 64}, {"OFF", 0}}).has_value());
  const auto why = k.problem({{"THREADS", 64}, {"OFF", 1}});
  ASSERT_TRUE(why.has_value());
  EXPECT_THAT(*why, HasSubstr("launch.grid[0]: 'sm_count - OFF' evaluates to 0 at sm_count = 1 (no GPU is known here"));
}

TEST(SmCount, RestrictionsMayNotUseIt) {
  std::string field;
  const std::string m = bindError(R"({"parameters": {"THREADS": [64, 128]}, "restrictions": ["THREADS <= sm_count"],
                                      "launch": {"grid": [1], "block": ["THREADS"]}})",
                                  &field);
  EXPECT_EQ(field, "restrictions[0]");
  EXPECT_THAT(m, HasSubstr("only the launch rule may use: restrictions are checked before any GPU is known"));
}

}  // namespace
}  // namespace crucible
