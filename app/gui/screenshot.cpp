// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/screenshot.h"
#include <QApplication>
#include <QDeadlineTimer>
#include <QDockWidget>
#include <Qsci/qsciscintilla.h>
#include <memory>
#include "views/editor/inspection_runner.h"
#include "views/editor/kernel_editor_view.h"
#include "views/details/candidate_details_view.h"
#include "views/mainwindow/main_window.h"
#include "views/session/project_session.h"

namespace crucible::app {

namespace {
// Views that redo their drawing once laid out (the roofline spreads its points
// for the plot's size, then lays out its legend) need a few rounds of events.
void settle() {
  for (int i = 0; i < 4; ++i) QApplication::processEvents();
}
}  // namespace

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

bool openSelectedInEditor(views::MainWindow& window, QString& error, int timeoutMs) {
  views::KernelEditorView* editor = window.kernelEditor();
  if (!editor) {
    error = QApplication::translate("main", "this window has no kernel editor");
    return false;
  }
  const CandidateId id = window.session()->selectedCandidate();
  if (id == 0) {
    error = QApplication::translate("main", "the run has no valid candidate to open in the editor");
    return false;
  }
  bool opened = false;
  QObject::connect(&window, &views::MainWindow::kernelEditorOpened, editor, [&opened] { opened = true; },
                   Qt::SingleShotConnection);
  window.forkCandidate(id);  // outside a run the read is immediate; during one it arrives by queued call
  const QDeadlineTimer deadline(timeoutMs);
  while ((!opened || editor->runner()->busy()) && !deadline.hasExpired())
    QApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
  if (!opened || editor->runner()->busy()) {
    error = QApplication::translate("main", "the editor's compile of candidate #%1 did not finish within %2 s")
                .arg(id)
                .arg(timeoutMs / 1000);
    return false;
  }
  // The line that made the most PTX: its linked PTX and SASS lines are highlighted.
  int line = 0;
  std::size_t most = 0;
  for (const auto& [source, listing] : editor->inspection().ptxLines.listingLinesOf)
    if (listing.size() > most) line = source, most = listing.size();
  if (line > 0) editor->sourceEditor()->setCursorPosition(line - 1, 0);
  return true;
}

bool showSelectedAgainstParent(views::MainWindow& window, const QString& viewName, QString& error) {
  const CandidateId id = window.session()->selectedCandidate();
  // Its parent, else the run's reference (a seed has no parent).
  CandidateId other = 0, reference = 0;
  for (const CandidateSummary& c : window.session()->candidates()) {
    if (c.id == id && !c.parents.empty()) other = c.parents.front();
    if (c.status == CandidateStatus::Reference) reference = c.id;
  }
  if (other == 0) other = reference;
  if (other == id) other = 0;
  if (viewName == QLatin1String("details")) {
    QDockWidget* dock = window.viewDock(viewName);
    auto* details = dock ? qobject_cast<views::CandidateDetailsView*>(dock->widget()) : nullptr;
    if (!details) {
      error = QApplication::translate("main", "this window has no details view");
      return false;
    }
    if (other != 0) details->setBaseline(other);  // else its figures alone
    return true;
  }
  if (id == 0 || other == 0) {
    error = QApplication::translate("main", "the run has no valid candidate with a parent or a reference to compare it with");
    return false;
  }
  emit window.compareRequested({other, id});
  return true;
}

std::optional<QSize> parseShotSize(const QString& text) {
  const QStringList parts = text.trimmed().toLower().split(QLatin1Char('x'));
  if (parts.size() != 2) return std::nullopt;
  bool okW = false, okH = false;
  const int w = parts[0].toInt(&okW), h = parts[1].toInt(&okH);
  if (!okW || !okH || w < 200 || h < 200 || w > 8192 || h > 8192) return std::nullopt;
  return QSize(w, h);
}

QImage grabWindow(views::MainWindow& window, QSize size) {
  window.resize(size);
  window.show();
  QApplication::processEvents();
  window.applyDefaultDockSizes();  // the default layout at this size, as a first start on that screen shows it
  settle();  // let layouts and the tables settle before grabbing
  return window.grab().toImage();
}

QImage grabView(views::MainWindow& window, const QString& viewName, QString& error, QSize size) {
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
  view->resize(size);
  view->show();
  settle();
  return view->grab().toImage();
}

}  // namespace crucible::app
