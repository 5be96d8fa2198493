// SPDX-License-Identifier: GPL-3.0-or-later
// Writes small projects through ProjectStore for the GUI tests: runs of one
// task, each with candidates whose figures make numeric and text order differ
// (a median of 9.5 us sorts before 10.25 us numerically, after it as text).
#pragma once
#include <QString>
#include <string>
#include <vector>
#include "core/store/project_store.h"

namespace crucible::test_support {

struct SampleCandidate {
  CandidateStatus status;
  double medianUs;   // 0 = not timed
  double speedup;
  int registers;     // 0 = not compiled
  const char* architecture;
  const char* mutation;
};

// Cycled through by writeCandidates; statuses and figures chosen to exercise sorting and filtering.
inline const std::vector<SampleCandidate>& sampleCandidates() {
  static const std::vector<SampleCandidate> c = {
      {CandidateStatus::Valid, 10.25, 1.20, 32, "arch-a", "seed"},
      {CandidateStatus::Valid, 9.5, 1.30, 128, "arch-b", "mutate:vec"},
      {CandidateStatus::Invalid, 0, 0, 64, "arch-c", "mutate:tile"},
      {CandidateStatus::CompileFailed, 0, 0, 0, "arch-d", "crossover"},
      {CandidateStatus::Valid, 100.0, 0.12, 255, "arch-b", "tune"},
      {CandidateStatus::Valid, 2.0, 6.15, 40, "arch-e", "mutate:smem"},
      {CandidateStatus::Faulted, 0, 0, 96, "arch-f", "rewrite"},
  };
  return c;
}

inline Candidate makeCandidate(RunId run, int index) {
  const SampleCandidate& s = sampleCandidates()[static_cast<std::size_t>(index) % sampleCandidates().size()];
  Candidate c;
  c.runId = run;
  c.generation = index / 4;
  c.source = "__global__ void k() {}";
  c.launch.entry = "k";
  c.proposer = "template";
  c.mutation = s.mutation;
  c.architectureKey = s.architecture;
  c.status = s.status;
  if (s.registers > 0) {
    CompileReport r;
    r.ok = true;
    r.registers = s.registers;
    c.compile = r;
  }
  if (s.medianUs > 0) {
    Timing t;
    t.medianUs = s.medianUs;
    t.referenceMedianUs = s.medianUs * s.speedup;
    t.speedup = s.speedup;
    t.samplesUs = {s.medianUs};
    c.timing = t;
  }
  c.fitness = s.speedup;
  return c;
}

inline TaskId addSampleTask(ProjectStore& store) {
  Task t;
  t.name = "softmax_f32_8192x4096";
  t.family = "softmax";
  t.specJson = "{}";
  return store.addTask(t);
}

inline RunId addSampleRun(ProjectStore& store, TaskId task, const std::string& name) {
  Run r;
  r.taskId = task;
  r.name = name;
  r.proposer = "template";
  r.seed = 7;
  return store.addRun(r);
}

inline void addSampleCandidates(ProjectStore& store, RunId run, int count, int firstIndex = 0) {
  store.transaction([&] {
    for (int i = firstIndex; i < firstIndex + count; ++i) store.addCandidate(makeCandidate(run, i));
  });
}

// A new project at path with one run per entry of candidatesPerRun.
inline std::vector<RunId> writeSampleProject(const QString& path, const std::vector<int>& candidatesPerRun) {
  auto store = ProjectStore::create(path.toStdString());
  const TaskId task = addSampleTask(*store);
  std::vector<RunId> runs;
  for (std::size_t i = 0; i < candidatesPerRun.size(); ++i) {
    const RunId run = addSampleRun(*store, task, "run-" + std::to_string(i + 1));
    addSampleCandidates(*store, run, candidatesPerRun[i]);
    runs.push_back(run);
  }
  return runs;
}

}  // namespace crucible::test_support
