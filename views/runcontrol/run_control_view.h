// SPDX-License-Identifier: GPL-3.0-or-later
// Starts and steers a run: task, proposer, budget (evaluations, wall and GPU
// minutes), review gate, the user's starting kernels; Start/Pause/Resume/Stop
// emit requests that the app connects to its engine controller. Shows
// progress (evaluations, best speedup, time left), the best speedup over
// evaluations, and the engine log.
#pragma once
#include <QList>
#include <QFutureWatcher>
#include <QMetaType>
#include <functional>
#include <optional>
#include <string>
#include <vector>
#include <QWidget>
#include "core/model/ids.h"
#include "core/model/run.h"
#include "core/store/project_store.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineSeries;
class QListWidget;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QValueAxis;

namespace crucible::views {

class ProjectSession;

// A starting kernel as the user chose it: its .cu file and its tune file
// ("" = K.tune.json beside it, or its crucible-tune comment; resources/tasks/
// README.md, "Tunable kernels").
struct StartingKernelFiles {
  QString kernel;
  QString tune;
  bool operator==(const StartingKernelFiles&) const = default;
};

// What the app found of a starting kernel for the chosen task.
struct StartingKernelCheck {
  QString name;     // what the run calls it (its file's stem)
  QString problem;  // why it cannot start a run of the task; "" when it fits
};

// Reads the kernels' files and checks each against the task's spec (one
// check per kernel, in order). Called on a thread of its own: it may use only
// what it is given and what it captured by value.
using StartingKernelChecker =
    std::function<std::vector<StartingKernelCheck>(const std::vector<StartingKernelFiles>&, const std::string& taskSpecJson)>;

// One entry of Run control's proposer choice. With a problem it is shown
// but cannot be chosen, and Run control says why (with the hint, if any).
struct ProposerChoice {
  QString id;       // what RunRequest::proposer carries ("template", "llm")
  QString label;    // what the user reads ("Templates", "Language model")
  QString problem;  // why it cannot be chosen now; "" when it can
  QString hint;     // what to do about it ("Open Edit > Preferences... to set it up.")
};

struct RunRequest {
  TaskId task = 0;      // a task of the project; 0: import builtinTask first
  QString builtinTask;  // a built-in task's name (task == 0)
  QString proposer;
  Budget budget;       // 0 = no limit on that dimension
  bool gated = false;
  // The user's own kernels, evaluated first and then tuned; several compete in one run.
  QList<StartingKernelFiles> startingKernels;
  // A kernel of the user's own as the run's reference (issue 22), in the
  // starting kernels' format; an empty kernel: the task's latest seal, or its baseline.
  StartingKernelFiles referenceKernel;
};

class RunControlView : public QWidget {
  Q_OBJECT
public:
  explicit RunControlView(ProjectSession* session, QWidget* parent = nullptr);

