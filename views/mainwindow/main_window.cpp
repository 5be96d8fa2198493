// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/mainwindow/main_window.h"
#include "views/common/status_names.h"
#include "views/compare/compare_view.h"
#include "views/details/candidate_details_view.h"
#include <algorithm>
#include <functional>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDir>
#include <QFileDialog>
#include <QHeaderView>
#include <QInputDialog>
#include <QLineEdit>
#include <QSaveFile>
#include <QScreen>
#include <QStackedWidget>
#include <set>
#include <QFileInfo>
#include <QHash>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTableView>
#include "core/engine/run_settings.h"
#include "core/io/bounded_file.h"
#include "core/model/candidate.h"
#include "core/model/kernel_export_bundle.h"
#include "core/model/run.h"
#include "core/store/project_store.h"
#include "views/editor/kernel_editor_view.h"
#include "views/mainwindow/filtered_table.h"
#include "views/mainwindow/shortcuts_dialog.h"
#include "views/mainwindow/table_columns.h"
#include "views/mainwindow/welcome_page.h"
#include "views/mainwindow/recent_projects.h"
#include "views/mainwindow/source_file.h"
#include "views/mainwindow/view_docks.h"
#include "views/models/candidates_model.h"
#include "views/models/model_roles.h"
#include "views/models/runs_model.h"
#include "views/session/project_session.h"
#include "views/lineage/lineage_view.h"

namespace crucible::views {
namespace {
// The window's size without a saved one: this, or less to fit the screen.
constexpr QSize kDefaultWindowSize{1600, 1000};

// Each status's name as shown, and its token (what the models' StatusRole holds).
QList<QPair<QString, QString>> runStatusNames() {
  QList<QPair<QString, QString>> names;
  for (auto s : {RunStatus::Created, RunStatus::Running, RunStatus::Paused, RunStatus::Stopped,
                 RunStatus::Finished, RunStatus::Failed})
    names.append({statusName(s), QString::fromLatin1(toString(s))});
  return names;
}

QList<QPair<QString, QString>> candidateStatusNames() {
  QList<QPair<QString, QString>> names;
  for (auto s : {CandidateStatus::Proposed, CandidateStatus::AwaitingReview, CandidateStatus::Rejected,
                 CandidateStatus::Compiled, CandidateStatus::CompileFailed, CandidateStatus::Invalid,
                 CandidateStatus::Faulted, CandidateStatus::TimedOut, CandidateStatus::ResourceError,
                 CandidateStatus::Valid, CandidateStatus::Reference})
    names.append({statusName(s), QString::fromLatin1(toString(s))});
  return names;
}

struct CandidateActionSpec {
  MainWindow::CandidateAction action;
  const char* text;
  QKeySequence key;
};

// The candidates table's actions, in menu order, with their shortcuts.
const std::vector<CandidateActionSpec>& candidateActionSpecs() {
  using A = MainWindow::CandidateAction;
  static const std::vector<CandidateActionSpec> specs = {
      {A::CompareWithParent, QT_TRANSLATE_NOOP("crucible::views::MainWindow", "Compare with parent"),
       QKeySequence(Qt::CTRL | Qt::Key_D)},
      {A::ShowInLineage, QT_TRANSLATE_NOOP("crucible::views::MainWindow", "Show in lineage"),
       QKeySequence(Qt::CTRL | Qt::Key_L)},
      {A::CopyId, QT_TRANSLATE_NOOP("crucible::views::MainWindow", "Copy candidate id"), QKeySequence::Copy},
      {A::CopySource, QT_TRANSLATE_NOOP("crucible::views::MainWindow", "Copy source"),
       QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C)},
      {A::SaveSource, QT_TRANSLATE_NOOP("crucible::views::MainWindow", "Save source as .cu…"), QKeySequence::SaveAs},
      // No key of its own: Edit > Fork && edit carries Ctrl+E window-wide (one key, one action).
      {A::ForkAndEdit, QT_TRANSLATE_NOOP("crucible::views::MainWindow", "Fork && edit"), QKeySequence()},
      {A::ExportKernel, QT_TRANSLATE_NOOP("crucible::views::MainWindow", "Export kernel…"), QKeySequence()},
  };
  return specs;
}
}  // namespace

