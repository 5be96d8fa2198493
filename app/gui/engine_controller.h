// SPDX-License-Identifier: GPL-3.0-or-later
// Runs crucible::Engine on a worker thread for the GUI. The engine's events
// (engine_events.h, raised on engine threads) reach the GUI thread as queued
// calls on this object and come out as Qt signals there; the controls are
// forwarded to the engine, whose control calls are thread-safe.
#pragma once
#include <QObject>
#include <QString>
#include <QTimer>
#include <atomic>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <optional>
#include "core/engine/engine.h"
#include "core/engine/user_reference.h"
#include "core/engine/run_settings.h"
#include "views/session/call_queue.h"

Q_DECLARE_METATYPE(crucible::EngineEvent)

namespace crucible::app {

// A run to create and start. Creating it (and importing its task) writes the
// project, so it happens on the worker thread, not the GUI's.
struct NewRunRequest {
  TaskId task = 0;              // a task of the project; 0: import taskFile first
  std::string taskFile;         // a task spec file (a built-in task), imported when task is 0
  std::string name;             // "" = the task's name
  std::uint64_t seed = 1;
  Budget budget;
  bool gated = false;
  RunSettings settings;
  // A kernel of the user's own as the run's reference, recorded with the run
  // (core/engine/user_reference.h); nullopt: the task's latest seal or baseline.
  std::optional<UserReferenceKernel> reference;
};

class EngineController : public QObject {
  Q_OBJECT
public:
  // The proposer, compiler, dispatcher and sanitizer must outlive the
  // controller. The engine opens its own read-write connection to
  // projectPath. Without a sanitizer nothing is sealed (the run's log says so).
  EngineController(const QString& projectPath, Proposer& proposer, Compiler& compiler, Dispatcher& dispatcher,
                   Sanitizer* sanitizer = nullptr, QObject* parent = nullptr);
  // Stops a run in progress (it stays resumable) and waits for the worker.
  ~EngineController() override;

  Engine& engine() { return *engine_; }
  const QString& projectPath() const { return projectPath_; }
  bool isRunning() const { return running_; }

public slots:
  // Starts (or resumes) the run on the worker thread. Refused with
  // failed() while another run is in progress.
  void start(crucible::RunId run);
  // Creates the run in the project (importing its task if needed), then
  // starts it, all on the worker thread; started() names the new run.
  void startNew(const crucible::app::NewRunRequest& request);
  void pause();
  void resume();
  void stop();
  void setBudget(const crucible::Budget& budget);
  void submitVerdict(crucible::RunId run, const QString& architectureKey, bool accept, const QString& note);

signals:
  // Every engine event, on the GUI thread, in the order the engine raised
  // them. Visit event.what (one struct per kind) to read it.
  void engineEvent(const crucible::EngineEvent& event);
  // The store changed: coalesced to at most one every kRefreshMs, so views
  // re-reading 10,000 candidates do not fall behind a fast engine.
  void dataChanged();
  void started(crucible::RunId run);
  // run() returned: finished, stopped, or failed (a RunFailed event says why).
  // run is 0 when a new run could not even be created (failed() says why).
  void finished(crucible::RunId run);
  // The run could not start (unknown run or task, one already in progress).
  void failed(const QString& message);

private:
  class Forwarder;
  static constexpr int kRefreshMs = 250;
  void deliver(const EngineEvent& event);
  // Runs call on the GUI thread, after every call posted before it. Called
  // from the worker and engine threads (views/session/call_queue.h).
  void post(std::function<void()> call) { calls_.post(std::move(call)); }
  // Runs prepare (which returns the run to start) and the run on the worker thread.
  void launch(std::function<RunId()> prepare);
  void joinWorker();

  QString projectPath_;
  std::unique_ptr<Forwarder> forwarder_;
  std::unique_ptr<Engine> engine_;
  std::thread worker_;
  bool running_ = false;  // GUI thread only
  // Calls from other threads wait here for the GUI thread (post()). The data
  // crosses threads under a std::mutex, not inside Qt's event queue, so
  // ThreadSanitizer sees the hand-over (Qt is not built with it).
  views::CallQueue calls_{this};
  QTimer refresh_;
};

}  // namespace crucible::app
