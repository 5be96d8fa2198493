// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/engine/parent_selection.h"

#include <algorithm>

namespace crucible {

double uniform01(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

std::size_t uniformIndex(std::mt19937_64& rng, std::size_t n) {
  // Modulo bias is below 2^-40 for the sizes used here; determinism matters more.
  return static_cast<std::size_t>(rng() % n);
}

double selectionWeight(const ArchiveCell& cell, double bestFitness, double explorationWeight) {
  double exploitation = bestFitness > 0 ? std::max(cell.fitness, 0.0) / bestFitness : 0.0;
  // Laplace-smoothed improvement rate: an unselected cell scores 1/2.
  double curiosity = (static_cast<double>(cell.improvements) + 1.0) / (static_cast<double>(cell.selections) + 2.0);
  // A small floor keeps every elite reachable.
  return 0.01 + exploitation + explorationWeight * curiosity;
}

namespace {
const ArchiveCell* draw(const std::vector<const ArchiveCell*>& cells, const ArchiveCell* exclude,
                        double explorationWeight, std::mt19937_64& rng) {
  double best = 0;
  for (const ArchiveCell* c : cells) best = std::max(best, c->fitness);
  std::vector<double> cumulative;
  cumulative.reserve(cells.size());
  double total = 0;
  for (const ArchiveCell* c : cells) {
    total += c == exclude ? 0.0 : selectionWeight(*c, best, explorationWeight);
    cumulative.push_back(total);
  }
  if (total <= 0) return nullptr;
  double x = uniform01(rng) * total;
  auto it = std::upper_bound(cumulative.begin(), cumulative.end(), x);
  std::size_t i = std::min(static_cast<std::size_t>(it - cumulative.begin()), cells.size() - 1);
  while (cells[i] == exclude) i = (i + 1) % cells.size();  // x landed on the excluded cell's empty span edge
  return cells[i];
}
}  // namespace

const ArchiveCell* selectParentCell(const std::vector<const ArchiveCell*>& cells, double explorationWeight,
                                    std::mt19937_64& rng) {
  if (cells.empty()) return nullptr;
  return draw(cells, nullptr, explorationWeight, rng);
}

const ArchiveCell* selectMate(const std::vector<const ArchiveCell*>& cells, const ArchiveCell* first,
                              double explorationWeight, std::mt19937_64& rng) {
  if (cells.size() < 2) return nullptr;
  return draw(cells, first, explorationWeight, rng);
}

}  // namespace crucible