MainWindow::MainWindow(HostInfo host, QWidget* parent)
    : QMainWindow(parent),
      host_(std::move(host)),
      session_(new ProjectSession(this)),
      runsModel_(new RunsModel(session_, this)),
      candidatesModel_(new CandidatesModel(session_, this)),
      runs_(new FilteredTable(runsModel_, runStatusNames())),
      candidates_(new FilteredTable(candidatesModel_, candidateStatusNames())) {
  setObjectName(QStringLiteral("mainWindow"));
  runs_->view()->setObjectName(QStringLiteral("runsTable"));
  candidates_->view()->setObjectName(QStringLiteral("candidatesTable"));

  auto* splitter = new QSplitter(Qt::Vertical, this);
  splitter->setObjectName(QStringLiteral("centralSplitter"));
  splitter->addWidget(runs_);
  splitter->addWidget(candidates_);
  splitter->setStretchFactor(0, 1);
  splitter->setStretchFactor(1, 3);
  tables_ = splitter;
  // The candidates: several can be selected (to compare them); the current one is what every view shows.
  candidates_->setMultiSelection(true);
  // The columns that matter at the default size; the rest one right-click on the header away.
  candidates_->columns()->setDefaultHidden({CandidatesModel::Proposer});
  runs_->columns()->setDefaultHidden({RunsModel::Proposer, RunsModel::Created});
  welcome_ = new WelcomePage(this);
  centre_ = new QStackedWidget(this);
  centre_->setObjectName(QStringLiteral("centre"));
  centre_->addWidget(welcome_);
  centre_->addWidget(splitter);
  setCentralWidget(centre_);
  connect(welcome_, &WelcomePage::openRequested, this, &MainWindow::openProject);
  connect(welcome_, &WelcomePage::openDialogRequested, this, &MainWindow::openProjectDialog);
  connect(welcome_, &WelcomePage::newProjectRequested, this, &MainWindow::newProject);
  connect(welcome_, &WelcomePage::importTaskRequested, this, [this] {
    // Into the open project: the app's File > Import task... when it has one.
    for (QAction* a : fileMenu_->actions())
      if (a->objectName() == QLatin1String("importTaskAction") && a->isEnabled()) {
        if (!session_->isOpen()) {
          statusBar()->showMessage(tr("Open or create a project first: a task is imported into a project."), 10000);
          return openProjectDialog();
        }
        return a->trigger();
      }
    emit importTaskRequested();
  });
  connect(session_, &ProjectSession::projectOpened, this, &MainWindow::updateCentre);
  connect(session_, &ProjectSession::projectClosed, this, &MainWindow::updateCentre);
  connect(candidates_, &FilteredTable::selectionChanged, this, &MainWindow::updateCompareAction);

  connect(runs_, &FilteredTable::currentIdChanged, this, [this](qint64 id) {
    if (id != 0) session_->setCurrentRun(id);
  });
  connect(candidates_, &FilteredTable::currentIdChanged, session_, &ProjectSession::selectCandidate);
  connect(session_, &ProjectSession::currentRunChanged, runs_, &FilteredTable::selectId);
  connect(session_, &ProjectSession::candidateSelected, candidates_, &FilteredTable::selectId);
  connect(runsModel_, &QAbstractItemModel::modelReset, this,
          [this] { runs_->selectId(session_->currentRun()); });
  connect(candidatesModel_, &QAbstractItemModel::modelReset, this,
          [this] { candidates_->selectId(session_->selectedCandidate()); });
  connect(session_, &ProjectSession::projectOpened, this, &MainWindow::updateTitle);
  connect(session_, &ProjectSession::projectClosed, this, &MainWindow::updateTitle);
  // The editor's kernel joins a run of the project it came from, never of another one.
  connect(session_, &ProjectSession::projectOpened, this, [this] { editorRun_ = 0; });
  connect(session_, &ProjectSession::projectClosed, this, [this] { editorRun_ = 0; });
  for (auto signal : {&ProjectSession::projectOpened, &ProjectSession::projectClosed})
    connect(session_, signal, this, &MainWindow::updateEditorActions);
  connect(session_, &ProjectSession::candidateSelected, this, &MainWindow::updateEditorActions);
  connect(session_, &ProjectSession::currentRunChanged, this, &MainWindow::updateEditorActions);

  createMenus();
  createDocks();
  createCandidateShortcuts();

  hostLabel_ = new QLabel(host_.statusLine, this);
  hostLabel_->setObjectName(QStringLiteral("hostStatus"));
  // Elided by the status bar rather than widening the window (issue 18).
  hostLabel_->setMinimumWidth(0);
  hostLabel_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  hostLabel_->setToolTip(host_.statusLine);
  statusBar()->addPermanentWidget(hostLabel_, 1);
  updateTitle();
  updateCentre();
  updateCompareAction();
  // The size without a saved layout: the default, or less to fit the screen.
  QSize size = kDefaultWindowSize;
  if (const QScreen* screen = QGuiApplication::primaryScreen())
    size = size.boundedTo(screen->availableGeometry().size() * 0.92);
  resize(size);
  defaultState_ = saveState(kLayoutVersion);
  applyDefaultDockSizes();
}

