// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/dispatch/worker_server.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <exception>
#include <string>

#include "backends/dispatch/frame.h"
#include "backends/dispatch/worker_messages.h"

namespace crucible {
namespace {

// Keeps the protocol on its own descriptor and points fd 1 at stderr.
int protectStdout(int outFd) {
  if (outFd != STDOUT_FILENO) return outFd;
  std::fflush(stdout);
  const int channel = ::fcntl(outFd, F_DUPFD_CLOEXEC, 3);
  if (channel < 0) return outFd;  // keep going unprotected rather than lose the channel
  ::dup2(STDERR_FILENO, STDOUT_FILENO);
  return channel;
}

void reply(int fd, WorkerMessage type, const std::string& payload) {
  writeFrame(fd, static_cast<std::uint32_t>(type), payload);
}

// Answers one request; returns false on Shutdown.
bool answer(int outFd, const Frame& frame, Evaluator& local) {
  switch (static_cast<WorkerMessage>(frame.type)) {
    case WorkerMessage::DeviceRequest:
      reply(outFd, WorkerMessage::DeviceReply, encodeFingerprint(local.device()));
      return true;
    case WorkerMessage::EvaluateRequest: {
      const auto request = decodeEvaluationRequest(frame.payload);
      Evaluation e = local.evaluate(request.request);
      if (e.timing && !recorded(e.timing->device)) {
        // Read after the samples, so its clocks are those the GPU ran at. A
        // device that cannot say leaves the timing unrecorded (the engine
        // records the worker's hello instead) rather than losing the result.
        try {
          recordTimingDevice(e, local.device());
        } catch (const std::exception&) {
        }
      }
      reply(outFd, WorkerMessage::EvaluateReply, encodeEvaluation(e));
      return true;
    }
    case WorkerMessage::ProfileRequest: {
      const auto request = decodeProfileRequest(frame.payload);
      reply(outFd, WorkerMessage::ProfileReply, encodeProfileResult(local.profile(request.task, request.kernel)));
      return true;
    }
    case WorkerMessage::CeilingsRequest:
      reply(outFd, WorkerMessage::CeilingsReply, encodeCeilings(local.measureCeilings()));
      return true;
    case WorkerMessage::Shutdown:
      return false;
    default:
      reply(outFd, WorkerMessage::ErrorReply,
            encodeError("the worker does not handle message type " + std::to_string(frame.type)));
      return true;
  }
}

}  // namespace

int serveWorker(int inFd, int outFd, Evaluator& local) {
  outFd = protectStdout(outFd);
  try {
    Hello hello;
    hello.pid = ::getpid();
    try {
      hello.device = local.device();
    } catch (const std::exception& e) {
      hello.error = e.what();
    }
    reply(outFd, WorkerMessage::Hello, encodeHello(hello));

    for (;;) {
      const auto frame = readFrame(inFd);
      if (!frame) return 0;  // the engine closed the channel
      bool goOn = true;
      try {
        goOn = answer(outFd, *frame, local);
      } catch (const FrameError&) {
        throw;
      } catch (const std::exception& e) {
        reply(outFd, WorkerMessage::ErrorReply, encodeError(e.what()));
      }
      if (!goOn) return 0;
    }
  } catch (const FrameError& e) {
    std::fprintf(stderr, "crucible-worker: channel to the engine broken: %s\n", e.what());
    return 2;
  }
}

}  // namespace crucible
