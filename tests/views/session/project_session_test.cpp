// SPDX-License-Identifier: GPL-3.0-or-later
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <gtest/gtest.h>
#include "tests/views/models/sample_project.h"
#include "views/session/project_session.h"

using namespace crucible;
using namespace crucible::views;

namespace {

class ProjectSessionTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.isValid());
    path_ = dir_.filePath(QStringLiteral("p.crucible"));
    runs_ = crucible::test_support::writeSampleProject(path_, {2, 3});
  }
  QTemporaryDir dir_;
  QString path_;
  std::vector<RunId> runs_;
};

TEST_F(ProjectSessionTest, OpenSelectsTheNewestRunReadOnly) {
  ProjectSession session;
  QSignalSpy opened(&session, &ProjectSession::projectOpened);
  QSignalSpy runChanged(&session, &ProjectSession::currentRunChanged);
  session.open(path_);
  EXPECT_TRUE(session.isOpen());
  EXPECT_EQ(opened.count(), 1);
  EXPECT_EQ(runChanged.count(), 1);
  EXPECT_EQ(session.currentRun(), runs_.back());
  EXPECT_EQ(session.path(), path_);
  ASSERT_NE(session.store(), nullptr);
  EXPECT_EQ(session.store()->candidateCount(runs_.front()), 2);
}

TEST_F(ProjectSessionTest, SelectionSignalsOnlyOnChange) {
  ProjectSession session;
  session.open(path_);
  QSignalSpy selected(&session, &ProjectSession::candidateSelected);
  session.selectCandidate(3);
  session.selectCandidate(3);
  EXPECT_EQ(selected.count(), 1);
  EXPECT_EQ(session.selectedCandidate(), 3);
  QSignalSpy runChanged(&session, &ProjectSession::currentRunChanged);
  session.setCurrentRun(runs_.front());
  session.setCurrentRun(runs_.front());
  EXPECT_EQ(runChanged.count(), 1);
}

TEST_F(ProjectSessionTest, ANonProjectFileThrowsAndKeepsTheOpenProject) {
  const QString junk = dir_.filePath(QStringLiteral("notes.txt"));
  {
    QFile f(junk);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write("these are not the tables you are looking for\n");
  }
  ProjectSession session;
  session.open(path_);
  QSignalSpy closed(&session, &ProjectSession::projectClosed);
  try {
    session.open(junk);
    FAIL() << "opening a text file as a project succeeded";
  } catch (const StoreError& e) {
    EXPECT_NE(std::string(e.what()).find("notes.txt"), std::string::npos) << e.what();
  }
  EXPECT_EQ(closed.count(), 0);
  EXPECT_TRUE(session.isOpen());
  EXPECT_EQ(session.path(), path_);
  // Its reader still follows it.
  const std::size_t shown = session.candidates().size();
  {
    auto writer = ProjectStore::open(path_.toStdString());
    crucible::test_support::addSampleCandidates(*writer, runs_.back(), 1, 3);
  }
  session.notifyDataChanged();
  EXPECT_EQ(session.candidates().size(), shown + 1);
}

TEST_F(ProjectSessionTest, CloseForgetsRunAndSelection) {
  ProjectSession session;
  session.open(path_);
  session.selectCandidate(1);
  QSignalSpy closed(&session, &ProjectSession::projectClosed);
  session.close();
  EXPECT_EQ(closed.count(), 1);
  EXPECT_FALSE(session.isOpen());
  EXPECT_EQ(session.store(), nullptr);
  EXPECT_EQ(session.currentRun(), 0);
  EXPECT_EQ(session.selectedCandidate(), 0);
}

}  // namespace
