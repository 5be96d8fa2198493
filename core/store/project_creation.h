// SPDX-License-Identifier: GPL-3.0-or-later
// Making a new project file so that nobody ever sees it half made. Internal
// to core/store.
#pragma once
#include <string>

namespace crucible::store_detail {

// Sets up a complete, empty project under a temporary name in the folder of
// `path`, then gives it its name with link(2) (an exclusive rename where the
// file system has no hard links), which fails if a file is there. Returns
// false, having changed nothing, when a file was already at `path` (another
// process may just have created it). Throws StoreError "<path>: cannot
// create: <reason>" otherwise; the temporary file never outlives the call
// (unless the process is killed during it: a ".NAME.creating-*" file stays).
bool publishNewProject(const std::string& path);

}  // namespace crucible::store_detail
