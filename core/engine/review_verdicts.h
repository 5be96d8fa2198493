// SPDX-License-Identifier: GPL-3.0-or-later
// A reviewer's verdict on a new architecture, applied: recorded in the
// store, and the candidates that waited for it released (accepted) or
// rejected, in one transaction. Internal to core/engine.
#pragma once
#include <string>
#include <vector>
#include "core/engine/review_gate.h"
#include "core/store/project_store.h"

namespace crucible::engine_detail {

struct VerdictOutcome {
  std::vector<Candidate> released;     // accepted: Proposed again, to evaluate next generation
  std::vector<CandidateId> rejected;   // rejected: final
  std::string summary;                 // for the run's log
};

// verdict must carry the run's id and its decision time.
VerdictOutcome applyVerdict(ProjectStore& store, ReviewGate& gate, const ReviewVerdict& verdict);

}  // namespace crucible::engine_detail
