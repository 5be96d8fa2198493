// SPDX-License-Identifier: GPL-3.0-or-later
// The launch-parameter ring learned from where consecutive launches' parameters
// lay (ringFrom), the heads the driver writes (slotHeads), and a kernel's
// declared parameters against the task's (parameterMismatch), without a GPU.
#include <gtest/gtest.h>
#include <cstdint>
#include <vector>
#include "backends/cuda/worker/kernel_parameters.h"
#include "backends/cuda/worker/parameter_ring.h"

namespace crucible::cuda {
namespace {

constexpr std::uint64_t kBase = 0x7f1b82280000ull, kSlot = 64 * 1024, kHeader = 0x210;

// What 32 launches reported on the H100: 8 slots of 64 KiB, used in turn, starting at slot `first`.
std::vector<std::uint64_t> launches(int slots, int first, int n = 32) {
  std::vector<std::uint64_t> at;
  for (int i = 0; i < n; ++i) at.push_back(kBase + kSlot * static_cast<std::uint64_t>((first + i) % slots) + kHeader);
  return at;
}

TEST(ParameterRing, EightSlotsUsedInTurnAreLearnedFromAnyStartingSlot) {
  const ParameterRing ring = ringFrom(launches(8, 5));
  ASSERT_EQ(ring.unknown, "");
  ASSERT_EQ(ring.parameters.size(), 8u);
  EXPECT_EQ(ring.parameters.front(), kBase + kHeader);
  EXPECT_EQ(ring.parameters.back(), kBase + 7 * kSlot + kHeader);
}

TEST(ParameterRing, ARingLargerThanHalfTheLaunchesOrANullAddressIsUnknown) {
  EXPECT_NE(ringFrom(launches(17, 0)).unknown, "") << "17 slots do not repeat twice in 32 launches";
  EXPECT_EQ(ringFrom(launches(16, 3)).unknown, "");
  std::vector<std::uint64_t> at = launches(8, 0);
  at[9] = kBase + 3 * kSlot + kHeader;  // out of turn: no period fits
  EXPECT_NE(ringFrom(at).unknown, "");
  at = launches(8, 0);
  at[4] = 0;
  EXPECT_NE(ringFrom(at).unknown, "");
  EXPECT_NE(ringFrom({}).unknown, "");
}

TEST(ParameterRing, EachSlotsHeadRunsFromItsStartPastTheLargestParameterBlock) {
  const ParameterRing ring = ringFrom(launches(8, 0));
  const std::vector<DeviceSpan> heads = slotHeads(ring, 512);
  ASSERT_EQ(heads.size(), 8u);
  EXPECT_EQ(heads[2].begin, kBase + 2 * kSlot);
  EXPECT_EQ(heads[2].bytes, kHeader + 512);
  const std::vector<DeviceSpan> anchors = slotAnchors(ring);
  ASSERT_EQ(anchors.size(), 8u);
  EXPECT_EQ(anchors[7].begin, kBase + 7 * kSlot + kHeader);
  EXPECT_TRUE(slotHeads(ParameterRing{{}, "unknown"}, 512).empty());
}

TEST(KernelParameters, AKernelThatDeclaresMoreOrLargerParametersIsNamed) {
  const std::vector<std::size_t> passed = abiParameterSizes(3, 1);  // x, y, N and one tensor map
  EXPECT_EQ(passed, (std::vector<std::size_t>{8, 8, 8, 128}));
  const std::vector<DeclaredParameter> same = {{0, 8}, {8, 8}, {16, 8}, {64, 128}};
  EXPECT_EQ(parameterMismatch(same, passed, "the candidate 'k'"), "");
  EXPECT_EQ(parameterBlockBytes(same), 192u);
  std::vector<DeclaredParameter> more = same;
  more.push_back({192, 4096});
  const std::string extra = parameterMismatch(more, passed, "the candidate 'k'");
  EXPECT_NE(extra.find("the candidate 'k' takes 5 parameter(s), not the task's 4"), std::string::npos) << extra;
  EXPECT_NE(extra.find("(8, 8, 8, 128, 4096)"), std::string::npos) << extra;
  std::vector<DeclaredParameter> larger = same;
  larger[2].bytes = 4096;
  EXPECT_NE(parameterMismatch(larger, passed, "the candidate 'k'").find("parameter 3 is 4096 bytes, not the 8"),
            std::string::npos);
  EXPECT_NE(parameterMismatch({{0, 8}, {8, 8}}, abiParameterSizes(3, 0), "k"), "") << "fewer is refused too";
  EXPECT_EQ(parameterBlockBytes({}), 0u);
}

}  // namespace
}  // namespace crucible::cuda
