// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/runcontrol/run_control_view.h"

#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QFontDatabase>
#include <QListWidget>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QLocale>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QValueAxis>
#include <QVBoxLayout>
#include <climits>
#include "core/task/task_library.h"
#include "views/diff/candidate_figures.h"
#include "views/session/project_session.h"
#include "views/runcontrol/engine_messages.h"

namespace crucible::views {

namespace {
// A candidate counts as an evaluation once the engine has decided its fate.
bool evaluated(CandidateStatus s) {
  return s != CandidateStatus::Proposed && s != CandidateStatus::AwaitingReview && s != CandidateStatus::Rejected &&
         s != CandidateStatus::Reference;
}

QString formatDuration(double seconds) {
  const auto s = static_cast<qint64>(seconds + 0.5);
  return s >= 3600 ? RunControlView::tr("%1 h %2 min").arg(s / 3600).arg((s % 3600) / 60)
                   : RunControlView::tr("%1 min %2 s").arg(s / 60).arg(s % 60);
}
}  // namespace

RunControlView::RunControlView(ProjectSession* session, QWidget* parent) : QWidget(parent), session_(session) {
  qRegisterMetaType<crucible::views::RunRequest>();
  task_ = new QComboBox(this);
  task_->setObjectName(QStringLiteral("runTask"));
  proposer_ = new QComboBox(this);
  proposer_->setObjectName(QStringLiteral("runProposer"));
  // Long task names (matmul_bias_relu_bf16_4096x4096x4096 (built-in)) would set the dock's width.
  for (QComboBox* box : {task_, proposer_}) {
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(12);
  }
  evaluations_ = new QSpinBox(this);
  evaluations_->setRange(0, INT_MAX);
  evaluations_->setValue(200);
  evaluations_->setSpecialValueText(tr("no limit"));
  wallMinutes_ = new QDoubleSpinBox(this);
  gpuMinutes_ = new QDoubleSpinBox(this);
  for (auto* s : {wallMinutes_, gpuMinutes_}) {
    s->setRange(0, 1e6);
    s->setDecimals(1);
    s->setSuffix(tr(" min"));
    s->setSpecialValueText(tr("no limit"));
  }
  wallMinutes_->setValue(60);
  gated_ = new QCheckBox(tr("Review new architectures"), this);
  gated_->setToolTip(tr("Review new architectures before evaluating them"));
  // The user's own kernels (issue 16): evaluated first, then tuned; each says whether it fits the chosen task.
  kernels_ = new QListWidget(this);
  kernels_->setObjectName(QStringLiteral("startingKernels"));
  kernels_->setMaximumHeight(64);  // about three kernels; more scroll
  kernels_->setWordWrap(true);
  kernels_->setToolTip(tr("Your own kernels, evaluated first and then tuned; several may compete in one run.\n"
                          "Each needs a launch rule: K.tune.json beside K.cu, a /* crucible-tune {...} */ comment "
                          "in it, or a tune file (resources/tasks/README.md, \"Tunable kernels\")."));
  addKernel_ = new QPushButton(tr("Add starting kernel..."), this);
  addKernel_->setObjectName(QStringLiteral("addStartingKernel"));
  tuneKernel_ = new QPushButton(tr("Tune file..."), this);
  tuneKernel_->setObjectName(QStringLiteral("startingKernelTune"));
  tuneKernel_->setToolTip(tr("Choose the selected kernel's tune file (parameters, restrictions, launch rule)"));
  removeKernel_ = new QPushButton(tr("Remove"), this);
  removeKernel_->setObjectName(QStringLiteral("removeStartingKernel"));
  // Add on a row of its own: three buttons in a row would set the dock's narrowest width (issue 18).
  auto* kernelBox = new QGridLayout;
  kernelBox->setContentsMargins(0, 0, 0, 0);
  kernelBox->addWidget(kernels_, 0, 0, 1, 2);
  kernelBox->addWidget(addKernel_, 1, 0, 1, 2);
  kernelBox->addWidget(tuneKernel_, 2, 0);
  kernelBox->addWidget(removeKernel_, 2, 1);
  // The run's reference (issue 22): the task's latest seal or baseline, or a kernel of the user's own in the
  // starting kernels' format, checked against the task the same way and validated before the run uses it.
  reference_ = new QLabel(this);
  reference_->setObjectName(QStringLiteral("referenceKernelState"));
  reference_->setWordWrap(true);
  reference_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  chooseReference_ = new QPushButton(tr("Reference kernel..."), this);
  chooseReference_->setObjectName(QStringLiteral("referenceKernel"));
  clearReference_ = new QPushButton(tr("Task's reference"), this);
  clearReference_->setObjectName(QStringLiteral("clearReferenceKernel"));
  clearReference_->setToolTip(tr("Measure the run against the task's latest seal, or its baseline when it has none"));
  auto* referenceBox = new QGridLayout;
  referenceBox->setContentsMargins(0, 0, 0, 0);
  referenceBox->addWidget(reference_, 0, 0, 1, 2);
  referenceBox->addWidget(chooseReference_, 1, 0);
  referenceBox->addWidget(clearReference_, 1, 1);
  checkWatcher_ = new QFutureWatcher<std::vector<StartingKernelCheck>>(this);

  auto* form = new QFormLayout;
  form->addRow(tr("Task:"), task_);
  form->addRow(tr("Proposer:"), proposer_);
  // Why a proposer offered cannot be chosen (the language model's settings do not parse, say).
  proposerProblem_ = new QLabel(this);
  proposerProblem_->setObjectName(QStringLiteral("runProposerProblem"));
  proposerProblem_->setWordWrap(true);
  proposerProblem_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  proposerProblem_->setVisible(false);
  form->addRow(QString(), proposerProblem_);
  form->addRow(tr("Evaluations:"), evaluations_);
  form->addRow(tr("Wall time:"), wallMinutes_);
  form->addRow(tr("GPU time:"), gpuMinutes_);
  form->addRow(QString(), gated_);
  form->addRow(tr("Starting kernels:"), kernelBox);
  form->addRow(tr("Reference:"), referenceBox);

  start_ = new QPushButton(tr("Start"), this);
  pause_ = new QPushButton(tr("Pause"), this);
  resume_ = new QPushButton(tr("Resume"), this);
  stop_ = new QPushButton(tr("Stop"), this);
  // Two by two: a row of four would set the dock's narrowest width (issue 18).
  auto* buttons = new QGridLayout;
  buttons->addWidget(start_, 0, 0);
  buttons->addWidget(pause_, 0, 1);
  buttons->addWidget(resume_, 1, 0);
  buttons->addWidget(stop_, 1, 1);
  problem_ = new QLabel(this);
  problem_->setWordWrap(true);

  progress_ = new QProgressBar(this);
  progress_->setRange(0, 1);
  progress_->setValue(0);
  progressText_ = new QLabel(this);

  auto* chart = new QChart;
  chart->setLocale(QLocale());  // axis labels in the application's locale (issue 22)
  chart->setLocalizeNumbers(true);
  chart->legend()->hide();
  chart->setTitle(tr("Best speedup over evaluations"));
  best_ = new QLineSeries;
  chart->addSeries(best_);
  axisX_ = new QValueAxis;
  axisX_->setTitleText(tr("evaluations"));
  axisX_->setLabelFormat(QStringLiteral("%d"));
  axisY_ = new QValueAxis;
  axisY_->setTitleText(tr("best speedup (×)"));
  chart->addAxis(axisX_, Qt::AlignBottom);
  chart->addAxis(axisY_, Qt::AlignLeft);
  best_->attachAxis(axisX_);
  best_->attachAxis(axisY_);
  auto* chartView = new QChartView(chart, this);
  chartView->setRenderHint(QPainter::Antialiasing);
  chartView->setMinimumHeight(120);

  log_ = new QPlainTextEdit(this);
  log_->setReadOnly(true);
  log_->setMaximumBlockCount(5000);
  log_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));

  // The form, the chart and the log share the dock's height through a
  // splitter; the whole scrolls when the dock is smaller than its content, so
  // the dock never forces a window taller than a laptop screen (issue 18).
  auto* controls = new QWidget;
  auto* controlsLayout = new QVBoxLayout(controls);
  controlsLayout->setContentsMargins(0, 0, 0, 0);
  controlsLayout->addLayout(form);
  controlsLayout->addLayout(buttons);
  controlsLayout->addWidget(problem_);
  controlsLayout->addWidget(progress_);
  controlsLayout->addWidget(progressText_);
  controlsLayout->addWidget(chartView, 1);
  auto* split = new QSplitter(Qt::Vertical);
  split->setObjectName(QStringLiteral("runControlSplitter"));
  split->setChildrenCollapsible(false);
  split->addWidget(controls);
  split->addWidget(log_);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  log_->setMinimumHeight(60);
  auto* scroll = new QScrollArea(this);
  scroll->setObjectName(QStringLiteral("runControlScroll"));
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setWidgetResizable(true);
  scroll->setWidget(split);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(scroll);

  connect(start_, &QPushButton::clicked, this, [this] {
    if (startProblem().isEmpty()) emit startRequested(request());
  });
  connect(pause_, &QPushButton::clicked, this, &RunControlView::pauseRequested);
  connect(resume_, &QPushButton::clicked, this, &RunControlView::resumeRequested);
  connect(stop_, &QPushButton::clicked, this, &RunControlView::stopRequested);
  connect(task_, &QComboBox::currentIndexChanged, this, &RunControlView::updateButtons);
  connect(task_, &QComboBox::currentIndexChanged, this, &RunControlView::checkStartingKernels);
  connect(addKernel_, &QPushButton::clicked, this, &RunControlView::askForStartingKernel);
  connect(tuneKernel_, &QPushButton::clicked, this, &RunControlView::askForTuneFile);
  connect(removeKernel_, &QPushButton::clicked, this, [this] { removeStartingKernel(kernels_->currentRow()); });
  connect(chooseReference_, &QPushButton::clicked, this, &RunControlView::askForReferenceKernel);
  connect(clearReference_, &QPushButton::clicked, this, [this] { setReferenceKernel({}); });
  connect(kernels_, &QListWidget::currentRowChanged, this, &RunControlView::updateButtons);
  connect(checkWatcher_, &QFutureWatcherBase::finished, this, [this] {
    if (checkWatcher_->future().resultCount() == 0) return;  // a check overtaken by a newer one
    std::vector<StartingKernelCheck> found = checkWatcher_->result();
    // The reference kernel's check, when one is chosen, comes after the starting kernels'.
    referenceCheck_.reset();
    if (!referenceFile_.kernel.isEmpty() && !found.empty()) {
      referenceCheck_ = found.back();
      found.pop_back();
    }
    checks_ = QList<StartingKernelCheck>(found.begin(), found.end());
    checkedGeneration_ = checkGeneration_;
    showStartingKernels();
    showReferenceKernel();
    updateButtons();
    emit startingKernelsChecked();
  });
  connect(proposer_, &QComboBox::currentIndexChanged, this, &RunControlView::updateButtons);
  showReferenceKernel();
  connect(session_, &ProjectSession::currentRunChanged, this, &RunControlView::reload);
  connect(session_, &ProjectSession::projectOpened, this, &RunControlView::reload);
  connect(session_, &ProjectSession::projectClosed, this, &RunControlView::reload);
  connect(session_, &ProjectSession::logChanged, this, [this](const std::vector<LogLine>& added, bool reset) {
    if (reset) {
      log_->clear();
      lastLogId_ = 0;
    }
    appendLog(added);
  });
  connect(session_, &ProjectSession::candidatesChanged, this, &RunControlView::loadChart);
  connect(session_, &ProjectSession::runsChanged, this, [this] {
    // A task imported (from the GUI or another process) is offered at once (issue 18).
    refreshTasks();
    // The engine commits its counters as it goes: show them even without progress slots.
    const auto run = logRun_ ? session_->run(logRun_) : std::nullopt;
    if (!run) return;
    const double left = run->budget.wallSeconds > 0 ? std::max(0.0, run->budget.wallSeconds - run->wallSecondsUsed) : -1;
    setProgress(run->evaluationsDone, run->budget.evaluations, run->bestSpeedup, left);
    // A status the store changed (a run ended, another process started one)
    // is shown; one it merely repeats never overrides the engine's events.
    if (run->status != storedStatus_) {
      storedStatus_ = run->status;
      setRunState(run->status);
    }
  });
  reload();
}

