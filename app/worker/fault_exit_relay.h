// SPDX-License-Identifier: GPL-3.0-or-later
// After a kernel faults or hangs, the worker's CUDA context is dead for good:
// the worker must answer that evaluation and then exit, so the engine starts a
// fresh one. serveWorker() writes its replies to a pipe; this relay forwards
// each frame to the engine's channel and, once the evaluator reports its
// context lost, exits the process right after forwarding that reply.
#pragma once
#include <functional>

namespace crucible::worker {

// Serves `serve(outFd)` with outFd a pipe whose frames are relayed to
// `channelFd`. `contextLost` is asked after each forwarded frame; when it is
// true the process exits with code 3 (the engine reports the restart).
int serveWithFaultExit(int channelFd, const std::function<int(int outFd)>& serve,
                       const std::function<bool()>& contextLost);

}  // namespace crucible::worker