bool MainWindow::showsWelcome() const { return centre_->currentWidget() == welcome_; }

void MainWindow::updateCentre() {
  // The docks stay: their views say "no project open"; the centre offers what to open.
  if (session_->isOpen()) {
    centre_->setCurrentWidget(tables_);
  } else {
    welcome_->refresh();
    centre_->setCurrentWidget(welcome_);
  }
}

void MainWindow::updateCompareAction() {
  const qsizetype n = candidates_->selectedIds().size();
  compare_->setEnabled(n >= 2);
  compare_->setToolTip(n >= 2 ? tr("Compare the %1 selected candidates").arg(n)
                              : tr("Select two or more candidates (Ctrl- or Shift-click) to compare them"));
}

MainWindow::~MainWindow() = default;

QTableView* MainWindow::runsTable() const { return runs_->view(); }
QTableView* MainWindow::candidatesTable() const { return candidates_->view(); }

void MainWindow::createMenus() {
  QMenu* file = fileMenu_ = menuBar()->addMenu(tr("&File"));
  file->addAction(tr("&New project…"), QKeySequence::New, this, &MainWindow::newProject);
  file->addAction(tr("&Open…"), QKeySequence::Open, this, &MainWindow::openProjectDialog);
  recentMenu_ = file->addMenu(tr("Recent projects"));
  connect(recentMenu_, &QMenu::aboutToShow, this, &MainWindow::rebuildRecentMenu);
  rebuildRecentMenu();
  file->addSeparator();
  openKernel_ = file->addAction(tr("Open &kernel…"), this, &MainWindow::openKernelDialog);
  openKernel_->setObjectName(QStringLiteral("openKernelAction"));
  exportKernel_ = file->addAction(tr("&Export kernel…"), this, [this] {
    if (const CandidateId id = session_->selectedCandidate()) exportKernelDialog(id);
  });
  exportKernel_->setObjectName(QStringLiteral("exportKernelAction"));
  exportKernel_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
  exportKernel_->setToolTip(tr("Write the selected candidate as a .cu with its launcher, a PyTorch extension or a "
                               "FlashInfer solution (as crucible-cli best --export)"));
  quitSeparator_ = file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

  editMenu_ = menuBar()->addMenu(tr("&Edit"));
  fork_ = editMenu_->addAction(tr("&Fork && edit"), this, [this] {
    if (const CandidateId id = session_->selectedCandidate()) forkCandidate(id);
  });
  fork_->setObjectName(QStringLiteral("forkAction"));
  fork_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
  editMenu_->addSeparator();
  // No key of its own: Ctrl+C belongs to the focused table (candidate id) or text field.
  copy_ = editMenu_->addAction(tr("&Copy"), this, &MainWindow::copySelection);
  copy_->setObjectName(QStringLiteral("copyAction"));
  copy_->setToolTip(tr("Copy the selected text, or the selected rows of a table as tab-separated text"));
  find_ = editMenu_->addAction(tr("&Find…"), this, [this] {
    FilteredTable* panel = runs_->view()->hasFocus() ? runs_ : candidates_;
    panel->textFilter()->setFocus(Qt::ShortcutFocusReason);
    panel->textFilter()->selectAll();
  });
  find_->setObjectName(QStringLiteral("findAction"));
  find_->setShortcut(QKeySequence::Find);
  compare_ = editMenu_->addAction(tr("Compare &selected"), this, [this] {
    std::vector<CandidateId> ids;
    for (qint64 id : candidates_->selectedIds()) ids.push_back(id);
    if (ids.size() >= 2) emit compareRequested(ids);
  });
  compare_->setObjectName(QStringLiteral("compareAction"));
  compare_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
  editMenu_->addSeparator();
  preferences_ = editMenu_->addAction(tr("&Preferences…"), this, &MainWindow::preferencesRequested);
  preferences_->setObjectName(QStringLiteral("preferencesAction"));
  preferences_->setShortcut(QKeySequence::Preferences);
  preferences_->setMenuRole(QAction::PreferencesRole);
  updateEditorActions();

  viewMenu_ = menuBar()->addMenu(tr("&View"));
  resetLayout_ = viewMenu_->addAction(tr("&Reset layout"), this, &MainWindow::resetLayout);
  resetLayout_->setObjectName(QStringLiteral("resetLayoutAction"));
  viewMenu_->addSeparator();

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  shortcuts_ = help->addAction(tr("&Keyboard shortcuts"), this, &MainWindow::showShortcuts);
  shortcuts_->setObjectName(QStringLiteral("shortcutsAction"));
  shortcuts_->setShortcut(QKeySequence::HelpContents);
  help->addAction(tr("&About Crucible"), this, &MainWindow::showAbout);
  help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::createDocks() {
  setDockNestingEnabled(true);
  QHash<QString, QDockWidget*> firstOfGroup;
  for (const ViewDock& d : createViewDocks(session_, this)) {
    auto* dock = new QDockWidget(d.title, this);
    dock->setObjectName(d.objectName);
    dock->setWidget(d.widget);
    viewDocks_.insert(d.viewName, dock);
    // Views that offer to show another view (a context menu's "Compare with parent") ask
    // through this signal; it is optional, so views stay independent of the main window.
    if (d.widget->metaObject()->indexOfSignal("showViewRequested(QString)") >= 0)
      connect(d.widget, SIGNAL(showViewRequested(QString)), this, SLOT(raiseView(QString)));
    // Likewise a view's own "Fork && edit" (lineage, vault, review: optional) opens the kernel editor.
    if (d.widget->metaObject()->indexOfSignal("forkRequested(crucible::CandidateId)") >= 0)
      connect(d.widget, SIGNAL(forkRequested(crucible::CandidateId)), this, SLOT(forkCandidate(crucible::CandidateId)));
    // ... candidates marked in a view (the lineage's Ctrl-click) are compared like the table's selection.
    if (d.widget->metaObject()->indexOfSignal("compareRequested(std::vector<crucible::CandidateId>)") >= 0)
      connect(d.widget, SIGNAL(compareRequested(std::vector<crucible::CandidateId>)), this,
              SIGNAL(compareRequested(std::vector<crucible::CandidateId>)));
    // ... and its "Export kernel..." (the vault: a seal) writes the same bundles as the table's.
    if (d.widget->metaObject()->indexOfSignal("exportRequested(crucible::CandidateId)") >= 0)
      connect(d.widget, SIGNAL(exportRequested(crucible::CandidateId)), this, SLOT(exportKernelDialog(crucible::CandidateId)));
    addDockWidget(d.area, dock);
    // Tabs keep the default layout within a 1600x1000 window; users re-arrange and saveState keeps it.
    if (QDockWidget* first = firstOfGroup.value(d.tabGroup))
      tabifyDockWidget(first, dock);
    else
      firstOfGroup.insert(d.tabGroup, dock);
    viewMenu_->addAction(dock->toggleViewAction());
  }
  for (QDockWidget* first : std::as_const(firstOfGroup)) first->raise();
  // The details dock is the right-hand group's first tab; Compare selected fills
  // the comparison (its tab beside it) and raises it.
  if (QDockWidget* details = viewDocks_.value(QStringLiteral("details"))) details->raise();
  if (auto* compare = qobject_cast<CompareView*>(viewDocks_.value(QStringLiteral("compare"))
                                                     ? viewDocks_.value(QStringLiteral("compare"))->widget()
                                                     : nullptr))
    connect(this, &MainWindow::compareRequested, this, [this, compare](const std::vector<CandidateId>& ids) {
      compare->compare(ids);
      raiseView(QStringLiteral("compare"));
    });
  viewMenu_->setEnabled(!viewMenu_->isEmpty());
}

QStringList MainWindow::viewNames() const {
  QStringList names = viewDocks_.keys();
  names.sort();
  return names;
}

QDockWidget* MainWindow::viewDock(const QString& viewName) const { return viewDocks_.value(viewName); }

void MainWindow::raiseView(const QString& viewName) {
  if (QDockWidget* dock = viewDocks_.value(viewName)) {
    dock->show();
    dock->raise();
  }
}

void MainWindow::createCandidateShortcuts() {
  // The table's keyboard shortcuts act on the selected candidate, which is the table's current row.
  QTableView* table = candidatesTable();
  for (const CandidateActionSpec& spec : candidateActionSpecs()) {
    auto* action = new QAction(tr(spec.text), table);
    action->setShortcut(spec.key);
    action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(action, &QAction::triggered, this, [this, a = spec.action] {
      if (const CandidateId id = session_->selectedCandidate()) runCandidateAction(a, id);
    });
    table->addAction(action);
  }
  table->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(table, &QWidget::customContextMenuRequested, this, [this, table](const QPoint& pos) {
    const CandidateId id = table->indexAt(pos).data(IdRole).toLongLong();
    if (id == 0) return;
    // Without a parent: a popup child of the table would make its keys ambiguous with the table's.
    QMenu* menu = candidateContextMenu(id);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(table->viewport()->mapToGlobal(pos));
  });
}

QMenu* MainWindow::candidateContextMenu(CandidateId id, QWidget* parent) {
  auto* menu = new QMenu(parent);
  if (compare_->isEnabled()) {
    menu->addAction(compare_);
    menu->addSeparator();
  }
  // The details view shows every figure as a difference against a baseline candidate.
  if (auto* details = viewDocks_.value(QStringLiteral("details"))
                          ? qobject_cast<CandidateDetailsView*>(viewDocks_.value(QStringLiteral("details"))->widget())
                          : nullptr) {
    menu->addAction(tr("Set as baseline for details"), this, [this, details, id] {
      details->setBaseline(id);
      raiseView(QStringLiteral("details"));
    });
    menu->addSeparator();
  }
  for (const CandidateActionSpec& spec : candidateActionSpecs()) {
    QAction* action = menu->addAction(tr(spec.text), this, [this, a = spec.action, id] { runCandidateAction(a, id); });
    // Shown as a hint; the table's own actions handle the keys.
    action->setShortcut(spec.key);
    action->setShortcutContext(Qt::WidgetShortcut);
    if (spec.action == CandidateAction::ShowInLineage) action->setEnabled(viewDocks_.contains(QStringLiteral("lineage")));
    if (spec.action == CandidateAction::CompareWithParent) action->setEnabled(viewDocks_.contains(QStringLiteral("diff")));
    if (spec.action == CandidateAction::ExportKernel) action->setShortcut(exportKernel_->shortcut());
    if (spec.action == CandidateAction::ForkAndEdit) {
      action->setEnabled(editor_ != nullptr);
      action->setShortcut(fork_->shortcut());  // the hint of Edit > Fork && edit's key
    }
  }
  return menu;
}

void MainWindow::runCandidateAction(CandidateAction action, CandidateId id) {
  // The source is read off the GUI thread during a run; then acted on.
  auto withSource = [this, id](std::function<void(const std::string&)> use) {
    session_->read(
        this, [id](const ProjectStore& store) { return store.candidate(id); },
        [this, id, use = std::move(use)](std::optional<Candidate> c) {
          if (!c) return statusBar()->showMessage(tr("Candidate #%1 is not in this project.").arg(id), 10000);
          use(c->source);
        });
  };
  switch (action) {
    case CandidateAction::CompareWithParent:
      session_->selectCandidate(id);  // the diff view shows the selected candidate against its first parent
      raiseView(QStringLiteral("diff"));
      break;
    case CandidateAction::ShowInLineage:
      raiseView(QStringLiteral("lineage"));
      if (QDockWidget* dock = viewDocks_.value(QStringLiteral("lineage")))
        if (auto* lineage = qobject_cast<LineageView*>(dock->widget())) {
          // Selected first, so a lineage still being laid out marks it when it is drawn.
          session_->selectCandidate(id);
          lineage->findCandidate(id);  // says in its status line why when it is filtered out
        }
      break;
    case CandidateAction::ForkAndEdit:
      forkCandidate(id);
      break;
    case CandidateAction::ExportKernel:
      exportKernelDialog(id);
      break;
    case CandidateAction::CopyId:
      QGuiApplication::clipboard()->setText(QString::number(id));
      break;
    case CandidateAction::CopySource:
      withSource([](const std::string& text) { QGuiApplication::clipboard()->setText(QString::fromStdString(text)); });
      break;
    case CandidateAction::SaveSource: {
      withSource([this, id](const std::string& text) {
        const QString suggested = suggestedSourceFileName(id);
        const QString path = askSavePath_ ? askSavePath_(suggested)
                                          : QFileDialog::getSaveFileName(this, tr("Save source of #%1").arg(id), suggested,
                                                                         tr("CUDA source (*.cu)"));
        if (path.isEmpty()) return;
        const QString error = writeSourceFile(path, text);
        if (!error.isEmpty()) QMessageBox::warning(this, tr("Cannot save source"), error);
        else statusBar()->showMessage(tr("Saved the source of #%1 to %2.").arg(id).arg(path), 10000);
      });
      break;
    }
  }
}

void MainWindow::addFileAction(QAction* action) { fileMenu_->insertAction(quitSeparator_, action); }

void MainWindow::rebuildRecentMenu() {
  recentMenu_->clear();
  QSettings settings;
  const QStringList paths = RecentProjects(settings).paths();
  for (const QString& path : paths) {
    QAction* a = recentMenu_->addAction(QFileInfo(path).fileName(), this, [this, path] { openProject(path); });
    a->setToolTip(path);
    a->setStatusTip(path);
  }
  if (!paths.isEmpty()) {
    recentMenu_->addSeparator();
    recentMenu_->addAction(tr("Clear list"), this, [this] {
      {
        QSettings s;
        RecentProjects(s).clear();
      }
      rebuildRecentMenu();
      welcome_->refresh();
    });
  }
  recentMenu_->setEnabled(!paths.isEmpty());
}

void MainWindow::updateTitle() {
  if (session_->isOpen())
    setWindowTitle(tr("%1 — Crucible").arg(QFileInfo(session_->path()).fileName()));
  else
    setWindowTitle(tr("Crucible"));
}

QString MainWindow::tryOpenProject(const QString& path) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  if (!QFileInfo(absolute).isFile()) return tr("Cannot open %1: no such file.").arg(absolute);
  try {
    session_->open(absolute);
  } catch (const std::exception& e) {
    // The store's message says why; name the file in case it does not.
    const QString why = QString::fromStdString(e.what());
    return why.contains(absolute) ? why : tr("Cannot open %1: %2").arg(absolute, why);
  }
  const int runs = runsModel_->rowCount();
  QString message = tr("Opened %1: %n run(s).", nullptr, runs).arg(absolute);
  // Review on read-only storage works; say so at once rather than when something is refused.
  if (const std::string why = ProjectStore::writeProblem(absolute.toStdString()); !why.empty())
    message += QLatin1Char(' ') + tr("Read-only: %1.").arg(QString::fromStdString(why));
  statusBar()->showMessage(message, 10000);
  return {};
}