void RunControlView::setProposers(const QStringList& proposers) {
  QList<ProposerChoice> choices;
  for (const QString& p : proposers) choices.append({p, p, {}, {}});
  setProposerChoices(choices);
}

void RunControlView::setProposerChoices(const QList<ProposerChoice>& choices) {
  const QString current = proposer_->currentData().toString();
  {
    const QSignalBlocker block(proposer_);
    proposer_->clear();
    auto* items = qobject_cast<QStandardItemModel*>(proposer_->model());
    QStringList problems;
    for (const ProposerChoice& c : choices) {
      proposer_->addItem(c.label, c.id);
      if (c.problem.isEmpty()) continue;
      const QString why = c.hint.isEmpty() ? tr("%1 cannot be chosen: %2").arg(c.label, c.problem)
                                           : tr("%1 cannot be chosen: %2 %3").arg(c.label, c.problem, c.hint);
      problems << why;
      if (QStandardItem* item = items ? items->item(proposer_->count() - 1) : nullptr) {
        item->setEnabled(false);
        item->setToolTip(why);
      }
    }
    proposerProblem_->setText(problems.join(QLatin1Char('\n')));
    proposerProblem_->setVisible(!problems.isEmpty());
    // The entry chosen before while it can still be chosen, else the first that can.
    int chosen = -1;
    for (int i = 0; i < proposer_->count(); ++i)
      if (choices[i].problem.isEmpty() && proposer_->itemData(i).toString() == current) chosen = i;
    if (chosen < 0)
      for (int i = 0; i < proposer_->count() && chosen < 0; ++i)
        if (choices[i].problem.isEmpty()) chosen = i;
    proposer_->setCurrentIndex(chosen);
  }
  updateButtons();
}

