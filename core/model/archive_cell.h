// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
#include <cstdint>
#include <string>
#include "core/model/ids.h"

namespace crucible {

// One MAP-Elites cell of a run, keyed by its binned behavioural descriptors.
struct ArchiveCell {
  RunId runId = 0;
  int island = 0;
  std::string key;            // canonical "dim=value;dim=value" of binned descriptors
  CandidateId elite = 0;
  double fitness = 0;
  std::int64_t selections = 0;     // times a parent was drawn from this cell
  std::int64_t improvements = 0;   // children that improved a cell (curiosity)
};

}  // namespace crucible
