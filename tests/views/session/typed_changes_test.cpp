// SPDX-License-Identifier: GPL-3.0-or-later
// The session turns the reader's deltas into typed changes: the models grow
// by rows, views react only to what they show, and a view in a closed dock
// catches up when its dock is shown again.
#include <QAbstractItemModel>
#include <QDockWidget>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <gtest/gtest.h>
#include "tests/core/model/sample_seal.h"
#include "tests/views/models/sample_project.h"
#include "views/mainwindow/main_window.h"
#include "views/session/project_session.h"
#include "views/vault/vault_view.h"

using namespace crucible;
using namespace crucible::views;

namespace {

class TypedChangesTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.isValid());
    path_ = dir_.filePath(QStringLiteral("p.crucible"));
    run_ = test_support::writeSampleProject(path_, {5}).front();
  }
  QTemporaryDir dir_;
  QString path_;
  RunId run_ = 0;
};

TEST_F(TypedChangesTest, OnlyWhatChangedIsAnnounced) {
  ProjectSession session;
  session.open(path_);
  QSignalSpy candidates(&session, &ProjectSession::candidatesChanged);
  QSignalSpy seals(&session, &ProjectSession::sealsChanged);
  QSignalSpy runs(&session, &ProjectSession::runsChanged);
  QSignalSpy log(&session, &ProjectSession::logChanged);

  session.notifyDataChanged();
  EXPECT_EQ(candidates.count() + seals.count() + runs.count() + log.count(), 0) << "announced without a change";

  {
    auto writer = ProjectStore::open(path_.toStdString());
    test_support::addSampleCandidates(*writer, run_, 2, 5);
    writer->appendLog(run_, "info", "two more");
  }
  session.notifyDataChanged();
  ASSERT_EQ(candidates.count(), 1);
  const auto changed = candidates.front().front().value<std::vector<CandidateSummary>>();
  EXPECT_EQ(changed.size(), 2u) << "the candidates already shown were sent again";
  EXPECT_FALSE(candidates.front().back().toBool()) << "a growing run was announced as a reset";
  EXPECT_EQ(log.count(), 1);
  EXPECT_EQ(seals.count(), 0);
  EXPECT_EQ(runs.count(), 0);
  EXPECT_EQ(session.candidates().size(), 7u);
}

TEST_F(TypedChangesTest, AViewInAClosedDockCatchesUpWhenShown) {
  MainWindow window{HostInfo{}};
  window.setPersistLayout(false);
  ASSERT_EQ(window.tryOpenProject(path_), QString());
  window.show();
  QDockWidget* dock = window.viewDock(QStringLiteral("vault"));
  ASSERT_NE(dock, nullptr) << "this build has no vault view";
  auto* vault = qobject_cast<VaultView*>(dock->widget());
  ASSERT_NE(vault, nullptr);
  auto* table = vault->findChild<QTableView*>();
  ASSERT_NE(table, nullptr);
  dock->close();
  QApplication::processEvents();
  ASSERT_EQ(table->model()->rowCount(), 0);

  {
    auto writer = ProjectStore::open(path_.toStdString());
    const CandidateId c = writer->candidateSummaries(run_).front().id;
    writer->addSeal(crucible::testing::sampleSeal(writer->run(run_)->taskId, run_, c));
  }
  window.session()->notifyDataChanged();
  EXPECT_EQ(window.session()->seals().size(), 1u);
  EXPECT_EQ(table->model()->rowCount(), 0) << "a closed dock reloaded";

  window.raiseView(QStringLiteral("vault"));
  QApplication::processEvents();
  EXPECT_EQ(table->model()->rowCount(), 1) << "the vault did not catch up when shown";
}

}  // namespace
