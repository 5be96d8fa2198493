// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/engine_controller.h"
#include <QMetaObject>
#include "app/gui/task_import.h"
#include "core/store/project_store.h"

namespace crucible::app {

// The observer the engine calls on its threads: it only queues a call on the
// controller, which runs in the controller's (the GUI) thread.
class EngineController::Forwarder : public EngineObserver {
public:
  explicit Forwarder(EngineController* target) : target_(target) {}
  void onEvent(const EngineEvent& event) override {
    target_->post([target = target_, event] { target->deliver(event); });
  }

private:
  EngineController* target_;
};

EngineController::EngineController(const QString& projectPath, Proposer& proposer, Compiler& compiler,
                                   Dispatcher& dispatcher, Sanitizer* sanitizer, QObject* parent)
    : QObject(parent),
      projectPath_(projectPath),
      forwarder_(std::make_unique<Forwarder>(this)),
      engine_(std::make_unique<Engine>(projectPath.toStdString(), proposer, compiler, dispatcher, forwarder_.get(),
                                       sanitizer)) {
  qRegisterMetaType<crucible::EngineEvent>();
  refresh_.setSingleShot(true);
  refresh_.setInterval(kRefreshMs);
  connect(&refresh_, &QTimer::timeout, this, &EngineController::dataChanged);
}

EngineController::~EngineController() {
  if (worker_.joinable()) {
    engine_->stop();
    worker_.join();
  }
}

void EngineController::start(RunId run) {
  if (running_) {
    emit failed(tr("A run is already in progress."));
    return;
  }
  emit started(run);
  launch([run] { return run; });
}

void EngineController::startNew(const NewRunRequest& request) {
  if (running_) {
    emit failed(tr("A run is already in progress."));
    return;
  }
  launch([this, request] {
    TaskId task = request.task;
    std::string taskName;
    if (task == 0) {
      // Opened only for the import: the engine opens its own connection.
      auto store = ProjectStore::open(projectPath_.toStdString());
      task = importTaskFile(*store, request.taskFile);
      taskName = store->task(task)->name;
    }
    std::string name = request.name;
    if (name.empty()) {
      if (taskName.empty()) {
        auto store = ProjectStore::open(projectPath_.toStdString(), ProjectStore::Mode::ReadOnly);
        if (const auto t = store->task(task)) taskName = t->name;
      }
      name = taskName;
    }
    const RunId run = engine_->createRun(task, name, request.seed, request.budget, request.gated, request.settings,
                                          request.reference ? &*request.reference : nullptr);
    post([this, run] { emit started(run); });
    return run;
  });
}

void EngineController::launch(std::function<RunId()> prepare) {
  joinWorker();
  // From here on a stop() reaches this run, even while it is still being
  // created on the worker thread (the engine keeps it for run()).
  engine_->forgetStopRequest();
  running_ = true;
  worker_ = std::thread([this, prepare = std::move(prepare)] {
    QString error;
    RunId run = 0;
    try {
      run = prepare();
      engine_->run(run);
    } catch (const std::exception& e) {
      error = QString::fromStdString(e.what());
    }
    post([this, run, error] {
      running_ = false;
      joinWorker();
      refresh_.stop();
      emit dataChanged();
      if (!error.isEmpty()) emit failed(error);
      emit finished(run);
    });
  });
}

void EngineController::pause() { engine_->pause(); }
void EngineController::resume() { engine_->resume(); }
void EngineController::stop() { engine_->stop(); }
void EngineController::setBudget(const Budget& budget) { engine_->setBudget(budget); }

void EngineController::submitVerdict(RunId run, const QString& architectureKey, bool accept, const QString& note) {
  engine_->submitVerdict(run, architectureKey.toStdString(), accept, note.toStdString());
}

void EngineController::deliver(const EngineEvent& event) {
  emit engineEvent(event);
  if (!refresh_.isActive()) refresh_.start();
}

void EngineController::joinWorker() {
  // Called once run() has returned (or never started), so the join is immediate.
  if (worker_.joinable() && !running_) worker_.join();
}

}  // namespace crucible::app
