// SPDX-License-Identifier: GPL-3.0-or-later
// The example tunable kernel of resources/kernels/gemv (y = A x) and its task, for the tests.
#pragma once
#include <string>
#include "backends/proposers/tunable/tunable_proposer.h"
#include "core/model/task.h"
#include "core/task/task_spec.h"

namespace crucible::testing_support {

std::string readExampleFile(const std::string& relativePath);   // under resources/kernels/gemv/
TaskSpec gemvSpec();
Task gemvTask();
StartingKernel gemvKernel();   // gemv.cu with gemv.tune.json

}  // namespace crucible::testing_support
