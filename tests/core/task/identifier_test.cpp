// SPDX-License-Identifier: GPL-3.0-or-later
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include "core/task/identifier.h"

namespace crucible {
namespace {

TEST(Identifier, TheFormOfACIdentifier) {
  for (const char* ok : {"x", "_x", "M", "scale_kernel", "a1", "tmap_A"}) EXPECT_TRUE(isCIdentifier(ok)) << ok;
  for (const char* bad : {"", "1a", "a-b", "a b", "é", "a.b", "a\n"}) EXPECT_FALSE(isCIdentifier(bad)) << bad;
}

TEST(Identifier, LongNamesAreCheckedWithoutRecursion) {
  // std::regex overflowed the stack on names of 30,000+ characters.
  const std::string huge(1 << 20, 'a');
  EXPECT_TRUE(isCIdentifier(huge));
  const auto problem = identifierFormProblem(huge);
  ASSERT_TRUE(problem.has_value());
  EXPECT_THAT(*problem, testing::HasSubstr("1048576 characters is longer than the limit of 128"));
  EXPECT_FALSE(identifierFormProblem(std::string(kMaxIdentifierLength, 'a')).has_value());
  EXPECT_THAT(identifierFormProblem("x-1").value_or(""), testing::HasSubstr("not a C identifier"));
}

TEST(Identifier, ReservedNames) {
  for (const char* keyword : {"int", "return", "const", "float", "double", "long", "void", "struct", "and", "nullptr"})
    EXPECT_THAT(reservedNameProblem(keyword).value_or(""), testing::HasSubstr("keyword")) << keyword;
  for (const char* builtin : {"threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", "CUtensorMap"})
    EXPECT_THAT(reservedNameProblem(builtin).value_or(""), testing::HasSubstr("predefined")) << builtin;
  for (const char* reserved : {"__restrict__", "__global__", "__x", "_Bool", "_X1", "a__b"})
    EXPECT_THAT(reservedNameProblem(reserved).value_or(""), testing::HasSubstr("reserved")) << reserved;
  for (const char* fine : {"x", "_x", "_1", "integer", "M", "in0", "returns", "a_b"})
    EXPECT_FALSE(reservedNameProblem(fine).has_value()) << fine;
}

}  // namespace
}  // namespace crucible
