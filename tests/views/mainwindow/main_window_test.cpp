// SPDX-License-Identifier: GPL-3.0-or-later
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QMenu>
#include <QMenuBar>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QHeaderView>
#include <QListWidget>
#include <QSignalSpy>
#include <QStackedWidget>
#include "core/model/kernel_export_bundle.h"
#include "views/mainwindow/shortcuts_dialog.h"
#include "views/mainwindow/welcome_page.h"
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QTabBar>
#include <QTableView>
#include <QTemporaryDir>
#include <gtest/gtest.h>
#include "crucible/version.h"
#include "tests/views/models/sample_project.h"
#include "views/mainwindow/filtered_table.h"
#include "views/mainwindow/host_info.h"
#include "views/mainwindow/main_window.h"
#include "views/compare/compare_view.h"
#include "views/vault/vault_view.h"
#include "views/lineage/lineage_view.h"
#include "views/details/details_model.h"
#include "views/mainwindow/recent_projects.h"
#include "views/mainwindow/table_columns.h"
#include "views/models/candidates_model.h"
#include <QDir>
#include <QFileInfo>
#include <QTableWidget>
#include "views/mainwindow/source_file.h"
#include "views/models/model_roles.h"
#include "views/models/status_filter_proxy.h"
#include "views/session/project_session.h"

using namespace crucible;
using namespace crucible::views;

namespace {

class MainWindowTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.isValid());
    // Keep the user's settings out of it: QSettings() writes into the temporary folder.
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir_.filePath(QStringLiteral("settings")));
    QCoreApplication::setOrganizationName(QStringLiteral("CrucibleTest"));
    QCoreApplication::setApplicationName(QStringLiteral("MainWindowTest"));
    path_ = dir_.filePath(QStringLiteral("sample.crucible"));
    runs_ = crucible::test_support::writeSampleProject(path_, {7, 14, 3});
    host_.statusLine = QStringLiteral("No CUDA driver found: review only.");
  }
  QString writeFile(const QString& name, const QByteArray& bytes) {
    const QString p = dir_.filePath(name);
    QFile f(p);
    EXPECT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(bytes);
    return p;
  }
  QTemporaryDir dir_;
  QString path_;
  std::vector<RunId> runs_;
  HostInfo host_;
};

TEST_F(MainWindowTest, TablesShowTheProjectAndFollowSelection) {
  MainWindow w(host_);
  EXPECT_EQ(w.tryOpenProject(path_), QString());
  EXPECT_TRUE(w.windowTitle().contains(QStringLiteral("sample.crucible")));
  QTableView* runs = w.runsTable();
  QTableView* candidates = w.candidatesTable();
  ASSERT_EQ(runs->model()->rowCount(), 3);
  // The newest run is current and its candidates are shown.
  EXPECT_EQ(runs->currentIndex().data(IdRole).toLongLong(), runs_[2]);
  EXPECT_EQ(candidates->model()->rowCount(), 3);

  // Choosing the second run in the table makes it the session's run.
  const QModelIndex second = runs->model()->match(runs->model()->index(0, 0), IdRole,
                                                  QVariant::fromValue<qlonglong>(runs_[1]))
                                 .value(0);
  ASSERT_TRUE(second.isValid());
  runs->setCurrentIndex(second);
  EXPECT_EQ(w.session()->currentRun(), runs_[1]);
  ASSERT_EQ(candidates->model()->rowCount(), 14);

  // Choosing a candidate selects it for every view.
  const QModelIndex fifth = candidates->model()->index(4, 0);
  candidates->setCurrentIndex(fifth);
  EXPECT_EQ(w.session()->selectedCandidate(), fifth.data(IdRole).toLongLong());

  // A selection made elsewhere (another view) moves the table's current row.
  const CandidateId other = candidates->model()->index(9, 0).data(IdRole).toLongLong();
  w.session()->selectCandidate(other);
  EXPECT_EQ(candidates->currentIndex().data(IdRole).toLongLong(), other);
}

