// SPDX-License-Identifier: GPL-3.0-or-later
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include "core/task/expression.h"
#include "core/task/task_spec.h"

namespace crucible {
namespace {

const std::map<std::string, std::int64_t> kAxes = {{"M", 8192}, {"N", 4096}, {"K", 7}, {"V", 32000}};

std::int64_t eval(const std::string& e) { return evalExpression(e, kAxes); }

TEST(Expression, LiteralsAndNames) {
  EXPECT_EQ(eval("42"), 42);
  EXPECT_EQ(eval("M"), 8192);
  EXPECT_EQ(eval("  N  "), 4096);
}

TEST(Expression, PrecedenceAndAssociativity) {
  EXPECT_EQ(eval("2 + 3 * 4"), 14);
  EXPECT_EQ(eval("(2 + 3) * 4"), 20);
  EXPECT_EQ(eval("20 - 5 - 3"), 12);      // left-associative
  EXPECT_EQ(eval("64 / 4 / 2"), 8);       // left-associative
  EXPECT_EQ(eval("2 * M * N"), 2LL * 8192 * 4096);
  EXPECT_EQ(eval("4*M*N + 4*M"), 4LL * 8192 * 4096 + 4 * 8192);
  EXPECT_EQ(eval("10 - 2 * 3 + 1"), 5);
  EXPECT_EQ(eval("17 % 5 * 2"), 4);
  EXPECT_EQ(eval("-3 + 5"), 2);
  EXPECT_EQ(eval("-(3 + 5)"), -8);
  EXPECT_EQ(eval("--4"), 4);
  EXPECT_EQ(eval("+7"), 7);
}

TEST(Expression, DivisionTruncatesLikeC) {
  EXPECT_EQ(eval("7 / 2"), 3);
  EXPECT_EQ(eval("-7 / 2"), -3);
  EXPECT_EQ(eval("7 % 3"), 1);
  EXPECT_EQ(eval("-7 % 3"), -1);
}

TEST(Expression, Functions) {
  EXPECT_EQ(eval("ceil_div(M, 128)"), 64);
  EXPECT_EQ(eval("ceil_div(K, 2)"), 4);
  EXPECT_EQ(eval("ceil_div(8, 2)"), 4);
  EXPECT_EQ(eval("ceil_div(0, 5)"), 0);
  EXPECT_EQ(eval("ceil_div(-7, 2)"), -3);   // toward +infinity
  EXPECT_EQ(eval("ceil_div(7, -2)"), -3);
  EXPECT_EQ(eval("ceil_div(-7, -2)"), 4);
  EXPECT_EQ(eval("min(M, N)"), 4096);
  EXPECT_EQ(eval("max(M, N)"), 8192);
  EXPECT_EQ(eval("max(1, min(K, 3)) * ceil_div(V, 256)"), 3 * 125);
  EXPECT_EQ(eval("ceil_div( N , 16 )"), 256);
}

void expectError(const std::string& expr, const std::string& fragment) {
  try {
    eval(expr);
    ADD_FAILURE() << "'" << expr << "' evaluated without error";
  } catch (const TaskSpecError& e) {
    EXPECT_EQ(e.field(), "expression");
    EXPECT_THAT(e.what(), testing::HasSubstr(fragment)) << "for '" << expr << "'";
  }
}

TEST(Expression, Errors) {
  expectError("", "empty expression");
  expectError("   ", "empty expression");
  expectError("Q", "unknown name 'Q' in expression 'Q'");
  expectError("ceil_div(Q, 128)", "unknown name 'Q'");
  expectError("m", "unknown name 'm'");                 // names are case-sensitive
  expectError("M +", "unexpected end");
  expectError("(M", "expected ')'");
  expectError("M)", "unexpected ')' at column 2");
  expectError("M N", "unexpected 'N'");
  expectError("ceil_div(M)", "expected ','");
  expectError("ceil_div(M, 2, 3)", "expected ')'");
  expectError("min", "expected '('");
  expectError("2M", "a number cannot be followed by a letter");
  expectError("M / 0", "division by zero");
  expectError("M % (N - N)", "division by zero");
  expectError("ceil_div(M, 0)", "division by zero in 'ceil_div'");
  expectError("M $ N", "unexpected '$'");
  expectError("99999999999999999999", "integer literal too large");
  expectError("M*M*M*M*M", "integer overflow in '*'");
  expectError("9223372036854775807 + 1", "integer overflow in '+'");
}

TEST(Expression, ErrorsSayWhere) {
  try {
    eval("M + * N");
    FAIL();
  } catch (const TaskSpecError& e) {
    EXPECT_THAT(e.what(), testing::HasSubstr("column 5"));
  }
}

}  // namespace
}  // namespace crucible