QString RunControlView::proposerProblem() const { return proposerProblem_->text(); }

void RunControlView::setBuiltinTasks(const QStringList& names, const QStringList& specFiles) {
  builtinTasks_ = names;
  builtinSpecFiles_ = specFiles.size() == names.size() ? specFiles : QStringList();
  reload();
}

void RunControlView::setEvaluationProblem(const QString& why) {
  evaluationProblem_ = why;
  updateButtons();
}

RunRequest RunControlView::request() const {
  RunRequest r;
  r.task = task_->currentData().toLongLong();
  if (r.task == 0) r.builtinTask = task_->currentData(Qt::UserRole + 1).toString();
  r.proposer = proposer_->currentData().toString();
  r.budget.evaluations = evaluations_->value();
  r.budget.wallSeconds = wallMinutes_->value() * 60;
  r.budget.gpuSeconds = gpuMinutes_->value() * 60;
  r.gated = gated_->isChecked();
  r.startingKernels = kernelFiles_;
  r.referenceKernel = referenceFile_;
  return r;
}

QString RunControlView::startProblem() const {
  if (!session_->isOpen()) return tr("No project open.");
  if (!evaluationProblem_.isEmpty()) return evaluationProblem_;
  if (task_->count() == 0) return tr("This project has no tasks: add a task before starting a run.");
  if (proposer_->count() == 0 || proposer_->currentIndex() < 0) {
    const QString why = proposerProblem();
    return why.isEmpty() ? tr("No proposer is available.") : why;
  }
  if (state_ == RunStatus::Running || state_ == RunStatus::Paused) return tr("A run is in progress: stop it first.");
  if (!kernelFiles_.isEmpty()) {
    if (!checker_) return tr("Starting kernels cannot be checked here.");
    if (checkingStartingKernels()) return tr("Checking the starting kernels against the task...");
    for (const StartingKernelCheck& c : checks_)
      if (!c.problem.isEmpty()) return tr("Starting kernel '%1' cannot start this run: %2").arg(c.name, c.problem);
  }
  if (!referenceFile_.kernel.isEmpty()) {
    if (!checker_) return tr("A reference kernel cannot be checked here.");
    if (checkingStartingKernels()) return tr("Checking the reference kernel against the task...");
    if (referenceCheck_ && !referenceCheck_->problem.isEmpty())
      return tr("Reference kernel '%1' cannot be this run's reference: %2").arg(referenceCheck_->name, referenceCheck_->problem);
  }
  return {};
}

