// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/engine/engine.h"

#include <ctime>
#include <utility>
#include "core/engine/engine_control.h"
#include "core/engine/run_loop.h"
#include "core/engine/unix_time.h"
#include "core/engine/user_reference.h"
#include "core/store/project_store.h"

namespace crucible {

using engine_detail::EngineControl;
using engine_detail::RunLoop;

struct Engine::Shared {
  EngineControl control;
  std::mutex emitMutex;   // the observer sees one event at a time
};

Engine::Engine(std::string projectPath, Proposer& proposer, Compiler& compiler, Dispatcher& dispatcher,
               EngineObserver* observer, Sanitizer* sanitizer)
    : projectPath_(std::move(projectPath)), proposer_(proposer), compiler_(compiler), dispatcher_(dispatcher),
      observer_(observer), sanitizer_(sanitizer), shared_(std::make_unique<Shared>()) {}

Engine::~Engine() = default;

RunId Engine::createRun(TaskId task, std::string name, std::uint64_t seed, Budget budget, bool gated,
                        RunSettings settings, const UserReferenceKernel* reference) {
  try {
    validate(settings);
  } catch (const std::invalid_argument& e) {
    throw EngineError(e.what());
  }
  auto store = ProjectStore::open(projectPath_);
  if (!store->task(task))
    throw EngineError("task " + std::to_string(task) + " does not exist in " + projectPath_);
  Run run;
  run.taskId = task;
  run.name = std::move(name);
  run.proposer = proposer_.name();
  run.seed = seed;
  run.budget = budget;
  run.gated = gated;
  run.settingsJson = toJson(settings);
  run.status = RunStatus::Created;
  if (!reference) return store->addRun(run);
  RunId id = 0;
  try {
    store->transaction([&] {
      id = store->addRun(run);
      recordUserReference(*store, id, *reference);
    });
  } catch (const UserReferenceError& e) {
    throw EngineError(e.what());
  }
  return id;
}

void Engine::run(RunId runId) {
  EngineControl& control = shared_->control;
  {
    std::lock_guard lock(control.mutex);
    if (control.running)
      throw EngineError("this engine is already running run " + std::to_string(control.activeRun));
    control.running = true;
    control.activeRun = runId;
    control.paused = false;
    // stopRequested is left as it is: a stop() that came while the run was
    // being created applies to it (it is cleared when run() returns).
    control.newBudget.reset();
    control.verdicts.clear();
  }
  struct Finally {
    EngineControl& c;
    ~Finally() {
      std::lock_guard lock(c.mutex);
      c.running = false;
      c.activeRun = 0;
      c.stopRequested = false;   // consumed by this run
      c.changed.notify_all();
    }
  } finally{control};

  auto emit = [this](const EngineEvent& e) {
    if (!observer_) return;
    std::lock_guard lock(shared_->emitMutex);
    observer_->onEvent(e);
  };
  std::unique_ptr<ProjectStore> store;
  std::unique_ptr<RunLoop> loop;
  try {
    store = ProjectStore::open(projectPath_);
    loop = std::make_unique<RunLoop>(*store, proposer_, compiler_, dispatcher_, sanitizer_, control, emit, runId);
  } catch (const StoreError& e) {
    throw EngineError(e.what());
  }
  try {
    loop->execute();
  } catch (const std::exception& e) {
    loop->fail(e.what());
  }
}

void Engine::pause() {
  std::lock_guard lock(shared_->control.mutex);
  shared_->control.paused = true;
  shared_->control.changed.notify_all();
}

void Engine::resume() {
  std::lock_guard lock(shared_->control.mutex);
  shared_->control.paused = false;
  shared_->control.changed.notify_all();
}

void Engine::stop() {
  std::lock_guard lock(shared_->control.mutex);
  shared_->control.stopRequested = true;
  shared_->control.changed.notify_all();
}

void Engine::forgetStopRequest() {
  std::lock_guard lock(shared_->control.mutex);
  if (!shared_->control.running) shared_->control.stopRequested = false;
}

void Engine::setBudget(Budget budget) {
  std::lock_guard lock(shared_->control.mutex);
  shared_->control.newBudget = budget;
  shared_->control.changed.notify_all();
}

void Engine::submitVerdict(RunId run, const std::string& architectureKey, bool accept, const std::string& note) {
  ReviewVerdict v;
  v.runId = run;
  v.architectureKey = architectureKey;
  v.accepted = accept;
  v.note = note;
  std::lock_guard lock(shared_->control.mutex);
  if (shared_->control.running && shared_->control.activeRun == run) {
    shared_->control.verdicts.push_back(v);
    shared_->control.changed.notify_all();
    return;
  }
  // No run() in progress for this run: store it; the next run() applies it.
  // Holding the lock keeps run() from starting before the verdict is stored.
  auto store = ProjectStore::open(projectPath_);
  if (!store->run(run)) throw EngineError("run " + std::to_string(run) + " does not exist in " + projectPath_);
  v.decidedAt = unixSeconds();
  store->recordVerdict(v);
}

bool Engine::isRunning() const {
  std::lock_guard lock(shared_->control.mutex);
  return shared_->control.running;
}

bool Engine::isPaused() const {
  std::lock_guard lock(shared_->control.mutex);
  return shared_->control.paused;
}

}  // namespace crucible
