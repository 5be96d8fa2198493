// SPDX-License-Identifier: GPL-3.0-or-later
// A task at a shape other than its file's (--axes, issue 21): strict text,
// axes the task has, bounded values, and a task of its own.
#include <gtest/gtest.h>

#include <string>
#include "core/task/axes_override.h"
#include "tests/core/task/spec_fixture.h"

namespace crucible {
namespace {

using Axes = std::map<std::string, std::int64_t>;

std::string parseError(const std::string& text) {
  try {
    parseAxesOverride(text);
  } catch (const AxesOverrideError& e) {
    return e.what();
  }
  return "(accepted)";
}

TaskSpec sample() { return parseTaskSpec(testing_support::validSpecJson().dump()); }

std::string overrideError(const TaskSpec& spec, const Axes& axes) {
  try {
    withAxes(spec, axes);
  } catch (const AxesOverrideError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(AxesOverride, ParsesNameEqualsValuePairs) {
  EXPECT_EQ(parseAxesOverride("M=4096,N=5003"), (Axes{{"M", 4096}, {"N", 5003}}));
  EXPECT_EQ(parseAxesOverride("BLOCK_K=1"), (Axes{{"BLOCK_K", 1}}));
  EXPECT_EQ(parseAxesOverride("N=2147483647"), (Axes{{"N", 2147483647}}));
}

TEST(AxesOverride, RefusesMalformedTextNamingTheAxisOrThePiece) {
  EXPECT_EQ(parseError(""), "empty (write NAME=VALUE[,NAME=VALUE...], e.g. M=4096,N=5003)");
  EXPECT_EQ(parseError("M4096"), "'M4096': 'M4096' is not NAME=VALUE (e.g. M=4096)");
  EXPECT_EQ(parseError("M=1,,N=2"), "'M=1,,N=2': an empty NAME=VALUE between commas");
  EXPECT_EQ(parseError("M=1,"), "'M=1,': an empty NAME=VALUE between commas");
  EXPECT_EQ(parseError("=5"), "'=5': '' is not an axis name");
  EXPECT_EQ(parseError("1M=5"), "'1M=5': '1M' is not an axis name");
  EXPECT_EQ(parseError("M =5"), "'M =5': 'M ' is not an axis name");
  for (const char* junk : {"", "12abc", " 12", "+12", "-12", "1e3", "0x10", "1.5", "nan", "inf"})
    EXPECT_EQ(parseError(std::string("M=") + junk), std::string("axis M must be a whole number, not '") + junk + "'")
        << junk;
  EXPECT_EQ(parseError("M=0"), "axis M must be from 1 to 2147483647, not 0");
  EXPECT_EQ(parseError("N=2147483648"), "axis N must be from 1 to 2147483647, not 2147483648");
  EXPECT_EQ(parseError("N=99999999999999999999999"), "axis N must be from 1 to 2147483647, not 99999999999999999999999");
  EXPECT_EQ(parseError("M=4,N=5,M=6"), "axis M is given twice");
  EXPECT_NE(parseError(std::string(kMaxAxesOverrideText + 1, 'M')).find("more than the limit of 4096"), std::string::npos);
}

TEST(AxesOverride, TheTaskAtTheNewShapeIsATaskOfItsOwn) {
  const TaskSpec file = sample();
  const TaskSpec at = withAxes(file, {{"M", 128}, {"N", 48}});
  EXPECT_EQ(at.name, "scale_f32_64x32.M-128.N-48");
  EXPECT_EQ(at.axes, (Axes{{"M", 128}, {"N", 48}}));
  EXPECT_NE(at.description.find("at M=128, N=48 by --axes; the file's shape: M=64, N=32"), std::string::npos)
      << at.description;
  EXPECT_EQ(resolveShape(at, at.inputs[0]), (std::vector<std::int64_t>{128, 48}));
  // Only the axes that change name the task: M stays as in the file.
  EXPECT_EQ(withAxes(file, {{"M", 64}, {"N", 16}}).name, "scale_f32_64x32.N-16");
  // The same shape as the file's is the file's task.
  EXPECT_EQ(withAxes(file, {{"M", 64}}).name, file.name);
  const std::string text = testing_support::validSpecJson().dump();
  EXPECT_EQ(withAxesText(text, {{"M", 64}, {"N", 32}}), text);
  EXPECT_EQ(parseTaskSpec(withAxesText(text, {{"N", 16}})).name, "scale_f32_64x32.N-16");
}

TEST(AxesOverride, RefusesAnAxisTheTaskDoesNotHave) {
  EXPECT_EQ(overrideError(sample(), {{"K", 8}}), "task scale_f32_64x32 has no axis K (its axes: M, N)");
}

TEST(AxesOverride, SanitizerShapesComeDownToTheNewAxes) {
  nlohmann::json j = testing_support::validSpecJson();
  j["sanitizeAxes"] = {{"M", 16}};
  const TaskSpec file = parseTaskSpec(j.dump());
  EXPECT_EQ(withAxes(file, {{"M", 8}}).sanitizeAxes.at("M"), 8);
  EXPECT_EQ(withAxes(file, {{"M", 4096}}).sanitizeAxes.at("M"), 16);
}

TEST(AxesOverride, AShapeNoGpuHoldsOrTheSpecCannotRunAtIsRefused) {
  // 2^31 x 2^31 floats: far beyond the bound on the task's tensors.
  const std::string huge = overrideError(sample(), {{"M", 2147483647}, {"N", 2147483647}});
  EXPECT_NE(huge.find("at M=2147483647, N=2147483647, "), std::string::npos) << huge;
  EXPECT_NE(huge.find("more than 64 GiB"), std::string::npos) << huge;
  // The baseline's grid is ceil_div(M*N, 256) in x: fine. A task whose block is an axis breaks the launch limits.
  nlohmann::json j = testing_support::validSpecJson();
  j["baseline"]["launch"]["block"] = {"N"};
  j["baseline"]["launch"]["grid"] = {"M"};
  const TaskSpec blockIsN = parseTaskSpec(j.dump());
  const std::string tooWide = overrideError(blockIsN, {{"N", 4096}});
  EXPECT_NE(tooWide.find("at N=4096, the task is not valid: baseline.launch.block"), std::string::npos) << tooWide;
}

TEST(AxesOverride, ANameTooLongForATaskIsRefused) {
  nlohmann::json j = testing_support::validSpecJson();
  j["name"] = std::string(120, 's');
  const std::string e = overrideError(parseTaskSpec(j.dump()), {{"M", 128}, {"N", 48}});
  EXPECT_NE(e.find("the task is not valid: name"), std::string::npos) << e;
}

}  // namespace
}  // namespace crucible
