// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/engine/reference.h"

#include "core/task/task_spec.h"

namespace crucible {

Candidate referenceFromBaseline(const Task& task, RunId run) {
  TaskSpec spec = parseTaskSpec(task.specJson);
  Candidate c;
  c.runId = run;
  c.source = spec.baseline.source;
  c.launch = spec.baseline.launch;
  c.proposer = "baseline";
  c.mutation = "reference";
  c.architectureKey = "baseline";
  c.status = CandidateStatus::Reference;
  c.statusDetail = "the task's baseline kernel";
  return c;
}

Candidate referenceFromSeal(const Candidate& sealed, RunId run) {
  Candidate c;
  c.runId = run;
  c.source = sealed.source;
  c.launch = sealed.launch;
  c.parents = {sealed.id};
  c.proposer = "seal";
  c.mutation = "reference";
  c.genomeJson = sealed.genomeJson;
  c.architectureKey = sealed.architectureKey;
  c.descriptor = sealed.descriptor;
  c.status = CandidateStatus::Reference;
  c.statusDetail = "the task's latest seal (candidate " + std::to_string(sealed.id) + ")";
  return c;
}

}  // namespace crucible
