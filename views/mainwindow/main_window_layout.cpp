// SPDX-License-Identifier: GPL-3.0-or-later
// The main window's layout: the docks' useful and default sizes, Reset layout, and the
// window, docks, splitter and table columns saved per user (QSettings).
#include "views/mainwindow/main_window.h"
#include "views/compare/compare_view.h"
#include "views/details/candidate_details_view.h"
#include <algorithm>
#include <functional>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDir>
#include <QFileDialog>
#include <QHeaderView>
#include <QInputDialog>
#include <QLineEdit>
#include <QSaveFile>
#include <QScreen>
#include <QStackedWidget>
#include <set>
#include <QFileInfo>
#include <QHash>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTableView>
#include "core/engine/run_settings.h"
#include "core/io/bounded_file.h"
#include "core/model/candidate.h"
#include "core/model/kernel_export_bundle.h"
#include "core/model/run.h"
#include "core/store/project_store.h"
#include "views/editor/kernel_editor_view.h"
#include "views/mainwindow/filtered_table.h"
#include "views/mainwindow/shortcuts_dialog.h"
#include "views/mainwindow/table_columns.h"
#include "views/mainwindow/welcome_page.h"
#include "views/mainwindow/recent_projects.h"
#include "views/mainwindow/source_file.h"
#include "views/mainwindow/view_docks.h"
#include "views/models/candidates_model.h"
#include "views/models/model_roles.h"
#include "views/models/runs_model.h"
#include "views/session/project_session.h"

namespace crucible::views {
namespace {

const QString kGeometryKey = QStringLiteral("mainWindow/geometry");
const QString kStateKey = QStringLiteral("mainWindow/state");
const QString kSplitterKey = QStringLiteral("mainWindow/centralSplitter");
const QString kRunsColumnsKey = QStringLiteral("mainWindow/runsColumns");
const QString kCandidatesColumnsKey = QStringLiteral("mainWindow/candidatesColumns");

}  // namespace

QSize MainWindow::minimumUsefulSize(const QString& viewName) {
  // Wide enough for a view's toolbar row or a readable chart; low enough that
  // a laptop screen holds the side docks and the bottom row at once.
  static const QHash<QString, QSize> sizes{
      {QStringLiteral("runcontrol"), {220, 200}}, {QStringLiteral("diff"), {320, 150}},
      {QStringLiteral("roofline"), {320, 150}},   {QStringLiteral("lineage"), {300, 120}},
      {QStringLiteral("archive"), {260, 120}},    {QStringLiteral("review"), {300, 120}},
      {QStringLiteral("knowledge"), {260, 120}},  {QStringLiteral("vault"), {260, 120}},
      {QStringLiteral("editor"), {400, 150}},    {QStringLiteral("details"), {300, 150}},
      {QStringLiteral("compare"), {300, 150}},
  };
  return sizes.value(viewName, QSize(240, 120));
}

void MainWindow::applyDefaultDockSizes() {
  // Proportional to the window: the tables keep the most room; each side dock
  // a fifth (the details dock's 300 px at 1366 leaves the candidates' default
  // columns room), the bottom row two fifths of the height.
  const QSize window = size();
  QList<QDockWidget*> lefts, rights, bottoms;
  for (QDockWidget* dock : std::as_const(viewDocks_)) {
    if (dock->isHidden() || dock->isFloating()) continue;
    switch (dockWidgetArea(dock)) {
      case Qt::LeftDockWidgetArea: lefts << dock; break;
      case Qt::RightDockWidgetArea: rights << dock; break;
      case Qt::BottomDockWidgetArea: bottoms << dock; break;
      default: break;
    }
  }
  if (!lefts.isEmpty()) resizeDocks({lefts.front()}, {std::max(300, window.width() / 5)}, Qt::Horizontal);
  if (!rights.isEmpty()) resizeDocks({rights.front()}, {std::max(300, window.width() / 5)}, Qt::Horizontal);
  if (!bottoms.isEmpty()) resizeDocks({bottoms.front()}, {std::max(180, window.height() * 2 / 5)}, Qt::Vertical);
}

void MainWindow::resetLayout() {
  restoreState(defaultState_, kLayoutVersion);
  for (QDockWidget* dock : std::as_const(viewDocks_))
    if (dock->objectName() == QLatin1String("kernelEditorDock")) dock->hide();
  applyDefaultDockSizes();
  if (auto* splitter = qobject_cast<QSplitter*>(tables_)) {
    const int h = std::max(2, splitter->height());
    splitter->setSizes({h / 4, h - h / 4});
  }
  runs_->columns()->reset();
  candidates_->columns()->reset();
  statusBar()->showMessage(tr("The layout is back to its default."), 5000);
}

void MainWindow::restoreLayout() {
  QSettings settings;
  // Each part on its own: a missing or foreign one leaves the default (sized to this screen).
  restoreGeometry(settings.value(kGeometryKey).toByteArray());
  if (!restoreState(settings.value(kStateKey).toByteArray(), kLayoutVersion)) applyDefaultDockSizes();
  if (auto* splitter = qobject_cast<QSplitter*>(tables_))
    splitter->restoreState(settings.value(kSplitterKey).toByteArray());
  runs_->columns()->restore(kRunsColumnsKey);
  candidates_->columns()->restore(kCandidatesColumnsKey);
}

void MainWindow::saveLayout() const {
  QSettings settings;
  settings.setValue(kGeometryKey, saveGeometry());
  settings.setValue(kStateKey, saveState(kLayoutVersion));
  if (auto* splitter = qobject_cast<QSplitter*>(tables_)) settings.setValue(kSplitterKey, splitter->saveState());
  runs_->columns()->save(kRunsColumnsKey);
  candidates_->columns()->save(kCandidatesColumnsKey);
}

}  // namespace crucible::views
