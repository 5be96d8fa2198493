// SPDX-License-Identifier: GPL-3.0-or-later
// One validation trial of a candidate on one seed of fresh inputs:
//  1. random inputs, the oracle's double-precision outputs;
//  2. outputs poisoned (a NaN pattern the launch plan picks), guards written,
//     one launch; inputs must be unchanged byte for byte, no guard touched,
//     every output element written, finite, not all zero or constant where
//     the reference is not, and within atol + rtol*|ref| (timed launches
//     are checked the same way, on inputs drawn for them);
//  3. outputs filled afresh (the other poison or random finite values, as the
//     plan says: never what the first launch saw), a second launch on the same
//     inputs: the two results must agree bit for bit (a race, an unwritten
//     element or a kernel that reads its outputs before writing them shows as
//     a difference);
//  4. a kernel that caches results between launches must meet inputs replaced
//     in place (same buffers): the next seed's trial does that, so only the
//     last trial of a request re-randomises the inputs itself and checks a
//     third launch against the new reference (`mustRerandomise`).
// Every trial after the first of a request runs in the buffers the previous
// one used (`followsTrial`), and says so when it fails.
#pragma once
#include <cstdint>
#include <string>
#include "backends/cuda/worker/kernel_module.h"
#include "backends/cuda/worker/launch_plan.h"
#include "backends/cuda/worker/leftover_scrub.h"
#include "backends/cuda/worker/module_globals_reset.h"
#include "backends/cuda/worker/driver_pages_watch.h"
#include "backends/cuda/worker/task_runtime.h"
#include "core/model/candidate.h"

namespace crucible::cuda {

// A failed check gives passed=false with the reason; a kernel that faults,
// hangs or is refused throws KernelFailure.
// `costs` accumulates where the trial's wall time went.
struct ValidationCosts {
  double inputs = 0;     // drawing inputs on the device, their all-zero check and masked copy
  double oracle = 0;     // the oracle's launch, its masked copy and its non-finite check
  double candidate = 0;  // the candidate's launches
  double checks = 0;     // the element-by-element comparisons (on the device) and their small downloads
  std::string describe() const;
};

// The candidate as every one of its launches needs it: the kernel, its
// geometry, its tensor maps (TaskRuntime::tensorMaps) and the reset of its
// module variables that precedes each launch.
struct CandidateUnderTest {
  const KernelModule& kernel;
  const LaunchGeometry& geometry;
  const TensorMaps& maps;
  const ModuleGlobalsReset& globals;
  const LeftoverScrub& leftovers;  // queued before each of its launches
  DriverPagesWatch& pages;         // the driver's pages around its module variables and launch parameters
};

// `plan` decides every launch's output fill.
ValidationTrial runValidationTrial(TaskRuntime& task, const CandidateUnderTest& candidate, LaunchPlan& plan,
                                   std::uint64_t seed, double launchTimeoutSeconds, bool followsTrial,
                                   bool mustRerandomise, ValidationCosts& costs);

// One launch on inputs drawn with `seed` from `stress`'s distributions (the
// task's for the inputs it does not name), checked against the oracle like a
// trial's first launch with the case's tolerances. Stress cases are not timed.
ValidationTrial runStressTrial(TaskRuntime& task, const CandidateUnderTest& candidate, LaunchPlan& plan,
                               const StressCase& stress, std::uint64_t seed, double launchTimeoutSeconds,
                               ValidationCosts& costs);

}  // namespace crucible::cuda