bool MainWindow::openProject(const QString& path) {
  const QString error = tryOpenProject(path);
  QSettings settings;
  RecentProjects recent(settings);
  if (!error.isEmpty()) {
    QMessageBox box(QMessageBox::Critical, tr("Cannot open project"),
                    tr("%1 is not a project Crucible can open.").arg(QFileInfo(path).fileName()), QMessageBox::Ok,
                    this);
    box.setInformativeText(error);
    box.exec();
    recent.remove(path);
    rebuildRecentMenu();
    welcome_->refresh();
    return false;
  }
  recent.add(session_->path());
  rebuildRecentMenu();  // at once: the menu is disabled while empty, so aboutToShow would never refill it
  welcome_->refresh();
  return true;
}

void MainWindow::newProject() {
  QString path = QFileDialog::getSaveFileName(this, tr("New project"), QString(),
                                              tr("Crucible projects (*.crucible)"), nullptr,
                                              QFileDialog::DontConfirmOverwrite);
  if (path.isEmpty()) return;
  if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".crucible");
  try {
    ProjectStore::create(path.toStdString());  // creates the schema; closed at once, reopened read-only below
  } catch (const std::exception& e) {
    QMessageBox::critical(this, tr("Cannot create project"), QString::fromStdString(e.what()));
    return;
  }
  openProject(path);
}