int RunControlView::chartPointCount() const { return best_->count(); }
QString RunControlView::logText() const { return log_->toPlainText(); }

void RunControlView::fillTasks() {
  const QSignalBlocker block(task_);
  task_->clear();
  if (!session_->isOpen()) return;
  for (const Task& t : session_->tasks()) task_->addItem(QString::fromStdString(t.name), QVariant::fromValue<qlonglong>(t.id));
  for (const QString& name : builtinTasks_) {
    if (task_->findText(name) >= 0) continue;  // already in the project
    task_->addItem(tr("%1 (built-in)").arg(name), QVariant::fromValue<qlonglong>(0));
    task_->setItemData(task_->count() - 1, name, Qt::UserRole + 1);
  }
}

void RunControlView::refreshTasks() {
  // Only when the project's tasks changed: the user's choice stays (by id, or by
  // name when a built-in was chosen and is now the project's own).
  QList<qlonglong> shown, now;
  for (int i = 0; i < task_->count(); ++i)
    if (const qlonglong id = task_->itemData(i).toLongLong()) shown << id;
  if (session_->isOpen())
    for (const Task& t : session_->tasks()) now << t.id;
  if (shown == now) return;
  const QVariant chosen = task_->currentData();
  const QString chosenName = task_->currentData(Qt::UserRole + 1).toString();
  fillTasks();
  int i = chosen.toLongLong() != 0 ? task_->findData(chosen) : task_->findText(chosenName);
  if (i >= 0) {
    const QSignalBlocker block(task_);
    task_->setCurrentIndex(i);
  }
  updateButtons();
}

