// SPDX-License-Identifier: GPL-3.0-or-later
// The host side of validation and timing, without a GPU: dtype conversions,
// seeded random inputs, poison patterns, the output checks and their reasons,
// and the timing statistics.
#include <gtest/gtest.h>
#include <cmath>
#include <cstring>
#include <limits>
#include "backends/cuda/worker/host_tensor.h"
#include "backends/cuda/worker/interleaved_timer.h"
#include "backends/cuda/worker/output_check.h"

namespace crucible::cuda {
namespace {

HostTensor floats(const std::vector<float>& v) {
  HostTensor t(DType::F32, static_cast<std::int64_t>(v.size()));
  std::memcpy(t.bytes.data(), v.data(), t.bytes.size());
  return t;
}
void poisonAt(HostTensor& t, std::int64_t i, int which = 0) {
  const auto p = poisonPattern(t.dtype, which);
  std::memcpy(t.bytes.data() + i * p.size(), p.data(), p.size());
}

TEST(HalfConversion, RoundTripsAndRoundsToNearestEven) {
  EXPECT_EQ(floatToHalf(1.0f), 0x3C00);
  EXPECT_EQ(floatToHalf(-2.0f), 0xC000);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7BFF);
  EXPECT_EQ(floatToHalf(65520.0f), 0x7C00);            // rounds to infinity
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -24)), 0x0001);  // smallest subnormal
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -25)), 0x0000);  // half of it: ties to even (0)
  EXPECT_EQ(floatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3C00);  // tie between 1 and next: even
  EXPECT_EQ(floatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3C02);
  for (std::uint32_t h = 0; h < 0x7C00; ++h) EXPECT_EQ(floatToHalf(halfToFloat(static_cast<std::uint16_t>(h))), h);
  EXPECT_TRUE(std::isnan(halfToFloat(floatToHalf(std::numeric_limits<float>::quiet_NaN()))));
}

TEST(Bfloat16Conversion, RoundsToNearestEven) {
  EXPECT_EQ(floatToBfloat16(1.0f), 0x3F80);
  EXPECT_EQ(bfloat16ToFloat(0x3F80), 1.0f);
  EXPECT_EQ(floatToBfloat16(1.0f + std::ldexp(1.0f, -8)), 0x3F80);      // tie: even
  EXPECT_EQ(floatToBfloat16(1.0f + 3 * std::ldexp(1.0f, -8)), 0x3F82);  // tie: even (up)
  EXPECT_TRUE(std::isnan(bfloat16ToFloat(floatToBfloat16(std::numeric_limits<float>::quiet_NaN()))));
}

TEST(RandomInputs, SameSeedSameBytesOtherSeedOtherBytes) {
  Distribution normal{"normal", 0, 1};
  HostTensor a(DType::F32, 4096), b(DType::F32, 4096), c(DType::F32, 4096), d(DType::F32, 4096);
  fillRandom(a, normal, 7, 0);
  fillRandom(b, normal, 7, 0);
  fillRandom(c, normal, 8, 0);
  fillRandom(d, normal, 7, 1);
  EXPECT_EQ(a.bytes, b.bytes);
  EXPECT_NE(a.bytes, c.bytes);
  EXPECT_NE(a.bytes, d.bytes);
  double sum = 0, sq = 0;
  for (std::int64_t i = 0; i < a.count; ++i) {
    sum += a.valueAt(i);
    sq += a.valueAt(i) * a.valueAt(i);
  }
  EXPECT_NEAR(sum / 4096, 0.0, 0.1);
  EXPECT_NEAR(sq / 4096, 1.0, 0.1);
}

TEST(RandomInputs, RespectsRangesAndDtypes) {
  HostTensor ints(DType::I32, 10000);
  fillRandom(ints, Distribution{"randint", 0, 10}, 1, 0);
  for (std::int64_t i = 0; i < ints.count; ++i) {
    EXPECT_GE(ints.valueAt(i), 0);
    EXPECT_LT(ints.valueAt(i), 10);
  }
  HostTensor bf(DType::BF16, 10000);
  fillRandom(bf, Distribution{"uniform", 2, 3}, 1, 0);
  for (std::int64_t i = 0; i < bf.count; ++i) {
    EXPECT_GE(bf.valueAt(i), 2);
    EXPECT_LE(bf.valueAt(i), 3);  // rounding to bf16 may reach 3
  }
}

TEST(RandomInputs, RefusesAnAllZeroDraw) {
  HostTensor t(DType::I32, 64);
  EXPECT_THROW(fillRandom(t, Distribution{"randint", 0, 1}, 1, 0), std::invalid_argument);
  EXPECT_THROW(fillRandom(t, Distribution{"cauchy", 0, 1}, 1, 0), std::invalid_argument);
}

TEST(Poison, FloatPoisonsAreDistinctNans) {
  for (DType d : {DType::F32, DType::F64, DType::F16, DType::BF16}) {
    HostTensor t(d, 2);
    poisonAt(t, 0, 0);
    poisonAt(t, 1, 1);
    EXPECT_TRUE(std::isnan(t.valueAt(0))) << toString(d);
    EXPECT_TRUE(std::isnan(t.valueAt(1))) << toString(d);
    EXPECT_NE(poisonPattern(d, 0), poisonPattern(d, 1));
    EXPECT_TRUE(std::isnan(HostTensor(d, 1).valueAt(0)) == false);
  }
}

