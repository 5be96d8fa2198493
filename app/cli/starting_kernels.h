// SPDX-License-Identifier: GPL-3.0-or-later
// `crucible-cli run --kernel K.cu [--tune K.tune.json]`: the user's starting
// kernels read from disk and turned into the run's proposer. The work is
// backends' (backends/proposers/tunable/starting_kernels.h, read and check;
// backends/proposers/combined/run_proposer.h, the proposer), shared with the
// GUI; here its errors become UsageErrors worded as options.
#pragma once
#include <string>
#include <vector>
#include "app/cli/options.h"
#include "backends/proposers/combined/run_proposer.h"
#include "backends/proposers/tunable/starting_kernels.h"

namespace crucible::cli {

// Where a kernel's parameters and launch rule are read from, first found wins:
//   1. the --tune file given after its --kernel;
//   2. K.tune.json beside K.cu (the same stem);
//   3. a `/* crucible-tune { ...the same JSON... } */` comment in K.cu.
// None of them: a UsageError saying so. Files are read with bounded work
// (core/io/bounded_file.h); every error names the file and the field.
StartingKernel readStartingKernel(const KernelOption& option);
// Every --kernel in order; two of one name are a UsageError.
std::vector<StartingKernel> readStartingKernels(const Options& o);

// Each kernel checked against the task (signature, names, a legal starting
// point) before a run is created: a UsageError listing every kernel that
// does not fit, with the reason.
void checkStartingKernels(const std::vector<StartingKernel>& kernels, const std::string& taskSpecJson);

// The run's proposer (backends/proposers/combined/run_proposer.h): the
// template proposer (or `--proposer llm`'s model) alone without starting
// kernels, unless combineAlways (`resume`), else competing with the starting
// kernels' tunable proposer, the starting kernels' seeds first.
using RunProposer = crucible::RunProposer;

}  // namespace crucible::cli
