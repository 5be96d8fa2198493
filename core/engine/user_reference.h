// SPDX-License-Identifier: GPL-3.0-or-later
// A kernel of the user's own as a run's reference (issue 22): the third kind
// beside the task's baseline and its latest seal (reference.h). It is given
// as a starting kernel or a tunable kernel is (CUDA source plus a tune
// document with its launch rule: resources/tasks/README.md, "Tunable
// kernels") and taken at its default (or first legal) point.
//
// It is recorded when the run is created (Engine::createRun): stored as the
// run's Reference candidate and linked from Run::referenceCandidate in the
// same transaction as the run, so every session of the run, resumed ones
// too, measures against it (establishReference reads the stored one). Before
// it is used, the run's first session compiles it and validates it against
// the task's oracle like any candidate (prepareReference); a kernel that
// fails is refused there and the run fails with the reason, never measured
// against.
#pragma once
#include <stdexcept>
#include <string>
#include "core/model/candidate.h"
#include "core/model/task.h"
#include "core/task/tunable_kernel.h"

namespace crucible {

class ProjectStore;

struct UserReferenceKernel {
  std::string name;     // what the user calls it (its file's stem)
  std::string source;   // CUDA C++ as the user wrote it
  TuneSpec tune;        // its launch rule (and parameters, if any: the starting point is used)
  std::string origin;   // where it came from, for messages ("ref.cu with ref.tune.json")
};

// A reference kernel that cannot be the run's reference: what() names the
// kernel, where it came from and why.
class UserReferenceError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// The proposer recorded on a user's reference candidate (not "user": that
// names candidates evaluated outside the engine, user_evaluation.h).
inline constexpr const char* kUserReferenceProposer = "user-reference";

// The kernel bound to the task at its starting point, as the run's Reference
// candidate (not stored). Throws UserReferenceError when it does not fit the
// task (signature, names in its launch rule, no legal point) or the task's
// spec does not parse.
Candidate referenceFromUserKernel(const UserReferenceKernel& kernel, const Task& task, RunId run);

// Why the kernel cannot be a reference for the task ("" when it fits): the
// same check as referenceFromUserKernel, for a front end to refuse it before
// a run is created.
std::string userReferenceProblem(const UserReferenceKernel& kernel, const Task& task);

// Stores the kernel as the run's reference and links it from the run, in
// one transaction. Throws UserReferenceError when the run is unknown, already
// has a reference or candidates (its figures are measured against another
// one), or the kernel does not fit the run's task.
Candidate recordUserReference(ProjectStore& store, RunId run, const UserReferenceKernel& kernel);

}  // namespace crucible
