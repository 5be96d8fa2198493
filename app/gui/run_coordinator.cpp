// SPDX-License-Identifier: GPL-3.0-or-later
// Backends' headers before any Qt header (gui_backends.cpp says why).
#include "backends/proposers/tunable/starting_kernels.h"
#include "views/common/status_names.h"
#include "backends/proposers/llm/llm_settings.h"
#include "backends/proposers/llm/run_model.h"
#include "core/engine/user_reference.h"
#include "core/task/task_library.h"
#include "core/task/task_spec.h"
#include "app/gui/run_coordinator.h"
#include <QAction>
#include <QFileDialog>
#include <QMessageBox>
#include <QRandomGenerator>
#include <QStatusBar>
#include <QTimer>
#include <algorithm>
#include <thread>
#include "core/engine/overloaded.h"
#include "core/store/project_store.h"
#include "app/gui/llm_preferences.h"
#include "views/mainwindow/main_window.h"
#include "views/review/review_queue_view.h"
#include "views/runcontrol/run_control_view.h"
#include "views/session/project_session.h"

namespace crucible::app {
namespace {
constexpr int kMessageMs = 15000;
const QString kTemplates = QStringLiteral("template");
const QString kModel = QStringLiteral("llm");

// Run control's check of its starting kernels (called on a thread of its own): backends' fitStartingKernels.
std::vector<views::StartingKernelCheck> checkStartingKernelFiles(const std::vector<views::StartingKernelFiles>& files,
                                                                 const std::string& taskSpecJson) {
  std::vector<StartingKernelFile> in;
  for (const views::StartingKernelFiles& f : files) in.push_back({f.kernel.toStdString(), f.tune.toStdString()});
  std::vector<views::StartingKernelCheck> out;
  for (const StartingKernelFit& fit : fitStartingKernels(in, taskSpecJson))
    out.push_back({QString::fromStdString(fit.name), QString::fromStdString(fit.problem)});
  return out;
}

// Keeps a controller's proposer exactly as long as the controller: a child
// is deleted after the controller's destructor has stopped and joined its run.
class ProposerHolder : public QObject {
public:
  explicit ProposerHolder(Proposer& writer) : proposer(writer) {}
  GuiRunProposer proposer;
};

bool resumable(RunStatus s) {
  // Running or Paused in the store with no engine here: the process that ran it was interrupted.
  return s == RunStatus::Stopped || s == RunStatus::Running || s == RunStatus::Paused;
}
}  // namespace

RunCoordinator::RunCoordinator(views::MainWindow& window, EngineBackends backends, std::vector<BuiltinTask> builtins,
                               QObject* parent)
    : QObject(parent),
      window_(window),
      backends_(std::move(backends)),
      builtins_(std::move(builtins)),
      runControl_(window.findChild<views::RunControlView*>()),
      review_(window.findChild<views::ReviewQueueView*>()),
      keyReader_([](const QString& name, QString& key) { return gui::KeyStore().read(name, key); }) {
  views::ProjectSession* session = window_.session();

  resume_ = new QAction(tr("&Resume run"), this);
  resume_->setObjectName(QStringLiteral("resumeRunAction"));
  resume_->setShortcut(QKeySequence(tr("Ctrl+R")));
  connect(resume_, &QAction::triggered, this, &RunCoordinator::resumeCurrentRun);
  window_.addFileAction(resume_);

  importTask_ = new QAction(tr("&Import task..."), this);
  importTask_->setObjectName(QStringLiteral("importTaskAction"));
  connect(importTask_, &QAction::triggered, this, &RunCoordinator::askAndImportTask);
  window_.addFileAction(importTask_);

  if (runControl_) {
    updateProposerChoices();
    connect(&gui::LlmPreferencesNotifier::instance(), &gui::LlmPreferencesNotifier::changed, this,
            &RunCoordinator::updateProposerChoices);
    QStringList names, files;
    for (const BuiltinTask& t : builtins_) {
      names << QString::fromStdString(t.name);
      files << QString::fromStdString(t.file);
    }
    runControl_->setBuiltinTasks(names, files);
    runControl_->setStartingKernelChecker(checkStartingKernelFiles);
    connect(runControl_, &views::RunControlView::startRequested, this, &RunCoordinator::startRun);
    connect(runControl_, &views::RunControlView::pauseRequested, this, [this] {
      if (!isRunning()) return;
      controller_->pause();
      interruptModel(false);
    });
    connect(runControl_, &views::RunControlView::resumeRequested, this, [this] {
      if (isRunning()) {
        if (modelClient_) modelClient_->resume();
        controller_->resume();
      } else
        resumeCurrentRun();  // a run left Paused by an interrupted process
    });
    connect(runControl_, &views::RunControlView::stopRequested, this, [this] {
      if (!isRunning()) return;
      controller_->stop();
      interruptModel(true);
    });
  }
  if (review_) {
    connect(review_, &views::ReviewQueueView::verdictGiven, this,
            [this](RunId run, const QString& key, bool accepted, const QString& note) {
              if (!controller_) return report(tr("No project open: the verdict was not recorded."));
              if (!writeProblem_.isEmpty()) return report(tr("The verdict was not recorded: %1").arg(writeProblem_));
              try {
                controller_->submitVerdict(run, key, accepted, note);
              } catch (const std::exception& e) {
                return report(tr("The verdict on %1 was not recorded: %2").arg(key, QString::fromUtf8(e.what())));
              }
              // Without a run in progress the engine stored it at once: show it.
              if (!isRunning()) window_.session()->notifyDataChanged();
            });
  }

  connect(session, &views::ProjectSession::projectOpened, this, &RunCoordinator::attach);
  connect(session, &views::ProjectSession::currentRunChanged, this, &RunCoordinator::updateResumeAction);
  connect(session, &views::ProjectSession::dataChanged, this, &RunCoordinator::updateResumeAction);
  connect(session, &views::ProjectSession::projectClosed, this, &RunCoordinator::updateResumeAction);
  window_.setCloseGuard([this] { return mayClose(); });
  if (session->isOpen()) attach();
  updateWriteActions();
  updateResumeAction();
}

RunCoordinator::~RunCoordinator() {
  window_.setCloseGuard({});
  // controller_ and retired controllers stop their runs (resumable) and wait for them.
}

void RunCoordinator::attach() {
  const QString path = window_.session()->path();
  // Review on read-only storage (an archive, a shared results folder): the
  // views read it; whatever would write is refused up front, with the reason.
  const std::string why = ProjectStore::writeProblem(path.toStdString());
  writeProblem_ = why.empty() ? QString()
                              : tr("The project is open read-only (%1): nothing can be recorded in it.")
                                    .arg(QString::fromStdString(why));
  updateWriteActions();
  // The same project reopened: a run in progress carries on.
  if (controller_ && controller_->projectPath() == path) return;
  retireController();
  auto holder = std::make_unique<ProposerHolder>(*backends_.proposer);
  controller_ = std::make_unique<EngineController>(path, holder->proposer.engineProposer(), *backends_.compiler,
                                                   *backends_.dispatcher, backends_.sanitizer);
  EngineController* c = controller_.get();
  holder->setParent(c);
  runProposer_ = &holder.release()->proposer;
  connect(c, &EngineController::engineEvent, this, &RunCoordinator::onEvent);
  connect(c, &EngineController::dataChanged, window_.session(), &views::ProjectSession::notifyDataChanged);
  connect(c, &EngineController::started, this, &RunCoordinator::onStarted);
  connect(c, &EngineController::finished, this, &RunCoordinator::onFinished);
  connect(c, &EngineController::failed, this, &RunCoordinator::report);
  updateResumeAction();
}

void RunCoordinator::retireController() {
  if (!controller_) return;
  EngineController* old = controller_.release();
  runProposer_ = nullptr;  // goes with old
  disconnect(old, nullptr, this, nullptr);
  disconnect(old, nullptr, window_.session(), nullptr);
  if (!old->isRunning()) {
    delete old;
    return;
  }
  report(tr("Stopping the run of %1: it stays resumable.").arg(old->projectPath()));
  interruptModel(true);
  old->setParent(this);  // deleted with the coordinator at the latest
  connect(old, &EngineController::finished, old, &QObject::deleteLater);
  old->stop();
  activeRun_ = 0;
}

QString RunCoordinator::resumeProblem() const {
  // The session's snapshot, not the store: no store read on the GUI thread while a run goes on.
  if (!controller_ || !window_.session()->isOpen()) return tr("No project open.");
  if (!writeProblem_.isEmpty()) return writeProblem_;
  if (!backends_.evaluationProblem.isEmpty()) return backends_.evaluationProblem;
  if (isRunning()) return tr("A run is in progress.");
  const RunId id = window_.session()->currentRun();
  const auto run = id ? window_.session()->run(id) : std::nullopt;
  if (!run) return tr("No run selected.");
  if (!resumable(run->status))
    return tr("Run %1 is %2: only a stopped or interrupted run can be resumed.")
        .arg(id)
        .arg(views::statusName(run->status));
  return {};
}

void RunCoordinator::updateResumeAction() {
  const QString problem = resumeProblem();
  resume_->setEnabled(problem.isEmpty());
  resume_->setStatusTip(problem.isEmpty() ? tr("Continue the selected run where it stopped.") : problem);
  resume_->setToolTip(resume_->statusTip());
}

void RunCoordinator::updateWriteActions() {
  // Run control says why Start is refused; a read-only project comes first,
  // being the reason that holds on any machine.
  if (runControl_)
    runControl_->setEvaluationProblem(writeProblem_.isEmpty() ? backends_.evaluationProblem : writeProblem_);
  importTask_->setEnabled(writeProblem_.isEmpty());
  importTask_->setStatusTip(writeProblem_.isEmpty()
                                ? tr("Add a task spec (.json, format in resources/tasks/README.md) to the project")
                                : writeProblem_);
  importTask_->setToolTip(importTask_->statusTip());
}

void RunCoordinator::startRun(const views::RunRequest& request) {
  if (!controller_) return report(tr("No project open."));
  if (!writeProblem_.isEmpty()) return report(writeProblem_);
  if (!backends_.evaluationProblem.isEmpty()) return report(backends_.evaluationProblem);
  if (request.proposer != kTemplates && request.proposer != kModel)
    return report(tr("Unknown proposer \"%1\": this workbench offers \"template\" and \"llm\".").arg(request.proposer));
  // The proposer is set for the run below: never while the engine runs one.
  if (isRunning()) return report(tr("A run is in progress: stop it first."));
  NewRunRequest run;
  run.task = request.task;
  if (run.task == 0) {
    const std::string name = request.builtinTask.toStdString();
    const auto it = std::find_if(builtins_.begin(), builtins_.end(),
                                 [&](const BuiltinTask& t) { return t.name == name; });
    if (it == builtins_.end()) return report(tr("No built-in task named \"%1\".").arg(request.builtinTask));
    run.taskFile = it->file;
  }
  // Recorded with the run, so the run can be reproduced.
  run.seed = QRandomGenerator::global()->bounded(1u, 1u << 31);
  run.budget = request.budget;
  run.gated = request.gated;
  run.settings.compileThreads = static_cast<int>(std::max(2u, std::thread::hardware_concurrency() / 2));
  // Read again now (the files may have changed since Run control checked them), and checked as the CLI does.
  QString kernelError;
  std::vector<StartingKernel> kernels = startingKernelsOf(request, kernelError);
  if (!kernelError.isEmpty()) return report(kernelError);
  // The reference kernel too: a kernel that does not fit the task is refused here, before a run exists.
  run.reference = referenceKernelOf(request, kernelError);
  if (!kernelError.isEmpty()) return report(kernelError);
  std::unique_ptr<llm::LlmProposer> model;
  std::unique_ptr<llm::RunModelBinding> binding;
  if (request.proposer == kModel) {
    QString error;
    model = makeModel(error);
    if (!model) return report(error);
    // The run is created on the engine's thread: the model reads it once onStarted() names it.
    binding = std::make_unique<llm::RunModelBinding>(*model);
  } else {
    modelClient_.reset();
  }
  // A language model competes with the starting kernels as the template proposer does (RunProposer).
  runProposer_->setRun(std::move(kernels), false, std::move(model));
  modelBinding_ = std::move(binding);
  controller_->startNew(run);
  updateResumeAction();
}

std::string RunCoordinator::taskSpecOf(const views::RunRequest& request, QString& error) const {
  std::string spec;
  if (request.task != 0) {
    for (const Task& t : window_.session()->tasks())
      if (t.id == request.task) spec = t.specJson;
    if (spec.empty())
      error = tr("Task %1 is not in the project: its starting kernels cannot be checked.").arg(request.task);
    return spec;
  }
  const std::string name = request.builtinTask.toStdString();
  const auto it = std::find_if(builtins_.begin(), builtins_.end(), [&](const BuiltinTask& t) { return t.name == name; });
  try {
    if (it != builtins_.end()) spec = readTaskSpecText(it->file);
  } catch (const std::exception& e) {
    error = QString::fromStdString(e.what());
  }
  return spec;
}

std::optional<UserReferenceKernel> RunCoordinator::referenceKernelOf(const views::RunRequest& request,
                                                                     QString& error) const {
  const views::StartingKernelFiles& file = request.referenceKernel;
  if (file.kernel.isEmpty()) return std::nullopt;
  const QString name = QString::fromStdString(startingKernelName(file.kernel.toStdString()));
  const auto refuse = [&](const QString& why) {
    error = tr("Reference kernel '%1' cannot be this run's reference: %2").arg(name, why);
    return std::nullopt;
  };
  Task task;
  task.specJson = taskSpecOf(request, error);
  if (!error.isEmpty()) return std::nullopt;
  try {
    task.name = parseTaskSpec(task.specJson).name;
  } catch (const TaskSpecError& e) {
    return refuse(tr("the task's spec does not parse: %1").arg(QString::fromStdString(e.what())));
  }
  UserReferenceKernel kernel;
  try {
    StartingKernel read = readStartingKernel(file.kernel.toStdString(), file.tune.toStdString());
    kernel = {std::move(read.name), std::move(read.source), std::move(read.tune), std::move(read.origin)};
  } catch (const StartingKernelError& e) {
    return refuse(QString::fromStdString(e.what()));
  }
  // Checked as Engine::createRun checks it again: the signature, its launch rule's names, a legal point.
  if (const std::string problem = userReferenceProblem(kernel, task); !problem.empty())
    return refuse(QString::fromStdString(problem));
  return kernel;
}

std::vector<StartingKernel> RunCoordinator::startingKernelsOf(const views::RunRequest& request, QString& error) const {
  if (request.startingKernels.isEmpty()) return {};
  const std::string spec = taskSpecOf(request, error);
  if (!error.isEmpty()) return {};
  std::vector<StartingKernelFile> files;
  for (const views::StartingKernelFiles& f : request.startingKernels)
    files.push_back({f.kernel.toStdString(), f.tune.toStdString()});
  std::vector<StartingKernel> kernels;
  QStringList problems;
  for (StartingKernelFit& fit : fitStartingKernels(files, spec)) {
    if (!fit.problem.empty())
      problems << tr("Starting kernel '%1' cannot start this run: %2")
                      .arg(QString::fromStdString(fit.name), QString::fromStdString(fit.problem));
    else if (fit.kernel)
      kernels.push_back(std::move(*fit.kernel));
  }
  error = problems.join(QStringLiteral("; "));
  return kernels;
}

void RunCoordinator::resumeCurrentRun() {
  const QString problem = resumeProblem();
  if (!problem.isEmpty()) return report(problem);
  const RunId id = window_.session()->currentRun();
  const auto stored = window_.session()->run(id);
  // A language model's run goes on with the model of today's preferences (as `crucible-cli resume` reads its
  // settings file again); its kernels already in the project are not proposed again.
  std::unique_ptr<llm::LlmProposer> model;
  if (stored && stored->proposer.find("llm:") != std::string::npos) {
    QString error;
    model = makeModel(error);
    if (!model) return report(tr("Run %1 was proposed for by a language model: %2").arg(id).arg(error));
    try {
      // Reads the run's kernels once, on this thread (as `crucible-cli resume` does before it starts).
      llm::attachRunModel(*model, window_.session()->path().toStdString(), id, true);
    } catch (const std::exception& e) {
      return report(tr("Run %1 cannot be resumed: %2").arg(id).arg(QString::fromUtf8(e.what())));
    }
  } else {
    modelClient_.reset();
  }
  modelBinding_.reset();
  // As `crucible-cli resume`: the run's stored candidates may be tunable kernels'.
  runProposer_->setRun({}, true, std::move(model));
  controller_->start(id);
  updateResumeAction();
}

void RunCoordinator::onStarted(RunId run) {
  activeRun_ = run;
  if (modelBinding_) {
    modelBinding_->bind(window_.session()->path().toStdString(), run);
    modelBinding_.reset();
  }
  views::ProjectSession* session = window_.session();
  session->notifyDataChanged();  // a new run: the runs table shows it
  session->setRunActive(true);   // from here on the GUI reads through the project reader only
  session->setCurrentRun(run);   // Run control reloads it
  const auto stored = session->run(run);
  bestShown_ = stored ? stored->bestSpeedup : 0;
  if (runControl_) runControl_->setRunState(RunStatus::Running);
  report(tr("Run %1 started.").arg(run));
  updateResumeAction();
}

void RunCoordinator::onFinished(RunId run) {
  window_.session()->setRunActive(false);
  // Outside a run this waits for the reader: the session's snapshot then holds how the run ended.
  window_.session()->notifyDataChanged();
  activeRun_ = 0;
  // The store says how it ended (also when run() never raised an event).
  if (runControl_ && run != 0 && window_.session()->currentRun() == run) runControl_->reload();
  updateResumeAction();
  if (closeAfterStop_) QTimer::singleShot(0, &window_, &QWidget::close);
}

void RunCoordinator::onEvent(const EngineEvent& e) {
  using namespace events;
  const bool shown = runControl_ && window_.session()->currentRun() == e.run;
  auto state = [&](RunStatus s) {
    if (shown) runControl_->setRunState(s);
  };
  auto progress = [&](const RunCounters& c) {
    if (!shown) return;
    const double left = c.budget.wallSeconds > 0 ? std::max(0.0, c.budget.wallSeconds - c.elapsedSeconds) : -1;
    runControl_->setProgress(c.evaluationsDone, c.budget.evaluations, c.bestSpeedup, left);
    if (c.bestSpeedup > bestShown_) {
      bestShown_ = c.bestSpeedup;
      runControl_->addBestSpeedupPoint(c.evaluationsDone, c.bestSpeedup);
    }
  };
  // One lambda per kind: a new kind does not compile until Run control is told what it means.
  std::visit(Overloaded{
                 [&](const RunStarted&) { state(RunStatus::Running); },
                 [&](const RunResumed&) { state(RunStatus::Running); },
                 [&](const RunPaused&) { state(RunStatus::Paused); },
                 [&](const RunStopped&) { state(RunStatus::Stopped); },
                 [&](const RunFinished&) { state(RunStatus::Finished); },
                 [&](const RunFailed& f) {
                   state(RunStatus::Failed);
                   report(tr("Run %1 failed: %2").arg(e.run).arg(QString::fromStdString(f.reason)));
                 },
                 [&](const AwaitingReview& a) {
                   report(tr("Architecture %1 waits for your review.").arg(QString::fromStdString(a.architectureKey)));
                 },
                 [&](const Progress& p) { progress(p.counters); },
                 [&](const CandidateEvaluated& c) { progress(c.counters); },
                 [&](const EliteImproved& c) { progress(c.counters); },
                 // The run view's log says which candidate and why.
                 [&](const SealingBest& s) { progress(s.counters); },
                 // The views learn of these from the store (dataChanged).
                 [](const CandidateProposed&) {},
                 [](const CandidateCompiled&) {},
                 [](const Sealed&) {},
                 [](const KnowledgeUpdated&) {},
                 [](const Log&) {},
             },
             e.what);
}

QString RunCoordinator::importTask(const QString& file) {
  views::ProjectSession* session = window_.session();
  if (!session->isOpen()) return tr("No project is open: open or create one first.");
  if (!writeProblem_.isEmpty()) return tr("%1: %2").arg(file, writeProblem_);
  try {
    // The GUI's session reads through its own read-only connection; the
    // import writes through a short-lived one, as the CLI does.
    auto store = ProjectStore::open(session->path().toStdString());
    const TaskId id = importTaskFile(*store, file.toStdString());
    const auto task = store->task(id);
    report(tr("Task %1 is in the project.").arg(task ? QString::fromStdString(task->name) : QString::number(id)));
  } catch (const std::exception& e) {
    return tr("%1: %2").arg(file, QString::fromUtf8(e.what()));
  }
  session->notifyDataChanged();
  return QString();
}

void RunCoordinator::askAndImportTask() {
  const QString file =
      QFileDialog::getOpenFileName(&window_, tr("Import task"), QString(), tr("Task specs (*.json);;All files (*)"));
  if (file.isEmpty()) return;
  if (const QString error = importTask(file); !error.isEmpty())
    QMessageBox::warning(&window_, tr("Import task"), error);
}

void RunCoordinator::updateProposerChoices() {
  if (!runControl_) return;
  const QString json = gui::storedLlmSettingsJson();
  QString problem;
  if (json.trimmed().isEmpty())
    problem = tr("no language model is set up.");
  else if (const QString why = gui::llmSettingsProblem(json); !why.isEmpty())
    problem = tr("the language-model preferences are not usable (%1).").arg(why);
  runControl_->setProposerChoices({
      {kTemplates, tr("Templates"), {}, {}},
      {kModel, tr("Language model"), problem,
       problem.isEmpty() ? QString() : tr("Open Edit > Preferences... to set it up.")},
  });
}

std::unique_ptr<llm::LlmProposer> RunCoordinator::makeModel(QString& error) {
  updateProposerChoices();  // the preferences may have changed since Run control showed them
  llm::LlmSettings settings;
  try {
    settings = llm::llmSettingsFromJson(gui::storedLlmSettingsJson().toStdString());
  } catch (const std::exception& e) {
    error = tr("The language model is not set up (%1): open Edit > Preferences...").arg(QString::fromUtf8(e.what()));
    return nullptr;
  }
  // The key: from the system keychain, read here once; else from the environment variable of that name, read
  // at each request as crucible-cli does. It goes to the client in memory only: never to a file or an environment.
  std::function<std::string()> apiKey;
  if (!settings.apiKeyEnv.empty()) {
    const QString name = QString::fromStdString(settings.apiKeyEnv);
    QString key;
    const gui::KeyStoreResult r = keyReader_ ? keyReader_(name, key) : gui::KeyStoreResult{false, true, {}};
    if (r.ok && !key.trimmed().isEmpty()) {
      apiKey = gui::apiKeyProvider(key);
    } else if (qEnvironmentVariable(settings.apiKeyEnv.c_str()).trimmed().isEmpty()) {
      const QString keychain = r.notFound || r.error.isEmpty() ? tr("the system keychain holds no key under %1").arg(name)
                                                               : r.error;
      error = tr("No key for the language model: %1, and the environment variable %2 is not set. Store the key in "
                 "Edit > Preferences... or set %2 before starting Crucible.")
                  .arg(keychain, name);
      return nullptr;
    }
  }
  auto client = std::make_shared<llm::InterruptibleChatClient>(llm::makeRunChatClient(settings, std::move(apiKey)));
  modelStop_ = llm::CancelToken();
  auto model = llm::makeRunModel(settings, client, backends_.compiler, modelStop_);
  modelClient_ = std::move(client);
  return model;
}

void RunCoordinator::interruptModel(bool stopping) {
  if (!modelClient_) return;
  modelClient_->pause();
  if (stopping) modelStop_.cancel();
}

void RunCoordinator::report(const QString& message) { window_.statusBar()->showMessage(message, kMessageMs); }

bool RunCoordinator::mayClose() {
  if (!isRunning()) return true;
  if (!closeAfterStop_) {
    closeAfterStop_ = true;
    controller_->stop();
    interruptModel(true);
    report(tr("Stopping the run: the window closes once the candidates in flight are done (the run stays resumable)."));
  }
  return false;
}

}  // namespace crucible::app
