// SPDX-License-Identifier: GPL-3.0-or-later
// Crucible's main window: the runs and candidates tables in the centre, the
// views in docks around them, the File/View/Help menus, and the status bar
// that says what this machine can do (evaluate, or review only).
#pragma once
#include <QHash>
#include <QMainWindow>
#include <functional>
#include <optional>
#include <vector>
#include "core/model/ids.h"
#include "views/mainwindow/host_info.h"

class QAction;
class QDockWidget;
class QMenu;
class QLabel;
class QStackedWidget;
class QTableView;

namespace crucible {
class KernelInspector;
struct LaunchRule;
enum class ExportFormat;
}

namespace crucible::views {

class CandidatesModel;
class KernelEditorView;
class FilteredTable;
class ProjectSession;
class RunsModel;
class WelcomePage;

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

  enum class CandidateAction { CompareWithParent, ShowInLineage, CopyId, CopySource, SaveSource, ForkAndEdit, ExportKernel };
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

  // Remembering the window: geometry, dock layout, the central splitter and
  // the tables' columns (widths, hidden ones). Off by default so tests and
  // --screenshot neither read nor overwrite the user's layout. Without a
  // saved layout the window takes a size that fits the screen and the
  // default dock sizes.
  void setPersistLayout(bool persist) { persistLayout_ = persist; }
  void restoreLayout();
  void saveLayout() const;
  // View > Reset layout: every dock back where it starts, sized for the
  // window's current size; the tables' columns back to their defaults.
  void resetLayout();
  // The narrowest (and lowest) a dock may be made and still be of use; the
  // layout test holds every dock at 1366x768 to it.
  static QSize minimumUsefulSize(const QString& viewName);
  // The docks' default sizes for the window's current size (the tables get the
  // most room): for a first start and for screenshots at a chosen size.
  void applyDefaultDockSizes();

  // The centre: the welcome page while no project is open, else the tables.
  WelcomePage* welcomePage() const { return welcome_; }
  bool showsWelcome() const;

  QAction* compareAction() const { return compare_; }
  QAction* preferencesAction() const { return preferences_; }
  QAction* resetLayoutAction() const { return resetLayout_; }
  QAction* findAction() const { return find_; }
  QAction* copyAction() const { return copy_; }
  QAction* shortcutsAction() const { return shortcuts_; }
  QAction* exportKernelAction() const { return exportKernel_; }

  // Export kernel...: writes the candidate's bundle (the formats of
  // `crucible-cli best --export --format cu|torch|flashinfer`, by the same
  // core code) into dir. Returns "" on success, else what is wrong; written
  // gets the files' paths.
  QString exportCandidate(CandidateId id, ExportFormat format, const QString& dir, QStringList* written = nullptr);
  // Asks for the format and the folder (default: dialogs); tests answer without one.
  struct ExportChoice {
    ExportFormat format;
    QString dir;
  };
  using ExportAsker = std::function<std::optional<ExportChoice>(CandidateId)>;
  void setExportAsker(ExportAsker asker) { askExport_ = std::move(asker); }

public slots:
  // Asks (askExport_) and writes the candidate's bundle; a message box says what went wrong.
  void exportKernelDialog(crucible::CandidateId id);
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

  // Help > Keyboard shortcuts: every action with a shortcut, from the actions.
  void showShortcuts();

signals:
  // The editor was given a kernel: a fork of parent, or a file (parent 0).
  void kernelEditorOpened(crucible::CandidateId parent);
  // HOOK (issue 18, for the lead): Edit > Compare selected (Ctrl+Shift+D, and
  // the candidates' context menu) with two or more candidates selected in the
  // table (extended selection); ids ascending. Connect the comparison view here.
  void compareRequested(std::vector<crucible::CandidateId> ids);
  // HOOK (issue 18, for the lead): Edit > Preferences...; connect the preferences dialog here.
  void preferencesRequested();
  // The welcome page's "Import a task...": the app imports into the open
  // project (File > Import task...), creating or opening one first when none is.
  void importTaskRequested();

protected:
  void closeEvent(QCloseEvent* event) override;

private:
  static constexpr int kLayoutVersion = 2;  // of saveState: bump when the dock set changes incompatibly
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
  void updateCentre();
  void updateCompareAction();
  void copySelection();

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
  QStackedWidget* centre_ = nullptr;
  WelcomePage* welcome_ = nullptr;
  QWidget* tables_ = nullptr;
  QAction* compare_ = nullptr;
  QAction* preferences_ = nullptr;
  QAction* resetLayout_ = nullptr;
  QAction* find_ = nullptr;
  QAction* copy_ = nullptr;
  QAction* shortcuts_ = nullptr;
  QAction* exportKernel_ = nullptr;
  QByteArray defaultState_;  // the docks as created, for Reset layout
  ExportAsker askExport_;
};

}  // namespace crucible::views
