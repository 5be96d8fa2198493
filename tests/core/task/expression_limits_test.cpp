// SPDX-License-Identifier: GPL-3.0-or-later
// The expression evaluator's bounds: nesting (parentheses, calls, unary signs)
// and length. 20,000 parentheses once overflowed the stack.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include "core/task/expression.h"

namespace crucible {
namespace {

const std::map<std::string, std::int64_t> kAxes = {{"M", 8192}, {"N", 4096}};

std::string errorOf(const std::string& expr) {
  try {
    return "(value " + std::to_string(evaluateAxisExpression(expr, kAxes)) + ")";
  } catch (const ExpressionError& e) {
    return e.what();
  }
}

std::string nested(int depth, const std::string& core) {
  return std::string(std::size_t(depth), '(') + core + std::string(std::size_t(depth), ')');
}

TEST(ExpressionLimits, SixtyFourLevelsAreFine) {
  EXPECT_EQ(evaluateAxisExpression(nested(kMaxExpressionNesting, "M"), kAxes), 8192);
  EXPECT_EQ(evaluateAxisExpression(std::string(kMaxExpressionNesting, '-') + "M", kAxes), 8192);  // an even count
}

TEST(ExpressionLimits, DeeperNestingIsRefusedWithAMessage) {
  EXPECT_THAT(errorOf(nested(kMaxExpressionNesting + 1, "M")), testing::HasSubstr("nests too deeply"));
  EXPECT_THAT(errorOf(nested(2000, "M")), testing::HasSubstr("nests too deeply"));
  EXPECT_THAT(errorOf(std::string(4000, '-') + "1"), testing::HasSubstr("nests too deeply"));
  EXPECT_THAT(errorOf(std::string(4000, '+') + "1"), testing::HasSubstr("nests too deeply"));
  std::string calls = "M";
  for (int i = 0; i < 100; ++i) calls = "min(" + calls + ", N)";
  EXPECT_THAT(errorOf(calls), testing::HasSubstr("nests too deeply"));
  // Parentheses and signs count together.
  std::string mixed;
  for (int i = 0; i < 40; ++i) mixed += "-(";
  EXPECT_THAT(errorOf(mixed + "1" + std::string(40, ')')), testing::HasSubstr("nests too deeply"));
}

TEST(ExpressionLimits, LongTextIsRefusedBeforeItIsRead) {
  // 20,000 parentheses: refused by length, without recursing.
  const std::string message = errorOf(nested(20000, "M"));
  EXPECT_THAT(message, testing::HasSubstr("40001 characters is longer than the limit of 4096"));
  EXPECT_LT(message.size(), 200u) << "the message must not quote the text";
  // A long flat sum is fine up to the limit.
  std::string sum = "1";
  while (sum.size() + 2 <= kMaxExpressionLength) sum += "+1";
  EXPECT_EQ(evaluateAxisExpression(sum, kAxes), std::int64_t(sum.size() / 2 + 1));
}

TEST(ExpressionLimits, TheLimitsResetBetweenSiblings) {
  // Depth is nesting, not the number of parentheses: many shallow groups are fine.
  std::string groups = "(1)";
  for (int i = 0; i < 300; ++i) groups += "+(1)";
  EXPECT_EQ(evaluateAxisExpression(groups, kAxes), 301);
}

}  // namespace
}  // namespace crucible
