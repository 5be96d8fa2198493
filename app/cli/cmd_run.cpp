// SPDX-License-Identifier: GPL-3.0-or-later
// crucible-cli init / run / resume / runs: the evolution engine headless, with
// the template proposer or a language model (--proposer llm), on this
// machine's GPUs or a Slurm cluster (--dispatch slurm).
// Ctrl-C stops the run cleanly (it stays resumable); a kill loses at most the
// candidates in flight, which `resume` evaluates again.
#include <atomic>
#include <chrono>
#include <csignal>
#include <functional>
#include <memory>
#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <optional>
#include <pthread.h>
#include <sstream>
#include <thread>
#include "app/cli/axes_option.h"
#include "app/cli/command.h"
#include "app/cli/exit_codes.h"
#include "app/cli/options.h"
#include "app/cli/run_front_end.h"
#include "app/cli/run_model_usage.h"
#include "backends/dispatch/slurm/slurm_dispatcher.h"
#include "backends/proposers/llm/run_model.h"
#include "backends/cuda/compile/nvrtc_compiler.h"
#include "backends/cuda/sanitize/compute_sanitizer.h"
#include "backends/dispatch/local_gpu_dispatcher.h"
#include "app/cli/starting_kernels.h"
#include "core/engine/engine.h"
#include "core/engine/overloaded.h"
#include "core/engine/search_strategy.h"
#include "core/engine/user_reference.h"
#include "core/io/utf8_text.h"
#include "core/store/project_store.h"
#include "core/task/task_import.h"
#include "core/task/task_library.h"

