// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/user_evaluation_runner.h"

#include <QMetaObject>
#include <QProgressDialog>
#include <QStatusBar>
#include "views/editor/kernel_editor_view.h"
#include "views/mainwindow/main_window.h"
#include "views/session/project_session.h"

namespace crucible::app {
namespace {

constexpr int kStatusMs = 15000;

int stageStep(UserEvaluationStage s) { return static_cast<int>(s); }

}  // namespace

UserEvaluationRunner::UserEvaluationRunner(views::MainWindow& window, EngineBackends backends, QObject* parent)
    : QObject(parent), window_(window), backends_(std::move(backends)) {
  views::KernelEditorView* editor = window_.kernelEditor();
  if (editor) connect(editor, &views::KernelEditorView::evaluateRequested, this, &UserEvaluationRunner::evaluate);
  views::ProjectSession* session = window_.session();
  // A read-only project (opened for review) cannot take a candidate: say so on Evaluate.
  connect(session, &views::ProjectSession::projectOpened, this, &UserEvaluationRunner::updateAvailability);
  connect(session, &views::ProjectSession::projectClosed, this, &UserEvaluationRunner::updateAvailability);
  connect(session, &views::ProjectSession::dataChanged, this, &UserEvaluationRunner::selectWhenShown);
  connect(&window_, &views::MainWindow::kernelEditorOpened, this, &UserEvaluationRunner::updateAvailability);
  updateAvailability();
}

UserEvaluationRunner::~UserEvaluationRunner() {
  cancel_ = true;
  if (worker_.joinable()) worker_.join();
}

QString UserEvaluationRunner::evaluationProblem() const {
  if (!window_.kernelEditor()) return tr("This window has no kernel editor.");
  if (!backends_.evaluationProblem.isEmpty()) return backends_.evaluationProblem;
  if (!backends_.compiler || !backends_.dispatcher) return tr("Nothing can be evaluated here: no compiler or GPU backend.");
  if (evaluating_) return tr("An evaluation is in progress.");
  const views::ProjectSession* session = window_.session();
  if (!session->isOpen()) return tr("Open a project: the evaluated kernel joins one of its runs.");
  if (const std::string why = ProjectStore::writeProblem(session->path().toStdString()); !why.empty())
    return tr("This project cannot record a candidate: %1.").arg(QString::fromStdString(why));
  if (window_.kernelEditorRun() == 0)
    return tr("Nothing to evaluate: fork a candidate or open a kernel of the open project first.");
  return {};
}

void UserEvaluationRunner::updateAvailability() {
  if (views::KernelEditorView* editor = window_.kernelEditor()) {
    const QString why = evaluationProblem();
    editor->setEvaluationAvailable(why.isEmpty(), why);
  }
}

void UserEvaluationRunner::report(const QString& message) { window_.statusBar()->showMessage(message, kStatusMs); }

void UserEvaluationRunner::evaluate(const std::string& source, const LaunchRule& launch, CandidateId parent) {
  views::KernelEditorView* editor = window_.kernelEditor();
  if (const QString why = evaluationProblem(); !why.isEmpty()) {
    report(tr("Not evaluated: %1").arg(why));
    emit failed(why);
    return;
  }
  const RunId run = window_.kernelEditorRun();  // non-zero: evaluationProblem() says so
  UserKernel kernel;
  kernel.parent = parent;
  kernel.run = parent == 0 ? run : 0;
  kernel.source = source;
  evaluatedSource_ = source;
  // Blank launch fields (a file kernel) leave the rule to the parent or the run's reference.
  if (!editor->launchFieldsBlank()) kernel.launch = launch;
  kernel.note = editor->note().toStdString();

  cancel_ = false;
  evaluating_ = true;
  updateAvailability();
  if (!progress_) {
    progress_ = new QProgressDialog(&window_);
    progress_->setObjectName(QStringLiteral("userEvaluationProgress"));
    progress_->setWindowTitle(tr("Evaluating your kernel"));
    progress_->setWindowModality(Qt::NonModal);  // the workbench stays usable; only Evaluate waits
    progress_->setAutoClose(false);
    progress_->setAutoReset(false);
    progress_->setMinimumDuration(0);
    progress_->setRange(0, stageStep(UserEvaluationStage::Done));
    connect(progress_, &QProgressDialog::canceled, this, &UserEvaluationRunner::cancel);
  }
  progress_->reset();  // forgets an earlier Cancel
  progress_->setValue(0);
  progress_->setLabelText(tr("Preparing…"));
  progress_->show();
  report(tr("Evaluating your kernel…"));

  if (worker_.joinable()) worker_.join();  // a finished one: immediate
  worker_ = std::thread([this, kernel = std::move(kernel), path = window_.session()->path().toStdString()]() mutable {
    work(std::move(kernel), std::move(path));
  });
}

void UserEvaluationRunner::cancel() {
  if (!evaluating_) return;
  cancel_ = true;
  const QString text = tr("Cancelling: the step in flight finishes, then nothing is stored.");
  if (progress_) progress_->setLabelText(text);
  report(text);
}

void UserEvaluationRunner::work(UserKernel kernel, std::string projectPath) {
  UserEvaluation result;
  QString error;
  try {
    // Its own read-write connection: the GUI's is read-only and belongs to the GUI thread.
    auto store = ProjectStore::open(projectPath);
    const std::vector<Evaluator*> evaluators = backends_.dispatcher->evaluators();
    if (evaluators.empty() || !evaluators.front())
      throw UserEvaluationError("the dispatcher " + backends_.dispatcher->name() + " has no GPU to evaluate on");
    UserEvaluationOptions options;
    options.sanitizer = backends_.sanitizer;
    options.cancel = &cancel_;
    options.progress = [this](const UserEvaluationProgress& p) {
      post([this, stage = stageStep(p.stage), text = QString::fromStdString(p.text)] { onProgress(stage, text); });
    };
    result = evaluateUserKernel(*store, *backends_.compiler, *evaluators.front(), kernel, options);
  } catch (const std::exception& e) {
    error = QString::fromStdString(e.what());
  }
  post([this, result = std::move(result), error]() mutable { onDone(std::move(result), error); });
}

void UserEvaluationRunner::onProgress(int stage, const QString& text) {
  if (!evaluating_) return;
  if (progress_ && !cancel_) {
    progress_->setValue(stage);
    progress_->setLabelText(text);
  }
  if (!cancel_) window_.statusBar()->showMessage(text);
  emit progressed(text);
}

void UserEvaluationRunner::onDone(UserEvaluation result, QString error) {
  if (worker_.joinable()) worker_.join();  // it has posted its last call: immediate
  evaluating_ = false;
  if (progress_) progress_->hide();
  updateAvailability();
  if (!error.isEmpty()) {
    report(tr("Your kernel was not evaluated: %1").arg(error));
    emit failed(error);
    emit finished(0);
    return;
  }
  if (result.cancelled) {
    report(tr("Evaluation cancelled: nothing was stored."));
    emit finished(0);
    return;
  }
  // The edits are a candidate now: opening another kernel no longer asks before replacing them.
  // (Unless the user typed on while it ran: those edits are still only in the editor.)
  if (views::KernelEditorView* editor = window_.kernelEditor(); editor && editor->source() == evaluatedSource_)
    editor->markKept();
  showResult(result.candidate);
  QString message = tr("Your kernel is candidate #%1 of run %2: %3")
                        .arg(result.candidate.id)
                        .arg(result.candidate.runId)
                        .arg(QString::fromLatin1(toString(result.candidate.status)));
  if (result.candidate.timing) message += tr(", %1x the reference").arg(result.candidate.fitness, 0, 'f', 2);
  if (!result.candidate.statusDetail.empty())
    message += QStringLiteral(" (%1)").arg(QString::fromStdString(result.candidate.statusDetail));
  if (result.seal) message += tr("; sealed");
  report(message);
  emit finished(result.candidate.id);
}

void UserEvaluationRunner::showResult(const Candidate& c) {
  views::ProjectSession* session = window_.session();
  if (!session->isOpen()) return;
  // The new candidate is in the run it joined: show that run, catch up, select it.
  if (session->currentRun() != c.runId) session->setCurrentRun(c.runId);
  pendingSelect_ = c.id;
  session->notifyDataChanged();  // outside a run it is shown on return; during one, by the reader's next delta
  selectWhenShown();
}

void UserEvaluationRunner::selectWhenShown() {
  views::ProjectSession* session = window_.session();
  if (pendingSelect_ == 0 || !session->candidate(pendingSelect_)) return;
  const CandidateId id = pendingSelect_;
  pendingSelect_ = 0;
  session->selectCandidate(id);
}

}  // namespace crucible::app
