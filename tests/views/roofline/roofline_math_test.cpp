// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/roofline/roofline_math.h"

#include <gtest/gtest.h>

// The roofs, their ridge and rate text; a kernel's point is core's (tests/core/model/roofline_point_test.cpp).

using namespace crucible;
using namespace crucible::views;

TEST(RooflineMath, RoofsAndRidge) {
  std::vector<Ceiling> cs{{"H200", "fp32_fma", 60e12, 67e12, "FLOP/s", 0}, {"H200", "dram_bw", 4.2e12, 4.8e12, "B/s", 0},
                          {"H200", "l2_bw", 9e12, 0, "B/s", 0},          {"H200", "bf16_tensor", 700e12, 989e12, "FLOP/s", 0},
                          {"A100", "dram_bw", 1.5e12, 2e12, "B/s", 0},    {"H200", "bogus", 1, 1, "W", 0}};
  const auto roofs = roofsOf(cs, "H200");
  ASSERT_EQ(roofs.size(), 4u);
  EXPECT_EQ(roofs[0].name, "dram_bw");
  EXPECT_EQ(roofs[1].name, "l2_bw");
  EXPECT_EQ(roofs[2].name, "fp32_fma");
  EXPECT_EQ(roofs[3].name, "bf16_tensor");
  EXPECT_TRUE(roofs[0].bandwidth);
  EXPECT_FALSE(roofs[2].bandwidth);
  EXPECT_DOUBLE_EQ(ridgeIntensity(4e12, 60e12), 15.0);
  EXPECT_DOUBLE_EQ(attainable(1.0, 4e12, 60e12), 4e12);
  EXPECT_DOUBLE_EQ(attainable(100.0, 4e12, 60e12), 60e12);
  EXPECT_TRUE(roofsOf(cs, "nonexistent").empty());
}

TEST(RooflineMath, FormatRate) {
  EXPECT_EQ(formatRate(4.8e12, "B/s"), "4.8 TB/s");
  EXPECT_EQ(formatRate(66.9e12, "FLOP/s"), "66.9 TFLOP/s");
  EXPECT_EQ(formatRate(512, "B/s"), "512 B/s");
}
