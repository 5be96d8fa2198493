// SPDX-License-Identifier: GPL-3.0-or-later
// resolveGeometry (backends/cuda/worker/kernel_module.h) without a GPU: a launch
// rule that names sm_count is resolved with the SM count the worker passes (its
// GPU's), a value outside CUDA's limits says which SM count gave it, and a rule
// that needs the count is refused when none is known.
#include <gtest/gtest.h>
#include <string>
#include "backends/cuda/worker/kernel_failure.h"
#include "backends/cuda/worker/kernel_module.h"

namespace crucible::cuda {
namespace {

const std::map<std::string, std::int64_t> kAxes = {{"M", 8192}, {"N", 8192}, {"K", 8192}};

// The persistent bf16 GEMM's rule (emit_gemm_wgmma_persistent.cpp) with pairs of blocks.
LaunchRule persistentRule() {
  LaunchRule r;
  r.entry = "gemm";
  r.grid[0] = "min(ceil_div(N, 256) * ceil_div(M, 128), sm_count / 2 * 2)";
  r.block[0] = "384";
  r.dynamicSmemBytes = "216128";
  return r;
}

std::string failureOf(const LaunchRule& rule, int smCount) {
  try {
    resolveGeometry(rule, kAxes, smCount);
  } catch (const KernelFailure& e) {
    EXPECT_EQ(e.status(), CandidateStatus::ResourceError);
    return e.what();
  }
  return "(no failure)";
}

TEST(LaunchGeometry, TheGridIsSizedToTheGpuItLaunchesOn) {
  EXPECT_EQ(resolveGeometry(persistentRule(), kAxes, 132).grid[0], 132u);   // H100 SXM, H200
  EXPECT_EQ(resolveGeometry(persistentRule(), kAxes, 148).grid[0], 148u);   // B200
  EXPECT_EQ(resolveGeometry(persistentRule(), kAxes, 113).grid[0], 112u);   // rounded down to pairs
  EXPECT_EQ(resolveGeometry(persistentRule(), {{"M", 1000}, {"N", 1000}, {"K", 64}}, 132).grid[0], 32u);  // 8 x 4 tiles
  const LaunchGeometry g = resolveGeometry(persistentRule(), kAxes, 16);
  EXPECT_EQ(g.grid[0], 16u);
  EXPECT_EQ(g.block[0], 384u);
  EXPECT_EQ(g.dynamicSmemBytes, 216128u);
}

TEST(LaunchGeometry, AValueOutsideTheLimitsSaysWhichSmCountGaveIt) {
  // One SM cannot hold a pair of blocks: the grid would be empty.
  const std::string m = failureOf(persistentRule(), 1);
  EXPECT_NE(m.find("launch rule grid.x"), std::string::npos) << m;
  EXPECT_NE(m.find("= 0 (sm_count = 1), outside [1, "), std::string::npos) << m;
  LaunchRule r = persistentRule();
  r.block[0] = "8 * sm_count";
  EXPECT_NE(failureOf(r, 132).find("'8 * sm_count' = 1056 (sm_count = 132), outside [1, 1024]"), std::string::npos);
}

TEST(LaunchGeometry, ARuleThatNeedsTheSmCountIsRefusedWithoutOne) {
  EXPECT_NE(failureOf(persistentRule(), 0).find("the GPU's SM count (0) is not known"), std::string::npos);
  // A rule that does not name it never needs it.
  LaunchRule plain = persistentRule();
  plain.grid[0] = "ceil_div(N, 256) * ceil_div(M, 128)";
  EXPECT_EQ(resolveGeometry(plain, kAxes, 0).grid[0], 2048u);
}

}  // namespace
}  // namespace crucible::cuda
