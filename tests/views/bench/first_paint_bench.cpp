// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmark (a program that prints a table, not a test): time to first paint
// of the main window and of the lineage view on a project of N candidates
// (default 10,000), as a kernel engineer opening a large project sees it.
//   first_paint_bench [CANDIDATES]
// The project is generated here (one run, a random lineage tree); its figures
// are test fixtures, never shown to users.
#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTemporaryDir>
#include <QTimer>
#include <cstdio>
#include <random>
#include "tests/views/models/sample_project.h"
#include "views/lineage/lineage_view.h"
#include "views/mainwindow/main_window.h"
#include "views/session/project_session.h"

using namespace crucible;

namespace {

std::string makeProject(const QString& dir, int count) {
  const std::string path = (dir + "/bench.crucible").toStdString();
  auto store = ProjectStore::create(path);
  const TaskId task = test_support::addSampleTask(*store);
  const RunId run = test_support::addSampleRun(*store, task, "bench");
  std::mt19937_64 rng(7);
  std::vector<CandidateId> ids;
  store->transaction([&] {
    for (int i = 0; i < count; ++i) {
      Candidate c = test_support::makeCandidate(run, i);
      if (!ids.empty()) c.parents = {ids[std::uniform_int_distribution<std::size_t>(0, ids.size() - 1)(rng)]};
      ids.push_back(store->addCandidate(c));
    }
  });
  return path;
}

// Shows the widget and returns the milliseconds until its first paint has
// been rendered (grab() runs the same paint path the screen would).
double showAndPaint(QWidget& w, QElapsedTimer& clock) {
  w.resize(1600, 1000);
  w.show();
  QCoreApplication::processEvents();
  (void)w.grab();
  return static_cast<double>(clock.nsecsElapsed()) / 1e6;
}

}  // namespace

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  const int count = argc > 1 ? std::atoi(argv[1]) : 10000;
  QTemporaryDir dir;
  QElapsedTimer clock;
  clock.start();
  const std::string path = makeProject(dir.path(), count);
  const double generateMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;

  clock.restart();
  views::MainWindow window(views::HostInfo{});
  const QString error = window.tryOpenProject(QString::fromStdString(path));
  if (!error.isEmpty()) {
    std::fprintf(stderr, "%s\n", qPrintable(error));
    return 1;
  }
  const double windowMs = showAndPaint(window, clock);
  window.hide();

  // The lineage view alone: its layout runs off the GUI thread, so first paint
  // counts until layoutFinished has been applied and drawn.
  views::ProjectSession session;
  clock.restart();
  session.open(QString::fromStdString(path));
  views::LineageView lineage(&session);
  QEventLoop loop;
  QObject::connect(&lineage, &views::LineageView::layoutFinished, &loop, &QEventLoop::quit);
  QTimer::singleShot(30000, &loop, &QEventLoop::quit);
  lineage.resize(1600, 1000);
  lineage.show();
  if (lineage.layoutPending()) loop.exec();
  (void)lineage.grab();
  const double lineageMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;

  std::printf("| what (%d candidates, one run) | ms |\n|---|--:|\n", count);
  std::printf("| generate the project (not part of opening) | %.0f |\n", generateMs);
  std::printf("| main window: open project, show, first paint | %.0f |\n", windowMs);
  std::printf("| lineage view: read, lay out %d nodes, first paint | %.0f |\n", lineage.shownCount(), lineageMs);
  std::printf("target: under 1000 ms each on the 2-core CI machine\n");
  return 0;
}
