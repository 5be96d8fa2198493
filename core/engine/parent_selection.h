// SPDX-License-Identifier: GPL-3.0-or-later
// Parent selection over one island of the archive: exploitation (the cell's
// fitness relative to the island's best) mixed with exploration (curiosity:
// the share of the cell's children that improved the archive, with a prior
// so untried cells look promising).
#pragma once
#include <random>
#include <vector>
#include "core/model/archive_cell.h"

namespace crucible {

// The selection weight of one cell. explorationWeight 0 = pure fitness.
double selectionWeight(const ArchiveCell& cell, double bestFitness, double explorationWeight);

// Draws a cell with probability proportional to its weight; nullptr when
// cells is empty. Deterministic for a given rng state and cell order.
const ArchiveCell* selectParentCell(const std::vector<const ArchiveCell*>& cells, double explorationWeight,
                                    std::mt19937_64& rng);

// A second, different parent for crossover (nullptr when there is none).
const ArchiveCell* selectMate(const std::vector<const ArchiveCell*>& cells, const ArchiveCell* first,
                              double explorationWeight, std::mt19937_64& rng);

// A uniform real in [0, 1) from rng, identical on every platform
// (std::uniform_real_distribution is not specified bit-for-bit).
double uniform01(std::mt19937_64& rng);
// A uniform integer in [0, n) (n > 0), identical on every platform.
std::size_t uniformIndex(std::mt19937_64& rng, std::size_t n);

}  // namespace crucible
