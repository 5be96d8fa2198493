// SPDX-License-Identifier: GPL-3.0-or-later
// The evolution engine: drives a Proposer, a Compiler and the Evaluators of a
// Dispatcher over one run, and records everything in the project store as it
// happens. Plain C++ (no Qt): the GUI runs it on a worker thread and turns its
// events into queued signals; the CLI runs it directly.
#pragma once
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include "core/engine/engine_events.h"
#include "core/engine/interfaces.h"
#include "core/engine/run_settings.h"
#include "core/model/candidate.h"
#include "core/model/ids.h"
#include "core/model/run.h"

namespace crucible {

struct UserReferenceKernel;

// Receives the events of engine_events.h. Called from engine threads (the
// thread that calls run() and its compile and evaluation workers, never two
// at once). Must be cheap and must not call
// back into the Engine synchronously except pause/resume/stop/setBudget/
// submitVerdict, which are thread-safe.
class EngineObserver {
public:
  virtual ~EngineObserver() = default;
  virtual void onEvent(const EngineEvent& event) = 0;
};

class EngineError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

class Engine {
public:
  // The proposer, compiler, dispatcher, observer and sanitizer must outlive
  // the Engine. The sanitizer runs before every seal; without one nothing is
  // sealed, and each refused seal says so in the run's log.
  Engine(std::string projectPath, Proposer& proposer, Compiler& compiler, Dispatcher& dispatcher,
         EngineObserver* observer = nullptr, Sanitizer* sanitizer = nullptr);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Stores a new run (status Created) with the settings as JSON. Throws
  // EngineError when the task does not exist or the settings are invalid.
  // With a reference, the user's kernel is the run's reference instead of the
  // task's latest seal or baseline (user_reference.h), stored with the run in
  // one transaction; a kernel that does not fit the task throws EngineError
  // and no run is stored.
  RunId createRun(TaskId task, std::string name, std::uint64_t seed, Budget budget, bool gated,
                  RunSettings settings, const UserReferenceKernel* reference = nullptr);

  // Blocking: call it on a worker thread. Returns when the run finished (its
  // budget or generation limit was reached), was stopped, or failed (then the
  // run's status is Failed and a RunFailed event says why; the error is not
  // rethrown). Resumes a run that the store says was interrupted (Running,
  // Paused or Stopped): candidates without a final status are evaluated again,
  // nothing that finished is repeated. Throws EngineError only when the run
  // cannot start (unknown run, another run() active on this Engine).
  void run(RunId run);

  // Thread-safe controls for the run in progress. pause() lets the candidates
  // in flight finish, then waits; stop() does the same and returns from run()
  // with the run Stopped and resumable. A stop() that arrives before run()
  // has begun (while a front end is still creating the run) is kept for that
  // run() and stops it at once: it is consumed when a run() returns.
  void pause();
  void resume();
  void stop();
  // Drops a stop() that no run() has consumed: for a front end that starts a
  // new run from scratch, so a stop aimed at an earlier attempt that never
  // reached run() does not stop this one.
  void forgetStopRequest();
  // Applies to the run in progress (and is stored). An evaluation is one
  // candidate brought to a final status (a compile failure counts too).
  void setBudget(Budget budget);

  // Thread-safe. Records a human verdict on an architecture. During run() the
  // engine applies it at its next step (accepted: the waiting candidates are
  // evaluated; rejected: they are marked Rejected and later proposals of that
  // architecture are discarded). Without an active run it is stored directly.
  void submitVerdict(RunId run, const std::string& architectureKey, bool accept, const std::string& note);

  bool isRunning() const;
  bool isPaused() const;

private:
  struct Shared;
  std::string projectPath_;
  Proposer& proposer_;
  Compiler& compiler_;
  Dispatcher& dispatcher_;
  EngineObserver* observer_;
  Sanitizer* sanitizer_;
  std::unique_ptr<Shared> shared_;
};

}  // namespace crucible
