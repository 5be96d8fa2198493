// SPDX-License-Identifier: GPL-3.0-or-later
// `--axes M=4096,N=5003` (run, eval, task show|validate|import): a task at a
// shape other than its file's, as a task of its own (core/task/axes_override.h).
#pragma once
#include <CLI/CLI.hpp>

#include <string>
#include "app/cli/options.h"

namespace crucible::cli {

// Declares --axes; its text is checked as it is parsed (UsageError naming --axes).
void addAxesOption(CLI::App& app);

// The spec document at the shape --axes gives, or specText itself without
// --axes. A UsageError names --axes and the axis (an axis the task does not
// have, a shape at which it is not valid); `origin` (a file) is named too.
std::string specTextAtAxes(const Options& o, const std::string& specText, const std::string& origin = "");

}  // namespace crucible::cli
