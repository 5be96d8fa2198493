// SPDX-License-Identifier: GPL-3.0-or-later
// What the hardware says about a run's reference (issue 19, "Reference
// analysis"): from its timing, its CUPTI profile, the device's measured
// ceilings and its compile report, claims scoped to the GPU architecture,
// operator family and shape class, each with the reference candidate as its
// evidence:
//   reference.bound       which roof bounds it (memory or compute) and the
//                         fraction of that roof it reaches (roofline
//                         arithmetic of core/model/roofline_point.h);
//   reference.occupancy   achieved occupancy (the profile) against the
//                         theoretical one the CUDA occupancy rules give for
//                         its registers, shared memory and block size, and
//                         what limits the latter;
//   reference.registers   registers per thread, spills;
//   reference.features    what its PTX uses (16-byte accesses, shuffles,
//                         asynchronous copies, tensor-core instructions...).
// A claim whose inputs are missing is left out, and `missing` says why:
// nothing is estimated. The claims are validated (they are measurements of
// one kernel, not decisions to test) with effect 1 (no speedup is claimed);
// their decisions name no gene, so they reach prompts, not priors.
#pragma once
#include <string>
#include <vector>
#include "core/model/candidate.h"
#include "core/model/knowledge.h"
#include "core/model/seal.h"
#include "core/task/task_spec.h"

namespace crucible {

// The per-SM limits the occupancy rules use; nullopt for an architecture this
// build does not know (then no theoretical occupancy is claimed).
struct SmLimits {
  int maxWarps = 0;
  int maxBlocks = 0;
  int registers = 65536;
  int sharedBytes = 0;          // usable per SM
  int reservedSharedPerBlock = 1024;
};
std::optional<SmLimits> smLimitsOf(const std::string& arch);  // "sm_90", "sm_90a"

struct TheoreticalOccupancy {
  double fraction = 0;          // active warps / maximum warps
  int blocksPerSm = 0;
  std::string limiter;          // "warps", "registers", "shared memory", "blocks"
};
// nullopt when the block has no threads or more than the SM holds.
std::optional<TheoreticalOccupancy> theoreticalOccupancy(const SmLimits& sm, int threadsPerBlock,
                                                         int registersPerThread, int sharedBytesPerBlock);

struct ReferenceAnalysisInput {
  const Candidate* reference = nullptr;   // timed (medianUs), profiled, compiled
  const TaskSpec* spec = nullptr;         // axes, flops formula
  std::string family;
  std::string arch;                       // the device's
  std::string gpu;                        // the device's name (ceilings are per device)
  std::vector<Ceiling> ceilings;
  int smCount = 0;                        // the device's (a launch rule may name sm_count); 0: not recorded
};

struct ReferenceAnalysis {
  std::vector<KnowledgeEntry> claims;
  std::vector<std::string> missing;       // "reference.bound: no dram_bw ceiling measured on NVIDIA H200"
};

ReferenceAnalysis analyseReference(const ReferenceAnalysisInput& input);

// The CUPTI metric of achieved occupancy (percent of peak sustained warps).
inline constexpr const char* kAchievedOccupancyMetric = "sm__warps_active.avg.pct_of_peak_sustained_active";

}  // namespace crucible
