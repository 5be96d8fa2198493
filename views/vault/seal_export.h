// SPDX-License-Identifier: GPL-3.0-or-later
// A sealed kernel as a stand-alone .cu file: a header comment with its
// figures and the fingerprint they were measured on, the source verbatim,
// and a launch snippet from its launch rule. Pure.
#pragma once
#include <string>
#include "core/model/candidate.h"
#include "core/model/seal.h"

namespace crucible {
struct TaskSpec;
}

namespace crucible::views {

// "dim3 grid(...); dim3 block(...); entry<<<grid, block, smem>>>(args);" as comment lines.
// spec (optional) names the kernel's arguments in ABI order.
std::string launchSnippet(const LaunchRule& rule, const TaskSpec* spec);

// The whole file. kernel must be the seal's candidate.
std::string sealedKernelFile(const Seal& seal, const Candidate& kernel, const std::string& taskName,
                             const TaskSpec* spec);

// "2024-05-01 12:00:00 UTC" from unix seconds.
std::string formatUtc(std::int64_t unixSeconds);

}  // namespace crucible::views