TEST_F(MainWindowTest, FilterWidgetsDriveTheProxy) {
  MainWindow w(host_);
  ASSERT_EQ(w.tryOpenProject(path_), QString());
  w.session()->setCurrentRun(runs_[1]);
  FilteredTable* panel = w.candidatesPanel();
  const int valid = panel->statusFilter()->findData(QStringLiteral("valid"));
  ASSERT_GE(valid, 0);
  panel->statusFilter()->setCurrentIndex(valid);
  EXPECT_EQ(w.candidatesTable()->model()->rowCount(), 8);
  panel->textFilter()->setText(QStringLiteral("arch-e"));
  EXPECT_EQ(w.candidatesTable()->model()->rowCount(), 2);
  panel->statusFilter()->setCurrentIndex(0);
  panel->textFilter()->clear();
  EXPECT_EQ(w.candidatesTable()->model()->rowCount(), 14);
}

TEST_F(MainWindowTest, ANonProjectFileIsRefusedWithItsName) {
  const QString junk = writeFile(QStringLiteral("holiday-photo.png"), QByteArray(4096, '\x42'));
  MainWindow w(host_);
  const QString error = w.tryOpenProject(junk);
  EXPECT_TRUE(error.contains(QStringLiteral("holiday-photo.png"))) << error.toStdString();
  EXPECT_FALSE(w.session()->isOpen());

  const QString missing = w.tryOpenProject(dir_.filePath(QStringLiteral("gone.crucible")));
  EXPECT_TRUE(missing.contains(QStringLiteral("gone.crucible"))) << missing.toStdString();

  // A failed open keeps the project that was open.
  ASSERT_EQ(w.tryOpenProject(path_), QString());
  EXPECT_FALSE(w.tryOpenProject(junk).isEmpty());
  EXPECT_EQ(w.session()->path(), path_);
  EXPECT_EQ(w.runsTable()->model()->rowCount(), 3);
}

TEST_F(MainWindowTest, EveryDockHasAViewAndANameForSaveState) {
  MainWindow w(host_);
  for (QDockWidget* dock : w.findChildren<QDockWidget*>()) {
    EXPECT_NE(dock->widget(), nullptr) << dock->objectName().toStdString();
    EXPECT_FALSE(dock->objectName().isEmpty());
    EXPECT_FALSE(dock->windowTitle().isEmpty());
  }
}

TEST_F(MainWindowTest, LayoutIsSavedAndRestored) {
  QString hiddenDock;
  {
    MainWindow w(host_);
    w.resize(1500, 980);
    const auto docks = w.findChildren<QDockWidget*>();
    if (!docks.isEmpty()) {
      docks.front()->hide();
      hiddenDock = docks.front()->objectName();
    }
    w.saveLayout();
  }
  QSettings settings;
  EXPECT_FALSE(settings.value(QStringLiteral("mainWindow/geometry")).toByteArray().isEmpty());
  EXPECT_FALSE(settings.value(QStringLiteral("mainWindow/state")).toByteArray().isEmpty());
  MainWindow restored(host_);
  restored.restoreLayout();
  EXPECT_EQ(restored.size(), QSize(1500, 980));
  if (!hiddenDock.isEmpty()) {
    auto* dock = restored.findChild<QDockWidget*>(hiddenDock);
    ASSERT_NE(dock, nullptr);
    EXPECT_TRUE(dock->isHidden()) << hiddenDock.toStdString() << " was hidden when the layout was saved";
  }
}

TEST_F(MainWindowTest, StatusBarSaysWhatTheMachineCanDo) {
  MainWindow w(host_);
  auto* label = w.findChild<QLabel*>(QStringLiteral("hostStatus"));
  ASSERT_NE(label, nullptr);
  EXPECT_EQ(label->text(), host_.statusLine);
}

