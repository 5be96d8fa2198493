// SPDX-License-Identifier: GPL-3.0-or-later
// The workbench refreshes when another connection (crucible-cli) writes the
// project, and stays quiet otherwise.
#include <QSignalSpy>
#include <QTemporaryDir>
#include <gtest/gtest.h>
#include "app/gui/project_watcher.h"
#include "tests/views/models/sample_project.h"
#include "views/session/project_session.h"

using namespace crucible;

namespace {

TEST(ProjectWatcher, RefreshesOnlyWhenAnotherConnectionCommits) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  const QString path = dir.filePath(QStringLiteral("watched.crucible"));
  const RunId run = test_support::writeSampleProject(path, {2}).front();
  views::ProjectSession session;
  app::ProjectWatcher watcher(&session, std::chrono::milliseconds(50));
  EXPECT_FALSE(watcher.isWatching());
  session.open(path);
  EXPECT_TRUE(watcher.isWatching());
  QSignalSpy refreshed(&session, &views::ProjectSession::dataChanged);

  EXPECT_FALSE(refreshed.wait(400)) << "refreshed although nothing changed";

  auto writer = ProjectStore::open(path.toStdString());  // as crucible-cli would
  test_support::addSampleCandidates(*writer, run, 3, 2);
  ASSERT_TRUE(refreshed.wait(3000)) << "a commit by another connection was not noticed";
  EXPECT_EQ(refreshed.count(), 1);
  EXPECT_EQ(session.store()->candidateCount(run), 5);

  EXPECT_FALSE(refreshed.wait(400)) << "refreshed again without a new commit";
  writer->appendLog(run, "info", "another process logs a line");
  EXPECT_TRUE(refreshed.wait(3000)) << "a log line (not a candidate) was not noticed";

  session.close();
  EXPECT_FALSE(watcher.isWatching());
}

}  // namespace
