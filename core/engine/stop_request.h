// SPDX-License-Identifier: GPL-3.0-or-later
// A stop asked by another process (`crucible-cli stop`, a script, a second
// workbench): a file beside the project, "<project>.stop-<run>", that the
// run's engine looks for between steps; it stops cleanly (resumable) and
// removes the file. A file rather than a row, so asking needs no schema change
// and no write lock on a project a busy engine is committing to.
#pragma once
#include <string>
#include "core/model/ids.h"

namespace crucible {

std::string stopRequestPath(const std::string& projectPath, RunId run);
// Throws std::runtime_error (naming the file) when the request cannot be written.
void requestStop(const std::string& projectPath, RunId run);
bool stopRequested(const std::string& projectPath, RunId run);
// Removes a request (done by the engine when it stops, and when a run starts: an old request is stale).
void clearStopRequest(const std::string& projectPath, RunId run);

}  // namespace crucible
