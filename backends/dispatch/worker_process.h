// SPDX-License-Identifier: GPL-3.0-or-later
// One crucible-worker child process and its channel: spawned with its
// standard input and output on a socket pair, its stderr kept for crash
// reports, every request under a deadline. A worker that hangs is killed at
// its deadline; one that dies is reaped and described; either way the next
// call starts a fresh worker.
#pragma once
#include <sys/types.h>

#include <chrono>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends/dispatch/worker_messages.h"

namespace crucible {

// The worker cannot be used at all: it cannot be started, it speaks another
// protocol, its device is unusable, or its channel carries garbage. Not the
// fault of the candidate in flight.
class WorkerError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

struct WorkerProcessOptions {
  std::string executable;                          // path of crucible-worker
  std::vector<std::string> arguments;              // after argv[0]
  // Set on top of the few inherited variables a worker may see (worker_environment.h), e.g. CUDA_VISIBLE_DEVICES.
  std::map<std::string, std::string> environment;
  std::chrono::milliseconds startTimeout{60000};   // from spawn to its Hello
};

// What came of one request.
struct WorkerCall {
  enum class Outcome { Replied, TimedOut, Died };
  Outcome outcome = Outcome::Replied;
  WorkerMessage replyType = WorkerMessage::ErrorReply;  // when Replied
  std::string payload;                                 // when Replied
  std::string detail;  // TimedOut / Died: what happened, with the worker's last stderr lines
};

// "SIGABRT", "SIGSEGV", ... or "signal 42".
std::string signalName(int signal);
// A waitpid() status in words: "worker died: SIGSEGV" or "worker exited with code 3".
std::string describeWaitStatus(int status);

class WorkerProcess {
public:
  explicit WorkerProcess(WorkerProcessOptions options);
  ~WorkerProcess();  // stops the worker
  WorkerProcess(const WorkerProcess&) = delete;
  WorkerProcess& operator=(const WorkerProcess&) = delete;

  // Starts the worker unless it runs, and returns its Hello. Throws WorkerError.
  const Hello& start();
  // The Hello of the latest worker started (the one that answered the last
  // call); never starts one.
  const Hello& hello() const { return hello_; }
  // Sends one request and waits for its reply until `timeout` passes. Starts
  // the worker first if needed (WorkerError if it cannot start); a worker
  // found dead before it took the request is replaced once. On the
  // deadline the worker is SIGKILLed and reaped (TimedOut); on a crash it is
  // reaped and described (Died). Garbage on the channel kills the worker and
  // throws WorkerError.
  WorkerCall call(WorkerMessage type, const std::string& payload, std::chrono::milliseconds timeout);
  // Asks the worker to exit, then kills it if it has not within a moment. Idempotent.
  void stop();

  bool running() const { return pid_ > 0; }
  pid_t pid() const { return pid_; }
  int starts() const { return starts_; }  // workers started so far; restarts = starts() - 1
  const WorkerProcessOptions& options() const { return options_; }

private:
  void spawn();
  // Reaps the worker: waits up to `grace` for it to exit by itself, then SIGKILLs it.
  // Returns its wait status and whether it had to be killed.
  std::pair<int, bool> reap(std::chrono::milliseconds grace);
  void closeChannel();
  // Notices a worker that exited between calls, and forgets it.
  void reapIfExited();
  // The outcome of a call whose worker died / passed its deadline; closes the channel.
  WorkerCall died(std::pair<int, bool> reaped);
  WorkerCall timedOut(std::chrono::milliseconds timeout);
  std::string stderrTail() const;

  WorkerProcessOptions options_;
  pid_t pid_ = -1;
  int channel_ = -1;    // our end of the socket pair
  int stderrFd_ = -1;   // memfd holding the worker's stderr
  int starts_ = 0;
  Hello hello_;
};

}  // namespace crucible