void MainWindow::openProjectDialog() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Open project"), QString(),
                                                    tr("Crucible projects (*.crucible);;All files (*)"));
  if (!path.isEmpty()) openProject(path);
}

void MainWindow::showAbout() { QMessageBox::about(this, tr("About Crucible"), aboutText(host_)); }

void MainWindow::showShortcuts() {
  ShortcutsDialog dialog(this, this);
  dialog.exec();
}

void MainWindow::copySelection() {
  QWidget* focus = QApplication::focusWidget();
  if (auto* line = qobject_cast<QLineEdit*>(focus)) return line->copy();
  if (focus && focus->metaObject()->indexOfSlot("copy()") >= 0) {
    QMetaObject::invokeMethod(focus, "copy");
    return;
  }
  // A table: its selected rows as tab-separated text, visible columns in their order, titles first.
  QTableView* table = qobject_cast<QTableView*>(focus);
  if (!table) table = candidatesTable();
  QHeaderView* header = table->horizontalHeader();
  QStringList lines, titles;
  QList<int> columns;
  for (int v = 0; v < header->count(); ++v) {
    const int c = header->logicalIndex(v);
    if (header->isSectionHidden(c)) continue;
    columns << c;
    titles << table->model()->headerData(c, Qt::Horizontal).toString();
  }
  lines << titles.join(QLatin1Char('\t'));
  QModelIndexList rows = table->selectionModel()->selectedRows();
  std::sort(rows.begin(), rows.end(), [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
  for (const QModelIndex& row : rows) {
    QStringList cells;
    for (int c : columns) cells << row.sibling(row.row(), c).data().toString();
    lines << cells.join(QLatin1Char('\t'));
  }
  if (rows.isEmpty()) return statusBar()->showMessage(tr("Nothing selected to copy."), 5000);
  QGuiApplication::clipboard()->setText(lines.join(QLatin1Char('\n')) + QLatin1Char('\n'));
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (closeGuard_ && !closeGuard_()) {
    event->ignore();
    return;
  }
  if (persistLayout_) saveLayout();
  QMainWindow::closeEvent(event);
}

}  // namespace crucible::views