  // The proposers the app offers (e.g. "template", "llm:<model>"), each its own label.
  void setProposers(const QStringList& proposers);
  // The same with labels and, for those that cannot be chosen now, why. The
  // chosen entry stays chosen while it can be; else the first that can is.
  void setProposerChoices(const QList<ProposerChoice>& choices);
  // Why the offered proposers that cannot be chosen cannot, with their hints ("" when all can).
  QString proposerProblem() const;
  // The built-in tasks the app can import: offered after the project's own
  // tasks when the project has none of that name. specFiles (one per name, or
  // none): where each one's spec is read to check starting kernels against.
  void setBuiltinTasks(const QStringList& names, const QStringList& specFiles = {});
  // How starting kernels are read and checked; without one, none can be added.
  void setStartingKernelChecker(StartingKernelChecker checker);
  // Adds a starting kernel (what "Add starting kernel..." does once a file is
  // chosen) and checks the list again off the GUI thread.
  void addStartingKernel(const QString& kernelFile, const QString& tuneFile = {});
  void removeStartingKernel(int row);
  // The kernels as the last finished check found them, in list order (empty names while one is pending).
  QList<StartingKernelCheck> startingKernelChecks() const { return checks_; }
  bool checkingStartingKernels() const;
  // Chooses a kernel of the user's own as the run's reference (what
  // "Reference kernel..." does once a file is chosen) and checks it against
  // the task like a starting kernel; an empty kernelFile goes back to the
  // task's seal or baseline.
  void setReferenceKernel(const QString& kernelFile, const QString& tuneFile = {});
  // The chosen reference kernel as the last finished check found it; nullopt
  // when none is chosen or its check is pending.
  std::optional<StartingKernelCheck> referenceKernelCheck() const { return referenceCheck_; }
  // Why no run can start here whatever the form says, a sentence ("" when
  // one can): this machine cannot evaluate kernels, or the project is on
  // read-only storage. Start is refused with it.
  void setEvaluationProblem(const QString& why);
  RunRequest request() const;
  // Why Start is refused ("" when it is allowed).
  QString startProblem() const;
  int chartPointCount() const;
  QString logText() const;

public slots:
  // secondsLeft < 0: unknown (no wall budget).
  void setProgress(qint64 evaluationsDone, qint64 evaluationsBudget, double bestSpeedup, double secondsLeft);
  void addBestSpeedupPoint(qint64 evaluation, double bestSpeedup);
  void setRunState(crucible::RunStatus status);
  // Appends the engine log lines recorded since the last call.
  void appendLog(const std::vector<crucible::LogLine>& lines);
  void reload();

signals:
  void startRequested(const crucible::views::RunRequest& request);
  void pauseRequested();
  void resumeRequested();
  void stopRequested();
  // A check of the starting kernels finished (startingKernelChecks() holds it).
  void startingKernelsChecked();

private:
  // Checks every starting kernel against the chosen task on a thread of its own.
  void checkStartingKernels();
  void showStartingKernels();
  void askForStartingKernel();
  void askForTuneFile();
  void askForReferenceKernel();
  void showReferenceKernel();
  // The chosen task's spec: its JSON, or (a built-in task) its file.
  std::pair<std::string, std::string> chosenTaskSpec() const;
  void updateButtons();
  void loadChart();
  void fillTasks();
  void refreshTasks();

  ProjectSession* session_;
  QComboBox* task_ = nullptr;
  QComboBox* proposer_ = nullptr;
  QSpinBox* evaluations_ = nullptr;
  QDoubleSpinBox* wallMinutes_ = nullptr;
  QDoubleSpinBox* gpuMinutes_ = nullptr;
  QCheckBox* gated_ = nullptr;
  QPushButton* start_ = nullptr;
  QPushButton* pause_ = nullptr;
  QPushButton* resume_ = nullptr;
  QPushButton* stop_ = nullptr;
  QLabel* problem_ = nullptr;
  QLabel* proposerProblem_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* progressText_ = nullptr;
  QLineSeries* best_ = nullptr;
  QValueAxis* axisX_ = nullptr;
  QValueAxis* axisY_ = nullptr;
  QPlainTextEdit* log_ = nullptr;
  std::optional<RunStatus> state_;
  std::optional<RunStatus> storedStatus_;  // the shown run's status as the store last said
  QStringList builtinTasks_;
  QStringList builtinSpecFiles_;
  QListWidget* kernels_ = nullptr;
  QPushButton* addKernel_ = nullptr;
  QPushButton* tuneKernel_ = nullptr;
  QPushButton* removeKernel_ = nullptr;
  QList<StartingKernelFiles> kernelFiles_;
  QList<StartingKernelCheck> checks_;      // for kernelFiles_, once checkedGeneration_ == checkGeneration_
  QLabel* reference_ = nullptr;
  QPushButton* chooseReference_ = nullptr;
  QPushButton* clearReference_ = nullptr;
  StartingKernelFiles referenceFile_;      // kernel "": the task's seal or baseline
  std::optional<StartingKernelCheck> referenceCheck_;  // for referenceFile_, checked with the starting kernels
  StartingKernelChecker checker_;
  QFutureWatcher<std::vector<StartingKernelCheck>>* checkWatcher_ = nullptr;
  quint64 checkGeneration_ = 0;
  quint64 checkedGeneration_ = 0;
  QString evaluationProblem_;
  std::int64_t lastLogId_ = 0;
  RunId logRun_ = 0;
};

}  // namespace crucible::views

Q_DECLARE_METATYPE(crucible::views::RunRequest)