void RunControlView::reload() {
  const bool store = session_->isOpen();
  const QVariant chosen = task_->currentData();
  fillTasks();
  state_.reset();
  log_->clear();
  lastLogId_ = 0;
  logRun_ = session_->currentRun();
  progress_->setRange(0, 1);
  progress_->setValue(0);
  progressText_->setText(store && logRun_ ? QString() : tr("No run yet."));
  if (store && logRun_) {
    if (const auto run = session_->run(logRun_)) {
      const int i = task_->findData(QVariant::fromValue<qlonglong>(run->taskId));
      if (i >= 0) task_->setCurrentIndex(i);
      state_ = run->status;
      storedStatus_ = run->status;
      const double left = run->budget.wallSeconds > 0 ? std::max(0.0, run->budget.wallSeconds - run->wallSecondsUsed) : -1;
      setProgress(run->evaluationsDone, run->budget.evaluations, run->bestSpeedup, left);
    }
  } else if (chosen.isValid()) {
    const int i = task_->findData(chosen);
    if (i >= 0) task_->setCurrentIndex(i);
  }
  loadChart();
  if (store && logRun_) appendLog(session_->log());
  // The chosen task (or its spec) may be another now.
  if (!kernelFiles_.isEmpty() || !referenceFile_.kernel.isEmpty()) checkStartingKernels();
  updateButtons();
}

void RunControlView::loadChart() {
  best_->clear();
  if (!session_->isOpen() || !logRun_ || logRun_ != session_->currentRun()) return;
  // Best-so-far speedup of the valid candidates, in the order they were recorded.
  qint64 n = 0;
  double best = 0;
  QList<QPointF> points;
  for (const CandidateSummary& s : session_->candidates()) {
    if (!evaluated(s.status)) continue;
    ++n;
    if (s.status == CandidateStatus::Valid && s.speedup > best) {
      best = s.speedup;
      points.append(QPointF(static_cast<double>(n), best));
    }
  }
  if (!points.isEmpty() && points.last().x() < n) points.append(QPointF(static_cast<double>(n), best));
  best_->replace(points);
  axisX_->setRange(0, std::max<qint64>(n, 1));
  axisY_->setRange(0, std::max(1.0, best * 1.1));
}

