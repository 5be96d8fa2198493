// SPDX-License-Identifier: GPL-3.0-or-later
// A model's kernel has no genome: its place in the MAP-Elites archive is
// computed from what it is. The compile report's PTX features
// (backends/cuda/compile/ptx_features.h) are the evidence when there is one;
// otherwise the source is read for the same things, less reliably.
#pragma once
#include <map>
#include <optional>
#include <string>
#include "core/model/candidate.h"

namespace crucible::llm {

// Dimensions (values are short stable words):
//   "memory"       "tma" (bulk/tensor copies) | "cp_async" | "smem" (staged in shared memory) | "global"
//   "tensor_core"  "tcgen05" | "wgmma" | "mma" | "wmma" | "none"
//   "vector_bytes" widest global access per thread: "32" | "16" | "8" | "4" | "2" | "1" ("4" when unknown)
//   "reduction"    "shuffle" | "atomic" | "none"   (cross-thread combining)
std::map<std::string, std::string> describeKernel(const std::string& source, const std::optional<CompileReport>& report);

// The same kernel written with other comments or spacing normalises to the same
// text: comments removed, whitespace dropped except one space between two
// identifier characters. String literals are kept verbatim.
std::string normalisedSource(const std::string& source);

}  // namespace crucible::llm
