// SPDX-License-Identifier: GPL-3.0-or-later
// Migration between the islands of an archive: each island sends its best
// elite to the next one (a ring), so islands that evolve apart still share
// their best finds now and then. Internal to core/engine.
#pragma once
#include "core/engine/archive.h"
#include "core/store/project_store.h"

namespace crucible::engine_detail {

// Migrates and stores the cells that changed (one transaction); returns how
// many elites settled on their next island.
int migrateElites(Archive& archive, ProjectStore& store);

}  // namespace crucible::engine_detail
