// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/engine/island_migration.h"

#include <vector>

namespace crucible::engine_detail {

int migrateElites(Archive& archive, ProjectStore& store) {
  // Computed before any insertion so one migration never travels two hops.
  std::vector<ArchiveCell> migrants;
  for (int i = 0; i < archive.islands(); ++i)
    if (const ArchiveCell* best = archive.best(i)) migrants.push_back(*best);
  int moved = 0;
  store.transaction([&] {
    for (const ArchiveCell& m : migrants) {
      int target = (m.island + 1) % archive.islands();
      if (archive.insert(target, m.key, m.elite, m.fitness) != Placement::Rejected) {
        store.putArchiveCell(*archive.cell(target, m.key));
        ++moved;
      }
    }
  });
  return moved;
}

}  // namespace crucible::engine_detail
