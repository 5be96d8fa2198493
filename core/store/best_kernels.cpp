// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/store/best_kernels.h"

#include <map>
#include <stdexcept>
#include <string>
#include "core/store/project_store.h"

namespace crucible {
namespace {

// How many times faster than the task's baseline the reference of each run is.
class BaselineFactors {
public:
  explicit BaselineFactors(const ProjectStore& store) : store_(store) {}

  // 1 for a run measured against the task's baseline; for a run that starts
  // from a seal, the sealed kernel's own speedup over the baseline (its
  // reference candidate's parent is the sealed candidate). A chain that
  // cannot be followed (a reference without a stored parent, a cycle, a
  // depth past any real history) counts as the baseline.
  double ofRun(RunId run, int depth = 0) {
    if (auto it = byRun_.find(run); it != byRun_.end()) return it->second;
    double factor = 1.0;
    const std::optional<Run> r = store_.run(run);
    if (r && r->referenceCandidate != 0 && depth < kMaxDepth) {
      const std::optional<Candidate> reference = store_.candidate(r->referenceCandidate);
      if (reference && !reference->parents.empty()) {
        if (const std::optional<Candidate> sealed = store_.candidate(reference->parents.front());
            sealed && sealed->runId != run && sealed->timing && sealed->timing->speedup > 0)
          factor = sealed->timing->speedup * ofRun(sealed->runId, depth + 1);
      }
    }
    byRun_[run] = factor;
    return factor;
  }

private:
  static constexpr int kMaxDepth = 64;
  const ProjectStore& store_;
  std::map<RunId, double> byRun_;
};

TaskBest bestOf(const ProjectStore& store, const Task& task, const std::vector<Run>& runs, BaselineFactors& factors) {
  TaskBest result;
  result.task = task;
  std::optional<CandidateSummary> winner;
  double winnerSpeedup = 0;
  for (const Run& run : runs) {
    if (run.taskId != task.id) continue;
    ++result.runsCount;
    result.evaluations += run.evaluationsDone;
    const double factor = factors.ofRun(run.id);
    for (const CandidateSummary& s : store.candidateSummaries(run.id)) {
      if (s.status != CandidateStatus::Valid) continue;
      const double speedup = s.speedup * factor;
      // Ties (the same kernel measured twice): the lower median time.
      if (!winner || speedup > winnerSpeedup || (speedup == winnerSpeedup && s.medianUs < winner->medianUs)) {
        winner = s;
        winnerSpeedup = speedup;
        result.run = run;
      }
    }
  }
  if (winner) {
    result.candidate = store.candidate(winner->id);
    if (!result.candidate) throw std::runtime_error("candidate " + std::to_string(winner->id) + " is listed but cannot be read");
    result.speedupOverBaseline = winnerSpeedup;
    for (const Seal& seal : store.seals(task.id)) {  // newest first
      if (seal.candidateId != winner->id) continue;
      result.seal = seal;
      break;
    }
  }
  return result;
}

}  // namespace

std::vector<TaskBest> bestPerTask(const ProjectStore& store) {
  const std::vector<Run> runs = store.runs();
  BaselineFactors factors(store);
  std::vector<TaskBest> all;
  for (const Task& task : store.tasks()) all.push_back(bestOf(store, task, runs, factors));
  return all;
}

}  // namespace crucible