namespace crucible::cli {
namespace {

// How the console shows an event: the candidate it is about, what it says
// of that candidate before the counters, and a message after them.
struct EventLine {
  // A constructor rather than aggregate initialisation: most kinds give only the first fields.
  EventLine(bool quiet, CandidateId id = 0, std::string d = {}, std::string m = {})
      : quietToo(quiet), candidate(id), detail(std::move(d)), message(std::move(m)) {}
  bool quietToo = false;   // shown with --quiet as well
  CandidateId candidate = 0;
  std::string detail;
  std::string message;
};

std::string statusAndFitness(CandidateStatus status, double fitness) {
  std::ostringstream out;
  out << crucible::toString(status) << " fitness " << std::fixed << std::setprecision(3) << fitness;
  return out.str();
}

// One lambda per kind: a new kind does not compile until it is given a line.
EventLine lineFor(const EngineEvent& e) {
  using namespace events;
  return std::visit(
      Overloaded{
          [](const RunStarted&) { return EventLine{true}; },
          [](const CandidateProposed& p) { return EventLine{false, p.candidate, "", p.mutation}; },
          [](const AwaitingReview& a) {
            return EventLine{true, a.candidate, "", "new architecture " + a.architectureKey + " waits for review"};
          },
          [](const CandidateCompiled& c) { return EventLine{false, c.candidate, crucible::toString(c.status)}; },
          [](const CandidateEvaluated& c) {
            return EventLine{true, c.candidate, statusAndFitness(c.status, c.fitness), c.detail};
          },
          [](const EliteImproved& c) {
            return EventLine{true, c.candidate, "", (c.newCell ? "new cell " : "better elite for ") + c.cellKey};
          },
          [](const Sealed& s) { return EventLine{true, s.candidate}; },
          [](const SealingBest& s) {
            return EventLine{true, s.candidate, "", "the run's best: extended validation and sanitizers, then its seal"};
          },
          [](const KnowledgeUpdated& k) {
            return EventLine{true, k.candidate, "", std::string(crucible::toString(k.status)) + ": " + k.claim};
          },
          [](const Log& l) { return EventLine{l.level != "info", 0, "", l.text}; },
          [](const Progress&) { return EventLine{false}; },
          [](const RunPaused&) { return EventLine{false}; },
          [](const RunResumed&) { return EventLine{false}; },
          // The session's account of where its wall time went, on a line of its own (phase_times.h).
          [](const RunStopped& s) { return EventLine{true, 0, "", "\n  " + describe(s.phases)}; },
          [](const RunFinished& f) { return EventLine{true, 0, "", f.reason + "\n  " + describe(f.phases)}; },
          [](const RunFailed& f) { return EventLine{true, 0, "", f.reason + "\n  " + describe(f.phases)}; },
      },
      e.what);
}

// Prints engine events as one line each; --quiet keeps only the important ones.
class ConsoleObserver final : public EngineObserver {
public:
  explicit ConsoleObserver(bool verbose) : verbose_(verbose) {}
  void onEvent(const EngineEvent& e) override {
    const EventLine line = lineFor(e);
    if (!verbose_ && !line.quietToo) return;
    const RunCounters* counters = countersOf(e);
    std::lock_guard lock(mutex_);
    std::cout << "[" << std::fixed << std::setprecision(1) << std::setw(7);
    // A compile thread's event carries no counters.
    if (counters) std::cout << counters->elapsedSeconds << "s] ";
    else std::cout << "" << " ] ";
    std::cout << std::setw(16) << std::left << kindName(e) << std::right;
    if (line.candidate) std::cout << " #" << line.candidate;
    // What follows quotes compilers, kernels and models: printed as text, never as terminal sequences.
    if (!line.detail.empty()) std::cout << " " << terminalText(line.detail);
    if (counters) {
      std::cout << "  evals " << counters->evaluationsDone;
      if (counters->budget.evaluations) std::cout << "/" << counters->budget.evaluations;
      std::cout << "  best " << std::setprecision(3) << counters->bestSpeedup << "x";
    }
    if (!line.message.empty()) std::cout << "  " << terminalText(line.message);
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
  // `alsoOnStop` runs after engine.stop() (cancelling model requests in flight).
  explicit StopOnSignal(Engine& engine, std::function<void()> alsoOnStop = {}) {
    sigemptyset(&set_);
    sigaddset(&set_, SIGINT);
    sigaddset(&set_, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set_, nullptr);
    thread_ = std::thread([this, &engine, alsoOnStop = std::move(alsoOnStop)] {
      timespec tick{0, 200'000'000};
      while (!done_) {
        if (sigtimedwait(&set_, nullptr, &tick) > 0) {
          std::cerr << "\nstopping: the candidates in flight finish, then the run is saved (resume it later)\n";
          engine.stop();
          if (alsoOnStop) alsoOnStop();
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

UsageError noSuchTask(const std::string& nameOrFile) {
  return UsageError("no task '" + nameOrFile + "' in the project, the built-in library or on disk");
}

// The task by name in the project, or imported from the built-in library or a
// file by core's import policy (core/task/task_import.h).
TaskId ensureTask(ProjectStore& store, const std::string& nameOrFile) {
  if (auto t = store.taskByName(nameOrFile)) return t->id;
  const auto file = findTaskSpecFile(nameOrFile);
  if (!file) throw noSuchTask(nameOrFile);
  return importTaskFile(store, *file).id;
}

// The spec document that NAME|FILE names: the project's task of that name, else
// the built-in library's or the file's. nullopt when nothing has that name.
std::optional<std::string> taskSpecText(const std::string& project, const std::string& nameOrFile) {
  if (std::filesystem::exists(project))
    if (const auto t = ProjectStore::open(project)->taskByName(nameOrFile)) return t->specJson;
  if (const auto file = findTaskSpecFile(nameOrFile)) return readTaskSpecText(*file);
  return std::nullopt;
}

// What a run is made of: the compiler, the sanitizer, the proposer (the
// template proposer or a language model, with the user's tunable kernels when
// given) and the dispatcher (this machine's GPUs or a Slurm cluster). The
// settings files were read and checked before (usage errors come first).
class Backends {
public:
  // With starting kernels (or combineAlways, on resume: the run may hold tunable
  // kernels), the tunable-kernel proposer and the kernel writer compete in one run.
  Backends(ComputeSanitizerOptions sanitizing, const std::optional<llm::LlmSettings>& model,
           const std::optional<SlurmSettings>& slurm, std::vector<StartingKernel> kernels = {},
           bool combineAlways = false)
      : sanitizer(std::move(sanitizing)),
        proposers(std::move(kernels), combineAlways, makeModel(model)) {
    if (slurm) {
      try {
        slurm_ = std::make_unique<SlurmDispatcher>(*slurm, [](const std::string& level, const std::string& text) {
          std::cerr << "[slurm " << level << "] " << text << "\n";
        });
      } catch (const std::exception& e) {  // the shared directory cannot be made: the settings are wrong here
        throw UsageError(std::string("--slurm-settings: ") + e.what());
      }
    } else
      local_ = std::make_unique<LocalGpuDispatcher>();
  }
  Proposer& proposer() { return proposers.get(); }
  Dispatcher& dispatcher() { return slurm_ ? static_cast<Dispatcher&>(*slurm_) : *local_; }
  bool canEvaluate() const { return slurm_ || local_->canEvaluate(); }
  std::string dispatchStatus() const {
    if (!slurm_) return local_->status();
    const SlurmSettings& s = slurm_->settings();
    return "Slurm: " + std::to_string(s.concurrentJobs) + " job(s) at once" +
           (s.partition.empty() ? "" : ", partition " + s.partition) + ", job folders under " + s.sharedDirectory;
  }
  // The model reads its context from the run (its own read-only connection per
  // proposal); a resumed run's kernels are not proposed again.
  void attachRun(const std::string& project, RunId run, bool resumed) {
    // As the workbench does it (backends/proposers/llm/run_model.h).
    if (model_) llm::attachRunModel(*model_, project, run, resumed);
  }
  // Ctrl-C: requests to the model in flight end at once.
  void cancelRequests() { cancel_.cancel(); }
  const llm::LlmProposer* model() const { return model_; }  // null without --proposer llm

private:
  llm::CancelToken cancel_;   // before proposers: the model is given it as it is made
  llm::LlmProposer* model_ = nullptr;  // owned by proposers

public:
  NvrtcCompiler compiler;     // before proposers: the model checks its kernels with it
  ComputeSanitizer sanitizer;   // before every seal, on the GPU that validated the kernel
  RunProposer proposers;

private:
  std::unique_ptr<Proposer> makeModel(const std::optional<llm::LlmSettings>& s) {
    if (!s) return nullptr;
    // The key from the environment variable the settings name, at each request.
    auto model = llm::makeRunModel(*s, llm::makeRunChatClient(*s), &compiler, cancel_);
    model_ = model.get();
    return model;
  }
  std::unique_ptr<LocalGpuDispatcher> local_;
  std::unique_ptr<SlurmDispatcher> slurm_;
};

// The settings files of a front-end choice, read and checked (UsageError).
struct FrontEndSettings {
  std::optional<llm::LlmSettings> model;
  std::optional<SlurmSettings> slurm;
};
FrontEndSettings readFrontEndSettings(const FrontEnd& f) {
  FrontEndSettings out;
  if (f.proposer == "llm") out.model = readLlmSettings(f.llmSettingsFile);
  if (f.dispatch == "slurm") out.slurm = readSlurmSettingsFile(f.slurmSettingsFile);
  return out;
}

// --sanitize-timeout SECONDS: how long each compute-sanitizer tool may take
// before a seal (a tool that does not finish refuses the seal).
ComputeSanitizerOptions sanitizerOptions(const Options& o) {
  ComputeSanitizerOptions s;
  s.toolTimeoutSeconds = o.positiveNumber("sanitize-timeout", s.toolTimeoutSeconds);
  return s;
}

// A command that writes to the project refuses one it cannot write before it
// starts anything, GPU checks included (ExitCode::ProjectUnusable).
void requireWritableProject(const std::string& project, const std::string& what) {
  const std::string why = ProjectStore::writeProblem(project);
  if (why.empty()) return;
  const bool exists = std::filesystem::exists(project);
  throw StoreError(project + ": cannot " + what + ": " +
                   (exists ? "the project is open read-only (" + why + ")" : "cannot create the project (" + why + ")"));
}

// The proposer and dispatcher choice, in the run's settingsJson ("frontEnd"):
// file paths only; the settings files hold no key.
void storeFrontEnd(const std::string& project, RunId run, const FrontEnd& f) {
  auto store = ProjectStore::open(project);
  auto r = store->run(run);
  if (!r) return;
  const std::string updated = withFrontEnd(r->settingsJson, f);
  if (updated == r->settingsJson) return;
  r->settingsJson = updated;
  store->updateRun(*r);
}

int runEngine(const std::string& project, Backends& b, RunId run, bool verbose) {
  if (!b.canEvaluate()) {
    std::cerr << "crucible-cli: cannot evaluate kernels here: " << b.dispatchStatus() << "\n";
    return ExitCode::NoGpu;
  }
  std::cout << "evaluating on: " << b.dispatchStatus() << "\n"
            << "before a seal: " << b.sanitizer.status() << "\n";
  if (const llm::LlmProposer* model = b.model())
    std::cout << "proposing with: " << model->name() << " at " << model->settings().endpoint << ", "
              << model->settings().concurrency << " request(s) at once\n";
  ConsoleObserver observer(verbose);
  Engine engine(project, b.proposer(), b.compiler, b.dispatcher(), &observer, &b.sanitizer);
  {
    StopOnSignal stopper(engine, [&b] { b.cancelRequests(); });
    engine.run(run);
  }
  auto store = ProjectStore::open(project, ProjectStore::Mode::ReadOnly);
  auto r = store->run(run);
  if (!r) return ExitCode::Failed;
  std::cout << "run " << run << ": " << toString(r->status) << ", " << r->evaluationsDone << " evaluations, best "
            << r->bestSpeedup << "x vs reference\n";
  if (const auto usage = runModelUsage(*store, *r))
    std::cout << "model: " << describeModelUsage(*usage, modelBudgetOf(*r)) << "\n";
  return r->status == RunStatus::Failed ? ExitCode::Failed : ExitCode::Success;
}

int cmdInit(const Options& o) {
  if (o.positional().size() != 1) throw UsageError("usage: crucible-cli init PROJECT.crucible");
  ProjectStore::create(o.positional()[0]);  // an existing file: "already exists", ExitCode::ProjectUnusable
  std::cout << "created " << o.positional()[0] << "\n";
  return ExitCode::Success;
}

int cmdRun(const Options& o) {
  // The whole command line is checked before anything is opened, created or probed.
  const std::string project = o.required("project");
  std::string taskName = o.required("task");
  Budget budget;
  // 0 would mean "no limit" to the engine: a budget is at least 1, a time limit above 0 (the options' checks).
  budget.evaluations = o.integer("budget", 200);
  budget.wallSeconds = o.positiveNumber("minutes", 0) * 60;
  budget.gpuSeconds = o.positiveNumber("gpu-minutes", 0) * 60;
  RunSettings settings;
  settings.batchSize = static_cast<int>(o.integer("batch", settings.batchSize));
  settings.compileThreads = std::max(2u, std::thread::hardware_concurrency() / 2);
  if (o.has("profile")) {
    try {
      settings.profile = profileModeFromString(o.value("profile"));
    } catch (const std::exception& e) {
      throw UsageError(std::string("--profile: ") + e.what());
    }
  }
  if (o.flag("away-from-seal")) settings.sealStart = SealStart::AwayFromSeal;
  if (o.has("search")) settings.search = searchStrategyFromString(o.value("search"));  // checked by oneOf
  const auto seed = static_cast<std::uint64_t>(o.integer("seed", 1));
  // The proposer and the dispatcher with their settings files (and the model's key variable) are checked first.
  const FrontEnd frontEnd = frontEndFromOptions(o);
  // What the model may cost, beside evaluations and time (kept in the run's settings, so `resume` keeps it).
  settings.maxModelCostUsd = o.positiveNumber("max-cost-usd", 0, 1e6);
  settings.maxModelTokens = o.integer("max-tokens", 0);
  if ((o.has("max-cost-usd") || o.has("max-tokens")) && frontEnd.proposer != "llm")
    throw UsageError(std::string("--") + (o.has("max-cost-usd") ? "max-cost-usd" : "max-tokens") +
                     " limits what a language model costs: it needs --proposer llm");
  const FrontEndSettings frontEndSettings = readFrontEndSettings(frontEnd);
  requireWritableProject(project, "start a run");
  // A project that is not one (damaged, newer) and a task that names nothing are refused before the GPU is probed.
  const std::optional<std::string> fileSpec = taskSpecText(project, taskName);
  if (!fileSpec) throw noSuchTask(taskName);
  // --axes: the task at that shape, a task of its own (its name gains the axes it changes).
  const std::string specText = specTextAtAxes(o, *fileSpec);
  const bool reshaped = specText != *fileSpec;
  if (reshaped) taskName = parseTaskSpec(specText).name;
  // The user's starting kernels are read and checked against the task before the GPU is probed.
  std::vector<StartingKernel> kernels = readStartingKernels(o);
  if (!kernels.empty()) checkStartingKernels(kernels, toJson(parseTaskSpec(specText)));
  // --reference: the user's kernel is what the run's speedups are measured against (validated
  // like any kernel before it is used); checked against the task here, before the GPU is probed.
  std::optional<UserReferenceKernel> reference;
  if (o.has("reference")) {
    const StartingKernel k = readStartingKernel(KernelOption{o.value("reference"), o.value("reference-tune")});
    reference = UserReferenceKernel{k.name, k.source, k.tune, k.origin};
    Task t;
    t.name = taskName;
    t.specJson = toJson(parseTaskSpec(specText));
    if (const std::string why = userReferenceProblem(*reference, t); !why.empty()) throw UsageError("--reference: " + why);
  } else if (o.has("reference-tune")) {
    throw UsageError("--reference-tune gives the launch rule of a --reference kernel: it needs --reference");
  }

  Backends b(sanitizerOptions(o), frontEndSettings.model, frontEndSettings.slurm, std::move(kernels));
  if (!b.canEvaluate()) {
    std::cerr << "crucible-cli: cannot evaluate kernels here: " << b.dispatchStatus() << "\n";
    return ExitCode::NoGpu;
  }
  TaskId task;
  {
    // Another process may create the same project at this moment: both then use the one file.
    auto store = ProjectStore::openOrCreate(project);
    task = reshaped ? importTaskSpec(*store, specText).id : ensureTask(*store, taskName);
  }
  Engine creator(project, b.proposer(), b.compiler, b.dispatcher());
  const RunId run = creator.createRun(task, o.value("name", taskName), seed, budget, o.flag("gated"), settings,
                                      reference ? &*reference : nullptr);
  storeFrontEnd(project, run, frontEnd);  // so `resume` rebuilds the same proposer and dispatcher
  std::cout << "run " << run << " created in " << project << "\n";
  b.attachRun(project, run, false);
  return runEngine(project, b, run, o.flag("verbose"));
}

int cmdResume(const Options& o) {
  const std::string project = o.required("project");
  if (!o.has("run")) throw UsageError("missing --run (`crucible-cli runs --project P` lists them)");
  const RunId run = o.integer("run", 0);
  std::optional<FrontEnd> stored;
  {
    // Read-write where it can be (an older schema is migrated, as resuming would); read-only otherwise.
    auto store = ProjectStore::open(project);
    const auto r = store->run(run);
    if (!r) throw UsageError("no run " + std::to_string(run) + " in " + project);
    stored = frontEndOf(r->settingsJson);
    // A run the workbench started with a language model records no settings file (the
    // preferences live with the user who started it): resuming it here needs one, and must
    // never carry on with the templates instead.
    if (!stored && r->proposer.find("llm:") != std::string::npos) {
      if (!o.has("llm-settings"))
        throw UsageError("run " + std::to_string(run) + " was started with a language model (" + r->proposer +
                         ") and records no settings file (the workbench keeps its preferences per user): give "
                         "--llm-settings FILE (README.md, \"Language models\")");
      FrontEnd model;
      model.proposer = "llm";
      stored = model;
    }
  }
  // The run's proposer and dispatcher as it was started; a settings file that
  // moved may be given again, and the dispatcher changed, but not the proposer.
  const std::string storedProposer = stored ? stored->proposer : "template";
  if (o.has("proposer") && o.value("proposer") != storedProposer)
    throw UsageError("run " + std::to_string(run) + " was started with --proposer " + storedProposer +
                     "; a resumed run keeps its proposer (start a new run for another)");
  const FrontEnd frontEnd = frontEndFromOptions(o, stored);
  const FrontEndSettings frontEndSettings = readFrontEndSettings(frontEnd);
  requireWritableProject(project, "resume run " + std::to_string(run));
  // The run may hold tunable kernels: they keep tuning.
  Backends b(sanitizerOptions(o), frontEndSettings.model, frontEndSettings.slurm, {}, true);
  if (!b.canEvaluate()) {
    std::cerr << "crucible-cli: cannot evaluate kernels here: " << b.dispatchStatus() << "\n";
    return ExitCode::NoGpu;
  }
  if (stored || frontEnd.proposer != "template" || frontEnd.dispatch != "local") storeFrontEnd(project, run, frontEnd);
  b.attachRun(project, run, true);
  return runEngine(project, b, run, o.flag("verbose"));
}

int cmdRuns(const Options& o) {
  auto store = ProjectStore::open(o.required("project"), ProjectStore::Mode::ReadOnly);
  std::cout << std::left << std::setw(5) << "run" << std::setw(34) << "task" << std::setw(10) << "status"
            << std::setw(8) << "evals" << "best\n";
  for (const auto& r : store->runs()) {
    auto t = store->task(r.taskId);
    const std::string task = (t ? t->name : "?") + " ";  // a long name (--axes) still has a space after it
    std::cout << std::setw(5) << r.id << std::setw(34) << task << std::setw(10) << toString(r.status)
              << std::setw(8) << r.evaluationsDone << r.bestSpeedup << "x";
    // A run a language model proposed for: what it spent (tokens, cost at the settings' prices).
    if (const auto usage = runModelUsage(*store, r)) std::cout << "  model " << describeModelUsage(*usage, modelBudgetOf(r));
    std::cout << "\n";
  }
  return ExitCode::Success;
}

// --sanitize-timeout, --proposer ..., --dispatch ...: what run and resume share.
void addBackendOptions(CLI::App& app) {
  addValued(app, "sanitize-timeout", "SECONDS", "how long each compute-sanitizer tool may take before a seal")
      ->check(positiveLimit("sanitize-timeout"));
  addValued(app, "proposer", "NAME", "template (default) or llm: who proposes kernels")
      ->check(oneOf("proposer", {"template", "llm"}));
  addValued(app, "llm-settings", "FILE", "with --proposer llm: the model's settings (README.md, \"Language models\")");
  addValued(app, "dispatch", "WHERE", "local (default: this machine's GPUs) or slurm")
      ->check(oneOf("dispatch", {"local", "slurm"}));
  addValued(app, "slurm-settings", "FILE", "with --dispatch slurm: the cluster's settings (README.md, \"Clusters (Slurm)\")");
  addFlag(app, "verbose", "print every event, not only the important ones");
}

void defineInit(CLI::App& app) {
  app.footer("Creates an empty project file (an existing file is refused).");
  addPositional(app, "PROJECT.crucible", "the project file to create");
  onRun(app, cmdInit);
}

void defineRun(CLI::App& app) {
  app.footer("Evolves kernels for a task: creates a run in the project (created when missing) and runs it "
                  "until its budget is spent. Ctrl-C stops it cleanly; `crucible-cli resume` continues it.");
  addValued(app, "project", "P.crucible", "the project file (created when it does not exist)")->required();
  addValued(app, "task", "NAME|FILE", "a task of the project, a built-in task or a spec file")->required();
  addAxesOption(app);
  addValued(app, "budget", "N", "evaluations (default 200)")->check(wholeNumber("budget", 1));
  addValued(app, "minutes", "M", "wall-clock limit in minutes (default: none)")->check(positiveLimit("minutes"));
  addValued(app, "gpu-minutes", "M", "GPU-time limit in minutes (default: none)")->check(positiveLimit("gpu-minutes"));
  addValued(app, "seed", "N", "the run's random seed (default 1)")->check(wholeNumber("seed", 0));
  addValued(app, "batch", "N", "candidates per generation")->check(wholeNumber("batch", 1, 4096));
  addValued(app, "name", "TEXT", "the run's name (default: the task's)");
  addValued(app, "profile", "MODE", "when candidates are profiled (the engine's profile modes)");
  addValued(app, "search", "NAME",
            "map-elites (default: an archive of diverse elites), hill-climb (always breed from the best) or random "
            "(fresh random kernels, no parents): how parents are chosen")
      ->check(oneOf("search", {"map-elites", "hill-climb", "random"}));
  addValued(app, "reference", "K.cu",
            "measure the run against your own kernel instead of the task's seal or baseline (its launch rule as for "
            "--kernel); it is validated before it is used");
  addValued(app, "reference-tune", "FILE.json", "the launch rule of the --reference kernel (else found as for --kernel)");
  addFlag(app, "gated", "new architectures wait for review before they are evaluated");
  addFlag(app, "away-from-seal", "start away from the task's seal instead of from it");
  addValued(app, "max-cost-usd", "X", "with --proposer llm: what the model may cost, in US dollars")
      ->check(positiveLimit("max-cost-usd", 1e6));
  addValued(app, "max-tokens", "N", "with --proposer llm: how many tokens the model may use")
      ->check(wholeNumber("max-tokens", 1));
  addStartingKernelOptions(app);
  addBackendOptions(app);
  onRun(app, cmdRun);
}

void defineResume(CLI::App& app) {
  app.footer("Continues an interrupted or stopped run with the proposer and dispatcher it was started with; a "
                  "settings file that moved may be given again, and the dispatcher changed, not the proposer.");
  addValued(app, "project", "P.crucible", "the project file")->required();
  addValued(app, "run", "ID", "the run (`crucible-cli runs` lists them)")->check(wholeNumber("run", 1));
  addBackendOptions(app);
  onRun(app, cmdResume);
}

void defineRuns(CLI::App& app) {
  app.footer("Lists the runs of a project with their task, status, evaluations and best speedup.");
  addValued(app, "project", "P.crucible", "the project file")->required();
  onRun(app, cmdRuns);
}

const RegisterCommand kInit("init", {"create an empty project file", defineInit});
const RegisterCommand kRun("run", {"evolve kernels for a task: --project P --task NAME [--axes M=...] [--budget N] [--minutes M] ...", defineRun});
const RegisterCommand kResume("resume", {"continue an interrupted or stopped run: --project P --run ID", defineResume});
const RegisterCommand kRuns("runs", {"list the runs of a project: --project P", defineRuns});

}  // namespace
}  // namespace crucible::cli
