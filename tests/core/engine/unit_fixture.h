// SPDX-License-Identifier: GPL-3.0-or-later
// Small helpers for the tests of the run loop's units that read and write a
// project: a run row and fake candidates stored in it.
#pragma once
#include "core/store/project_store.h"
#include "tests/core/engine/doubles/fake_proposer.h"

namespace crucible::testing {

inline RunId addTestRun(ProjectStore& store, TaskId task, bool gated = false) {
  Run r;
  r.taskId = task;
  r.name = "unit";
  r.proposer = "fake";
  r.seed = 1;
  r.gated = gated;
  return store.addRun(r);
}

// A fake candidate of the run, stored; Valid ones get a timing at the fitness's speed.
inline Candidate addTestCandidate(ProjectStore& store, RunId run, const FakeGenome& g, CandidateStatus status,
                                  int generation = 0, double fitness = 0, std::vector<CandidateId> parents = {}) {
  Candidate c = FakeProposer::candidateOf(g);
  c.runId = run;
  c.status = status;
  c.generation = generation;
  c.fitness = fitness;
  c.parents = std::move(parents);
  c.proposer = "fake";
  if (fitness > 0) {
    c.timing = Timing{};
    c.timing->medianUs = 100.0 / fitness;
  }
  c.id = store.addCandidate(c);
  return c;
}

inline FakeGenome genome(int mem, int gran = 0, int vec = 0) {
  FakeGenome g;
  g.mem = mem;
  g.gran = gran;
  g.vec = vec;
  return g;
}

}  // namespace crucible::testing
