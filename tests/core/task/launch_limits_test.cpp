// SPDX-License-Identifier: GPL-3.0-or-later
// The one check of a launch rule against CUDA's limits (launch_limits.h), which
// the task format, tunable kernels and model replies share: which field is
// wrong, with what value, and the SM count it was evaluated at.
#include <gtest/gtest.h>
#include "core/task/launch_limits.h"

namespace crucible {
namespace {

const std::map<std::string, std::int64_t> kAxes = {{"M", 4096}, {"N", 70000}};

LaunchRule rule(std::initializer_list<const char*> grid, std::initializer_list<const char*> block,
                const char* smem = "0") {
  LaunchRule r;
  int i = 0;
  for (const char* g : grid) r.grid[i++] = g;
  i = 0;
  for (const char* b : block) r.block[i++] = b;
  r.dynamicSmemBytes = smem;
  return r;
}

std::string textOf(const LaunchRule& r, const std::string& note = "") {
  const auto problem = launchLimitProblem(r, kAxes, note);
  return problem ? problem->text() : "fits";
}

TEST(LaunchLimits, ARuleInsideEveryLimitFits) {
  EXPECT_EQ(textOf(rule({"ceil_div(M, 128)", "M / 64", "64"}, {"128", "4", "2"}, "227 * 1024")), "fits");
  EXPECT_EQ(textOf(rule({"2147483647"}, {"1024"})), "fits");
}

TEST(LaunchLimits, EachLimitNamesItsFieldAndValue) {
  EXPECT_EQ(textOf(rule({"M", "N"}, {"128"})), "grid[1]: 'N' evaluates to 70000, above the CUDA limit 65535");
  EXPECT_EQ(textOf(rule({"M - M"}, {"128"})), "grid[0]: 'M - M' evaluates to 0, must be positive");
  EXPECT_EQ(textOf(rule({"M"}, {"1", "1", "65"})), "block[2]: '65' evaluates to 65, above the CUDA limit 64");
  EXPECT_EQ(textOf(rule({"M"}, {"32", "32", "2"})), "block: 2048 threads per block, above the CUDA limit 1024");
  EXPECT_EQ(textOf(rule({"M"}, {"128"}, "M * 64")),
            "dynamicSmemBytes: 'M * 64' evaluates to 262144, must be in [0, 232448]");
  EXPECT_EQ(textOf(rule({"M"}, {"128"}, "-1")), "dynamicSmemBytes: '-1' evaluates to -1, must be in [0, 232448]");
}

TEST(LaunchLimits, AnExpressionThatDoesNotEvaluateIsAProblemThatQuotesIt) {
  const auto problem = launchLimitProblem(rule({"ceil_div(Q, 128)"}, {"128"}), kAxes, "");
  ASSERT_TRUE(problem.has_value());
  EXPECT_EQ(problem->field, "grid[0]");
  EXPECT_EQ(problem->expression, "");
  EXPECT_NE(problem->message.find("unknown name 'Q' in expression 'ceil_div(Q, 128)'"), std::string::npos)
      << problem->message;
  EXPECT_NE(textOf(rule({"M"}, {"128"}, "1 / (M - M)")).find("dynamicSmemBytes: "), std::string::npos);
}

TEST(LaunchLimits, TheNoteFollowsTheValue) {
  EXPECT_EQ(textOf(rule({"M"}, {"N"}), " at sm_count = 7"),
            "block[0]: 'N' evaluates to 70000 at sm_count = 7, above the CUDA limit 1024");
}

}  // namespace
}  // namespace crucible
