// SPDX-License-Identifier: GPL-3.0-or-later
#include <chrono>
#include <gtest/gtest.h>
#include "core/io/json_nesting.h"

namespace crucible {
namespace {

constexpr auto npos = std::string_view::npos;

TEST(JsonNesting, CountsBracketsOutsideStrings) {
  EXPECT_EQ(findJsonNestingBeyond(R"({"a": [1, {"b": [2]}]})", 4), npos);
  EXPECT_EQ(findJsonNestingBeyond(R"({"a": [1, {"b": [2]}]})", 3), 16u);  // the innermost '['
  EXPECT_EQ(findJsonNestingBeyond(R"({"a": "[[[[[[[[[["})", 1), npos);
  EXPECT_EQ(findJsonNestingBeyond(R"({"a\"[[[[": 1})", 1), npos);        // an escaped quote does not end the string
  EXPECT_EQ(findJsonNestingBeyond(R"([[]] [[]] [[]])", 2), npos);          // depth, not count
  EXPECT_EQ(findJsonNestingBeyond("]]]]][", 1), npos);                    // unbalanced: the parser's to refuse
}

TEST(JsonNesting, FiftyMegabytesOfBracketsStopAtTheLimit) {
  const std::string text(50u << 20, '[');
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(findJsonNestingBeyond(text), std::size_t(kMaxJsonNesting));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
}

}  // namespace
}  // namespace crucible
