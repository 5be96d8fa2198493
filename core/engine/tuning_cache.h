// SPDX-License-Identifier: GPL-3.0-or-later
// The canonical key of one kernel configuration for the project's tuning
// cache (ProjectStore::recordTuning/lookupTuning): a configuration is
// measured at most once per task in a project.
#pragma once
#include <cstdint>
#include <string>
#include "core/engine/interfaces.h"

namespace crucible {

// "<architectureKey>|<name=value,...>|<fnv1a64 of the source's code, hex>".
// Parameters come in name order (ParameterPoint is ordered). The source hash
// keeps two different kernels apart when a proposer declares no parameters
// (free rewrites share an architecture but not a source); whole-line //
// comments are left out of it, so the same kernel reached twice (a template
// genome whose header names another origin) is measured once.
std::string configKey(const std::string& architectureKey, const ParameterPoint& parameters,
                      const std::string& source);

// `source` without the lines that hold only a // comment.
std::string withoutCommentLines(const std::string& source);

// FNV-1a, 64 bit: stable across platforms and library versions (std::hash is not).
std::uint64_t fnv1a64(const std::string& bytes);

}  // namespace crucible
