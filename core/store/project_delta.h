// SPDX-License-Identifier: GPL-3.0-or-later
// What changed in a project since a reader last looked, as typed values: the
// one thing a front end's reader thread hands to its views (no SQL, no Qt).
// A part left empty (std::nullopt, an empty list) did not change.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>
#include "core/model/archive_cell.h"
#include "core/model/candidate.h"
#include "core/model/knowledge.h"
#include "core/model/run.h"
#include "core/model/seal.h"
#include "core/model/task.h"
#include "core/store/project_store.h"

namespace crucible {

struct ProjectDelta {
  std::int64_t sequence = 0;       // 1, 2, ... per reader: applied in this order
  RunId run = 0;                   // the watched run the run-scoped parts below are about
  // The run-scoped parts replace what was shown (a first look, another run):
  // candidates then holds all of the run's candidates and log its latest lines.
  bool runReset = false;
  std::vector<CandidateSummary> candidates;  // new and changed ones, ordered by id
  std::vector<LogLine> log;                  // new lines of the run, oldest first
  std::optional<std::vector<ArchiveCell>> archive;   // the run's whole archive
  // Behavioural descriptors of archive elites not sent before (the archive map plots them).
  std::map<CandidateId, std::map<std::string, std::string>> eliteDescriptors;
  std::optional<std::vector<ReviewVerdict>> verdicts;  // the run's verdicts
  std::optional<std::vector<Run>> runs;                // every run
  std::optional<std::vector<Task>> tasks;              // every task
  std::optional<std::vector<Seal>> seals;              // every seal, newest first
  std::optional<std::vector<KnowledgeEntry>> knowledge;
  std::optional<std::vector<Ceiling>> ceilings;

  bool empty() const {
    return !runReset && candidates.empty() && log.empty() && !archive && eliteDescriptors.empty() && !verdicts &&
           !runs && !tasks && !seals && !knowledge && !ceilings;
  }
};

}  // namespace crucible
