// SPDX-License-Identifier: GPL-3.0-or-later
// The worker side of the engine <-> worker protocol.
#pragma once
#include "core/engine/interfaces.h"

namespace crucible {

// Runs the request loop inside a crucible-worker process: sends a Hello with
// local.device(), then answers each request by calling `local` until the
// engine closes the channel or sends Shutdown. An exception thrown by `local`
// is answered with an ErrorReply and the loop goes on. If outFd is standard
// output, stray prints (from CUDA libraries, say) are redirected to stderr so
// they cannot corrupt the frames. Returns the process exit code: 0 on a clean
// end, 2 on a broken channel (reason written to stderr).
int serveWorker(int inFd, int outFd, Evaluator& local);

}  // namespace crucible
