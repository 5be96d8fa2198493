// SPDX-License-Identifier: GPL-3.0-or-later
// Crucible's main window: the runs and candidates tables in the centre, the
// views in docks around them, the File/View/Help menus, and the status bar
// that says what this machine can do (evaluate, or review only).
#pragma once
#include <QHash>
#include <QMainWindow>
#include <functional>
#include "core/model/ids.h"
#include "views/mainwindow/host_info.h"

class QAction;
class QDockWidget;
class QMenu;
class QLabel;
class QTableView;

namespace crucible::views {

class CandidatesModel;
class FilteredTable;
class ProjectSession;
class RunsModel;

class MainWindow : public QMainWindow {
  Q_OBJECT
public:
  explicit MainWindow(HostInfo host, QWidget* parent = nullptr);
  ~MainWindow() override;

  ProjectSession* session() const { return session_; }
  QTableView* runsTable() const;
  QTableView* candidatesTable() const;
  FilteredTable* runsPanel() const { return runs_; }
  FilteredTable* candidatesPanel() const { return candidates_; }

  // Opens a project read-only. Returns an empty string on success, else a
  // message that names the file and says what is wrong with it. Shows no
  // dialog and does not touch the recent-projects list.
  QString tryOpenProject(const QString& path);

  // The docks of the views, by short name ("lineage", "diff", ...).
  QStringList viewNames() const;
  QDockWidget* viewDock(const QString& viewName) const;

  enum class CandidateAction { CompareWithParent, ShowInLineage, CopyId, CopySource, SaveSource };
  // The candidates table's context menu for one candidate: compare with its
  // parent, show in the lineage, copy its id or source, save its source.
  // The caller owns the menu. The same actions, acting on the selected
  // candidate, carry the keyboard shortcuts of the table.
  QMenu* candidateContextMenu(CandidateId id, QWidget* parent = nullptr);
  // Asks where to save a file (default: a QFileDialog); tests answer without a dialog.
  using SavePathAsker = std::function<QString(const QString& suggestedName)>;
  void setSavePathAsker(SavePathAsker asker) { askSavePath_ = std::move(asker); }

  // The app's own File entries (engine commands), placed above Quit.
  void addFileAction(QAction* action);
  // Asked before the window closes; returning false keeps it open (the app
  // uses it to stop a run in progress first, then closes again).
  void setCloseGuard(std::function<bool()> guard) { closeGuard_ = std::move(guard); }

  // Remembering the window: geometry, dock layout. Off by default so tests and
  // --screenshot neither read nor overwrite the user's layout.
  void setPersistLayout(bool persist) { persistLayout_ = persist; }
  void restoreLayout();
  void saveLayout() const;

public slots:
  // The interactive forms: a message box on failure, the recent list on success.
  bool openProject(const QString& path);
  void newProject();
  void openProjectDialog();
  void showAbout();
  // Shows and raises a view's dock (views ask through their showViewRequested signal).
  void raiseView(const QString& viewName);

protected:
  void closeEvent(QCloseEvent* event) override;

private:
  void createMenus();
  void createDocks();
  void rebuildRecentMenu();
  void updateTitle();
  void createCandidateShortcuts();
  void runCandidateAction(CandidateAction action, CandidateId id);

  HostInfo host_;
  ProjectSession* session_;
  RunsModel* runsModel_;
  CandidatesModel* candidatesModel_;
  FilteredTable* runs_;
  FilteredTable* candidates_;
  QMenu* recentMenu_ = nullptr;
  QMenu* fileMenu_ = nullptr;
  QMenu* viewMenu_ = nullptr;
  QAction* quitSeparator_ = nullptr;
  QHash<QString, QDockWidget*> viewDocks_;
  std::function<bool()> closeGuard_;
  SavePathAsker askSavePath_;
  QLabel* hostLabel_ = nullptr;
  bool persistLayout_ = false;
};

}  // namespace crucible::views