TEST(AboutText, NamesEveryVersion) {
  HostInfo none;
  none.statusLine = QStringLiteral("No CUDA driver found: review only.");
  const QString text = aboutText(none);
  EXPECT_TRUE(text.contains(QStringLiteral(CRUCIBLE_VERSION)));
  EXPECT_TRUE(text.contains(QString::fromLatin1(qVersion())));
  EXPECT_TRUE(text.contains(QStringLiteral("CUDA driver: not found")));
  EXPECT_TRUE(text.contains(QStringLiteral("GPUs: none")));

  HostInfo gpu;
  gpu.driverFound = true;
  gpu.driverVersion = QStringLiteral("13.0");
  gpu.gpus = {QStringLiteral("0: NVIDIA H200 (sm_90)")};
  const QString withGpu = aboutText(gpu);
  EXPECT_TRUE(withGpu.contains(QStringLiteral("CUDA driver: 13.0")));
  EXPECT_TRUE(withGpu.contains(QStringLiteral("NVIDIA H200 (sm_90)")));
}

TEST_F(MainWindowTest, ViewDocksAreFoundByTheirShortNames) {
  MainWindow w(host_);
  const QStringList names = w.viewNames();
  for (const QString& name : names) {
    QDockWidget* dock = w.viewDock(name);
    ASSERT_NE(dock, nullptr) << name.toStdString();
    EXPECT_NE(dock->widget(), nullptr) << name.toStdString();
  }
  const QStringList known = {QStringLiteral("archive"), QStringLiteral("compare"), QStringLiteral("details"),
                             QStringLiteral("diff"), QStringLiteral("knowledge"),
                             QStringLiteral("lineage"), QStringLiteral("review"), QStringLiteral("roofline"),
                             QStringLiteral("runcontrol"), QStringLiteral("vault")};
  for (const QString& name : names) EXPECT_TRUE(known.contains(name)) << name.toStdString();
  EXPECT_EQ(w.viewDock(QStringLiteral("no-such-view")), nullptr);
}

TEST_F(MainWindowTest, AppFileActionsGoAboveQuitAndACloseGuardCanKeepTheWindow) {
  MainWindow w(host_);
  auto* action = new QAction(QStringLiteral("Resume run"), &w);
  w.addFileAction(action);
  QMenu* file = w.menuBar()->actions().front()->menu();
  const QList<QAction*> actions = file->actions();
  const qsizetype at = actions.indexOf(action);
  ASSERT_GE(at, 0);
  EXPECT_TRUE(actions.back()->text().contains(QStringLiteral("Quit")));
  EXPECT_LT(at, actions.size() - 1);

  w.show();
  bool allow = false;
  int asked = 0;
  w.setCloseGuard([&] {
    ++asked;
    return allow;
  });
  EXPECT_FALSE(w.close());
  EXPECT_TRUE(w.isVisible());
  allow = true;
  EXPECT_TRUE(w.close());
  EXPECT_FALSE(w.isVisible());
  EXPECT_EQ(asked, 2);
}

QAction* actionNamed(QMenu* menu, const QString& text) {
  for (QAction* a : menu->actions())
    if (a->text() == text) return a;
  ADD_FAILURE() << "no action " << text.toStdString();
  return nullptr;
}

