// SPDX-License-Identifier: GPL-3.0-or-later
// The main window's kernels: the kernel editor dock (fork a candidate or open a .cu file,
// unsaved edits guarded) and Export kernel... of a candidate or a seal, through core's bundles.
#include "views/mainwindow/main_window.h"
#include "views/common/status_names.h"
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
#include "views/lineage/lineage_view.h"

namespace crucible::views {
namespace {

// What the editor compiles for when neither the run nor the candidate names an architecture.
const char* const kDefaultEditorArch = "sm_90";

// The architecture a run compiles for ("" when its settings name none or cannot be read).
std::string runCompileArch(const std::optional<Run>& run) {
  if (!run) return {};
  try {
    return runSettingsFromJson(run->settingsJson).compileArch;
  } catch (const std::exception&) {
    return {};  // settings this build cannot read: the caller's fallback decides
  }
}

}  // namespace

void MainWindow::installKernelEditor(KernelInspector& inspector) {
  if (editor_) return;
  const ViewDock d = createKernelEditorDock(inspector, this);
  editor_ = qobject_cast<KernelEditorView*>(d.widget);
  auto* dock = new QDockWidget(d.title, this);
  dock->setObjectName(d.objectName);
  dock->setWidget(d.widget);
  viewDocks_.insert(d.viewName, dock);
  addDockWidget(d.area, dock);
  dock->hide();  // until a kernel is forked or opened
  viewMenu_->addAction(dock->toggleViewAction());
  viewMenu_->setEnabled(true);
  updateEditorActions();
}

void MainWindow::updateEditorActions() {
  if (!fork_) return;
  const bool open = session_->isOpen();
  if (exportKernel_) exportKernel_->setEnabled(open && session_->selectedCandidate() != 0);
  if (!editor_) {
    for (QAction* a : {fork_, openKernel_}) {
      a->setEnabled(false);
      a->setToolTip(tr("This build of the workbench has no kernel editor"));
    }
    return;
  }
  fork_->setEnabled(open && session_->selectedCandidate() != 0);
  fork_->setToolTip(fork_->isEnabled() ? tr("Open the selected candidate in the kernel editor, as a fork of it")
                                       : tr("Select a candidate to fork"));
  openKernel_->setEnabled(open && session_->currentRun() != 0);
  openKernel_->setToolTip(openKernel_->isEnabled() ? tr("Open a .cu file in the kernel editor against the current run")
                                                   : tr("Open a project and select a run: a kernel joins a run"));
}

void MainWindow::forkCandidate(CandidateId id) {
  if (!editor_) return statusBar()->showMessage(tr("This build of the workbench has no kernel editor."), 10000);
  if (!session_->isOpen()) return;
  // A full candidate: off the GUI thread during a run, like every such read.
  session_->read(
      this, [id](const ProjectStore& store) { return store.candidate(id); },
      [this, id](std::optional<Candidate> c) {
        if (!c) return statusBar()->showMessage(tr("Candidate #%1 is not in this project.").arg(id), 10000);
        // The run's compile architecture, else what the candidate was compiled for, else the default.
        std::string arch = runCompileArch(session_->run(c->runId));
        if (arch.empty() && c->compile && !c->compile->arch.empty()) arch = c->compile->arch;
        if (arch.empty()) arch = kDefaultEditorArch;
        const QString origin = tr("Fork of #%1 (%2, %3)")
                                   .arg(id)
                                   .arg(statusName(c->status), QString::fromStdString(c->mutation));
        openInEditor(c->source, c->launch, id, c->runId, origin, arch);
      });
}

QString MainWindow::openKernelFile(const QString& path) {
  if (!editor_) return tr("This build of the workbench has no kernel editor.");
  const RunId run = session_->isOpen() ? session_->currentRun() : 0;
  if (run == 0) return tr("Open a project and select a run first: an opened kernel joins a run.");
  std::string source;
  try {
    source = readKernelSourceFile(path.toStdString());
  } catch (const std::exception& e) {
    return tr("Cannot open the kernel: %1").arg(QString::fromStdString(e.what()));
  }
  if (source.find_first_not_of(" \t\r\n") == std::string::npos) return tr("%1 is empty: there is no kernel to edit.").arg(path);
  // Blank launch fields: the kernel is launched by the run reference's rule until the user types one.
  LaunchRule blank;
  for (int i = 0; i < 3; ++i) blank.grid[i].clear(), blank.block[i].clear();
  blank.dynamicSmemBytes.clear();
  const std::string arch = runCompileArch(session_->run(run));
  openInEditor(source, blank, 0, run, tr("%1 (opened file, joins run %2)").arg(QFileInfo(path).fileName()).arg(run),
               arch.empty() ? kDefaultEditorArch : arch);
  return {};
}

void MainWindow::openKernelDialog() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Open kernel"), QString(),
                                                    tr("CUDA source (*.cu *.cuh);;All files (*)"));
  if (path.isEmpty()) return;
  const QString error = openKernelFile(path);
  if (!error.isEmpty()) QMessageBox::warning(this, tr("Cannot open kernel"), error);
}

