// SPDX-License-Identifier: GPL-3.0-or-later
// What the batch pipeline needs to evaluate one stored candidate: its
// validation seeds (normal and extended), the fitness above which it is
// profiled, and the seal bar of the generation. Internal to core/engine.
#pragma once
#include <cstdint>
#include "core/engine/batch_pipeline.h"
#include "core/engine/run_settings.h"
#include "core/model/archive_cell.h"

namespace crucible::engine_detail {

// cell: the archive cell the candidate would enter (nullptr when empty);
// ProfileMode::Elites profiles only a candidate that would beat its elite.
// The seeds derive from the run's seed and the candidate's source, never
// from row ids or timing, so a configuration is validated alike in every run
// with the same seed.
PipelineItem pipelineItemFor(Candidate candidate, const ArchiveCell* cell, const RunSettings& settings,
                             std::uint64_t runSeed, double bestSealedSpeedup);

}  // namespace crucible::engine_detail
