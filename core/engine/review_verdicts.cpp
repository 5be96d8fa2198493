// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/engine/review_verdicts.h"

namespace crucible::engine_detail {

VerdictOutcome applyVerdict(ProjectStore& store, ReviewGate& gate, const ReviewVerdict& v) {
  VerdictOutcome outcome;
  std::vector<CandidateId> waiting = gate.applyVerdict(v.architectureKey, v.accepted);
  store.transaction([&] {
    store.recordVerdict(v);
    for (CandidateId id : waiting) {
      auto c = store.candidate(id);
      if (!c) continue;
      if (v.accepted) {
        c->status = CandidateStatus::Proposed;
        c->statusDetail = "architecture accepted in review";
        outcome.released.push_back(*c);
      } else {
        c->status = CandidateStatus::Rejected;
        c->statusDetail = "architecture rejected in review" + (v.note.empty() ? "" : ": " + v.note);
        outcome.rejected.push_back(id);
      }
      store.updateCandidate(*c);
    }
  });
  // Counts every candidate that waited, as the gate knew them, found in the store or not.
  outcome.summary = std::string("architecture ") + v.architectureKey + (v.accepted ? " accepted" : " rejected") +
                    " in review; " + std::to_string(waiting.size()) + " waiting candidate(s) " +
                    (v.accepted ? "released" : "rejected");
  return outcome;
}

}  // namespace crucible::engine_detail