TEST_F(MainWindowTest, CandidateMenuSelectsComparesCopiesAndSaves) {
  MainWindow w(host_);
  ASSERT_EQ(w.tryOpenProject(path_), QString());
  w.session()->setCurrentRun(runs_[1]);
  const CandidateId id = w.candidatesTable()->model()->index(5, 0).data(IdRole).toLongLong();
  const CandidateId other = w.candidatesTable()->model()->index(2, 0).data(IdRole).toLongLong();
  ASSERT_NE(id, 0);
  w.session()->selectCandidate(other);
  std::unique_ptr<QMenu> menu(w.candidateContextMenu(id));

  QGuiApplication::clipboard()->clear();
  actionNamed(menu.get(), QStringLiteral("Copy candidate id"))->trigger();
  EXPECT_EQ(QGuiApplication::clipboard()->text(), QString::number(id));
  EXPECT_EQ(w.session()->selectedCandidate(), other) << "copying does not change the selection";

  actionNamed(menu.get(), QStringLiteral("Copy source"))->trigger();
  const auto stored = w.session()->store()->candidate(id);
  ASSERT_TRUE(stored);
  EXPECT_EQ(QGuiApplication::clipboard()->text(), QString::fromStdString(stored->source));

  // Save: the asker stands in for the dialog; the file holds the source verbatim.
  QString suggested;
  const QString target = dir_.filePath(QStringLiteral("saved.cu"));
  w.setSavePathAsker([&](const QString& name) {
    suggested = name;
    return target;
  });
  actionNamed(menu.get(), QStringLiteral("Save source as .cu…"))->trigger();
  EXPECT_EQ(suggested, QStringLiteral("candidate_%1.cu").arg(id));
  QFile saved(target);
  ASSERT_TRUE(saved.open(QIODevice::ReadOnly));
  EXPECT_EQ(saved.readAll().toStdString(), stored->source);

  // Compare with parent: selects the candidate and brings the Diff dock forward
  // (out of its tab group, and back from hidden).
  QDockWidget* diff = w.viewDock(QStringLiteral("diff"));
  if (!diff) GTEST_SKIP() << "no diff view in this build";
  w.resize(1600, 1000);
  w.show();
  diff->hide();
  actionNamed(menu.get(), QStringLiteral("Compare with parent"))->trigger();
  EXPECT_EQ(w.session()->selectedCandidate(), id);
  EXPECT_FALSE(diff->isHidden());
  EXPECT_TRUE(diff->widget()->isVisible());
  if (QDockWidget* lineage = w.viewDock(QStringLiteral("lineage"))) {
    // The dock in front of a tab group is its tab bar's current tab.
    auto frontTab = [&w] {
      for (QTabBar* bar : w.findChildren<QTabBar*>())
        for (int i = 0; i < bar->count(); ++i)
          if (bar->tabText(i) == QStringLiteral("Lineage")) return bar->tabText(bar->currentIndex());
      return QString();
    };
    const QList<QDockWidget*> siblings = w.tabifiedDockWidgets(lineage);
    ASSERT_FALSE(siblings.isEmpty());
    siblings.front()->raise();
    ASSERT_EQ(frontTab(), siblings.front()->windowTitle());
    actionNamed(menu.get(), QStringLiteral("Show in lineage"))->trigger();
    EXPECT_EQ(frontTab(), lineage->windowTitle());
    EXPECT_EQ(w.session()->selectedCandidate(), id);
  }
}

TEST_F(MainWindowTest, CandidateTableShortcutsActOnTheSelectedCandidate) {
  MainWindow w(host_);
  ASSERT_EQ(w.tryOpenProject(path_), QString());
  const CandidateId id = w.candidatesTable()->model()->index(1, 0).data(IdRole).toLongLong();
  w.session()->selectCandidate(id);
  QAction* copyId = nullptr;
  for (QAction* a : w.candidatesTable()->actions())
    if (a->shortcut() == QKeySequence(QKeySequence::Copy)) copyId = a;
  ASSERT_NE(copyId, nullptr);
  QGuiApplication::clipboard()->clear();
  copyId->trigger();
  EXPECT_EQ(QGuiApplication::clipboard()->text(), QString::number(id));
  EXPECT_EQ(w.candidatesTable()->contextMenuPolicy(), Qt::CustomContextMenu);
}

TEST_F(MainWindowTest, ViewsRequestingAnotherViewRaiseItsDock) {
  MainWindow w(host_);
  QDockWidget* diff = w.viewDock(QStringLiteral("diff"));
  QDockWidget* lineage = w.viewDock(QStringLiteral("lineage"));
  if (!diff || !lineage) GTEST_SKIP() << "needs the lineage and diff views";
  w.show();
  diff->hide();
  // The lineage view's signal is connected by name: a renamed signal fails here.
  ASSERT_TRUE(QMetaObject::invokeMethod(lineage->widget(), "showViewRequested", Q_ARG(QString, QStringLiteral("diff"))));
  EXPECT_FALSE(diff->isHidden());
}

