// SPDX-License-Identifier: GPL-3.0-or-later
// Runs the built `crucible` executable the way users, documentation and CI do.
#include <QImage>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <gtest/gtest.h>
#include <QComboBox>
#include <QSettings>
#include "app/gui/run_coordinator.h"
#include "app/gui/task_import.h"
#include "crucible/version.h"
#include "tests/app/engine_doubles.h"
#include "tests/views/models/sample_project.h"
#include "views/mainwindow/main_window.h"
#include "views/runcontrol/run_control_view.h"

namespace {

struct Result {
  int exitCode = -1;
  QString out, err;
};

// Without a display: the tests must pass on a headless CI machine.
Result runCrucible(const QStringList& args, bool offscreen = true) {
  QProcess p;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  if (offscreen)
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
  else
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
  env.remove(QStringLiteral("DISPLAY"));
  env.remove(QStringLiteral("WAYLAND_DISPLAY"));
  p.setProcessEnvironment(env);
  p.start(QStringLiteral(CRUCIBLE_GUI_EXE), args);
  EXPECT_TRUE(p.waitForFinished(60000)) << "crucible did not finish: " << args.join(' ').toStdString();
  Result r;
  r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
  r.out = QString::fromLocal8Bit(p.readAllStandardOutput());
  r.err = QString::fromLocal8Bit(p.readAllStandardError());
  return r;
}

TEST(CrucibleApp, VersionNeedsNoDisplay) {
  const Result r = runCrucible({QStringLiteral("--version")}, /*offscreen=*/false);
  EXPECT_EQ(r.exitCode, 0) << r.err.toStdString();
  EXPECT_EQ(r.out, QStringLiteral("crucible %1\n").arg(QStringLiteral(CRUCIBLE_VERSION)));
}

TEST(CrucibleApp, ScreenshotRendersTheMainWindowOfAProject) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  const QString project = dir.filePath(QStringLiteral("shot.crucible"));
  crucible::test_support::writeSampleProject(project, {7, 21});
  const QString png = dir.filePath(QStringLiteral("shot.png"));

  // No QT_QPA_PLATFORM either: --screenshot picks offscreen by itself.
  const Result r = runCrucible({QStringLiteral("--screenshot"), png, project}, /*offscreen=*/false);
  ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
  QImage image(png);
  ASSERT_FALSE(image.isNull()) << "no readable PNG at " << png.toStdString();
  EXPECT_EQ(image.size(), QSize(1600, 1000));
  // A blank or single-colour window would mean nothing was drawn: a window
  // with menus, tables and text has many distinct colours.
  QSet<QRgb> colours;
  for (int y = 0; y < image.height(); y += 3)
    for (int x = 0; x < image.width(); x += 3) colours.insert(image.pixel(x, y));
  EXPECT_GT(colours.size(), 16);
}

// Enough distinct colours that something was drawn (a blank image has one).
int colourCount(const QImage& image) {
  QSet<QRgb> colours;
  for (int y = 0; y < image.height(); y += 3)
    for (int x = 0; x < image.width(); x += 3) colours.insert(image.pixel(x, y));
  return static_cast<int>(colours.size());
}

TEST(CrucibleApp, ScreenshotOfOneViewRendersItAloneAndLarge) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  const QString project = dir.filePath(QStringLiteral("views.crucible"));
  crucible::test_support::writeSampleProject(project, {7, 21});
  for (const QString view : {QStringLiteral("diff"), QStringLiteral("runcontrol"), QStringLiteral("lineage"),
                             QStringLiteral("details")}) {
    const QString png = dir.filePath(view + QStringLiteral(".png"));
    const Result r = runCrucible({QStringLiteral("--screenshot"), png, QStringLiteral("--view"), view, project});
    ASSERT_EQ(r.exitCode, 0) << view.toStdString() << ": " << r.err.toStdString();
    QImage image(png);
    ASSERT_FALSE(image.isNull()) << "no readable PNG for " << view.toStdString();
    EXPECT_EQ(image.size(), QSize(1400, 900)) << view.toStdString();
    EXPECT_GT(colourCount(image), 16) << view.toStdString() << " looks blank";
  }
}

// The comparison needs two candidates: on the bundled sample, the best of the matmul run beside its parent.
TEST(CrucibleApp, ScreenshotOfTheComparisonShowsTheBestBesideItsParent) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  const QString project = dir.filePath(QStringLiteral("sample.crucible"));
  ASSERT_TRUE(QFile::copy(QStringLiteral(CRUCIBLE_SOURCE_DIR "/resources/sample/sample.crucible"), project));
  const QString png = dir.filePath(QStringLiteral("compare.png"));
  const Result r = runCrucible({QStringLiteral("--screenshot"), png, QStringLiteral("--view"), QStringLiteral("compare"),
                                QStringLiteral("--run"), QStringLiteral("3"), project});
  ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
  QImage image(png);
  ASSERT_FALSE(image.isNull());
  EXPECT_GT(colourCount(image), 16) << "the comparison looks blank";
  // A synthetic run whose best candidate has neither parent nor reference has nothing to compare.
  const QString lone = dir.filePath(QStringLiteral("lone.crucible"));
  crucible::test_support::writeSampleProject(lone, {7, 21});
  const Result none = runCrucible({QStringLiteral("--screenshot"), png, QStringLiteral("--view"), QStringLiteral("compare"), lone});
  EXPECT_EQ(none.exitCode, 1);
  EXPECT_TRUE(none.err.contains(QStringLiteral("nothing to compare")) || none.err.contains(QStringLiteral("compare it with")))
      << none.err.toStdString();
}

