// SPDX-License-Identifier: GPL-3.0-or-later
// What the details view and the comparison read for one candidate: the full
// row, its task's spec (launch geometry, task formulas) and its run's
// reference; and the candidate's figures from them. One reading and one
// DetailsContext for both views, so they show the same figures.
#pragma once
#include <optional>
#include <string>
#include <vector>
#include "core/store/project_store.h"
#include "views/details/details_model.h"

namespace crucible::views {

struct LoadedCandidate {
  Candidate candidate;
  std::string specJson;        // its task's spec ("" when the run or task is not stored)
  CandidateId referenceId = 0; // its run's reference (0 when none)
};

// On the store's thread (ProjectSession::read). nullopt when there is no such candidate.
std::optional<LoadedCandidate> loadCandidate(const ProjectStore& store, CandidateId id);

// The candidate's column of figures, its roofs from `ceilings`.
DetailsModel::Column detailsColumn(const LoadedCandidate& loaded, const std::vector<Ceiling>& ceilings);

}  // namespace crucible::views