// The bundled sample (resources/sample), copied: the layout is measured on real figures.
QString copyOfSample(const QTemporaryDir& dir) {
  const QString copy = dir.filePath(QStringLiteral("sample-copy.crucible"));
  EXPECT_TRUE(QFile::copy(QStringLiteral(CRUCIBLE_SOURCE_DIR "/resources/sample/sample.crucible"), copy));
  return copy;
}

// Issue 18: on a 1366x768 laptop (about 1366x700 left for the window) the
// window fits, every dock is at least as large as it is useful, no header
// title is cut and the candidates' default columns all show.
TEST_F(MainWindowTest, TheLayoutFitsA1366x768Screen) {
  const QSize screen(1366, 700);
  MainWindow w(host_);
  ASSERT_EQ(w.tryOpenProject(copyOfSample(dir_)), QString());
  w.resize(screen);
  w.show();
  w.resetLayout();
  QApplication::processEvents();
  auto fits = [&](const char* when) {
    const QSize min = w.minimumSizeHint();
    EXPECT_LE(min.width(), screen.width()) << when;
    EXPECT_LE(min.height(), screen.height()) << when;
    EXPECT_EQ(w.size(), screen) << when << ": the window resized itself";
  };
  fits("after opening");
  // Selecting candidates must not widen the window (long labels, charts).
  for (const CandidateSummary& c : w.session()->candidates()) {
    w.session()->selectCandidate(c.id);
    QApplication::processEvents();
  }
  fits("after selecting every candidate");
  for (const QString& name : w.viewNames()) {
    QDockWidget* dock = w.viewDock(name);
    if (dock->isHidden()) continue;
    dock->raise();
    QApplication::processEvents();
    const QSize useful = MainWindow::minimumUsefulSize(name);
    EXPECT_GE(dock->width(), useful.width()) << name.toStdString() << " is narrower than it is useful";
    EXPECT_GE(dock->height(), useful.height()) << name.toStdString() << " is lower than it is useful";
  }
  for (QTableView* table : {w.candidatesTable(), w.runsTable()}) {
    QHeaderView* header = table->horizontalHeader();
    int total = 0;
    for (int c = 0; c < header->count(); ++c) {
      if (header->isSectionHidden(c)) continue;
      EXPECT_GE(header->sectionSize(c), header->sectionSizeHint(c))
          << table->objectName().toStdString() << ": the title of column " << c << " is cut";
      total += header->sectionSize(c);
    }
    EXPECT_LE(total, table->viewport()->width() + 1)
        << table->objectName().toStdString() << ": the default columns do not all show";
  }
}

TEST_F(MainWindowTest, ColumnsAreChosenFittedAndSavedPerUser) {
  {
    MainWindow w(host_);
    ASSERT_EQ(w.tryOpenProject(path_), QString());
    QHeaderView* header = w.candidatesTable()->horizontalHeader();
    EXPECT_TRUE(header->isSectionHidden(CandidatesModel::Proposer)) << "hidden by default";
    EXPECT_FALSE(header->isSectionHidden(CandidatesModel::Speedup));
    for (int c = 0; c < header->count(); ++c)
      if (!header->isSectionHidden(c)) {
        EXPECT_LE(header->sectionSize(c), std::max(TableColumns::kMaxFittedWidth, header->sectionSizeHint(c)));
      }
    header->setSectionHidden(CandidatesModel::Registers, true);
    header->resizeSection(CandidatesModel::Status, 150);
    w.saveLayout();
  }
  MainWindow again(host_);
  again.restoreLayout();
  ASSERT_EQ(again.tryOpenProject(path_), QString());
  QHeaderView* header = again.candidatesTable()->horizontalHeader();
  EXPECT_TRUE(header->isSectionHidden(CandidatesModel::Registers));
  EXPECT_EQ(header->sectionSize(CandidatesModel::Status), 150) << "the user's width was refitted";
  again.resetLayout();
  EXPECT_FALSE(header->isSectionHidden(CandidatesModel::Registers));
  EXPECT_TRUE(header->isSectionHidden(CandidatesModel::Proposer));
}

