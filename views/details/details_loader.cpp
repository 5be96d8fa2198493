// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/details/details_loader.h"

namespace crucible::views {

std::optional<LoadedCandidate> loadCandidate(const ProjectStore& store, CandidateId id) {
  std::optional<Candidate> c = store.candidate(id);
  if (!c) return std::nullopt;
  LoadedCandidate l;
  l.candidate = std::move(*c);
  if (const std::optional<Run> run = store.run(l.candidate.runId)) {
    l.referenceId = run->referenceCandidate;
    if (const std::optional<Task> task = store.task(run->taskId)) l.specJson = task->specJson;
  }
  return l;
}

DetailsModel::Column detailsColumn(const LoadedCandidate& loaded, const std::vector<Ceiling>& ceilings) {
  const DetailsContext context = detailsContext(loaded.specJson, ceilings);
  return {loaded.candidate.id, candidateDetails(loaded.candidate, context)};
}

}  // namespace crucible::views
