// SPDX-License-Identifier: GPL-3.0-or-later
// A launch rule read from a file, for `crucible-cli eval --launch FILE.json`:
// the record `crucible-cli best --export` and tests/bench/template_variants
// write next to each kernel (its "launch" object), or a bare launch rule as
// the project file stores it. Re-evaluating an exported kernel then needs no
// hand-copied grid, block, shared memory or tensor maps.
#pragma once
#include <string>
#include "core/model/candidate.h"

namespace crucible::cli {

// Throws std::invalid_argument naming the file and what is missing or malformed.
LaunchRule readLaunchFile(const std::string& path);

// The same from the file's text (`path` names it in messages).
LaunchRule parseLaunchFile(const std::string& text, const std::string& path);

}  // namespace crucible::cli