TEST_F(MainWindowTest, ResetLayoutBringsEveryDockBack) {
  MainWindow w(host_);
  w.resize(1366, 700);
  w.show();
  for (QDockWidget* d : w.findChildren<QDockWidget*>()) d->hide();
  w.resetLayoutAction()->trigger();
  for (const QString& name : w.viewNames())
    if (name != QLatin1String("editor")) {
      EXPECT_FALSE(w.viewDock(name)->isHidden()) << name.toStdString();
    }
}

TEST_F(MainWindowTest, TheWelcomePageShowsUntilAProjectIsOpenAndTheRecentListAtOnce) {
  MainWindow w(host_);
  EXPECT_TRUE(w.showsWelcome());
  EXPECT_FALSE(WelcomePage::samplePath().isEmpty()) << "the source tree's sample is not found";
  ASSERT_TRUE(w.openProject(path_));
  EXPECT_FALSE(w.showsWelcome());
  // File > Recent projects lists it at once, without a restart.
  QMenu* recent = nullptr;
  for (QAction* a : w.menuBar()->actions().front()->menu()->actions())
    if (a->menu() && a->text().contains(QStringLiteral("Recent"))) recent = a->menu();
  ASSERT_NE(recent, nullptr);
  EXPECT_TRUE(recent->isEnabled());
  ASSERT_FALSE(recent->actions().isEmpty());
  EXPECT_EQ(recent->actions().front()->toolTip(), QFileInfo(path_).absoluteFilePath());
  w.session()->close();
  EXPECT_TRUE(w.showsWelcome());
  EXPECT_TRUE(w.welcomePage()->recentList()->item(0)->text().contains(QStringLiteral("sample.crucible")));
}

