// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/engine/kept_proposal.h"

namespace crucible::engine_detail {

KeptProposal keptProposal(Candidate c, const KeptProposalContext& context) {
  switch (c.status) {
    case CandidateStatus::CompileFailed:
    case CandidateStatus::Invalid:
    case CandidateStatus::Faulted:
    case CandidateStatus::TimedOut:
    case CandidateStatus::ResourceError: break;
    default:
      return {std::nullopt, std::string("a failed proposal to keep has status ") + toString(c.status) +
                                ", which is not a failure: it is not stored"};
  }
  c.id = 0;
  c.runId = context.run;
  c.generation = context.generation;
  if (c.parents.empty()) c.parents = context.parents;
  if (c.proposer.empty()) c.proposer = context.proposer;
  c.createdAt = context.createdAt;
  return {std::move(c), ""};
}

}  // namespace crucible::engine_detail
