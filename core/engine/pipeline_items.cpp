// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/engine/pipeline_items.h"

#include <limits>
#include "core/engine/seeding.h"
#include "core/engine/tuning_cache.h"

namespace crucible::engine_detail {

PipelineItem pipelineItemFor(Candidate candidate, const ArchiveCell* cell, const RunSettings& settings,
                             std::uint64_t runSeed, double bestSealedSpeedup) {
  PipelineItem item;
  switch (settings.profile) {
    case ProfileMode::All: item.profileAbove = -std::numeric_limits<double>::infinity(); break;
    case ProfileMode::None: item.profileAbove = std::numeric_limits<double>::infinity(); break;
    case ProfileMode::Elites: item.profileAbove = cell ? cell->fitness : 0.0; break;
  }
  std::int64_t salt = static_cast<std::int64_t>(fnv1a64(candidate.source));
  for (int k = 0; k < settings.validationSeeds; ++k)
    item.seeds.push_back(deriveSeed(runSeed, salt, k, SeedPurpose::Validation));
  // Offset so the extended seeds never repeat the normal ones.
  for (int k = 0; k < settings.extendedValidationSeeds; ++k)
    item.extendedSeeds.push_back(deriveSeed(runSeed, salt, 1000 + k, SeedPurpose::Validation));
  item.bestSealedSpeedup = bestSealedSpeedup;
  item.candidate = std::move(candidate);
  return item;
}

}  // namespace crucible::engine_detail
