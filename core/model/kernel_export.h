// SPDX-License-Identifier: GPL-3.0-or-later
// An exported kernel, in one place for every front end (the vault's Export,
// `crucible-cli best --export`, tests/bench/template_variants):
//   - the .cu file: a header comment with its figures (and, for a sealed
//     kernel, the seal's figures, reports and the fingerprint they were
//     measured on), a launch snippet from its launch rule, the source
//     verbatim, then (given the task's spec) a host launcher
//     (host_launcher.h) that NVRTC skips. Only comment lines come before the
//     source, so the file still compiles with NVRTC as the kernel alone;
//   - the record written beside it (<name>.json next to <name>.cu):
//     everything needed to launch it outside Crucible. tests/bench/suite_bench.py,
//     variant_bench.py and `crucible-cli eval --launch` read it. One writer of
//     the common fields keeps the readers' format in one place.
// Pure: nothing here reads or writes files.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include "core/model/candidate.h"
#include "core/model/seal.h"

namespace crucible {

struct TaskSpec;

// {"task", "family", "spec" (the task spec document), "entry", "grid", "block",
//  "smem" (flat, for scripts), "launch" (the whole rule; "tensorMaps" always
//  present, empty when the kernel takes none), "architecture"}. Callers add
// where the kernel comes from ("candidate", "run") and what they measured.
nlohmann::json exportedKernelJson(const std::string& task, const std::string& family, const std::string& specJson,
                                  const Candidate& c);

// "dim3 grid(...); dim3 block(...); entry<<<grid, block, smem>>>(args);" as comment lines.
// spec (optional) names the kernel's arguments in ABI order.
std::string launchSnippet(const LaunchRule& rule, const TaskSpec* spec);

// The whole .cu file of a kernel of task taskName. seal (optional) is the
// kernel's seal: its figures, reports and fingerprint go into the header
// (throws std::invalid_argument when it seals another candidate); without one
// the header gives the kernel's own timing. spec (optional) names the
// launch's arguments.
std::string exportedKernelFile(const Candidate& kernel, const std::string& taskName, const TaskSpec* spec,
                               const Seal* seal);

// The .cu file of a sealed kernel: exportedKernelFile with the seal. kernel
// must be the seal's candidate.
std::string sealedKernelFile(const Seal& seal, const Candidate& kernel, const std::string& taskName,
                             const TaskSpec* spec);

// "2024-05-01 12:00:00 UTC" from unix seconds.
std::string formatUtc(std::int64_t unixSeconds);

}  // namespace crucible
