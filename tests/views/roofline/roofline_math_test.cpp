// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/roofline/roofline_math.h"

#include <gtest/gtest.h>
#include <cmath>

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

TEST(RooflineMath, SiScaleOfAnAxis) {
  EXPECT_EQ(siScale(5.2e13).prefix, "T");
  EXPECT_DOUBLE_EQ(siScale(5.2e13).factor, 1e12);
  EXPECT_EQ(siScale(999e9).prefix, "G");
  EXPECT_EQ(siScale(1000).prefix, "K");
  EXPECT_EQ(siScale(12).prefix, "");
  EXPECT_DOUBLE_EQ(siScale(12).factor, 1);
}

TEST(RooflineMath, AFlopFreeTaskGetsTheBandwidthView) {
  EXPECT_TRUE(flopFree(std::nullopt));
  EXPECT_TRUE(flopFree(0.0));
  EXPECT_FALSE(flopFree(2e6));
}

namespace {
Candidate timedWith(ProfileMetrics profile, double medianUs) {
  Candidate c;
  c.id = 9;
  c.generation = 2;
  Timing t;
  t.medianUs = medianUs;
  c.timing = t;
  c.profile = std::move(profile);
  return c;
}
}  // namespace

TEST(RooflineMath, BandwidthPointIsAShareOfTheDramAndL2Roofs) {
  // 8 MB of DRAM and 16 MB of L2 traffic in 4 µs: 2 TB/s and 4 TB/s.
  const Candidate c = timedWith({{kDramBytesRead, 4e6}, {kDramBytesWrite, 4e6}, {kL2Bytes, 16e6}}, 4.0);
  const BandwidthOutcome o = bandwidthPoint(c, 4e12, 8e12);
  ASSERT_TRUE(o.point) << "missing kind " << static_cast<int>(o.missing);
  EXPECT_EQ(o.point->id, 9);
  EXPECT_DOUBLE_EQ(*o.point->dramPerSecond, 2e12);
  EXPECT_DOUBLE_EQ(*o.point->l2PerSecond, 4e12);
  EXPECT_DOUBLE_EQ(*o.point->dramPercent, 50.0);
  EXPECT_DOUBLE_EQ(*o.point->l2Percent, 50.0);

  // Without measured roofs: rates, no percentages.
  const BandwidthOutcome noRoofs = bandwidthPoint(c, 0, 0);
  ASSERT_TRUE(noRoofs.point);
  EXPECT_FALSE(noRoofs.point->dramPercent);
  EXPECT_TRUE(noRoofs.point->dramPerSecond);

  // Only L2 counted: the DRAM share is missing, not 0.
  const BandwidthOutcome l2Only = bandwidthPoint(timedWith({{kL2Bytes, 16e6}}, 4.0), 4e12, 8e12);
  ASSERT_TRUE(l2Only.point);
  EXPECT_FALSE(l2Only.point->dramPercent);
  EXPECT_DOUBLE_EQ(*l2Only.point->l2Percent, 50.0);

  EXPECT_EQ(bandwidthPoint(timedWith({}, 4.0), 4e12, 8e12).missing, BandwidthMissing::NotProfiled);
  EXPECT_EQ(bandwidthPoint(timedWith({{kDramBytesRead, 1}}, 0), 4e12, 8e12).missing, BandwidthMissing::NotTimed);
  EXPECT_EQ(bandwidthPoint(timedWith({{"gpu__time_duration.sum", 3}}, 4.0), 4e12, 8e12).missing,
            BandwidthMissing::NoByteCounters);
  EXPECT_EQ(l2Only.missing, BandwidthMissing::None);
}

TEST(RooflineMath, ZoomKeepsTheAnchorAndPanMovesTheRange) {
  auto [lo, hi] = zoomLogRange(1, 1e4, 10, 2.0);  // 4 decades to 2, 10 stays a quarter of the way
  EXPECT_NEAR(std::log10(lo), 0.5, 1e-12);
  EXPECT_NEAR(std::log10(hi), 2.5, 1e-12);
  auto [plo, phi] = panLogRange(1, 1e4, 0.25);
  EXPECT_NEAR(plo, 10, 1e-9);
  EXPECT_NEAR(phi, 1e5, 1e-6);
  auto [olo, ohi] = zoomLogRange(lo, hi, 10, 0.5);  // and back out
  EXPECT_NEAR(olo, 1, 1e-9);
  EXPECT_NEAR(ohi, 1e4, 1e-6);
}

TEST(RooflineMath, CoincidentPointsAreSpreadTheSameWayEveryTime) {
  const std::vector<std::pair<double, double>> same(5, {100.0, 50.0});
  const auto spread = spreadCoincident(same, 4.0);
  ASSERT_EQ(spread.size(), 5u);
  EXPECT_EQ(spread[0], same[0]) << "the first of a clump keeps its place";
  for (std::size_t i = 0; i < spread.size(); ++i)
    for (std::size_t j = 0; j < i; ++j) EXPECT_NE(spread[i], spread[j]) << i << " lands on " << j;
  EXPECT_EQ(spreadCoincident(same, 4.0), spread) << "not deterministic";
  // Points apart already stay where they are.
  const std::vector<std::pair<double, double>> apart{{0, 0}, {50, 0}};
  EXPECT_EQ(spreadCoincident(apart, 4.0), apart);
}

TEST(RooflineMath, PointsUnderThePointerNearestFirst) {
  const std::vector<std::pair<double, double>> px{{0, 0}, {10, 0}, {3, 0}, {100, 100}};
  EXPECT_EQ(pointsNear(px, {1, 0}, 5.0), (std::vector<int>{0, 2}));
  EXPECT_EQ(pointsNear(px, {9, 0}, 8.0), (std::vector<int>{1, 2}));
  EXPECT_TRUE(pointsNear(px, {50, 50}, 5.0).empty());
}
