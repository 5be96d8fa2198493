// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/user_evaluation_runner.h"

#include <QDockWidget>
#include <QMetaObject>
#include <QProgressDialog>
#include <QStatusBar>
#include <cmath>
#include <limits>
#include <utility>
#include "views/common/locale_numbers.h"
#include "views/common/status_names.h"
#include "app/gui/draft_keeper.h"
#include "views/editor/kernel_editor_view.h"
#include "views/mainwindow/main_window.h"
#include "views/session/project_session.h"
#include "views/vault/vault_view.h"

namespace crucible::app {
namespace {

constexpr int kStatusMs = 15000;

int stageStep(UserEvaluationStage s) { return static_cast<int>(s); }

// A failure this class words itself, already translated (the core's own
// UserEvaluationError texts are shown as they are: core has no Qt).
struct ShownError {
  QString text;
};

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
  if (window_.kernelEditor()) drafts_ = new DraftKeeper(window_, this);
  if (views::VaultView* v = vault()) {
    connect(v, &views::VaultView::revalidateRequested, this, &UserEvaluationRunner::revalidate);
    connect(v, &views::VaultView::hostDeviceWanted, this, &UserEvaluationRunner::probeHostDevice);
  }
  updateAvailability();
}

UserEvaluationRunner::~UserEvaluationRunner() {
  cancel_ = true;
  if (worker_.joinable()) worker_.join();
  if (prober_.joinable()) prober_.join();
}

views::VaultView* UserEvaluationRunner::vault() const {
  QDockWidget* dock = window_.viewDock(QStringLiteral("vault"));
  return dock ? qobject_cast<views::VaultView*>(dock->widget()) : nullptr;
}

QString UserEvaluationRunner::commonProblem() const {
  if (!backends_.evaluationProblem.isEmpty()) return backends_.evaluationProblem;
  if (!backends_.compiler || !backends_.dispatcher) return tr("Nothing can be evaluated here: no compiler or GPU backend.");
  if (evaluating_) return tr("An evaluation is in progress.");
  const views::ProjectSession* session = window_.session();
  if (!session->isOpen()) return tr("Open a project: the evaluated kernel joins one of its runs.");
  if (const std::string why = ProjectStore::writeProblem(session->path().toStdString()); !why.empty())
    return tr("This project cannot record a candidate: %1.").arg(QString::fromStdString(why));
  return {};
}

QString UserEvaluationRunner::evaluationProblem() const {
  if (!window_.kernelEditor()) return tr("This window has no kernel editor.");
  if (const QString why = commonProblem(); !why.isEmpty()) return why;
  if (window_.kernelEditorRun() == 0)
    return tr("Nothing to evaluate: fork a candidate or open a kernel of the open project first.");
  return {};
}

QString UserEvaluationRunner::revalidationProblem() const { return commonProblem(); }

void UserEvaluationRunner::updateAvailability() {
  if (views::KernelEditorView* editor = window_.kernelEditor()) {
    const QString why = evaluationProblem();
    editor->setEvaluationAvailable(why.isEmpty(), why);
  }
  if (views::VaultView* v = vault()) v->setRevalidationProblem(revalidationProblem());
}

void UserEvaluationRunner::probeHostDevice() {
  // The fingerprint a new measurement would carry: the evaluator's own (a
  // worker's hello, which may start the worker), so never on the GUI thread.
  if (probing_ || !backends_.evaluationProblem.isEmpty() || !backends_.dispatcher) return;
  probing_ = true;
  if (prober_.joinable()) prober_.join();
  prober_ = std::thread([this] {
    std::optional<Fingerprint> device;
    QString error;
    try {
      const std::vector<Evaluator*> evaluators = backends_.dispatcher->evaluators();
      if (evaluators.empty() || !evaluators.front())
        throw ShownError{tr("the dispatcher %1 has no GPU").arg(QString::fromStdString(backends_.dispatcher->name()))};
      device = evaluators.front()->device();
    } catch (const ShownError& e) {
      error = e.text;
    } catch (const std::exception& e) {
      error = QString::fromStdString(e.what());
    }
    post([this, device, error] {
      views::VaultView* v = vault();
      if (!v) return;
      // Found once; a failure leaves it unknown and says why (a later seal shown asks again).
      if (device) v->setHostDevice(device);
      else {
        v->setRevalidationProblem(tr("This machine's GPU could not be identified: %1").arg(error));
        probing_ = false;
      }
    });
  });
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
  start(std::move(kernel), 0, tr("Evaluating your kernel"));
}

void UserEvaluationRunner::revalidate(SealId seal) {
  if (const QString why = revalidationProblem(); !why.isEmpty()) {
    report(tr("Seal #%1 not validated again: %2").arg(seal).arg(why));
    emit failed(why);
    return;
  }
  std::optional<Seal> sealed;
  for (const Seal& s : window_.session()->seals())
    if (s.id == seal) sealed = s;
  if (!sealed) {
    const QString why = tr("seal #%1 is not in this project").arg(seal);
    report(tr("Not validated again: %1").arg(why));
    emit failed(why);
    return;
  }
  // The sealed kernel as it is, a child of the sealed candidate; its source is read by the worker.
  UserKernel kernel;
  kernel.parent = sealed->candidateId;
  kernel.note = tr("Seal #%1 validated again on this GPU (sealed on %2)")
                    .arg(seal)
                    .arg(QString::fromStdString(sealed->fingerprint.gpu))
                    .toStdString();
  evaluatedSource_.clear();
  start(std::move(kernel), seal, tr("Validating seal #%1 again").arg(seal));
}

void UserEvaluationRunner::start(UserKernel kernel, SealId revalidating, const QString& title) {
  revalidating_ = revalidating;
  cancel_ = false;
  evaluating_ = true;
  updateAvailability();
  if (!progress_) {
    progress_ = new QProgressDialog(&window_);
    progress_->setObjectName(QStringLiteral("userEvaluationProgress"));
    progress_->setWindowTitle(title);
    progress_->setWindowModality(Qt::NonModal);  // the workbench stays usable; only Evaluate waits
    progress_->setAutoClose(false);
    progress_->setAutoReset(false);
    progress_->setMinimumDuration(0);
    progress_->setRange(0, stageStep(UserEvaluationStage::Done));
    connect(progress_, &QProgressDialog::canceled, this, &UserEvaluationRunner::cancel);
  }
  progress_->setWindowTitle(title);
  progress_->reset();  // forgets an earlier Cancel
  progress_->setValue(0);
  progress_->setLabelText(tr("Preparing…"));
  progress_->show();
  report(title + QStringLiteral("…"));

  if (worker_.joinable()) worker_.join();  // a finished one: immediate
  worker_ = std::thread([this, kernel = std::move(kernel), revalidating,
                         path = window_.session()->path().toStdString()]() mutable {
    work(std::move(kernel), revalidating, std::move(path));
  });
}

void UserEvaluationRunner::cancel() {
  if (!evaluating_) return;
  cancel_ = true;
  const QString text = tr("Cancelling: the step in flight finishes, then nothing is stored.");
  if (progress_) progress_->setLabelText(text);
  report(text);
}

void UserEvaluationRunner::work(UserKernel kernel, SealId revalidating, std::string projectPath) {
  UserEvaluation result;
  QString error;
  try {
    // Its own read-write connection: the GUI's is read-only and belongs to the GUI thread.
    auto store = ProjectStore::open(projectPath);
    const std::vector<Evaluator*> evaluators = backends_.dispatcher->evaluators();
    if (evaluators.empty() || !evaluators.front())
      throw ShownError{tr("the dispatcher %1 has no GPU to evaluate on").arg(QString::fromStdString(backends_.dispatcher->name()))};
    UserEvaluationOptions options;
    options.sanitizer = backends_.sanitizer;
    options.cancel = &cancel_;
    // The stage, worded here; the core's line (English, with the arch or GPU) is left to the CLI.
    options.progress = [this](const UserEvaluationProgress& p) {
      post([this, stage = p.stage] { onProgress(stageStep(stage), stageText(stage)); });
    };
    if (revalidating != 0) {
      const std::optional<Candidate> sealed = store->candidate(kernel.parent);
      if (!sealed) throw ShownError{tr("the sealed candidate #%1 is missing").arg(kernel.parent)};
      kernel.source = sealed->source;
    }
    result = evaluateUserKernel(*store, *backends_.compiler, *evaluators.front(), kernel, options);
    if (revalidating != 0 && !result.cancelled) {
      // The new figures beside the seal's: linked to it, with the device they were measured on.
      SealRevalidation r;
      r.sealId = revalidating;
      r.candidateId = result.candidate.id;
      r.status = toString(result.candidate.status);
      const Timing* t = result.candidate.timing ? &*result.candidate.timing : nullptr;
      r.medianUs = t ? t->medianUs : std::numeric_limits<double>::quiet_NaN();
      r.speedup = t ? t->speedup : std::numeric_limits<double>::quiet_NaN();
      r.fingerprint = result.device.gpu.empty() ? evaluators.front()->device() : result.device;
      store->addSealRevalidation(r);
    }
  } catch (const ShownError& e) {
    error = e.text;
  } catch (const std::exception& e) {
    error = QString::fromStdString(e.what());
  }
  post([this, result = std::move(result), error]() mutable { onDone(std::move(result), error); });
}

QString UserEvaluationRunner::stageText(UserEvaluationStage stage) {
  switch (stage) {
    case UserEvaluationStage::Preparing: return tr("Loading the run and compiling its reference…");
    case UserEvaluationStage::Compiling: return tr("Compiling the kernel…");
    case UserEvaluationStage::Evaluating: return tr("Validating, timing against the reference and profiling…");
    case UserEvaluationStage::Storing: return tr("Storing the candidate…");
    case UserEvaluationStage::Done: return tr("Done");
  }
  return {};
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
  const SealId revalidated = std::exchange(revalidating_, 0);
  if (progress_) progress_->hide();
  updateAvailability();
  if (!error.isEmpty()) {
    report(revalidated != 0 ? tr("Seal #%1 was not validated again: %2").arg(revalidated).arg(error)
                            : tr("Your kernel was not evaluated: %1").arg(error));
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
  if (revalidated != 0) {
    if (views::VaultView* v = vault()) v->refreshRevalidations();
  } else if (views::KernelEditorView* editor = window_.kernelEditor(); editor && editor->source() == evaluatedSource_) {
    editor->markKept();
    if (drafts_) drafts_->forgetEditorDraft();  // the edit is a candidate now: its draft goes
  }
  showResult(result.candidate);
  QString message = tr("Your kernel is candidate #%1 of run %2: %3")
                        .arg(result.candidate.id)
                        .arg(result.candidate.runId)
                        .arg(views::statusName(result.candidate.status));
  if (result.candidate.timing) message += tr(", %1x the reference").arg(views::localNumber(result.candidate.fitness, 'f', 2));
  if (!result.candidate.statusDetail.empty())
    message += QStringLiteral(" (%1)").arg(QString::fromStdString(result.candidate.statusDetail));
  if (result.seal) message += tr("; sealed");
  if (revalidated != 0)
    message = tr("Seal #%1 validated again on %2: %3").arg(revalidated).arg(QString::fromStdString(result.device.gpu), message);
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
