// SPDX-License-Identifier: GPL-3.0-or-later
// The kernel editor's Evaluate (issue 17): the edited kernel is compiled,
// validated, timed and profiled by evaluateUserKernel (core/engine/
// user_evaluation.h) on a worker thread, through a read-write store
// connection of its own and the dispatcher's first evaluator, with progress
// in a dialog and the status bar and Cancel wired to the evaluation's cancel
// flag. The result comes back to the GUI thread; the session is poked so the
// new candidate shows at once in the tables and views, and it is selected.
// Where nothing can be evaluated (no GPU, a read-only project) Evaluate is
// disabled with the reason.
//
// The same path validates a sealed kernel again (the vault's "Validate again
// on this GPU"): the sealed source is evaluated as a user candidate, child of
// the sealed one, and a seal_revalidations row links the seal to it with the
// fingerprint of this GPU, so the vault shows the new figures beside the old.
// The runner also owns the editor's DraftKeeper (unsaved edits kept in the
// project; deleted when an edit is evaluated).
#pragma once
#include <QObject>
#include <QPointer>
#include <QString>
#include <atomic>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include "app/gui/gui_backends.h"
#include "core/engine/user_evaluation.h"
#include "views/session/call_queue.h"

class QProgressDialog;

namespace crucible::views {
class MainWindow;
class VaultView;
}

namespace crucible::app {

class DraftKeeper;

class UserEvaluationRunner : public QObject {
  Q_OBJECT
public:
  // The window must have its kernel editor installed. backends' compiler,
  // dispatcher and sanitizer must outlive the runner; a non-empty
  // evaluationProblem (no GPU) keeps Evaluate disabled with that reason.
  UserEvaluationRunner(views::MainWindow& window, EngineBackends backends, QObject* parent = nullptr);
  // Cancels an evaluation in progress and waits for it (nothing is stored).
  ~UserEvaluationRunner() override;

  bool isEvaluating() const { return evaluating_; }
  // Why Evaluate is disabled now ("" when it is enabled).
  QString evaluationProblem() const;
  QProgressDialog* progressDialog() const { return progress_; }
  // Why a seal cannot be validated again here ("" when it can).
  QString revalidationProblem() const;
  DraftKeeper* draftKeeper() const { return drafts_; }

public slots:
  // Evaluates the kernel as the editor asks (its note and run come from the window).
  void evaluate(const std::string& source, const crucible::LaunchRule& launch, crucible::CandidateId parent);
  // Validates and times the sealed kernel of `seal` again on this GPU.
  void revalidate(crucible::SealId seal);
  // The evaluation stores nothing; the step in flight (a GPU call) finishes first.
  void cancel();

signals:
  void progressed(const QString& text);
  // The evaluation ended: the stored candidate, or 0 when it was cancelled or
  // failed (failed() then says why).
  void finished(crucible::CandidateId candidate);
  void failed(const QString& message);

private:
  void start(UserKernel kernel, SealId revalidating, const QString& title);
  void work(UserKernel kernel, SealId revalidating, std::string projectPath);
  QString commonProblem() const;
  void probeHostDevice();
  views::VaultView* vault() const;
  void onProgress(int stage, const QString& text);
  // The stage as the progress dialog and the status bar show it, translated.
  static QString stageText(UserEvaluationStage stage);
  void onDone(UserEvaluation result, QString error);
  void showResult(const Candidate& c);
  void selectWhenShown();
  void updateAvailability();
  void report(const QString& message);
  // Runs call on the GUI thread, in order (views/session/call_queue.h: the data
  // crosses threads under a std::mutex, only a wake-up goes through Qt).
  void post(std::function<void()> call) { calls_.post(std::move(call)); }

  views::MainWindow& window_;
  EngineBackends backends_;
  QProgressDialog* progress_ = nullptr;
  bool evaluating_ = false;        // GUI thread only
  CandidateId pendingSelect_ = 0;  // stored, waiting for the session to show it
  std::string evaluatedSource_;    // the source of the evaluation in progress (GUI thread)
  SealId revalidating_ = 0;        // the seal being validated again (GUI thread; 0: an editor evaluation)
  DraftKeeper* drafts_ = nullptr;
  bool probing_ = false;           // the host device is being found (GUI thread)
  std::thread prober_;
  std::atomic<bool> cancel_{false};
  views::CallQueue calls_{this};
  std::thread worker_;
};

}  // namespace crucible::app