TEST(CrucibleApp, ScreenshotAtALaptopSize) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  const QString project = dir.filePath(QStringLiteral("laptop.crucible"));
  crucible::test_support::writeSampleProject(project, {7});
  const QString png = dir.filePath(QStringLiteral("laptop.png"));
  const Result r = runCrucible({QStringLiteral("--screenshot"), png, QStringLiteral("--size"), QStringLiteral("1366x768"), project});
  ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
  EXPECT_EQ(QImage(png).size(), QSize(1366, 768));
  EXPECT_FALSE(r.err.contains(QStringLiteral("needs"))) << "the window does not fit 1366x768: " << r.err.toStdString();
  const Result bad = runCrucible({QStringLiteral("--screenshot"), png, QStringLiteral("--size"), QStringLiteral("big"), project});
  EXPECT_NE(bad.exitCode, 0);
  EXPECT_TRUE(bad.err.contains(QStringLiteral("--size"))) << bad.err.toStdString();
}

// A clean quit leaves no -wal/-shm files beside the project.
TEST(CrucibleApp, ACleanQuitLeavesNoWalOrShmFiles) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  const QString project = dir.filePath(QStringLiteral("clean.crucible"));
  crucible::test_support::writeSampleProject(project, {7});
  const Result r = runCrucible({QStringLiteral("--screenshot"), dir.filePath(QStringLiteral("c.png")), project});
  ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
  EXPECT_FALSE(QFile::exists(project + QStringLiteral("-wal")));
  EXPECT_FALSE(QFile::exists(project + QStringLiteral("-shm")));
}

TEST(CrucibleApp, ScreenshotOfAnUnknownViewListsTheViews) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  const QString project = dir.filePath(QStringLiteral("views.crucible"));
  crucible::test_support::writeSampleProject(project, {3});
  const QString png = dir.filePath(QStringLiteral("never.png"));
  const Result r = runCrucible({QStringLiteral("--screenshot"), png, QStringLiteral("--view"), QStringLiteral("flamegraph"), project});
  EXPECT_NE(r.exitCode, 0);
  EXPECT_TRUE(r.err.contains(QStringLiteral("flamegraph")) && r.err.contains(QStringLiteral("diff")))
      << r.err.toStdString();
  EXPECT_FALSE(QFile::exists(png));
}

TEST(CrucibleApp, ViewWithoutScreenshotIsAnError) {
  const Result r = runCrucible({QStringLiteral("--view"), QStringLiteral("diff")});
  EXPECT_NE(r.exitCode, 0);
  EXPECT_TRUE(r.err.contains(QStringLiteral("--screenshot"))) << r.err.toStdString();
}

TEST(CrucibleApp, ARunIdThatIsNotANumberIsAnError) {
  const Result r = runCrucible({QStringLiteral("--screenshot"), QStringLiteral("x.png"), QStringLiteral("--run"),
                                QStringLiteral("abc"), QStringLiteral("p.crucible")});
  EXPECT_NE(r.exitCode, 0);
  EXPECT_TRUE(r.err.contains(QStringLiteral("--run needs a run id, not 'abc'"))) << r.err.toStdString();
}

TEST(CrucibleApp, ScreenshotOfANonProjectFailsNamingTheFile) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  const QString junk = dir.filePath(QStringLiteral("readme.txt"));
  {
    QFile f(junk);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write("not a database\n");
  }
  const QString png = dir.filePath(QStringLiteral("never.png"));
  const Result r = runCrucible({QStringLiteral("--screenshot"), png, junk});
  EXPECT_NE(r.exitCode, 0);
  EXPECT_TRUE(r.err.contains(QStringLiteral("readme.txt"))) << r.err.toStdString();
  EXPECT_FALSE(QFile::exists(png));
}

TEST(CrucibleApp, ScreenshotWithoutAProjectIsAnError) {
  QTemporaryDir dir;
  const Result r = runCrucible({QStringLiteral("--screenshot"), dir.filePath(QStringLiteral("x.png"))});
  EXPECT_NE(r.exitCode, 0);
  EXPECT_TRUE(r.err.contains(QStringLiteral("PROJECT"))) << r.err.toStdString();
}

// Issue 18: File > Import task... in the GUI (app/gui's import through the
// run coordinator) shows the task in Run control at once, without reopening.
TEST(GuiImport, AnImportedTaskIsOfferedByRunControlAtOnce) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  QSettings::setDefaultFormat(QSettings::IniFormat);
  QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir.filePath(QStringLiteral("settings")));
  const QString project = dir.filePath(QStringLiteral("import.crucible"));
  crucible::test_support::writeSampleProject(project, {3});
  crucible::views::MainWindow window{crucible::views::HostInfo{}};
  ASSERT_EQ(window.tryOpenProject(project), QString());
  crucible::test_support::NoProposer proposer;
  crucible::test_support::FailingCompiler compiler;
  crucible::test_support::NoGpus gpus;
  crucible::app::RunCoordinator coordinator(window, {&proposer, &compiler, &gpus, QString()}, {});
  auto* runControl = window.findChild<crucible::views::RunControlView*>();
  ASSERT_NE(runControl, nullptr);
  auto* tasks = runControl->findChild<QComboBox*>(QStringLiteral("runTask"));
  ASSERT_NE(tasks, nullptr);
  std::vector<std::string> problems;
  const auto builtins = crucible::app::builtinTasks(problems);
  ASSERT_FALSE(builtins.empty());
  const QString name = QString::fromStdString(builtins.back().name);
  ASSERT_LT(tasks->findText(name), 0) << "already offered before the import";
  ASSERT_EQ(coordinator.importTask(QString::fromStdString(builtins.back().file)), QString());
  EXPECT_GE(tasks->findText(name), 0) << "Run control does not offer the imported task";
}

}  // namespace
