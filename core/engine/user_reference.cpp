// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/engine/user_reference.h"

#include "core/engine/unix_time.h"
#include "core/store/project_store.h"
#include "core/task/task_spec.h"

namespace crucible {
namespace {

std::string describe(const UserReferenceKernel& k) {
  return "reference kernel '" + k.name + "'" + (k.origin.empty() ? "" : " (" + k.origin + ")");
}

}  // namespace

Candidate referenceFromUserKernel(const UserReferenceKernel& kernel, const Task& task, RunId run) {
  TaskSpec spec;
  try {
    spec = parseTaskSpec(task.specJson);
  } catch (const TaskSpecError& e) {
    throw UserReferenceError("the " + describe(kernel) + " cannot be checked: task '" + task.name +
                             "' has a spec that does not parse: " + e.what());
  }
  try {
    // The same binding a starting kernel gets: the signature against the
    // task's kernel ABI, every name in the launch rule known, a legal point.
    const TunableKernel bound(kernel.name, kernel.source, kernel.tune, spec);
    const ParameterPoint& start = bound.startingPoint();
    Candidate c;
    c.runId = run;
    c.source = bound.sourceAt(start);
    c.launch = bound.launchAt(start);
    c.launch.entry = bound.entry();
    c.proposer = kUserReferenceProposer;
    c.mutation = "reference";
    c.architectureKey = bound.architectureKey();
    c.status = CandidateStatus::Reference;
    c.statusDetail = "the user's " + describe(kernel);
    return c;
  } catch (const TaskSpecError& e) {
    throw UserReferenceError("the " + describe(kernel) + " does not fit task '" + task.name + "': " + e.what());
  } catch (const std::exception& e) {
    throw UserReferenceError("the " + describe(kernel) + ": " + e.what());
  }
}

std::string userReferenceProblem(const UserReferenceKernel& kernel, const Task& task) {
  try {
    (void)referenceFromUserKernel(kernel, task, 0);
    return {};
  } catch (const UserReferenceError& e) {
    return e.what();
  }
}

Candidate recordUserReference(ProjectStore& store, RunId runId, const UserReferenceKernel& kernel) {
  Candidate reference;
  store.transaction([&] {
    auto run = store.run(runId);
    if (!run) throw UserReferenceError("run " + std::to_string(runId) + " does not exist: no reference recorded");
    if (run->referenceCandidate != 0 || store.candidateCount(runId) != 0)
      throw UserReferenceError("run " + std::to_string(runId) +
                               " has begun (it has a reference or candidates): its reference cannot change");
    auto task = store.task(run->taskId);
    if (!task) throw UserReferenceError("the task of run " + std::to_string(runId) + " is missing");
    reference = referenceFromUserKernel(kernel, *task, runId);
    reference.createdAt = unixSeconds();
    reference.id = store.addCandidate(reference);
    run->referenceCandidate = reference.id;
    store.updateRun(*run);
  });
  return reference;
}

}  // namespace crucible
