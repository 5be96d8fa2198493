// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/worker/fault_exit_relay.h"
#include <fcntl.h>
#include <unistd.h>
#include <cstdio>
#include <thread>
#include "backends/dispatch/frame.h"

namespace crucible::worker {

int serveWithFaultExit(int channelFd, const std::function<int(int)>& serve, const std::function<bool()>& contextLost) {
  int pipeFds[2];
  if (::pipe2(pipeFds, O_CLOEXEC) != 0) {
    std::perror("crucible-worker: pipe2");
    return 2;
  }
  std::thread relay([&] {
    try {
      while (auto frame = readFrame(pipeFds[0])) {
        writeFrame(channelFd, frame->type, frame->payload);
        if (contextLost()) {
          std::fprintf(stderr, "crucible-worker: CUDA context lost after a kernel fault or hang; exiting so the "
                               "engine starts a fresh worker\n");
          std::fflush(stderr);
          ::_exit(3);  // no destructors: the dead context refuses every call, and may hang on a running kernel
        }
      }
    } catch (const FrameError& e) {
      std::fprintf(stderr, "crucible-worker: channel to the engine broken: %s\n", e.what());
      ::_exit(2);
    }
  });
  const int rc = serve(pipeFds[1]);
  ::close(pipeFds[1]);  // the relay sees the end of the stream and stops
  relay.join();
  ::close(pipeFds[0]);
  return rc;
}

}  // namespace crucible::worker
