// SPDX-License-Identifier: GPL-3.0-or-later
// The memory-bound tasks of the built-in suite and their design spaces'
// starting points, shared by the legality tests and the NVRTC compile tests.
#pragma once
#include <string>
#include <vector>
#include "backends/proposers/template/genome.h"
#include "backends/proposers/template/kernel_problem.h"

namespace crucible::testing_support {

// The built-in suite's tasks of the memory-bound families (resources/tasks),
// every shape; empty when the suite folder is not found.
std::vector<templates::KernelProblem> memoryBoundSuiteProblems();

// The suite's large shapes of those families: the ones that must reach copy bandwidth.
bool isLargeSuiteTask(const std::string& taskName);

// The space's starting points for `p` that are legal there, in order.
std::vector<templates::Genome> legalStartingPoints(const templates::KernelProblem& p);

}  // namespace crucible::testing_support
