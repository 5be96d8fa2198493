// SPDX-License-Identifier: GPL-3.0-or-later
// The best valid kernel of each task over all its runs (crucible-cli best,
// its --export, the suite benchmark's input).
//
// Runs are measured against different references: the task's baseline, or a
// seal of an earlier run (a run that starts from a seal times its children
// against that sealed kernel). A speedup is only meaningful against the
// reference timed beside it, so candidates of different runs are ranked by
// their speedup over the task's baseline, chained through the references:
// a candidate 1.14x a seal that was itself 2.95x the baseline is 3.37x the
// baseline. Median times of different runs are never compared directly: the
// runs may have used other GPUs or clocks.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>
#include "core/model/candidate.h"
#include "core/model/run.h"
#include "core/model/seal.h"
#include "core/model/task.h"

namespace crucible {

class ProjectStore;

struct TaskBest {
  Task task;
  std::int64_t runsCount = 0;
  std::int64_t evaluations = 0;          // over all the task's runs
  std::optional<Run> run;                // the run of the winner
  std::optional<Candidate> candidate;    // the winner, with its source
  std::optional<Seal> seal;              // the winner's seal, when it is sealed
  double speedupOverBaseline = 0;        // the winner's, chained through its run's reference
};

// For every task of the project, in the store's task order.
std::vector<TaskBest> bestPerTask(const ProjectStore& store);

}  // namespace crucible
