// SPDX-License-Identifier: GPL-3.0-or-later
// A failed proposal the proposer asked to keep (Proposal::keep: a language
// model's reply with no usable code): stored as it is, for inspection, and
// never compiled or evaluated.
// Internal to core/engine.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>
#include "core/model/candidate.h"

namespace crucible::engine_detail {

struct KeptProposalContext {
  RunId run = 0;
  int generation = 0;
  std::vector<CandidateId> parents;   // the slot's, used when the proposal names none
  std::string proposer;               // used when the proposal names none
  std::int64_t createdAt = 0;
};

// The candidate to store, with what the run records of every candidate
// filled in and its own status and detail kept; or, when its status is not a
// failure (any other would be evaluated or read as a result on resume), why
// it is not stored.
struct KeptProposal {
  std::optional<Candidate> candidate;
  std::string problem;
};
KeptProposal keptProposal(Candidate c, const KeptProposalContext& context);

}  // namespace crucible::engine_detail
