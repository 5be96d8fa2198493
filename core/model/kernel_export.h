// SPDX-License-Identifier: GPL-3.0-or-later
// The record written beside an exported kernel (<name>.json next to <name>.cu):
// everything needed to launch it outside Crucible. `crucible-cli best --export`
// writes it for winners and tests/bench/template_variants for chosen genomes;
// tests/bench/suite_bench.py, variant_bench.py and `crucible-cli eval --launch`
// read it. One writer of the common fields keeps the readers' format in one place.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include "core/model/candidate.h"

namespace crucible {

// {"task", "family", "spec" (the task spec document), "entry", "grid", "block",
//  "smem" (flat, for scripts), "launch" (the whole rule; "tensorMaps" always
//  present, empty when the kernel takes none), "architecture"}. Callers add
// where the kernel comes from ("candidate", "run") and what they measured.
nlohmann::json exportedKernelJson(const std::string& task, const std::string& family, const std::string& specJson,
                                  const Candidate& c);

}  // namespace crucible
