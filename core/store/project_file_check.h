// SPDX-License-Identifier: GPL-3.0-or-later
// Decides whether a file is a Crucible project this build can open, without
// writing to it. Internal to core/store.
#pragma once
#include <string>

#include "core/store/storage_access.h"

namespace crucible::store_detail {

// Returns the file's schema version. Throws StoreError "<path>: <reason>" if
// the file is missing, not SQLite, not a Crucible project, corrupt, or newer
// than this build reads. Never writes to the file, and leaves no -wal/-shm
// beside it that were not there (facts: probeStorage(path)).
int inspectProjectFile(const std::string& path, const StorageFacts& facts);

}  // namespace crucible::store_detail
