// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>
#include <limits>
#include <nlohmann/json.hpp>
#include "core/io/json_integer.h"

namespace crucible {
namespace {

using nlohmann::json;

TEST(JsonIntegerIn, TakesIntegersInRangeAndNothingElse) {
  constexpr std::int64_t kMost = std::numeric_limits<std::int64_t>::max();
  EXPECT_EQ(jsonIntegerIn(json::parse("5"), 0, 10), 5);
  EXPECT_EQ(jsonIntegerIn(json::parse("-5"), -10, 10), -5);
  EXPECT_EQ(jsonIntegerIn(json::parse("9223372036854775807"), 0, kMost), kMost);
  EXPECT_EQ(jsonIntegerIn(json::parse("-9223372036854775808"), std::numeric_limits<std::int64_t>::min(), 0),
            std::numeric_limits<std::int64_t>::min());
  // Past int64 as a JSON unsigned: not -1.
  EXPECT_EQ(jsonIntegerIn(json::parse("18446744073709551615"), -10, kMost), std::nullopt);
  // Past int: not its low 32 bits.
  EXPECT_EQ(jsonIntegerIn(json::parse("4294967297"), 0, std::numeric_limits<int>::max()), std::nullopt);
  EXPECT_EQ(jsonIntegerIn(json::parse("-1"), 0, 10), std::nullopt);
  EXPECT_EQ(jsonIntegerIn(json::parse("11"), 0, 10), std::nullopt);
  for (const char* other : {"1.0", "true", "\"1\"", "null", "[1]", "{}"})
    EXPECT_EQ(jsonIntegerIn(json::parse(other), 0, 10), std::nullopt) << other;
}

}  // namespace
}  // namespace crucible
