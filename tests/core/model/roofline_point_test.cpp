// SPDX-License-Identifier: GPL-3.0-or-later
// The roofline figures of a kernel (core/model/roofline_point.h), as the
// roofline view plots them and `crucible-cli eval` prints them.
#include "core/model/roofline_point.h"

#include <gtest/gtest.h>
#include "core/task/task_spec.h"
#include "tests/core/task/spec_fixture.h"

using namespace crucible;

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

TEST(RooflinePoint, IntensityAndAchievedRateFromCounters) {
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

TEST(RooflinePoint, MissingCountersAreReportedNotGuessed) {
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

TEST(RooflinePoint, TensorCoreKernelsUseTheTaskFormula) {
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

TEST(RooflinePoint, TaskFormulasAtTheTaskShapes) {
  const TaskSpec spec = parseTaskSpec(testing_support::validSpecJson().dump());  // M = 64, N = 32
  EXPECT_DOUBLE_EQ(*taskFlops(spec), 64.0 * 32);
  EXPECT_DOUBLE_EQ(*taskMinBytes(spec), 4.0 * 64 * 32 + 8 * 64 + 4 * 64 * 32);
  TaskSpec none = spec;
  none.flops.clear();
  EXPECT_FALSE(taskFlops(none).has_value());
}

TEST(RooflinePoint, EvalFiguresCountTheTaskFormulasAgainstMeasuredDram) {
  const TaskSpec spec = parseTaskSpec(testing_support::validSpecJson().dump());
  const double flops = 64.0 * 32, minBytes = 4.0 * 64 * 32 + 8 * 64 + 4 * 64 * 32;
  const ProfileMetrics profile{{kDramBytesRead, 3000}, {kDramBytesWrite, 1000}};
  const TaskRoofline r = taskRoofline(spec, 2.0, &profile);  // 2 us
  EXPECT_DOUBLE_EQ(r.flops, flops);
  EXPECT_DOUBLE_EQ(r.minBytes, minBytes);
  EXPECT_DOUBLE_EQ(r.seconds, 2e-6);
  EXPECT_DOUBLE_EQ(r.flopsPerSecond, flops / 2e-6);
  EXPECT_DOUBLE_EQ(r.minBytesPerSecond, minBytes / 2e-6);
  ASSERT_TRUE(r.dramBytes.has_value());
  EXPECT_DOUBLE_EQ(*r.dramBytes, 4000);
  EXPECT_DOUBLE_EQ(*r.dramBytesPerSecond, 4000 / 2e-6);
  EXPECT_DOUBLE_EQ(*r.intensity, flops / 4000);

  // No profile, or one without both DRAM counters: the measured figures are absent, not guessed.
  const TaskRoofline unprofiled = taskRoofline(spec, 2.0, nullptr);
  EXPECT_FALSE(unprofiled.dramBytes || unprofiled.dramBytesPerSecond || unprofiled.intensity);
  EXPECT_DOUBLE_EQ(unprofiled.flopsPerSecond, r.flopsPerSecond);
  const ProfileMetrics partial{{kDramBytesRead, 3000}};
  EXPECT_FALSE(taskRoofline(spec, 2.0, &partial).dramBytes);
  // No DRAM traffic: bytes and rate, but no intensity.
  const ProfileMetrics cached{{kDramBytesRead, 0}, {kDramBytesWrite, 0}};
  const TaskRoofline inCache = taskRoofline(spec, 2.0, &cached);
  EXPECT_DOUBLE_EQ(*inCache.dramBytes, 0);
  EXPECT_FALSE(inCache.intensity.has_value());
}
