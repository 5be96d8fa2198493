// SPDX-License-Identifier: GPL-3.0-or-later
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QMenu>
#include <QMenuBar>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
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
#include "views/mainwindow/recent_projects.h"
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
  const QStringList known = {QStringLiteral("archive"), QStringLiteral("diff"), QStringLiteral("knowledge"),
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
