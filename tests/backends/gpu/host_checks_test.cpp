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
#include "backends/cuda/worker/counter_rng.h"
#include "backends/cuda/worker/parallel_chunks.h"
#include "tests/backends/gpu/legacy_host_checks.h"

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

// What the device draw (HarnessKernels::draw) is told, and the zero check it is followed by.
TEST(RandomInputs, DrawParametersAndTheAllZeroCheck) {
  const DrawParameters r = drawParameters(Distribution{"randint", -2.5, 3});  // [-2, 3): -2..2
  EXPECT_EQ(r.kind, DrawParameters::Randint);
  EXPECT_EQ(r.lo, -2);
  EXPECT_EQ(r.range, 5u);
  EXPECT_EQ(drawParameters(Distribution{"normal", 0, 1}).kind, DrawParameters::Normal);
  EXPECT_THROW(drawParameters(Distribution{"uniform", 1, 1}), std::invalid_argument);
  EXPECT_THROW(drawParameters(Distribution{"normal", 0, -1}), std::invalid_argument);
  HostTensor t(DType::F32, 300000);
  EXPECT_FALSE(anyNonZero(t));
  t.bytes[t.byteSize() - 1] = std::byte{1};  // the last byte of the last chunk
  EXPECT_TRUE(anyNonZero(t));
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

// Host work runs on hostThreads() threads; each test below pins it and
// restores the default afterwards.
class ThreadCount {
public:
  explicit ThreadCount(int n) { setHostThreads(n); }
  ~ThreadCount() { setHostThreads(0); }
};

// Odd, and larger than several 2^16-element chunks: chunk boundaries fall
// inside Box-Muller pairs and inside memcmp blocks.
constexpr std::int64_t kMany = 5 * 65536 + 12345;

TEST(CounterRng, IsSplitMix64AtACounter) {
  const CounterRng rng(42, 3);
  std::uint64_t state = rng.key();
  for (std::uint64_t i = 0; i < 1000; ++i) {
    state += 0x9E3779B97F4A7C15ull;  // sequential SplitMix64
    ASSERT_EQ(rng.bits(i), mix64(state)) << i;
  }
  EXPECT_NE(CounterRng(42, 3).key(), CounterRng(42, 4).key());
  EXPECT_NE(CounterRng(42, 3).key(), CounterRng(43, 3).key());
}

TEST(RandomInputs, SameBytesWhateverTheThreadCount) {
  const std::vector<std::pair<DType, Distribution>> cases = {
      {DType::F32, {"normal", 0, 1}},     {DType::F64, {"normal", -1, 3}}, {DType::BF16, {"normal", 0, 1}},
      {DType::F16, {"uniform", -2, 2}},   {DType::F64, {"uniform", 0, 1}}, {DType::I32, {"randint", 0, 32000}},
      {DType::I64, {"randint", -7, 7}}};
  for (const auto& [dtype, dist] : cases) {
    HostTensor one(dtype, kMany);
    {
      ThreadCount t(1);
      ASSERT_EQ(chunkCountFor(kMany), 1);
      fillRandom(one, dist, 11, 2);
    }
    for (int threads : {2, 3, 7, 16}) {
      ThreadCount t(threads);
      ASSERT_EQ(chunkCountFor(kMany), std::min(threads, 5));
      HostTensor many(dtype, kMany);
      fillRandom(many, dist, 11, 2);
      EXPECT_EQ(one.bytes, many.bytes) << toString(dtype) << " " << dist.kind << " on " << threads << " threads";
    }
  }
}

struct Moments {
  double mean = 0, stddev = 0, min = 1e300, max = -1e300;
};
Moments momentsOf(const HostTensor& t) {
  Moments m;
  double sum = 0, sq = 0;
  for (std::int64_t i = 0; i < t.count; ++i) {
    const double v = t.valueAt(i);
    sum += v;
    sq += v * v;
    m.min = std::min(m.min, v);
    m.max = std::max(m.max, v);
  }
  m.mean = sum / static_cast<double>(t.count);
  m.stddev = std::sqrt(sq / static_cast<double>(t.count) - m.mean * m.mean);
  return m;
}

TEST(RandomInputs, NormalHasItsMeanAndStddevInSingleAndDoublePrecision) {
  ThreadCount t(4);
  for (DType d : {DType::F32, DType::F64, DType::BF16}) {  // F32/BF16: the float path; F64: the double path
    HostTensor x(d, kMany);
    fillRandom(x, Distribution{"normal", 3, 2}, 5, 0);
    const Moments m = momentsOf(x);
    // Standard error of the mean: 2 / sqrt(340k) ~ 0.0034; bf16 rounding adds a little.
    EXPECT_NEAR(m.mean, 3.0, 0.02) << toString(d);
    EXPECT_NEAR(m.stddev, 2.0, 0.02) << toString(d);
    // Tails: 340k draws reach past 4 sigma on both sides, but not absurdly far.
    EXPECT_LT(m.min, 3 - 4 * 2.0) << toString(d);
    EXPECT_GT(m.max, 3 + 4 * 2.0) << toString(d);
    EXPECT_GT(m.min, 3 - 7 * 2.0) << toString(d);
    EXPECT_LT(m.max, 3 + 7 * 2.0) << toString(d);
    // Neighbours (a Box-Muller pair) are uncorrelated.
    double cov = 0;
    for (std::int64_t i = 0; i + 1 < x.count; i += 2) cov += (x.valueAt(i) - 3) * (x.valueAt(i + 1) - 3);
    EXPECT_NEAR(cov / static_cast<double>(x.count / 2) / 4.0, 0.0, 0.02) << toString(d);
  }
}

TEST(RandomInputs, UniformAndRandintStayInTheirBounds) {
  ThreadCount t(3);
  HostTensor u(DType::F64, kMany);
  fillRandom(u, Distribution{"uniform", -1.5, 2.5}, 9, 1);
  const Moments mu = momentsOf(u);
  EXPECT_GE(mu.min, -1.5);
  EXPECT_LT(mu.max, 2.5);  // [a, b): exact in f64
  EXPECT_NEAR(mu.mean, 0.5, 0.01);
  EXPECT_NEAR(mu.stddev, 4.0 / std::sqrt(12.0), 0.01);

  HostTensor k(DType::I32, kMany);
  fillRandom(k, Distribution{"randint", -5, 5}, 9, 2);
  std::vector<std::int64_t> seen(10, 0);
  for (std::int64_t i = 0; i < k.count; ++i) {
    const double v = k.valueAt(i);
    ASSERT_GE(v, -5);
    ASSERT_LT(v, 5);
    ++seen[static_cast<std::size_t>(v + 5)];
  }
  for (std::int64_t n : seen) EXPECT_NEAR(static_cast<double>(n), kMany / 10.0, kMany / 100.0);  // every value, evenly

  HostTensor wide(DType::I64, 4096);
  fillRandom(wide, Distribution{"randint", 0, 1e15}, 9, 3);
  const Moments mw = momentsOf(wide);
  EXPECT_GE(mw.min, 0);
  EXPECT_LT(mw.max, 1e15);
  EXPECT_GT(mw.max, 9e14);
}

TEST(RandomInputs, NeverAllZeros) {
  ThreadCount t(4);
  HostTensor ints(DType::I32, kMany);
  EXPECT_THROW(fillRandom(ints, Distribution{"randint", 0, 1}, 1, 0), std::invalid_argument);
  // Every draw rounds to +0 in f16: refused, even though each chunk computed non-zero doubles.
  HostTensor halves(DType::F16, kMany);
  EXPECT_THROW(fillRandom(halves, Distribution{"uniform", 0, 1e-12}, 1, 0), std::invalid_argument);
  // A normal draw is never all zeros, in any dtype; nor a randint including non-zero values.
  for (DType d : {DType::F32, DType::F64, DType::F16, DType::BF16, DType::I32, DType::I64}) {
    HostTensor x(d, kMany);
    EXPECT_NO_THROW(fillRandom(x, Distribution{"normal", 0, 1}, 2, 0)) << toString(d);
  }
  HostTensor mostlyZero(DType::I32, kMany);
  EXPECT_NO_THROW(fillRandom(mostlyZero, Distribution{"randint", 0, 2}, 1, 0));
}

TEST(ParallelChunks, CoversEveryElementOnceAndRethrows) {
  ThreadCount t(5);
  std::vector<int> hits(1000, 0);
  runChunks(1000, 5, [&](int, std::int64_t b, std::int64_t e) {
    for (std::int64_t i = b; i < e; ++i) ++hits[static_cast<std::size_t>(i)];
  });
  EXPECT_EQ(std::count(hits.begin(), hits.end(), 1), 1000);
  EXPECT_THROW(runChunks(1000, 5,
                         [](int chunk, std::int64_t, std::int64_t) {
                           if (chunk == 3) throw std::runtime_error("chunk 3");
                         }),
               std::runtime_error);
  EXPECT_EQ(chunkCountFor(10), 1);  // too small to be worth a thread
}

// A kernel's output: the reference rounded to the dtype, then damaged at
// chosen places; the parallel check must give the sequential check's figures.
HostTensor outputFor(DType d, const std::vector<double>& ref) {
  HostTensor t(d, static_cast<std::int64_t>(ref.size()));
  for (std::size_t i = 0; i < ref.size(); ++i) legacy::storeValue(t.bytes.data() + i * sizeOf(d), d, ref[i]);
  return t;
}

void expectSameVerdict(const HostTensor& y, const std::vector<double>& ref, const Tolerance& tol, const std::string& what) {
  const auto poison = poisonPattern(y.dtype, 0);
  const OutputCheck want = legacy::checkOutput(y, ref, tol, poison);
  for (int threads : {1, 4, 16}) {
    ThreadCount t(threads);
    const OutputCheck got = checkOutput("y", y, ref, tol, poison);
    const std::string where = what + " " + toString(y.dtype) + " on " + std::to_string(threads) + " threads";
    EXPECT_EQ(got.unwritten, want.unwritten) << where;
    EXPECT_EQ(got.nonFinite, want.nonFinite) << where;
    EXPECT_EQ(got.mismatches, want.mismatches) << where;
    EXPECT_EQ(got.maxAbsError, want.maxAbsError) << where;
    EXPECT_EQ(got.maxRelError, want.maxRelError) << where;
    EXPECT_EQ(got.allZero, want.allZero) << where;
    EXPECT_EQ(got.constant, want.constant) << where;
    EXPECT_EQ(got.passed(), want.unwritten + want.nonFinite + want.mismatches == 0 && !want.allZero && !want.constant)
        << where;
    if (!got.passed()) {
      EXPECT_EQ(got.firstBad, want.firstBad) << where << ": " << got.reason;
    }
  }
}

TEST(ParallelOutputCheck, GivesTheSequentialVerdictsOnCraftedOutputs) {
  for (DType d : {DType::F32, DType::F64, DType::F16, DType::BF16, DType::I32, DType::I64}) {
    std::vector<double> ref(static_cast<std::size_t>(kMany));
    for (std::size_t i = 0; i < ref.size(); ++i) ref[i] = isFloating(d) ? std::sin(0.001 * i) * 50 : double(i % 977) - 400;
    const Tolerance tol{1e-2, 1e-3};
    const HostTensor good = outputFor(d, ref);
    expectSameVerdict(good, ref, tol, "correct");
    EXPECT_TRUE(checkOutput("y", good, ref, tol, poisonPattern(d, 0)).passed()) << toString(d);

    HostTensor bad = good;  // damage in late chunks only, so the first index comes from a later chunk
    poisonAt(bad, kMany - 5);
    poisonAt(bad, 3 * 65536 + 1);
    expectSameVerdict(bad, ref, tol, "unwritten");
    EXPECT_NE(checkOutput("y", bad, ref, tol, poisonPattern(d, 0)).reason.find("2 of " + std::to_string(kMany) +
                                                                              " elements never written"),
              std::string::npos);

    HostTensor off = good;
    const std::vector<double> wrong = {ref[200000] + 7, ref[300001] - 9, ref[4] + 0.5};
    legacy::storeValue(off.bytes.data() + 200000 * sizeOf(d), d, wrong[0]);
    legacy::storeValue(off.bytes.data() + 300001 * sizeOf(d), d, wrong[1]);
    legacy::storeValue(off.bytes.data() + 4 * sizeOf(d), d, wrong[2]);
    expectSameVerdict(off, ref, tol, "mismatches");

    if (isFloating(d)) {
      HostTensor nan = good;
      legacy::storeValue(nan.bytes.data() + 250000 * sizeOf(d), d, std::numeric_limits<double>::infinity());
      legacy::storeValue(nan.bytes.data() + 140000 * sizeOf(d), d, std::nan(""));
      expectSameVerdict(nan, ref, tol, "non-finite");
    }
    expectSameVerdict(outputFor(d, std::vector<double>(ref.size(), 0.0)), ref, Tolerance{0, 1e9}, "all zeros");
    expectSameVerdict(outputFor(d, std::vector<double>(ref.size(), 5.0)), ref, Tolerance{0, 1e9}, "constant");
    // A constant reference makes a constant output right, in every chunk.
    expectSameVerdict(outputFor(d, std::vector<double>(ref.size(), 5.0)), std::vector<double>(ref.size(), 5.0), tol,
                      "constant reference");
  }
}

TEST(ParallelOutputCheck, BitwiseAndReferenceChecksMatchTheSequentialOnes) {
  HostTensor a(DType::BF16, kMany);
  fillRandom(a, Distribution{"normal", 0, 1}, 3, 0);
  HostTensor b = a;
  for (std::int64_t i : {std::int64_t{70000}, std::int64_t{70001}, kMany - 1}) b.bytes[static_cast<std::size_t>(i) * 2] ^= std::byte{1};
  std::vector<double> ref(static_cast<std::size_t>(kMany), 1.0);
  ref[123457] = std::nan("");
  ref[300000] = -std::numeric_limits<double>::infinity();
  for (int threads : {1, 4, 16}) {
    ThreadCount t(threads);
    const BitwiseDiff d = compareBitwise(a, b), want = legacy::compareBitwise(a, b);
    EXPECT_EQ(d.differing, want.differing);
    EXPECT_EQ(d.first, want.first);
    EXPECT_EQ(d.differing, 3);
    EXPECT_EQ(d.first, 70000);
    EXPECT_EQ(compareBitwise(a, a).differing, 0);
    EXPECT_EQ(checkReference("y", ref), "the task's oracle left 2 of " + std::to_string(kMany) +
                                            " elements of output 'y' non-finite or unwritten (first at index 123457): "
                                            "the task spec is wrong, not the candidate");
  }
}

// The timing loop's stopping rule: fast pairs get minSamples and then stop
// once the speedup is known to precisionTarget, or at targetSeconds; slow
// pairs (a 167 ms naive reference) stop at slowMinSamples once slowSeconds
// have passed; nothing samples past maxSeconds.
TEST(TimingStopRule, FastPairsGetEnoughSamplesSlowPairsStopEarlier) {
  const cuda::TimingOptions o;
  const double unknown = std::numeric_limits<double>::infinity();
  EXPECT_FALSE(cuda::enoughSamples(o.minSamples - 1, o.slowSeconds / 2, unknown, o));
  EXPECT_FALSE(cuda::enoughSamples(o.minSamples, o.targetSeconds / 2, unknown, o));
  EXPECT_TRUE(cuda::enoughSamples(o.minSamples, o.targetSeconds, unknown, o));
  EXPECT_FALSE(cuda::enoughSamples(o.slowMinSamples - 1, o.slowSeconds + 1, unknown, o));
  EXPECT_TRUE(cuda::enoughSamples(o.slowMinSamples, o.slowSeconds, unknown, o));
  EXPECT_FALSE(cuda::enoughSamples(4, o.maxSeconds, unknown, o));
  EXPECT_TRUE(cuda::enoughSamples(5, o.maxSeconds, unknown, o));
  // Precise enough: stop early, but never under minSamples.
  EXPECT_TRUE(cuda::enoughSamples(o.minSamples, 0.001, o.precisionTarget, o));
  EXPECT_FALSE(cuda::enoughSamples(o.minSamples, 0.001, o.precisionTarget * 1.01, o));
  EXPECT_FALSE(cuda::enoughSamples(o.minSamples - 1, 0.001, 0.0, o));
  // Slow pairs (a GEMM beside its naive baseline) may stop on precision from
  // slowMinSamples; fast ones not before minSamples.
  const int few = o.slowMinSamples;
  EXPECT_EQ(cuda::precisionMinSamples(few, few * o.slowPairSeconds, o), few);
  EXPECT_EQ(cuda::precisionMinSamples(few, few * o.slowPairSeconds / 2, o), o.minSamples);
  EXPECT_TRUE(cuda::enoughSamples(few, few * o.slowPairSeconds, o.precisionTarget, o));
  EXPECT_FALSE(cuda::enoughSamples(few, few * o.slowPairSeconds, o.precisionTarget * 1.01, o));
  EXPECT_FALSE(cuda::enoughSamples(few - 1, few * o.slowPairSeconds, 0.0, o));
  EXPECT_FALSE(cuda::enoughSamples(few, few * o.slowPairSeconds / 2, 0.0, o));
}

// The median's interval: the order statistics at n/2 -+ 0.98 sqrt(n). For
// 0..99 (n = 100, median 49.5) they are ranks 40 and 60: half-width 10.
TEST(TimingStopRule, MedianIntervalFromOrderStatistics) {
  std::vector<double> v;
  for (int i = 99; i >= 0; --i) v.push_back(i);  // unsorted on purpose
  EXPECT_DOUBLE_EQ(cuda::medianRelativeHalfWidth(v), 10.0 / 49.5);
  // Too few samples, or no positive median: unknown.
  EXPECT_TRUE(std::isinf(cuda::medianRelativeHalfWidth({1, 2, 3, 4, 5, 6, 7})));
  EXPECT_TRUE(std::isinf(cuda::medianRelativeHalfWidth(std::vector<double>(20, 0.0))));
  // Identical samples: known exactly.
  EXPECT_DOUBLE_EQ(cuda::medianRelativeHalfWidth(std::vector<double>(20, 70.0)), 0.0);
}

// The ratio's precision combines both medians'; a wide reference keeps a
// tight candidate sampling. Steady kernels (0.3% spread) reach the target in
// tens of pairs; a jittery one (10% spread) does not in hundreds.
TEST(TimingStopRule, SpeedupPrecisionNeedsBothKernelsSteady) {
  const cuda::TimingOptions o;
  auto spread = [](int n, double center, double width) {
    std::vector<double> v;
    for (int i = 0; i < n; ++i) v.push_back(center + width * ((i * 37 % n) / double(n - 1) - 0.5));
    return v;
  };
  const auto steady = spread(40, 70.0, 0.003 * 70), steadyRef = spread(40, 90.0, 0.003 * 90);
  EXPECT_LE(cuda::speedupPrecision(steady, steadyRef), o.precisionTarget);
  EXPECT_GT(cuda::speedupPrecision(steady, spread(40, 90.0, 0.1 * 90)), o.precisionTarget);
  EXPECT_GT(cuda::speedupPrecision(spread(400, 70.0, 0.1 * 70), steadyRef), o.precisionTarget);
  EXPECT_DOUBLE_EQ(cuda::speedupPrecision(steady, {}), cuda::medianRelativeHalfWidth(steady));
  const double c = cuda::medianRelativeHalfWidth(steady), r = cuda::medianRelativeHalfWidth(steadyRef);
  EXPECT_DOUBLE_EQ(cuda::speedupPrecision(steady, steadyRef), std::sqrt(c * c + r * r));
}

}  // namespace
}  // namespace crucible::cuda