TEST(OutputCheck, PassesWithinToleranceAndReportsErrors) {
  HostTensor y = floats({1.0f, 2.0f, -3.0f});
  OutputCheck c = checkOutput("y", y, {1.0, 2.0000001, -3.0}, Tolerance{1e-5, 1e-6}, poisonPattern(DType::F32, 0));
  EXPECT_TRUE(c.passed()) << c.reason;
  EXPECT_GT(c.maxAbsError, 0);
  EXPECT_LT(c.maxRelError, 1e-7);
}

TEST(OutputCheck, RelativeErrorIsReportedOnlyWhereRtolGoverns) {
  // 2e-9 against 1e-9 is within atol 1e-6; its 100% relative error says nothing.
  OutputCheck c = checkOutput("y", floats({2e-9f, 1.00001f}), {1e-9, 1.0}, Tolerance{1e-4, 1e-6},
                              poisonPattern(DType::F32, 0));
  EXPECT_TRUE(c.passed()) << c.reason;
  EXPECT_LT(c.maxRelError, 2e-5);
  EXPECT_GT(c.maxRelError, 5e-6);
}

TEST(OutputCheck, NamesUnwrittenElementsFirst) {
  HostTensor y = floats({1.0f, 2.0f, 3.0f, 4.0f});
  poisonAt(y, 2);
  poisonAt(y, 3);
  OutputCheck c = checkOutput("y", y, {1, 2, 3, 4}, Tolerance{}, poisonPattern(DType::F32, 0));
  EXPECT_EQ(c.unwritten, 2);
  EXPECT_EQ(c.firstBad, 2);
  EXPECT_EQ(c.reason, "output 'y': 2 of 4 elements never written (still hold the poison pattern), first at index 2");
}

TEST(OutputCheck, RejectsNanAndInfWhereTheReferenceIsFinite) {
  HostTensor y = floats({1.0f, std::numeric_limits<float>::infinity(), std::nanf("")});
  OutputCheck c = checkOutput("out", y, {1, 2, 3}, Tolerance{1, 1}, poisonPattern(DType::F32, 0));
  EXPECT_EQ(c.nonFinite, 2);
  EXPECT_NE(c.reason.find("2 of 3 elements are NaN or Inf"), std::string::npos) << c.reason;
}

TEST(OutputCheck, RejectsAllZerosAndConstantsEvenWithinLooseTolerance) {
  OutputCheck zeros = checkOutput("y", floats({0, 0, 0}), {1e-3, -1e-3, 2e-3}, Tolerance{0, 1}, poisonPattern(DType::F32, 0));
  EXPECT_TRUE(zeros.allZero);
  EXPECT_NE(zeros.reason.find("all zeros"), std::string::npos) << zeros.reason;
  OutputCheck constant =
      checkOutput("y", floats({5, 5, 5}), {5, 5.5, 4.5}, Tolerance{0, 1}, poisonPattern(DType::F32, 0));
  EXPECT_TRUE(constant.constant);
  EXPECT_NE(constant.reason.find("holds one value (5)"), std::string::npos) << constant.reason;
  // A constant reference makes a constant output right.
  EXPECT_TRUE(checkOutput("y", floats({5, 5}), {5, 5}, Tolerance{}, poisonPattern(DType::F32, 0)).passed());
}

TEST(OutputCheck, ToleranceIsPerElementAbsolutePlusRelative) {
  // |y - ref| <= atol + rtol * |ref|: 100.25 vs 100 passes at rtol 3e-3, fails at 1e-3.
  EXPECT_TRUE(checkOutput("y", floats({100.25f, 1}), {100, 1}, Tolerance{3e-3, 0}, poisonPattern(DType::F32, 0)).passed());
  OutputCheck c = checkOutput("y", floats({100.25f, 1}), {100, 1}, Tolerance{1e-3, 0}, poisonPattern(DType::F32, 0));
  EXPECT_EQ(c.mismatches, 1);
  EXPECT_NE(c.reason.find("first at index 0: got 100.25,"), std::string::npos) << c.reason;
}

TEST(OutputCheck, ReferenceWithNanIsATaskBug) {
  EXPECT_TRUE(checkReference("y", {1, 2}).empty());
  EXPECT_NE(checkReference("y", {1, std::nan("")}).find("task spec is wrong"), std::string::npos);
}

TEST(BitwiseCompare, CountsDifferingElements) {
  HostTensor a = floats({1, 2, 3}), b = floats({1, 2.0000002f, 3});
  BitwiseDiff d = compareBitwise(a, b);
  EXPECT_EQ(d.differing, 1);
  EXPECT_EQ(d.first, 1);
  EXPECT_EQ(compareBitwise(a, a).differing, 0);
}

TEST(TimingStatistics, MedianAndInterquartileRange) {
  EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(median({4, 1, 2, 3}), 2.5);
  EXPECT_DOUBLE_EQ(interquartileRange({1, 2, 3, 4, 5}), 2);  // 4 - 2
  EXPECT_DOUBLE_EQ(median({}), 0);
}

}  // namespace
}  // namespace crucible::cuda
