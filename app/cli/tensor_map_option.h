// SPDX-License-Identifier: GPL-3.0-or-later
// The text form of a tensor map rule on the command line:
// TENSOR:ROWSxCOLS[:SWIZZLE], e.g. "A:128x64:128B" (see core/model/candidate.h).
#pragma once
#include <string>
#include "core/model/candidate.h"

namespace crucible::cli {

// Throws std::invalid_argument naming the text and the form expected. Checks
// the form only (numbers, separators); tensorMapProblems() judges the rule
// against the task.
TensorMapRule parseTensorMapOption(const std::string& text);

}  // namespace crucible::cli
