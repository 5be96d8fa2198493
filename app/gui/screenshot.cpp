// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/screenshot.h"
#include <QApplication>
#include <QDockWidget>
#include <memory>
#include "views/mainwindow/main_window.h"
#include "views/session/project_session.h"

namespace crucible::app {

CandidateId bestValidCandidate(const ProjectStore& store, RunId run) {
  return bestValidCandidate(store.candidateSummaries(run));
}

CandidateId bestValidCandidate(const std::vector<CandidateSummary>& candidates) {
  CandidateId best = 0;
  double bestSpeedup = 0;
  for (const CandidateSummary& c : candidates) {
    if (c.status != CandidateStatus::Valid) continue;
    if (best == 0 || c.speedup > bestSpeedup) {
      best = c.id;
      bestSpeedup = c.speedup;
    }
  }
  return best;
}

void selectBestCandidate(views::MainWindow& window) {
  views::ProjectSession* session = window.session();
  // The session holds the current run's summaries: nothing is read here.
  if (!session->isOpen() || session->currentRun() == 0) return;
  if (const CandidateId best = bestValidCandidate(session->candidates())) session->selectCandidate(best);
}

QImage grabWindow(views::MainWindow& window) {
  window.resize(kWindowShotSize);
  window.show();
  QApplication::processEvents();  // let layouts and the tables settle before grabbing
  return window.grab().toImage();
}

QImage grabView(views::MainWindow& window, const QString& viewName, QString& error) {
  QDockWidget* dock = window.viewDock(viewName);
  if (!dock || !dock->widget()) {
    error = QApplication::translate("main", "no view named \"%1\" in this build; the views are: %2")
                .arg(viewName, window.viewNames().join(QStringLiteral(", ")));
    return {};
  }
  // Alone in a window of its own, the view gets the whole picture. Taken
  // out of the dock, it is deleted here rather than with the window.
  std::unique_ptr<QWidget> view(dock->widget());
  view->setParent(nullptr);
  view->resize(kViewShotSize);
  view->show();
  QApplication::processEvents();
  return view->grab().toImage();
}

}  // namespace crucible::app