void RunControlView::setProgress(qint64 done, qint64 budget, double bestSpeedup, double secondsLeft) {
  if (budget > 0) {
    progress_->setRange(0, static_cast<int>(std::min<qint64>(budget, INT_MAX)));
    progress_->setValue(static_cast<int>(std::min(done, budget)));
  } else {
    progress_->setRange(0, 0);  // no evaluation limit: a busy indicator while running
  }
  QStringList parts;
  parts << (budget > 0 ? tr("%1 of %2 evaluations").arg(done).arg(budget) : tr("%1 evaluations").arg(done));
  parts << (bestSpeedup > 0 ? tr("best %1").arg(formatSpeedup(bestSpeedup)) : tr("no valid candidate yet"));
  if (secondsLeft >= 0) parts << tr("%1 left").arg(formatDuration(secondsLeft));
  progressText_->setText(parts.join(QStringLiteral(" · ")));
}

void RunControlView::addBestSpeedupPoint(qint64 evaluation, double bestSpeedup) {
  best_->append(static_cast<double>(evaluation), bestSpeedup);
  axisX_->setRange(0, std::max<double>(axisX_->max(), static_cast<double>(evaluation)));
  axisY_->setRange(0, std::max(axisY_->max(), bestSpeedup * 1.1));
}

void RunControlView::setRunState(RunStatus status) {
  state_ = status;
  updateButtons();
}

void RunControlView::updateButtons() {
  const bool running = state_ == RunStatus::Running;
  const bool paused = state_ == RunStatus::Paused;
  const QString problem = startProblem();
  start_->setEnabled(problem.isEmpty());
  pause_->setEnabled(running);
  resume_->setEnabled(paused);
  stop_->setEnabled(running || paused);
  for (QWidget* w : std::initializer_list<QWidget*>{task_, proposer_, evaluations_, wallMinutes_, gpuMinutes_, gated_})
    w->setEnabled(!running && !paused);
  addKernel_->setEnabled(!running && !paused && checker_ != nullptr);
  addKernel_->setToolTip(checker_ ? tr("Add a kernel of your own (.cu) to the run") : tr("Starting kernels cannot be checked here."));
  const bool chosen = kernels_->currentRow() >= 0;
  tuneKernel_->setEnabled(!running && !paused && chosen);
  removeKernel_->setEnabled(!running && !paused && chosen);
  chooseReference_->setEnabled(!running && !paused && checker_ != nullptr);
  chooseReference_->setToolTip(checker_ ? tr("Measure the run against a kernel of your own (.cu with its launch rule, as a "
                                             "starting kernel) instead of the task's seal or baseline")
                                        : tr("A reference kernel cannot be checked here."));
  clearReference_->setEnabled(!running && !paused && !referenceFile_.kernel.isEmpty());
  problem_->setText(running || paused ? QString() : problem);
  if (progress_->maximum() == 0 && !running) progress_->setRange(0, 1);
}

void RunControlView::appendLog(const std::vector<LogLine>& lines) {
  if (!logRun_ || logRun_ != session_->currentRun()) return;
  for (const LogLine& l : lines) {
    if (l.id <= lastLogId_) continue;
    const QString when = QDateTime::fromMSecsSinceEpoch(l.at).toString(QStringLiteral("HH:mm:ss"));
    // The engine's fixed messages in the user's language; its free-form details as written.
    QString line = QStringLiteral("%1 %2 %3").arg(when, EngineMessages::level(l.level).leftJustified(7),
                                                  EngineMessages::text(l.text));
    log_->appendPlainText(line);
    lastLogId_ = l.id;
  }
}

}  // namespace crucible::views
