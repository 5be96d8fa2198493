// SPDX-License-Identifier: GPL-3.0-or-later
// The one rule for a candidate's speedup: it divides two timings taken on the
// same hardware, never one GPU model's or driver's time by another's.
//
// A worker times the candidate and the run's reference interleaved, in one
// process on one GPU (EvaluationRequest::reference), so a timing that carries
// its interleaved reference compares like with like by construction, whatever
// the dispatcher: a local pool of mixed GPUs, a Slurm partition of mixed
// nodes, a run resumed on another machine. Only a timing without one falls
// back to the run's own reference timing, and only when both were taken on
// the same hardware (core/model/fingerprint.h's hardwareDifference).
#pragma once
#include <optional>
#include <string>
#include "core/model/candidate.h"

namespace crucible {

struct ComparedSpeedup {
  double speedup = 0;        // 0: nothing usable was measured, or the comparison was refused
  bool interleaved = false;  // taken against the reference timed with it, in the same worker
  std::string refusal;       // non-empty: a speedup could have been taken, across hardware; why not
};

// The speedup a timing shows. referenceMedianUs and referenceDevice: the
// run's own reference timing and the GPU it was taken on (0: none).
ComparedSpeedup comparableSpeedup(const Timing& timing, double referenceMedianUs, const Fingerprint& referenceDevice);

// A warning for the run's log when this session evaluates on hardware other
// than the one the run's reference was timed on (a run resumed on another
// machine, a pool or partition of mixed GPUs): its stored reference time is
// then never used as a fallback. nullopt when they match, or when the
// reference's device was not recorded (timed before devices were kept).
std::optional<std::string> referenceHardwareNote(const Timing& reference, const Fingerprint& here);

}  // namespace crucible