bool MainWindow::mayReplaceEdits() {
  if (!editor_->hasUnkeptEdits()) return true;
  if (askDiscardEdits_) return askDiscardEdits_();
  return QMessageBox::question(this, tr("Discard your edits?"),
                               tr("The kernel editor holds edits that were not evaluated. Open another kernel and "
                                  "discard them?"),
                               QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Cancel) == QMessageBox::Discard;
}

void MainWindow::openInEditor(const std::string& source, const LaunchRule& launch, CandidateId parent, RunId run,
                              const QString& origin, const std::string& arch) {
  if (!mayReplaceEdits()) return statusBar()->showMessage(tr("Kept your edits in the kernel editor."), 10000);
  const std::optional<Run> r = session_->run(run);
  const std::optional<Task> task = r ? session_->task(r->taskId) : std::nullopt;
  editor_->setTask(task ? QString::fromStdString(task->name) : tr("(unknown task)"), task ? task->specJson : std::string(),
                   arch);
  editor_->open(source, launch, parent, origin);
  editorRun_ = run;
  raiseView(QStringLiteral("editor"));
  emit kernelEditorOpened(parent);
}

QString MainWindow::exportCandidate(CandidateId id, ExportFormat format, const QString& dir, QStringList* written) {
  const ProjectStore* store = session_->store();
  if (!store) return tr("No project is open.");
  if (session_->runActive()) return tr("A run is in progress: export once it has stopped.");
  try {
    const std::optional<Candidate> c = store->candidate(id);
    if (!c) return tr("Candidate #%1 is not in this project.").arg(id);
    if (c->status != CandidateStatus::Valid && c->status != CandidateStatus::Reference)
      return tr("Candidate #%1 is %2: only a valid kernel is exported.").arg(id).arg(statusName(c->status));
    const std::optional<Run> run = store->run(c->runId);
    const std::optional<Task> task = run ? store->task(run->taskId) : std::nullopt;
    if (!task) return tr("The task of candidate #%1 is not in this project.").arg(id);
    KernelExportInput in{*task, *c, std::nullopt, std::string()};
    for (const Seal& seal : store->seals(task->id))  // newest first
      if (seal.candidateId == id) {
        in.seal = seal;
        break;
      }
    in.measuredOn = exportMeasuredOn(in.seal, store->ceilings());  // as crucible-cli best says it
    if (!QDir().mkpath(dir)) return tr("Cannot create the folder %1.").arg(dir);
    for (const ExportedFile& f : kernelExportFiles(in, format)) {
      const QString path = QDir(dir).filePath(QString::fromStdString(f.path));
      QSaveFile file(path);
      if (!file.open(QIODevice::WriteOnly) ||
          file.write(f.content.data(), static_cast<qint64>(f.content.size())) != static_cast<qint64>(f.content.size()) ||
          !file.commit())
        return tr("Cannot write %1: %2").arg(path, file.errorString());
      if (written) *written << path;
    }
  } catch (const std::exception& e) {
    return tr("Cannot export candidate #%1: %2").arg(id).arg(QString::fromUtf8(e.what()));
  }
  return {};
}

void MainWindow::exportKernelDialog(CandidateId id) {
  std::optional<ExportChoice> choice;
  if (askExport_) {
    choice = askExport_(id);
  } else {
    const QStringList formats{tr("cu — the kernel with its host launcher and launch rule"),
                              tr("torch — a PyTorch extension, and the task's baseline to compare"),
                              tr("flashinfer — a FlashInfer-Trace solution")};
    bool ok = false;
    const QString picked = QInputDialog::getItem(this, tr("Export kernel #%1").arg(id), tr("Format:"), formats, 0, false, &ok);
    if (!ok) return;
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Export kernel #%1 into").arg(id));
    if (dir.isEmpty()) return;
    const qsizetype i = formats.indexOf(picked);
    choice = ExportChoice{i == 1 ? ExportFormat::Torch : i == 2 ? ExportFormat::FlashInfer : ExportFormat::Cu, dir};
  }
  if (!choice) return;
  QStringList written;
  const QString error = exportCandidate(id, choice->format, choice->dir, &written);
  if (!error.isEmpty()) {
    if (askExport_) statusBar()->showMessage(error, 15000);
    else QMessageBox::warning(this, tr("Cannot export kernel"), error);
    return;
  }
  statusBar()->showMessage(tr("Exported #%1: %2").arg(id).arg(written.join(QStringLiteral(", "))), 15000);
}

}  // namespace crucible::views
