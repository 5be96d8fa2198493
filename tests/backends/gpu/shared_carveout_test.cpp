// SPDX-License-Identifier: GPL-3.0-or-later
// The carveout preference the harness may ask for (shared_carveout.h), without a GPU.
#include "backends/cuda/worker/shared_carveout.h"
#include <gtest/gtest.h>
#include <random>

namespace crucible::cuda {
namespace {

// The H100's figures: 228 KiB of shared memory an SM, 1 KiB kept per block.
constexpr int kH100SmemPerSm = 228 * 1024;
constexpr int kReserved = 1024;

TEST(SharedCarveout, ARowKernelWithLittleSharedMemoryGetsTheSmallestCarveoutThatHoldsItsBlocks) {
  // The softmax baseline: 1 KiB static, 8 blocks of 256 threads an SM.
  EXPECT_EQ(carveoutPercentFor(8, 1024, kReserved, kH100SmemPerSm), 8);   // 16 KiB of 228: 7.02%, rounded up
  // No shared memory at all still keeps the system's KiB a block.
  EXPECT_EQ(carveoutPercentFor(4, 0, kReserved, kH100SmemPerSm), 2);
}

TEST(SharedCarveout, AKernelThatFillsSharedMemoryKeepsItsOccupancy) {
  EXPECT_EQ(carveoutPercentFor(2, 100 * 1024, kReserved, kH100SmemPerSm), 89);   // 202 of 228 KiB
  EXPECT_EQ(carveoutPercentFor(1, 227 * 1024, kReserved, kH100SmemPerSm), 100);  // the whole SM
}

TEST(SharedCarveout, NeverBelowWhatTheBlocksNeedAndNeverAboveTheWhole) {
  std::mt19937 rng(7);
  for (int i = 0; i < 10000; ++i) {
    const int blocks = std::uniform_int_distribution<int>(1, 32)(rng);
    const long long smem = std::uniform_int_distribution<long long>(0, 227 * 1024)(rng);
    const std::optional<int> p = carveoutPercentFor(blocks, smem, kReserved, kH100SmemPerSm);
    ASSERT_TRUE(p.has_value());
    ASSERT_GE(*p, 0);
    ASSERT_LE(*p, 100);
    const long long needed = blocks * (smem + kReserved);
    if (needed <= kH100SmemPerSm) {
      EXPECT_GE(static_cast<long long>(*p) * kH100SmemPerSm, 100 * needed) << blocks << " blocks of " << smem << " B";
      EXPECT_LT(static_cast<long long>(*p - 1) * kH100SmemPerSm, 100 * needed) << "not the least: " << *p;
    } else {
      EXPECT_EQ(*p, 100);
    }
  }
}

TEST(SharedCarveout, NoFigureWhenTheDeviceWasNotReadOrNoBlockFits) {
  EXPECT_FALSE(carveoutPercentFor(0, 1024, kReserved, kH100SmemPerSm).has_value());
  EXPECT_FALSE(carveoutPercentFor(8, 1024, kReserved, 0).has_value());
  EXPECT_FALSE(carveoutPercentFor(8, -1, kReserved, kH100SmemPerSm).has_value());
}

TEST(SharedCarveout, PreferencesReadFromTextAndBack) {
  using Kind = CarveoutPreference::Kind;
  EXPECT_EQ(parseCarveoutPreference("unset"), CarveoutPreference{});
  EXPECT_EQ(parseCarveoutPreference("least"), (CarveoutPreference{Kind::LeastForOccupancy, 0}));
  EXPECT_EQ(parseCarveoutPreference("0"), (CarveoutPreference{Kind::Percent, 0}));
  EXPECT_EQ(parseCarveoutPreference("100"), (CarveoutPreference{Kind::Percent, 100}));
  for (const char* text : {"unset", "least", "0", "7", "100"})
    EXPECT_EQ(toString(*parseCarveoutPreference(text)), text);
  // The driver refuses a percent outside 0-100 only at the first kernel; refused here, before any.
  for (const char* bad : {"", "-1", "101", "7%", " 7", "7 ", "1e2", "max", "LEAST", "99999999999"})
    EXPECT_FALSE(parseCarveoutPreference(bad).has_value()) << "'" << bad << "'";
}

}  // namespace
}  // namespace crucible::cuda
