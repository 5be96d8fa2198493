// SPDX-License-Identifier: GPL-3.0-or-later
// Remembers what a reader has already sent and reads only what is new: the
// diffing half of a front end's project reader, without threads or Qt.
// Candidates, during a run: by id (new ones) and by status (the ones that
// can still change are re-read each look); with no run in progress, the run
// is compared whole. The small tables are compared whole.
#pragma once
#include <cstdint>
#include <map>
#include <set>
#include <unordered_map>
#include "core/store/project_delta.h"

namespace crucible {

class ProjectDeltaTracker {
public:
  static constexpr int kLogTail = 1000;  // lines sent when a run is first looked at

  // What changed since the last look (everything, on the first look or after
  // watch() named another run). `store` is read on the caller's thread.
  ProjectDelta look(const ProjectStore& store);
  // The run whose candidates, archive, verdicts and log are followed (0: none).
  void watch(RunId run);
  RunId watched() const { return run_; }
  // Forget everything sent: the next look sends the whole project.
  void reset();

private:
  void lookAtCandidates(const ProjectStore& store, ProjectDelta& d);
  void lookAtRunParts(const ProjectStore& store, ProjectDelta& d);
  void lookAtProject(const ProjectStore& store, ProjectDelta& d);

  RunId run_ = 0;
  bool runSent_ = false;
  std::int64_t sequence_ = 0;
  CandidateId lastId_ = 0;
  std::map<CandidateId, CandidateSummary> unsettled_;  // sent with a status that can still change
  // What was sent of every candidate of the run (compared when no run is in progress).
  struct Figures {
    CandidateStatus status;
    double medianUs, speedup, fitness;
    int registers, generation;
    std::string architectureKey;
  };
  std::unordered_map<CandidateId, Figures> shown_;
  std::int64_t lastLogId_ = 0;
  std::vector<ArchiveCell> archive_;
  std::set<CandidateId> describedElites_;
  std::vector<ReviewVerdict> verdicts_;
  bool projectSent_ = false;
  std::vector<Run> runs_;
  std::vector<Task> tasks_;
  std::vector<Seal> seals_;
  std::vector<KnowledgeEntry> knowledge_;
  std::vector<Ceiling> ceilings_;
};

}  // namespace crucible
