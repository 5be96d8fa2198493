// SPDX-License-Identifier: GPL-3.0-or-later
// crucible-cli init / run / resume / runs: the evolution engine headless.
// Ctrl-C stops the run cleanly (it stays resumable); a kill loses at most the
// candidates in flight, which `resume` evaluates again.
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <optional>
#include <pthread.h>
#include <thread>
#include "app/cli/command.h"
#include "app/cli/options.h"
#include "backends/cuda/compile/nvrtc_compiler.h"
#include "backends/dispatch/local_gpu_dispatcher.h"
#include "backends/proposers/template/template_proposer.h"
#include "core/engine/engine.h"
#include "core/store/project_store.h"
#include "core/task/task_library.h"

namespace crucible::cli {
namespace {

// Prints engine events as one line each; --quiet keeps only the important ones.
class ConsoleObserver final : public EngineObserver {
public:
  explicit ConsoleObserver(bool verbose) : verbose_(verbose) {}
  void onEvent(const EngineEvent& e) override {
    using K = EngineEvent::Kind;
    const bool important = e.kind == K::RunStarted || e.kind == K::EliteImproved || e.kind == K::Sealed ||
                           e.kind == K::RunFinished || e.kind == K::RunStopped || e.kind == K::RunFailed ||
                           e.kind == K::AwaitingReview || e.kind == K::KnowledgeUpdated ||
                           (e.kind == K::Log && e.level != "info");
    if (!verbose_ && !important && e.kind != K::CandidateEvaluated) return;
    std::lock_guard lock(mutex_);
    std::cout << "[" << std::fixed << std::setprecision(1) << std::setw(7) << e.elapsedSeconds << "s] "
              << std::setw(16) << std::left << toString(e.kind) << std::right;
    if (e.candidate) std::cout << " #" << e.candidate;
    if (e.kind == K::CandidateEvaluated) std::cout << " " << crucible::toString(e.status) << " fitness " << std::setprecision(3) << e.fitness;
    std::cout << "  evals " << e.evaluationsDone;
    if (e.budget.evaluations) std::cout << "/" << e.budget.evaluations;
    std::cout << "  best " << std::setprecision(3) << e.bestSpeedup << "x";
    if (!e.message.empty()) std::cout << "  " << e.message;
    std::cout << std::endl;
  }
private:
  bool verbose_;
  std::mutex mutex_;
};

// Stops the engine on SIGINT/SIGTERM from a dedicated thread (sigwait), so no
// engine code runs inside a signal handler.
class StopOnSignal {
public:
  explicit StopOnSignal(Engine& engine) {
    sigemptyset(&set_);
    sigaddset(&set_, SIGINT);
    sigaddset(&set_, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set_, nullptr);
    thread_ = std::thread([this, &engine] {
      timespec tick{0, 200'000'000};
      while (!done_) {
        if (sigtimedwait(&set_, nullptr, &tick) > 0) {
          std::cerr << "\nstopping: the candidates in flight finish, then the run is saved (resume it later)\n";
          engine.stop();
        }
      }
    });
  }
  ~StopOnSignal() {
    done_ = true;
    thread_.join();
    pthread_sigmask(SIG_UNBLOCK, &set_, nullptr);
  }
private:
  sigset_t set_;
  std::atomic<bool> done_{false};
  std::thread thread_;
};

// The task by name in the project, or imported from the built-in library or a file.
TaskId ensureTask(ProjectStore& store, const std::string& nameOrFile) {
  if (auto t = store.taskByName(nameOrFile)) return t->id;
  std::string file = nameOrFile;
  if (!std::filesystem::exists(file)) {
    auto builtin = findBuiltinTaskFile(nameOrFile);
    if (!builtin) throw std::runtime_error("no task '" + nameOrFile + "' in the project, the built-in library or on disk");
    file = *builtin;
  }
  const Task task = taskRecord(readTaskSpecText(file));
  if (auto t = store.taskByName(task.name)) return t->id;
  return store.addTask(task);
}

struct Backends {
  TemplateProposer proposer;
  NvrtcCompiler compiler;
  LocalGpuDispatcher dispatcher;
};

int runEngine(const std::string& project, Backends& b, RunId run, bool verbose) {
  if (!b.dispatcher.canEvaluate()) {
    std::cerr << "crucible-cli: cannot evaluate kernels here: " << b.dispatcher.status() << "\n";
    return 3;
  }
  std::cout << "evaluating on: " << b.dispatcher.status() << "\n";
  ConsoleObserver observer(verbose);
  Engine engine(project, b.proposer, b.compiler, b.dispatcher, &observer);
  {
    StopOnSignal stopper(engine);
    engine.run(run);
  }
  auto store = ProjectStore::open(project, ProjectStore::Mode::ReadOnly);
  auto r = store->run(run);
  if (!r) return 1;
  std::cout << "run " << run << ": " << toString(r->status) << ", " << r->evaluationsDone << " evaluations, best "
            << r->bestSpeedup << "x vs reference\n";
  return r->status == RunStatus::Failed ? 1 : 0;
}

int cmdInit(const std::vector<std::string>& args) {
  if (args.size() != 1) throw std::runtime_error("usage: crucible-cli init PROJECT.crucible");
  ProjectStore::create(args[0]);
  std::cout << "created " << args[0] << "\n";
  return 0;
}

int cmdRun(const std::vector<std::string>& args) {
  Options o(args, {"project", "task", "budget", "minutes", "gpu-minutes", "seed", "batch", "name", "profile"},
            {"gated", "verbose", "away-from-seal"});
  const std::string project = o.required("project");
  Backends b;
  if (!b.dispatcher.canEvaluate()) {
    std::cerr << "crucible-cli: cannot evaluate kernels here: " << b.dispatcher.status() << "\n";
    return 3;
  }
  if (!std::filesystem::exists(project)) ProjectStore::create(project);
  TaskId task;
  {
    auto store = ProjectStore::open(project);
    task = ensureTask(*store, o.required("task"));
  }
  Budget budget;
  budget.evaluations = o.integer("budget", 200);
  budget.wallSeconds = o.number("minutes", 0) * 60;
  budget.gpuSeconds = o.number("gpu-minutes", 0) * 60;
  RunSettings settings;
  settings.batchSize = static_cast<int>(o.integer("batch", settings.batchSize));
  settings.compileThreads = std::max(2u, std::thread::hardware_concurrency() / 2);
  if (o.has("profile")) settings.profile = profileModeFromString(o.value("profile"));
  if (o.flag("away-from-seal")) settings.sealStart = SealStart::AwayFromSeal;
  Engine creator(project, b.proposer, b.compiler, b.dispatcher);
  const RunId run = creator.createRun(task, o.value("name", o.required("task")),
                                      static_cast<std::uint64_t>(o.integer("seed", 1)), budget, o.flag("gated"), settings);
  std::cout << "run " << run << " created in " << project << "\n";
  return runEngine(project, b, run, o.flag("verbose"));
}

int cmdResume(const std::vector<std::string>& args) {
  Options o(args, {"project", "run"}, {"verbose"});
  Backends b;
  return runEngine(o.required("project"), b, o.integer("run", 0), o.flag("verbose"));
}

int cmdRuns(const std::vector<std::string>& args) {
  Options o(args, {"project"}, {});
  auto store = ProjectStore::open(o.required("project"), ProjectStore::Mode::ReadOnly);
  std::cout << std::left << std::setw(5) << "run" << std::setw(34) << "task" << std::setw(10) << "status"
            << std::setw(8) << "evals" << "best\n";
  for (const auto& r : store->runs()) {
    auto t = store->task(r.taskId);
    std::cout << std::setw(5) << r.id << std::setw(34) << (t ? t->name : "?") << std::setw(10) << toString(r.status)
              << std::setw(8) << r.evaluationsDone << r.bestSpeedup << "x\n";
  }
  return 0;
}

const RegisterCommand kInit("init", {"create an empty project file", cmdInit});
const RegisterCommand kRun("run", {"evolve kernels for a task: --project P --task NAME [--budget N] [--minutes M] [--gated]", cmdRun});
const RegisterCommand kResume("resume", {"continue an interrupted or stopped run: --project P --run ID", cmdResume});
const RegisterCommand kRuns("runs", {"list the runs of a project: --project P", cmdRuns});

}  // namespace
}  // namespace crucible::cli
