// SPDX-License-Identifier: GPL-3.0-or-later
// The reference a run is measured against: the task's baseline kernel, the
// task's latest seal, or a kernel of the user's own chosen when the run was
// created (user_reference.h). Stored as a candidate of the run with status
// Reference, linked from Run::referenceCandidate.
#pragma once
#include "core/model/candidate.h"
#include "core/model/seal.h"
#include "core/model/task.h"

namespace crucible {

// From the task spec's baseline kernel; throws TaskSpecError when the spec
// does not parse.
Candidate referenceFromBaseline(const Task& task, RunId run);

// A copy of the sealed candidate (its source, launch, genome, architecture and
// descriptor) as this run's reference; the sealed candidate is its parent.
Candidate referenceFromSeal(const Candidate& sealed, RunId run);

}  // namespace crucible
