// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
#include <cstdint>
#include <string>
#include "core/model/ids.h"

namespace crucible {

enum class RunStatus { Created, Running, Paused, Stopped, Finished, Failed };
const char* toString(RunStatus s);
RunStatus runStatusFromString(const std::string& s);  // throws std::invalid_argument

// Limits on a run; 0 means "no limit" for that dimension.
struct Budget {
  std::int64_t evaluations = 0;
  double wallSeconds = 0;
  double gpuSeconds = 0;
};

struct Run {
  RunId id = 0;
  TaskId taskId = 0;
  std::string name;
  std::string proposer;          // e.g. "template", "openai:gpt-x"
  std::uint64_t seed = 0;
  Budget budget;
  bool gated = false;            // new architectures wait for a human verdict
  std::string settingsJson = "{}";  // engine settings (binning, tuning, islands...)
  RunStatus status = RunStatus::Created;
  CandidateId referenceCandidate = 0;  // the reference this run is measured against
  std::int64_t createdAt = 0;    // unix seconds
  // Progress counters, kept by the engine so a resumed run continues.
  std::int64_t evaluationsDone = 0;
  double wallSecondsUsed = 0;
  double gpuSecondsUsed = 0;
  double bestSpeedup = 0;
};

}  // namespace crucible
