// SPDX-License-Identifier: GPL-3.0-or-later
// One validation trial of a candidate on one seed of fresh inputs:
//  1. random inputs, the oracle's double-precision outputs;
//  2. outputs poisoned (NaN pattern 0), guards written, one launch; inputs must
//     be unchanged byte for byte, no guard touched, every output element
//     written, finite, not all zero or constant where the reference is not,
//     and within atol + rtol*|ref|;
//  3. outputs poisoned with pattern 1, a second launch on the same inputs: the
//     two results must agree bit for bit (a race or an unwritten element shows
//     as a difference);
//  4. the inputs re-randomised in place (same buffers), a third launch checked
//     against the new reference: a kernel that caches results between
//     launches fails here.
#pragma once
#include <cstdint>
#include "backends/cuda/worker/kernel_module.h"
#include "backends/cuda/worker/task_runtime.h"
#include "core/model/candidate.h"

namespace crucible::cuda {

// A failed check gives passed=false with the reason; a kernel that faults,
// hangs or is refused throws KernelFailure.
ValidationTrial runValidationTrial(TaskRuntime& task, const KernelModule& kernel, const LaunchGeometry& geometry,
                                   std::uint64_t seed, double launchTimeoutSeconds);

}  // namespace crucible::cuda
