// SPDX-License-Identifier: GPL-3.0-or-later
// The MAP-Elites archive of one run, in memory: per island, cells keyed by
// binned descriptors, each holding its elite. The store keeps the same cells
// (ArchiveCell rows); the engine writes every changed cell back in the
// transaction that changed it.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>
#include "core/model/archive_cell.h"

namespace crucible {

enum class Placement {
  NewCell,    // the candidate opened an empty cell
  Replaced,   // it beat the cell's elite
  Rejected,   // the cell's elite is at least as good
};

class Archive {
public:
  Archive(RunId run, int islands);

  // Restores cells read from the store. Cells of islands beyond the archive's
  // island count throw std::invalid_argument (the run's settings changed?).
  void load(const std::vector<ArchiveCell>& cells);

  // Places a candidate: it becomes the elite of (island, key) if the cell is
  // empty or its fitness is strictly higher (ties keep the older elite, so
  // results do not depend on arrival order of equals).
  Placement insert(int island, const std::string& key, CandidateId candidate, double fitness);

  const ArchiveCell* cell(int island, const std::string& key) const;
  ArchiveCell* cell(int island, const std::string& key);
  // The island's cells in key order (stable, so selection is deterministic).
  std::vector<const ArchiveCell*> cells(int island) const;
  // The cell whose elite is `candidate` (over all islands), nullptr when none.
  ArchiveCell* cellOf(CandidateId candidate);
  // Empties a cell: its elite failed a later check and no other candidate
  // measured in it is left to take its place. No-op when the cell is empty.
  void erase(int island, const std::string& key);
  const ArchiveCell* best(int island) const;   // highest fitness, nullptr when empty
  const ArchiveCell* best() const;             // over all islands
  std::size_t size() const;                    // cells over all islands
  int islands() const { return static_cast<int>(islands_.size()); }
  RunId run() const { return run_; }

private:
  void checkIsland(int island) const;
  RunId run_;
  std::vector<std::map<std::string, ArchiveCell>> islands_;
};

}  // namespace crucible
