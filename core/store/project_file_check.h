// SPDX-License-Identifier: GPL-3.0-or-later
// Decides whether a file is a Crucible project this build can open, without
// writing to it. Internal to core/store.
#pragma once
#include <string>

namespace crucible::store_detail {

// Returns the file's schema version. Throws StoreError "<path>: <reason>" if
// the file is missing, not SQLite, not a Crucible project, corrupt, or newer
// than this build reads. Opens the file read-only: never writes to it.
int inspectProjectFile(const std::string& path);

}  // namespace crucible::store_detail
