// SPDX-License-Identifier: GPL-3.0-or-later
// Reference analysis from recorded figures: an H200 row sum's profile
// (memory-bound), a tensor-core GEMM's (compute-bound), and what is left out
// (never estimated) when the profile or a ceiling is missing.
#include <gtest/gtest.h>
#include "core/knowledge/reference_analysis.h"
#include "core/model/roofline_point.h"

namespace crucible {
namespace {

const std::vector<Ceiling> kH200{
    {"NVIDIA H200", "dram_bw", 4.0e12, 4.8e12, "B/s", 1},
    {"NVIDIA H200", "fp32_fma", 6.0e13, 6.7e13, "FLOP/s", 1},
    {"NVIDIA H200", "bf16_tensor", 6.0e14, 9.9e14, "FLOP/s", 1},
    {"NVIDIA A100", "dram_bw", 1.5e12, 2.0e12, "B/s", 1},
};

TaskSpec rowSumSpec() {
  TaskSpec s;
  s.axes = {{"M", 8192}, {"N", 4096}};
  s.flops = "M*N";
  return s;
}

// Recorded: 134 MB read in 40 µs, 61.5% achieved occupancy, 32 registers.
Candidate rowSumReference() {
  Candidate c;
  c.id = 7;
  c.status = CandidateStatus::Reference;
  Timing t;
  t.medianUs = 40;
  c.timing = t;
  c.profile = {{kDramBytesRead, 134217728}, {kDramBytesWrite, 32768},   {kSassFadd, 33554432},
               {kSassFmul, 0},              {kSassFfma, 0},              {kAchievedOccupancyMetric, 61.5}};
  CompileReport r;
  r.ok = true;
  r.registers = 32;
  r.staticSmemBytes = 128;
  r.features = {{"ld.global", 4}, {"ld.global.16B", 4}, {"st.global", 1}, {"shfl", 10}, {"bar.sync", 2}};
  c.compile = r;
  c.launch.block[0] = "256";
  return c;
}

const KnowledgeEntry* find(const ReferenceAnalysis& a, const std::string& decision) {
  for (const auto& k : a.claims)
    if (k.decision == decision) return &k;
  return nullptr;
}

TEST(ReferenceAnalysis, AMemoryBoundReferenceFromItsRecordedProfile) {
  const Candidate ref = rowSumReference();
  const TaskSpec spec = rowSumSpec();
  const auto a = analyseReference({&ref, &spec, "rowsum", "sm_90", "NVIDIA H200", kH200});
  EXPECT_TRUE(a.missing.empty()) << a.missing.front();
  ASSERT_EQ(a.claims.size(), 4u);
  for (const auto& k : a.claims) {
    EXPECT_EQ(k.scopeArch, "sm_90");
    EXPECT_EQ(k.scopeFamily, "rowsum");
    EXPECT_EQ(k.scopeShape, "M~2^13 N~2^12");
    EXPECT_EQ(k.evidence, (std::vector<CandidateId>{7})) << "linked to the reference";
    EXPECT_EQ(k.status, KnowledgeStatus::Validated);
    EXPECT_DOUBLE_EQ(k.effect, 1.0) << "no speedup is claimed";
  }
  const KnowledgeEntry* bound = find(a, "reference.bound");
  ASSERT_TRUE(bound);
  // 134250496 B / 40 µs = 3.36 TB/s = 84% of 4 TB/s; intensity 0.25 FLOP/B against a ridge of 15.
  EXPECT_NE(bound->claim.find("memory-bound"), std::string::npos) << bound->claim;
  EXPECT_NE(bound->claim.find("84% of the 4 TB/s DRAM roof"), std::string::npos) << bound->claim;
  EXPECT_NE(bound->claim.find("ridge at 15 FLOP/B"), std::string::npos) << bound->claim;
  const KnowledgeEntry* occupancy = find(a, "reference.occupancy");
  ASSERT_TRUE(occupancy);
  EXPECT_NE(occupancy->claim.find("keeps 62% of the SM's warp slots busy"), std::string::npos) << occupancy->claim;
  EXPECT_NE(occupancy->claim.find("theoretical 100% (8 blocks of 256 threads per SM, limited by warps)"),
            std::string::npos)
      << occupancy->claim;
  EXPECT_NE(find(a, "reference.registers")->claim.find("32 registers per thread"), std::string::npos);
  const std::string features = find(a, "reference.features")->claim;
  EXPECT_NE(features.find("16-byte global loads"), std::string::npos) << features;
  EXPECT_NE(features.find("warp shuffles"), std::string::npos) << features;
}

TEST(ReferenceAnalysis, AComputeBoundTensorCoreReference) {
  Candidate ref = rowSumReference();
  TaskSpec spec;
  spec.axes = {{"M", 4096}, {"N", 4096}, {"K", 4096}};
  spec.flops = "2*M*N*K";  // 1.37e11 FLOP in 300 µs = 458 TFLOP/s
  ref.timing->medianUs = 300;
  ref.profile = {{kDramBytesRead, 1.0e8}, {kDramBytesWrite, 6.7e7}};
  ref.compile->features = {{"wgmma", 64}, {"cp.async.bulk", 8}, {"cp.async.bulk.tensor", 8}, {"setmaxnreg", 2}};
  const auto a = analyseReference({&ref, &spec, "matmul", "sm_90a", "NVIDIA H200", kH200});
  const KnowledgeEntry* bound = find(a, "reference.bound");
  ASSERT_TRUE(bound);
  EXPECT_NE(bound->claim.find("compute-bound"), std::string::npos) << bound->claim;
  EXPECT_NE(bound->claim.find("76% of the 600 TFLOP/s bf16_tensor roof"), std::string::npos) << bound->claim;
  const std::string features = find(a, "reference.features")->claim;
  EXPECT_NE(features.find("TMA tensor copies"), std::string::npos) << features;
  EXPECT_NE(features.find("wgmma"), std::string::npos) << features;
  EXPECT_EQ(features.find("bulk asynchronous copies"), std::string::npos) << "TMA is said once";
  ASSERT_EQ(a.missing.size(), 0u);
  const KnowledgeEntry* occupancy = find(a, "reference.occupancy");
  ASSERT_TRUE(occupancy);
  EXPECT_NE(occupancy->claim.find("has a theoretical occupancy of"), std::string::npos)
      << "no achieved figure in this profile: " << occupancy->claim;
}

// A launch rule may name sm_count (issue 20): its occupancy is worked out with the SM count of
// the GPU the reference was measured on, and not at all when that count is not recorded.
TEST(ReferenceAnalysis, ALaunchRuleThatNamesTheSmCountUsesTheDevicesCount) {
  Candidate ref = rowSumReference();
  ref.launch.dynamicSmemBytes = "min(49152, 64 * sm_count)";
  const TaskSpec spec = rowSumSpec();
  auto a = analyseReference({&ref, &spec, "rowsum", "sm_90", "NVIDIA H200", kH200, 132});
  const KnowledgeEntry* occupancy = find(a, "reference.occupancy");
  ASSERT_TRUE(occupancy);
  EXPECT_NE(occupancy->claim.find("theoretical "), std::string::npos) << occupancy->claim;
  EXPECT_EQ(occupancy->claim.find("no theoretical occupancy"), std::string::npos) << occupancy->claim;
  a = analyseReference({&ref, &spec, "rowsum", "sm_90", "NVIDIA H200", kH200});
  occupancy = find(a, "reference.occupancy");
  ASSERT_TRUE(occupancy);
  EXPECT_NE(occupancy->claim.find("no theoretical occupancy: its launch rule uses sm_count and the SM count of "
                                  "NVIDIA H200 is not recorded"),
            std::string::npos)
      << occupancy->claim;
}

TEST(ReferenceAnalysis, WhatIsMissingIsSaidNotEstimated) {
  Candidate ref = rowSumReference();
  ref.profile.clear();
  const TaskSpec spec = rowSumSpec();
  auto a = analyseReference({&ref, &spec, "rowsum", "sm_90", "NVIDIA H200", kH200});
  EXPECT_FALSE(find(a, "reference.bound"));
  ASSERT_FALSE(a.missing.empty());
  EXPECT_EQ(a.missing.front(), "reference.bound: the reference is not profiled");
  ASSERT_TRUE(find(a, "reference.occupancy")) << "the theoretical figure needs no profile";
  EXPECT_TRUE(find(a, "reference.registers"));

  ref = rowSumReference();
  a = analyseReference({&ref, &spec, "rowsum", "sm_90", "NVIDIA GH200", kH200});
  EXPECT_FALSE(find(a, "reference.bound")) << "ceilings belong to the device that measured them";
  EXPECT_EQ(a.missing.front(), "reference.bound: no dram_bw ceiling measured on NVIDIA GH200");

  a = analyseReference({&ref, &spec, "rowsum", "sm_75", "NVIDIA H200", kH200});
  const KnowledgeEntry* occupancy = find(a, "reference.occupancy");
  ASSERT_TRUE(occupancy);
  EXPECT_NE(occupancy->claim.find("no theoretical occupancy: this build does not know the per-SM limits of sm_75"),
            std::string::npos)
      << occupancy->claim;

  // A task with no FLOPs (a transpose) is judged against the DRAM roof only.
  TaskSpec copy = rowSumSpec();
  copy.flops = "";
  a = analyseReference({&ref, &copy, "transpose", "sm_90", "NVIDIA H200", kH200});
  ASSERT_TRUE(find(a, "reference.bound"));
  EXPECT_NE(find(a, "reference.bound")->claim.find("DRAM roof only (the task does no floating-point work)"),
            std::string::npos)
      << find(a, "reference.bound")->claim;
}

TEST(ReferenceAnalysis, TheoreticalOccupancyNamesItsLimiter) {
  const SmLimits h100 = *smLimitsOf("sm_90");
  auto o = theoreticalOccupancy(h100, 256, 128, 0);  // 4096 registers per warp: 16 warps
  ASSERT_TRUE(o);
  EXPECT_DOUBLE_EQ(o->fraction, 0.25);
  EXPECT_EQ(o->limiter, "registers");
  o = theoreticalOccupancy(h100, 128, 32, 100 * 1024);  // 2 blocks of 101 KiB
  ASSERT_TRUE(o);
  EXPECT_EQ(o->blocksPerSm, 2);
  EXPECT_EQ(o->limiter, "shared memory");
  o = theoreticalOccupancy(h100, 32, 16, 0);
  ASSERT_TRUE(o);
  EXPECT_EQ(o->limiter, "blocks");
  EXPECT_DOUBLE_EQ(o->fraction, 0.5);
  EXPECT_FALSE(theoreticalOccupancy(h100, 1024, 255, 0)) << "does not fit";
  EXPECT_FALSE(theoreticalOccupancy(h100, 0, 32, 0));
  EXPECT_FALSE(smLimitsOf("sm_75"));
  EXPECT_EQ(smLimitsOf("sm_90a")->maxWarps, 64);
}

}  // namespace
}  // namespace crucible
