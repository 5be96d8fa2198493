// SPDX-License-Identifier: GPL-3.0-or-later
// Starts and steers a run: task, proposer, budget (evaluations, wall and GPU
// minutes), review gate; Start/Pause/Resume/Stop emit requests that the app
// connects to its engine controller. Shows progress (evaluations, best
// speedup, time left), the best speedup over evaluations, and the engine log.
#pragma once
#include <QMetaType>
#include <optional>
#include <QWidget>
#include "core/model/ids.h"
#include "core/model/run.h"
#include "core/store/project_store.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineSeries;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QValueAxis;

namespace crucible::views {

class ProjectSession;

struct RunRequest {
  TaskId task = 0;      // a task of the project; 0: import builtinTask first
  QString builtinTask;  // a built-in task's name (task == 0)
  QString proposer;
  Budget budget;       // 0 = no limit on that dimension
  bool gated = false;
};

class RunControlView : public QWidget {
  Q_OBJECT
public:
  explicit RunControlView(ProjectSession* session, QWidget* parent = nullptr);

  // The proposers the app offers (e.g. "template", "llm:<model>").
  void setProposers(const QStringList& proposers);
  // The built-in tasks the app can import: offered after the project's own
  // tasks when the project has none of that name.
  void setBuiltinTasks(const QStringList& names);
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

private:
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
  QProgressBar* progress_ = nullptr;
  QLabel* progressText_ = nullptr;
  QLineSeries* best_ = nullptr;
  QValueAxis* axisX_ = nullptr;
  QValueAxis* axisY_ = nullptr;
  QPlainTextEdit* log_ = nullptr;
  std::optional<RunStatus> state_;
  std::optional<RunStatus> storedStatus_;  // the shown run's status as the store last said
  QStringList builtinTasks_;
  QString evaluationProblem_;
  std::int64_t lastLogId_ = 0;
  RunId logRun_ = 0;
};

}  // namespace crucible::views

Q_DECLARE_METATYPE(crucible::views::RunRequest)
