// SPDX-License-Identifier: GPL-3.0-or-later
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include "core/task/distribution_check.h"

namespace crucible {
namespace {

std::string problemOf(const Distribution& d, DType t) {
  const auto p = distributionProblem(d, t);
  return p ? p->field + ": " + p->message : "(fine)";
}

TEST(DistributionCheck, TheBuiltInSuitesDistributionsAreFine) {
  EXPECT_EQ(problemOf({"normal", 0, 1}, DType::F32), "(fine)");
  EXPECT_EQ(problemOf({"normal", 0, 1}, DType::BF16), "(fine)");
  EXPECT_EQ(problemOf({"uniform", -1, 1}, DType::BF16), "(fine)");
  EXPECT_EQ(problemOf({"uniform", 0.5, 1.5}, DType::F32), "(fine)");
  EXPECT_EQ(problemOf({"randint", 0, 32000}, DType::I32), "(fine)");
  EXPECT_EQ(problemOf({"randint", -7, 7}, DType::I64), "(fine)");
  EXPECT_EQ(problemOf({"randint", 0, 1e15}, DType::I64), "(fine)");
  EXPECT_EQ(problemOf({"normal", 1e300, 1e299}, DType::F64), "(fine)");
}

TEST(DistributionCheck, DrawsMustStayFiniteInTheDtype) {
  EXPECT_THAT(problemOf({"normal", 1.8e308, 1}, DType::F32), testing::StartsWith("mean: "));
  EXPECT_THAT(problemOf({"normal", 1e308, 1e307}, DType::F64), testing::HasSubstr("largest finite f64"));
  EXPECT_THAT(problemOf({"normal", 0, 10000}, DType::F16), testing::HasSubstr("largest finite f16"));
  EXPECT_THAT(problemOf({"uniform", -1.7e308, 1.7e308}, DType::F64), testing::HasSubstr("overflows double"));
  EXPECT_THAT(problemOf({"uniform", 0, 70000}, DType::F16), testing::StartsWith("high: "));
  EXPECT_THAT(problemOf({"randint", 0, 70000}, DType::F16), testing::HasSubstr("largest finite f16"));
  EXPECT_EQ(problemOf({"randint", 0, 65505}, DType::F16), "(fine)");  // [0, 65505) tops out at 65504
}

TEST(DistributionCheck, DrawsMustVary) {
  EXPECT_THAT(problemOf({"normal", 1000, 0.01}, DType::F16), testing::HasSubstr("same few values"));
  EXPECT_THAT(problemOf({"normal", 0, 1e-5}, DType::F16), testing::HasSubstr("smallest normal f16"));
  EXPECT_THAT(problemOf({"uniform", 1, 1.001}, DType::BF16), testing::HasSubstr("narrower"));
  EXPECT_THAT(problemOf({"uniform", 0, 1e-310}, DType::F64), testing::HasSubstr("smallest normal"));
  EXPECT_THAT(problemOf({"randint", -1, 0}, DType::I32), testing::HasSubstr("single value"));
  EXPECT_THAT(problemOf({"randint", 0, 9007199254740994.0}, DType::I64), testing::HasSubstr("2^53"));
}

}  // namespace
}  // namespace crucible
