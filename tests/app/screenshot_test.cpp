// SPDX-License-Identifier: GPL-3.0-or-later
// What --screenshot selects and renders, in process.
#include <QSettings>
#include <QTemporaryDir>
#include <gtest/gtest.h>
#include "app/gui/screenshot.h"
#include "tests/views/models/sample_project.h"
#include "views/mainwindow/main_window.h"
#include "views/session/project_session.h"

using namespace crucible;

namespace {

TEST(Screenshot, TheBestValidCandidateIsTheFastestValidOne) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  const QString path = dir.filePath(QStringLiteral("best.crucible"));
  // Run 1: all seven sample kinds (the fastest valid one is the sixth, 6.15x);
  // run 2: only an Invalid and a CompileFailed one.
  const std::vector<RunId> runs = test_support::writeSampleProject(path, {7, 0});
  auto store = ProjectStore::open(path.toStdString());
  test_support::addSampleCandidates(*store, runs[1], 2, 2);
  const auto summaries = store->candidateSummaries(runs[0]);
  ASSERT_EQ(summaries.size(), 7u);
  EXPECT_EQ(app::bestValidCandidate(*store, runs[0]), summaries[5].id);
  EXPECT_EQ(app::bestValidCandidate(*store, runs[1]), 0) << "an invalid candidate was chosen";
}

TEST(Screenshot, AViewIsRenderedAloneWithTheBestCandidateSelected) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  QSettings::setDefaultFormat(QSettings::IniFormat);
  QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir.filePath(QStringLiteral("settings")));
  const QString path = dir.filePath(QStringLiteral("shot.crucible"));
  const RunId newest = test_support::writeSampleProject(path, {3, 7}).back();
  views::MainWindow window{views::HostInfo{}};
  ASSERT_EQ(window.tryOpenProject(path), QString());
  app::selectBestCandidate(window);
  EXPECT_EQ(window.session()->currentRun(), newest);
  EXPECT_EQ(window.session()->selectedCandidate(),
            app::bestValidCandidate(*window.session()->store(), newest));
  ASSERT_FALSE(window.viewNames().isEmpty());
  QString error;
  const QImage image = app::grabView(window, window.viewNames().front(), error);
  EXPECT_EQ(error, QString());
  EXPECT_EQ(image.size(), app::kViewShotSize);

  const QImage none = app::grabView(window, QStringLiteral("no-such-view"), error);
  EXPECT_TRUE(none.isNull());
  EXPECT_TRUE(error.contains(QStringLiteral("no-such-view")));
  EXPECT_TRUE(error.contains(window.viewNames().back())) << "the error does not list the views";
}

}  // namespace

namespace {
TEST(Screenshot, SizeIsWidthByHeight) {
  EXPECT_EQ(app::parseShotSize(QStringLiteral("1366x768")), QSize(1366, 768));
  EXPECT_EQ(app::parseShotSize(QStringLiteral("1920X1080")), QSize(1920, 1080));
  EXPECT_FALSE(app::parseShotSize(QStringLiteral("1366")));
  EXPECT_FALSE(app::parseShotSize(QStringLiteral("0x768")));
  EXPECT_FALSE(app::parseShotSize(QStringLiteral("axb")));
  EXPECT_FALSE(app::parseShotSize(QStringLiteral("100000x768")));
}
}  // namespace
