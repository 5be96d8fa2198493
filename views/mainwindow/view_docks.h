// SPDX-License-Identifier: GPL-3.0-or-later
// The views that live in the main window's docks: where each docks and which
// tab group it shares.
#pragma once
#include <QString>
#include <Qt>
#include <vector>

class QWidget;

namespace crucible {
class KernelInspector;
}

namespace crucible::views {

class ProjectSession;

struct ViewDock {
  QString viewName;          // short, for the command line: "lineage", "diff", ...
  QString objectName;        // stable, for QMainWindow::saveState
  QString title;
  Qt::DockWidgetArea area;   // where it starts before the user moves it
  QString tabGroup;          // docks of one group start as tabs of one dock area
  QWidget* widget;
};

std::vector<ViewDock> createViewDocks(ProjectSession* session, QWidget* parent);

// The kernel editor (issue 17): only where the app has an inspector to give
// it (the inspector must outlive the widget). It starts hidden: forking a
// candidate or opening a kernel shows it.
ViewDock createKernelEditorDock(KernelInspector& inspector, QWidget* parent);

}  // namespace crucible::views
