// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/compile/arch_selection.h"

#include <gtest/gtest.h>

namespace crucible {
namespace {

TEST(ArchSelection, ParsesPlainAndSuffixedArchs) {
  auto a = parseGpuArch("sm_90");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->number, 90);
  EXPECT_EQ(a->suffix, 0);
  EXPECT_EQ(a->sm(), "sm_90");
  EXPECT_EQ(a->compute(), "compute_90");
  auto b = parseGpuArch("sm_100a");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->number, 100);
  EXPECT_EQ(b->compute(), "compute_100a");
}

TEST(ArchSelection, RejectsMalformedNames) {
  EXPECT_FALSE(parseGpuArch(""));
  EXPECT_FALSE(parseGpuArch("sm90"));
  EXPECT_FALSE(parseGpuArch("compute_90"));
  EXPECT_FALSE(parseGpuArch("sm_9"));
  EXPECT_FALSE(parseGpuArch("sm_9x"));
  EXPECT_FALSE(parseGpuArch("sm_90b"));
}

TEST(ArchSelection, SwitchesToArchSpecificTargetOnlyWhenNeeded) {
  const GpuArch sm90 = *parseGpuArch("sm_90");
  EXPECT_EQ(selectArch(sm90, "__global__ void k() {}").sm(), "sm_90");
  EXPECT_EQ(selectArch(sm90, "asm(\"wgmma.fence.sync.aligned;\");").sm(), "sm_90a");
  EXPECT_EQ(selectArch(sm90, "asm(\"setmaxnreg.inc.sync.aligned.u32 240;\");").sm(), "sm_90a");
  // An explicit suffix is kept, and pre-Hopper archs have no 'a' variant to switch to.
  EXPECT_EQ(selectArch(*parseGpuArch("sm_90a"), "").sm(), "sm_90a");
  EXPECT_EQ(selectArch(*parseGpuArch("sm_80"), "wgmma").sm(), "sm_80");
}

}  // namespace
}  // namespace crucible
