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

namespace crucible {
class KernelInspector;
struct LaunchRule;
}

namespace crucible::views {

class CandidatesModel;
class KernelEditorView;
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

  enum class CandidateAction { CompareWithParent, ShowInLineage, CopyId, CopySource, SaveSource, ForkAndEdit };
  // The candidates table's context menu for one candidate: compare with its
  // parent, show in the lineage, copy its id or source, save its source.
  // The caller owns the menu. The same actions, acting on the selected
  // candidate, carry the keyboard shortcuts of the table.
  QMenu* candidateContextMenu(CandidateId id, QWidget* parent = nullptr);
  // Asks where to save a file (default: a QFileDialog); tests answer without a dialog.
  using SavePathAsker = std::function<QString(const QString& suggestedName)>;
  void setSavePathAsker(SavePathAsker asker) { askSavePath_ = std::move(asker); }

  // The kernel editor (issue 17): a hidden dock, Edit > Fork && edit (also in
  // the candidates' context menu) and File > Open kernel.... The app installs
  // it with the inspector its build has; the inspector must outlive the
  // window. Without it the actions stay disabled and say why.
  void installKernelEditor(KernelInspector& inspector);
  KernelEditorView* kernelEditor() const { return editor_; }
  // The run the editor's kernel joins when evaluated (0: nothing open in the
  // editor, or its project was closed since).
  RunId kernelEditorRun() const { return editorRun_; }
  QAction* forkAction() const { return fork_; }
  QAction* openKernelAction() const { return openKernel_; }
  // Asked before a fork or an opened file replaces edits the editor has not
  // kept (default: a question box); false keeps them. Tests answer without a dialog.
  using DiscardEditsAsker = std::function<bool()>;
  void setDiscardEditsAsker(DiscardEditsAsker asker) { askDiscardEdits_ = std::move(asker); }
  // Opens a .cu file in the editor against the current run's task (parent 0).
  // Returns "" on success, else what is wrong (no run, an unreadable file).
  QString openKernelFile(const QString& path);

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
  // Opens candidate id's source and launch rule in the kernel editor, as a
  // fork of it (read off the GUI thread during a run: it opens when the read
  // returns). A view's signal forkRequested(crucible::CandidateId), where it
  // has one, is connected here.
  void forkCandidate(crucible::CandidateId id);
  void openKernelDialog();

signals:
  // The editor was given a kernel: a fork of parent, or a file (parent 0).
  void kernelEditorOpened(crucible::CandidateId parent);

protected:
  void closeEvent(QCloseEvent* event) override;

private:
  void createMenus();
  void createDocks();
  void rebuildRecentMenu();
  void updateTitle();
  void createCandidateShortcuts();
  void runCandidateAction(CandidateAction action, CandidateId id);
  // false: the user kept the edits the editor holds, so nothing is opened.
  bool mayReplaceEdits();
  void openInEditor(const std::string& source, const LaunchRule& launch, CandidateId parent, RunId run,
                    const QString& origin, const std::string& arch);
  void updateEditorActions();

  HostInfo host_;
  ProjectSession* session_;
  RunsModel* runsModel_;
  CandidatesModel* candidatesModel_;
  FilteredTable* runs_;
  FilteredTable* candidates_;
  QMenu* recentMenu_ = nullptr;
  QMenu* fileMenu_ = nullptr;
  QMenu* viewMenu_ = nullptr;
  QMenu* editMenu_ = nullptr;
  QAction* fork_ = nullptr;
  QAction* openKernel_ = nullptr;
  KernelEditorView* editor_ = nullptr;
  RunId editorRun_ = 0;
  QAction* quitSeparator_ = nullptr;
  QHash<QString, QDockWidget*> viewDocks_;
  std::function<bool()> closeGuard_;
  SavePathAsker askSavePath_;
  DiscardEditsAsker askDiscardEdits_;
  QLabel* hostLabel_ = nullptr;
  bool persistLayout_ = false;
};

}  // namespace crucible::views
