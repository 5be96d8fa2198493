// SPDX-License-Identifier: GPL-3.0-or-later
// Connects the main window to the engine: Run control's Start/Pause/Resume/
// Stop and the review queue's verdicts go to an EngineController for the open
// project; the engine's progress comes back to Run control and its commits to
// the session. Also File > Resume run, and closing the window while a run is
// in progress (the run is stopped first and stays resumable). A run's
// starting kernels (Run control's "Add starting kernel...") and its reference
// kernel ("Reference kernel...", core/engine/user_reference.h) are read and
// checked again when it starts, and its proposer made as crucible-cli's.
#pragma once
#include <QObject>
#include <functional>
#include <memory>
#include <optional>
#include <vector>
#include "app/gui/engine_controller.h"
#include "app/gui/gui_backends.h"
#include "app/gui/key_store.h"
#include "app/gui/task_import.h"
#include "backends/proposers/llm/cancel_token.h"

class QAction;

namespace crucible::views {
class MainWindow;
class ReviewQueueView;
class RunControlView;
struct RunRequest;
}  // namespace crucible::views

namespace crucible::llm {
class InterruptibleChatClient;
class LlmProposer;
class RunModelBinding;
}  // namespace crucible::llm

namespace crucible::app {

// Reads a language model's key by its variable's name (KeyStore::read by default).
using KeyReader = std::function<gui::KeyStoreResult(const QString& name, QString& key)>;

class RunCoordinator : public QObject {
  Q_OBJECT
public:
  // backends' objects must outlive the coordinator; builtins: the tasks Run
  // control offers besides the project's own.
  RunCoordinator(views::MainWindow& window, EngineBackends backends, std::vector<BuiltinTask> builtins,
                 QObject* parent = nullptr);
  ~RunCoordinator() override;

  // The controller of the open project; nullptr when none is open.
  EngineController* controller() const { return controller_.get(); }
  bool isRunning() const { return controller_ && controller_->isRunning(); }
  QAction* resumeAction() const { return resume_; }
  QAction* importTaskAction() const { return importTask_; }
  // Why the selected run cannot be resumed now ("" when it can).
  QString resumeProblem() const;
  // Why nothing can be recorded in the open project: "" when it can; a
  // sentence when it is on read-only storage (opened for review). Start,
  // Resume, Import task and verdicts are refused with it.
  QString writeProblem() const { return writeProblem_; }
  // Where a language-model run's key comes from (tests give a fake keychain).
  void setKeyReader(KeyReader reader) { keyReader_ = std::move(reader); }
  // Offers Run control "Templates" and "Language model", the latter only
  // while the stored preferences parse (else it says why). Called again when
  // Edit > Preferences... saves.
  void updateProposerChoices();

public slots:
  void startRun(const crucible::views::RunRequest& request);
  // Resumes the session's current run (Stopped, or interrupted: Running/Paused in the store).
  void resumeCurrentRun();
  // Adds a task spec file to the open project (File > Import task...). Returns
  // "" on success, else a message naming the file and what is wrong.
  QString importTask(const QString& file);

private:
  void attach();      // a project was opened
  // The starting kernels of a request, read and checked against its task; a
  // message naming each kernel that cannot start the run goes to error.
  std::vector<StartingKernel> startingKernelsOf(const views::RunRequest& request, QString& error) const;
  // The spec of the request's task (the project's, or a built-in's file); "" with error set when unknown.
  std::string taskSpecOf(const views::RunRequest& request, QString& error) const;
  // The request's reference kernel, read and checked against its task; nullopt
  // when it names none, or (with a message in error) when it cannot be the reference.
  std::optional<UserReferenceKernel> referenceKernelOf(const views::RunRequest& request, QString& error) const;
  // Lets the current controller go: a run in progress is stopped and the
  // controller lives (as a child) until that run has returned.
  void retireController();
  // A language model for the next run as crucible-cli makes it, from the
  // stored preferences and the key (keychain, else the environment). nullptr
  // with a message in error when it cannot be made.
  std::unique_ptr<llm::LlmProposer> makeModel(QString& error);
  // Run control's Pause/Stop: requests to the model in flight end at once.
  void interruptModel(bool stopping);
  void onEvent(const EngineEvent& event);
  void onStarted(RunId run);
  void onFinished(RunId run);
  void report(const QString& message);
  void askAndImportTask();
  void updateResumeAction();
  // Start and Import task offered, or refused with the reason, for the open project.
  void updateWriteActions();
  // The close guard: false (keep the window) while a run is being stopped.
  bool mayClose();

  views::MainWindow& window_;
  EngineBackends backends_;
  std::vector<BuiltinTask> builtins_;
  views::RunControlView* runControl_ = nullptr;
  views::ReviewQueueView* review_ = nullptr;
  std::unique_ptr<EngineController> controller_;
  GuiRunProposer* runProposer_ = nullptr;  // controller_'s (owned by it, so it outlives the engine)
  QAction* importTask_ = nullptr;
  QAction* resume_ = nullptr;
  QString writeProblem_;
  RunId activeRun_ = 0;
  double bestShown_ = 0;
  bool closeAfterStop_ = false;
  KeyReader keyReader_;
  // The current run's language model, if any: its client (paused with the
  // run), its stop token, and (a new run) its binding to the run once created.
  std::shared_ptr<llm::InterruptibleChatClient> modelClient_;
  llm::CancelToken modelStop_;
  std::unique_ptr<llm::RunModelBinding> modelBinding_;
};

}  // namespace crucible::app
