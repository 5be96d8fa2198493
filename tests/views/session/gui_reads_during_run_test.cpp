// SPDX-License-Identifier: GPL-3.0-or-later
// No store read on the GUI thread while a run is active: the whole main
// window (every view, docks shown and hidden) follows a simulated run with
// the store's thread check on. A GUI-thread read during the run throws out
// of a slot and ends this test; the second test proves the check is armed.
#include <QApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <gtest/gtest.h>
#include "tests/views/session/simulated_run.h"
#include "views/mainwindow/main_window.h"
#include "views/models/candidates_model.h"
#include "views/session/project_session.h"

using namespace crucible;
using namespace crucible::views;

namespace {

class GuiReadsDuringRunTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.isValid());
    path_ = dir_.filePath(QStringLiteral("run.crucible"));
    run_ = test_support::writeSampleProject(path_, {40}).front();
    window_.setPersistLayout(false);
    window_.session()->setStoreThreadCheck(true);
    window_.session()->setPollInterval(50);
    ASSERT_EQ(window_.tryOpenProject(path_), QString());
    window_.resize(1400, 900);
    window_.show();
    QApplication::processEvents();
  }

  bool waitUntil(const std::function<bool()>& done, int ms = 5000) {
    QElapsedTimer t;
    t.start();
    while (!done() && t.elapsed() < ms) QTest::qWait(10);
    return done();
  }

  QTemporaryDir dir_;
  QString path_;
  RunId run_ = 0;
  MainWindow window_{HostInfo{}};
};

TEST_F(GuiReadsDuringRunTest, EveryViewFollowsARunWithoutReadingTheStoreOnTheGuiThread) {
  ProjectSession* session = window_.session();
  test_support::SimulatedRun writer(path_.toStdString(), run_, {300, 25, std::chrono::milliseconds(1500)});
  writer.start();
  ASSERT_TRUE(waitUntil([&] { return session->runActive(); })) << "the session never saw the run start";

  // Meanwhile: candidates are selected (diff, roofline, lineage follow), every
  // dock is brought forward in turn (hidden ones catch up), engine events poke.
  const QStringList views = window_.viewNames();
  int turn = 0;
  while (!writer.finished()) {
    QTest::qWait(40);
    session->notifyDataChanged();  // what the engine controller's refresh does
    if (!session->candidates().empty())
      session->selectCandidate(session->candidates()[static_cast<std::size_t>(turn * 7) % session->candidates().size()].id);
    window_.raiseView(views[turn % views.size()]);
    ++turn;
  }
  ASSERT_EQ(writer.failure(), "");
  ASSERT_TRUE(waitUntil([&] { return !session->runActive(); })) << "the session never saw the run end";

  // The views show the whole run: the table grew by rows, not by resets.
  const int total = 40 + writer.written();
  ASSERT_TRUE(waitUntil([&] { return static_cast<int>(session->candidates().size()) == total; }));
  EXPECT_EQ(window_.candidatesTable()->model()->rowCount(), total);
  EXPECT_EQ(session->seals().size(), 1u);
  EXPECT_EQ(session->knowledge().size(), 1u);
  EXPECT_FALSE(session->archive().empty());
  EXPECT_FALSE(session->log().empty());
  EXPECT_GT(turn, 10);
}

TEST_F(GuiReadsDuringRunTest, AGuiThreadReadDuringARunFails) {
  ProjectSession* session = window_.session();
  EXPECT_NO_THROW((void)session->store()->candidateCount(run_)) << "outside a run the GUI may read";
  test_support::SimulatedRun writer(path_.toStdString(), run_, {100, 10, std::chrono::milliseconds(600)});
  writer.start();
  ASSERT_TRUE(waitUntil([&] { return session->runActive(); }));
  try {
    (void)session->store()->candidateCount(run_);
    ADD_FAILURE() << "a GUI-thread read during a run was allowed";
  } catch (const StoreError& e) {
    EXPECT_NE(std::string(e.what()).find("run is in progress"), std::string::npos) << e.what();
  }
  writer.join();
  ASSERT_TRUE(waitUntil([&] { return !session->runActive(); }));
  EXPECT_NO_THROW((void)session->store()->candidateCount(run_)) << "after the run the GUI may read again";
}

}  // namespace
