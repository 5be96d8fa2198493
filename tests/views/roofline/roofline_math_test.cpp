// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/roofline/roofline_math.h"

#include <gtest/gtest.h>

using namespace crucible;
using namespace crucible::views;

namespace {
Candidate profiled(double fadd, double fmul, double ffma, double read, double write, double medianUs) {
  Candidate c;
  c.id = 3;
  c.generation = 2;
  Timing t;
  t.medianUs = medianUs;
  c.timing = t;
  c.profile = {{kSassFadd, fadd}, {kSassFmul, fmul}, {kSassFfma, ffma}, {kDramBytesRead, read}, {kDramBytesWrite, write}};
  return c;
}
}  // namespace

TEST(RooflineMath, IntensityAndAchievedRateFromCounters) {
  // 1e6 fadd + 2e6 fmul + 3e6 ffma = 9e6 FLOPs over 3e6 bytes in 10 µs.
  const auto o = rooflinePoint(profiled(1e6, 2e6, 3e6, 2e6, 1e6, 10), std::nullopt);
  ASSERT_TRUE(o.point) << o.missing;
  EXPECT_DOUBLE_EQ(o.point->flops, 9e6);
  EXPECT_DOUBLE_EQ(o.point->dramBytes, 3e6);
  EXPECT_DOUBLE_EQ(o.point->intensity, 3.0);
  EXPECT_DOUBLE_EQ(o.point->flopsPerSecond, 9e11);
  EXPECT_EQ(o.point->flopSource, FlopSource::SassCounters);
  EXPECT_EQ(o.point->id, 3);
}

TEST(RooflineMath, MissingCountersAreReportedNotGuessed) {
  Candidate c = profiled(1, 1, 1, 1, 1, 1);
  c.profile.erase(kDramBytesWrite);
  EXPECT_FALSE(rooflinePoint(c, 1e9).point);
  EXPECT_NE(rooflinePoint(c, 1e9).missing.find(kDramBytesWrite), std::string::npos);

  c = profiled(1, 1, 1, 1, 1, 1);
  c.profile.erase(kSassFfma);
  EXPECT_FALSE(rooflinePoint(c, 1e9).point) << "no silent fallback to the task formula for FP32 kernels";

  c = profiled(1, 1, 1, 1, 1, 1);
  c.timing.reset();
  EXPECT_EQ(rooflinePoint(c, 1e9).missing, "not timed");
  c = profiled(1, 1, 1, 1, 1, 1);
  c.profile.clear();
  EXPECT_EQ(rooflinePoint(c, 1e9).missing, "not profiled");
  EXPECT_FALSE(rooflinePoint(profiled(0, 0, 0, 10, 10, 1), std::nullopt).point) << "zero FLOPs has no log position";
}

TEST(RooflineMath, TensorCoreKernelsUseTheTaskFormula) {
  Candidate c = profiled(0, 0, 0, 4e6, 0, 100);
  CompileReport compile;
  compile.features = {{"mma", 128}};
  c.compile = compile;
  EXPECT_TRUE(usesTensorCores(c));
  EXPECT_FALSE(rooflinePoint(c, std::nullopt).point);
  const auto o = rooflinePoint(c, 2.0 * 1024 * 1024 * 1024);
  ASSERT_TRUE(o.point);
  EXPECT_EQ(o.point->flopSource, FlopSource::TaskFormula);
  EXPECT_DOUBLE_EQ(o.point->intensity, 2.0 * 1024 * 1024 * 1024 / 4e6);

  Candidate d = profiled(1, 1, 1, 1, 1, 1);
  d.descriptor = {{"tensor_cores", "no"}};
  EXPECT_FALSE(usesTensorCores(d));
  d.descriptor = {{"tensor_cores", "wgmma"}};
  EXPECT_TRUE(usesTensorCores(d));
}

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
