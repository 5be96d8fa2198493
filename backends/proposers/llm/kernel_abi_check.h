// SPDX-License-Identifier: GPL-3.0-or-later
// Checks that a model's kernel takes exactly the parameters the task's ABI
// passes (core/task/kernel_abi.h) before anything is compiled, and says what
// was found instead, so the model can be told precisely what to fix.
#pragma once
#include <string>
#include "core/model/candidate.h"
#include "core/task/task_spec.h"

namespace crucible::llm {

// Empty when `source` has the entry's exact signature; else the expected
// signature and what the source declares (or that it declares no such kernel).
std::string kernelAbiProblem(const std::string& source, const TaskSpec& spec, const LaunchRule& launch);

}  // namespace crucible::llm