TEST_F(MainWindowTest, EditMenuFindsCopiesComparesAndAsksForPreferences) {
  MainWindow w(host_);
  ASSERT_EQ(w.tryOpenProject(path_), QString());
  w.session()->setCurrentRun(runs_[1]);
  w.show();
  w.findAction()->trigger();
  EXPECT_EQ(w.focusWidget(), w.candidatesPanel()->textFilter());

  QSignalSpy compare(&w, &MainWindow::compareRequested);
  QTableView* table = w.candidatesTable();
  EXPECT_EQ(table->selectionMode(), QAbstractItemView::ExtendedSelection);
  table->selectionModel()->select(table->model()->index(1, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
  EXPECT_FALSE(w.compareAction()->isEnabled()) << "one candidate is no comparison";
  table->selectionModel()->select(table->model()->index(3, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
  ASSERT_TRUE(w.compareAction()->isEnabled());
  w.compareAction()->trigger();
  ASSERT_EQ(compare.count(), 1);
  const auto ids = compare[0][0].value<std::vector<CandidateId>>();
  EXPECT_EQ(ids.size(), 2u);
  // ... and the comparison dock shows both, side by side.
  auto* compareView = qobject_cast<CompareView*>(w.viewDock(QStringLiteral("compare"))->widget());
  ASSERT_NE(compareView, nullptr);
  EXPECT_TRUE(w.viewDock(QStringLiteral("compare"))->isVisible());
  ASSERT_EQ(compareView->model()->candidateCount(), 2);
  EXPECT_EQ(compareView->model()->headerData(1, Qt::Horizontal).toString(), QStringLiteral("#%1").arg(ids[0]));

  table->setFocus();
  QGuiApplication::clipboard()->clear();
  w.copyAction()->trigger();
  const QString copied = QGuiApplication::clipboard()->text();
  EXPECT_TRUE(copied.startsWith(QStringLiteral("Candidate\t"))) << copied.toStdString();
  EXPECT_EQ(copied.count(QLatin1Char('\n')), 3) << copied.toStdString();

  QSignalSpy prefs(&w, &MainWindow::preferencesRequested);
  w.preferencesAction()->trigger();
  EXPECT_EQ(prefs.count(), 1);
}

TEST_F(MainWindowTest, TheShortcutListComesFromTheActions) {
  MainWindow w(host_);
  auto* extra = new QAction(QStringLiteral("Frobnicate"), &w);
  extra->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_J));
  w.addAction(extra);
  const QList<ShortcutEntry> entries = shortcutEntries(&w);
  auto listed = [&](const QString& action) {
    for (const ShortcutEntry& e : entries)
      if (e.action == action) return e.keys;
    return QString();
  };
  EXPECT_FALSE(listed(QStringLiteral("Frobnicate")).isEmpty()) << "a new action is not listed";
  EXPECT_FALSE(listed(QStringLiteral("Find")).isEmpty());
  EXPECT_FALSE(listed(QStringLiteral("Compare with parent")).isEmpty());
  for (const ShortcutEntry& e : entries) EXPECT_FALSE(e.keys.isEmpty()) << e.action.toStdString();
  ShortcutsDialog dialog(&w);
  EXPECT_EQ(dialog.table()->rowCount(), entries.size());
}

// Candidates marked in the lineage (Ctrl-click) fill the comparison like the table's selection.
TEST_F(MainWindowTest, TheLineagesMarkedCandidatesAreCompared) {
  MainWindow w(host_);
  ASSERT_EQ(w.tryOpenProject(copyOfSample(dir_)), QString());
  std::vector<CandidateId> ids;
  for (const CandidateSummary& c : w.session()->candidates())
    if (c.status == CandidateStatus::Valid && ids.size() < 3) ids.push_back(c.id);
  ASSERT_EQ(ids.size(), 3u);
  auto* lineage = qobject_cast<LineageView*>(w.viewDock(QStringLiteral("lineage"))->widget());
  ASSERT_NE(lineage, nullptr);
  emit lineage->compareRequested(ids);
  auto* compareView = qobject_cast<CompareView*>(w.viewDock(QStringLiteral("compare"))->widget());
  ASSERT_NE(compareView, nullptr);
  EXPECT_EQ(compareView->model()->candidateCount(), 3);
}

// The vault's "Export kernel..." on a seal goes through the same export as the table's.
TEST_F(MainWindowTest, TheVaultExportsASealThroughTheSameDialog) {
  MainWindow w(host_);
  ASSERT_EQ(w.tryOpenProject(copyOfSample(dir_)), QString());
  std::vector<CandidateId> asked;
  w.setExportAsker([&](CandidateId id) -> std::optional<MainWindow::ExportChoice> {
    asked.push_back(id);
    return std::nullopt;  // the user cancels
  });
  auto* vault = qobject_cast<VaultView*>(w.viewDock(QStringLiteral("vault"))->widget());
  ASSERT_NE(vault, nullptr);
  emit vault->exportRequested(42);
  EXPECT_EQ(asked, std::vector<CandidateId>{42});
}

TEST_F(MainWindowTest, ExportKernelWritesTheCliBundle) {
  MainWindow w(host_);
  ASSERT_EQ(w.tryOpenProject(copyOfSample(dir_)), QString());
  CandidateId valid = 0;
  for (const CandidateSummary& c : w.session()->candidates())
    if (c.status == CandidateStatus::Valid) valid = c.id;
  ASSERT_NE(valid, 0);
  const QString out = dir_.filePath(QStringLiteral("export"));
  QStringList written;
  ASSERT_EQ(w.exportCandidate(valid, ExportFormat::Cu, out, &written), QString());
  // The same files, byte for byte, as core's bundle for that candidate.
  const auto c = w.session()->store()->candidate(valid);
  const auto run = w.session()->store()->run(c->runId);
  const auto task = w.session()->store()->task(run->taskId);
  ASSERT_TRUE(c && task);
  KernelExportInput in{*task, *c, std::nullopt, "NVIDIA H200"};
  const auto files = kernelExportFiles(in, ExportFormat::Cu);
  ASSERT_EQ(written.size(), qsizetype(files.size()));
  for (const ExportedFile& f : files) {
    QFile file(QDir(out).filePath(QString::fromStdString(f.path)));
    ASSERT_TRUE(file.open(QIODevice::ReadOnly)) << f.path;
    EXPECT_EQ(file.readAll().toStdString(), f.content) << f.path;
  }
  ASSERT_EQ(w.exportCandidate(valid, ExportFormat::FlashInfer, out), QString());
  EXPECT_TRUE(QFile::exists(QDir(out).filePath(QString::fromStdString(task->name) + QStringLiteral(".solution.json"))));
  // A candidate that failed is refused with the reason.
  for (const CandidateSummary& s : w.session()->candidates())
    if (s.status == CandidateStatus::CompileFailed || s.status == CandidateStatus::Invalid) {
      EXPECT_TRUE(w.exportCandidate(s.id, ExportFormat::Cu, out).contains(QStringLiteral("only a valid kernel")));
      break;
    }
}

TEST(SourceFile, WritesTheSourceAndNamesTheFileItCannotWrite) {
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("k.cu"));
  EXPECT_EQ(writeSourceFile(path, "__global__ void k() {}\n"), QString());
  QFile f(path);
  ASSERT_TRUE(f.open(QIODevice::ReadOnly));
  EXPECT_EQ(f.readAll(), QByteArray("__global__ void k() {}\n"));
  const QString bad = dir.filePath(QStringLiteral("no/such/dir/k.cu"));
  const QString error = writeSourceFile(bad, "x");
  EXPECT_TRUE(error.contains(bad)) << error.toStdString();
  EXPECT_EQ(suggestedSourceFileName(42), QStringLiteral("candidate_42.cu"));
}

class RecentProjectsTest : public ::testing::Test {
protected:
  QTemporaryDir dir_;
  QSettings settings_{dir_.filePath(QStringLiteral("recent.ini")), QSettings::IniFormat};  // after dir_
  QString touch(const QString& name) {
    const QString p = dir_.filePath(name);
    QFile f(p);
    EXPECT_TRUE(f.open(QIODevice::WriteOnly));
    return p;
  }
};

TEST_F(RecentProjectsTest, NewestFirstAtMostEightNoDuplicates) {
  RecentProjects recent(settings_);
  QStringList files;
  for (int i = 0; i < 10; ++i) files << touch(QStringLiteral("p%1.crucible").arg(i));
  for (const QString& f : files) recent.add(f);
  recent.add(files[5]);
  const QStringList list = recent.paths();
  ASSERT_EQ(list.size(), RecentProjects::kMaxEntries);
  EXPECT_EQ(list.front(), files[5]);
  EXPECT_EQ(list[1], files[9]);
  EXPECT_EQ(list.count(files[5]), 1);
  EXPECT_FALSE(list.contains(files[0]));
}

TEST_F(RecentProjectsTest, MissingFilesAreDropped) {
  RecentProjects recent(settings_);
  const QString kept = touch(QStringLiteral("kept.crucible"));
  const QString gone = touch(QStringLiteral("gone.crucible"));
  recent.add(kept);
  recent.add(gone);
  ASSERT_TRUE(QFile::remove(gone));
  EXPECT_EQ(recent.paths(), QStringList{kept});
  EXPECT_EQ(settings_.value(QStringLiteral("recentProjects")).toStringList(), QStringList{kept});
}

}  // namespace
