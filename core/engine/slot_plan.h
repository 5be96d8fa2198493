// SPDX-License-Identifier: GPL-3.0-or-later
// How one slot of a generation makes its candidate: from which elite (or
// none: a fresh candidate), whether it first tries to tune that elite's
// parameters, with which mate (crossover) and which strategy. Drawn from the
// slot's own rng, so a plan depends only on the run seed, the slot and the
// archive. Internal to core/engine.
#pragma once
#include <optional>
#include <random>
#include <string>
#include <vector>
#include "core/engine/archive.h"
#include "core/engine/run_settings.h"
#include "core/model/seal.h"

namespace crucible::engine_detail {

struct SlotPlan {
  const ArchiveCell* parent = nullptr;   // nullptr: a fresh candidate
  bool tuneFirst = false;                // tune the parent; the rest of the plan applies when that gives nothing
  const ArchiveCell* mate = nullptr;     // the crossover's second parent
  std::optional<std::size_t> strategy;   // index into the strategies; none: the proposer's default
  std::string kind = "fresh";            // "fresh", "mutate" or "crossover": the mutation it records
};

// MAP-Elites (RunSettings::search): parents come from the slot's island; an
// island with no cell yet draws from the island of the archive's best elite.
// Hill climbing and random sampling plan as search_slot_plan.h says.
SlotPlan planSlot(const Archive& archive, int island, const std::vector<MetaPrompt>& strategies,
                  const RunSettings& settings, std::mt19937_64& rng);

}  // namespace crucible::engine_detail
