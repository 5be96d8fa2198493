// SPDX-License-Identifier: GPL-3.0-or-later
// Run control's kernels of the user's own: the starting kernels (checked
// against the chosen task off the GUI thread) and the reference kernel, with
// the file dialogs that pick them. The rest of the view: run_control_view.cpp.
#include "views/runcontrol/run_control_view.h"

#include <QColor>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFuture>
#include <QListWidget>
#include <QPromise>
#include <QPushButton>
#include <QLabel>
#include <memory>
#include <thread>
#include "core/task/task_library.h"
#include "views/session/project_session.h"

namespace crucible::views {

void RunControlView::setStartingKernelChecker(StartingKernelChecker checker) {
  checker_ = std::move(checker);
  checkStartingKernels();
}

void RunControlView::addStartingKernel(const QString& kernelFile, const QString& tuneFile) {
  kernelFiles_.append({kernelFile, tuneFile});
  checkStartingKernels();
  kernels_->setCurrentRow(kernels_->count() - 1);
}

void RunControlView::removeStartingKernel(int row) {
  if (row < 0 || row >= kernelFiles_.size()) return;
  kernelFiles_.removeAt(row);
  checkStartingKernels();
}

bool RunControlView::checkingStartingKernels() const {
  return (!kernelFiles_.isEmpty() || !referenceFile_.kernel.isEmpty()) && checkedGeneration_ != checkGeneration_;
}

void RunControlView::setReferenceKernel(const QString& kernelFile, const QString& tuneFile) {
  referenceFile_ = {kernelFile, kernelFile.isEmpty() ? QString() : tuneFile};
  checkStartingKernels();
}

std::pair<std::string, std::string> RunControlView::chosenTaskSpec() const {
  const TaskId id = task_->currentData().toLongLong();
  if (id != 0 && session_->isOpen()) {
    for (const Task& t : session_->tasks())
      if (t.id == id) return {t.specJson, {}};
    return {};
  }
  const int i = builtinTasks_.indexOf(task_->currentData(Qt::UserRole + 1).toString());
  if (i < 0 || i >= builtinSpecFiles_.size()) return {};
  return {{}, builtinSpecFiles_[i].toStdString()};
}

void RunControlView::checkStartingKernels() {
  ++checkGeneration_;
  checks_.clear();
  referenceCheck_.reset();
  showStartingKernels();
  showReferenceKernel();
  if ((kernelFiles_.isEmpty() && referenceFile_.kernel.isEmpty()) || !checker_) {
    checkWatcher_->setFuture(QFuture<std::vector<StartingKernelCheck>>());  // drops a check in flight
    checkedGeneration_ = checkGeneration_;
    updateButtons();
    return;
  }
  auto [specJson, specFile] = chosenTaskSpec();
  auto promise = std::make_shared<QPromise<std::vector<StartingKernelCheck>>>();
  checkWatcher_->setFuture(promise->future());
  promise->start();
  // A thread of its own (as the lineage layout's): what it reads crosses at thread creation, and reading
  // the kernels and finding each one's legal starting point never holds up the GUI.
  std::thread([promise, checker = checker_, files = std::vector<StartingKernelFiles>(kernelFiles_.begin(), kernelFiles_.end()),
               reference = referenceFile_, specJson = std::move(specJson), specFile = std::move(specFile)]() mutable {
    // The reference kernel, if any, is checked as a starting kernel of its own (its name may be a starting
    // kernel's) and its check comes last.
    const bool hasReference = !reference.kernel.isEmpty();
    std::vector<StartingKernelCheck> found;
    if (specJson.empty() && !specFile.empty()) {
      try {
        specJson = readTaskSpecText(specFile);
      } catch (const std::exception& e) {
        for (const StartingKernelFiles& f : files)
          found.push_back({QFileInfo(f.kernel).completeBaseName(), QString::fromStdString(e.what())});
        if (hasReference) found.push_back({QFileInfo(reference.kernel).completeBaseName(), QString::fromStdString(e.what())});
      }
    }
    if (found.empty()) {
      if (specJson.empty()) {
        for (const StartingKernelFiles& f : files)
          found.push_back({QFileInfo(f.kernel).completeBaseName(), RunControlView::tr("the chosen task's spec is not known here")});
        if (hasReference)
          found.push_back({QFileInfo(reference.kernel).completeBaseName(), RunControlView::tr("the chosen task's spec is not known here")});
      } else {
        found = files.empty() ? std::vector<StartingKernelCheck>() : checker(files, specJson);
        found.resize(files.size());
        if (hasReference) {
          std::vector<StartingKernelCheck> ref = checker({reference}, specJson);
          ref.resize(1);
          found.push_back(ref.front());
        }
      }
    }
    found.resize(files.size() + (hasReference ? 1 : 0));
    promise->addResult(std::move(found));
    promise->finish();
  }).detach();
  updateButtons();
}

void RunControlView::showStartingKernels() {
  const int row = kernels_->currentRow();
  kernels_->clear();
  for (int i = 0; i < kernelFiles_.size(); ++i) {
    const StartingKernelFiles& f = kernelFiles_[i];
    QString file = QFileInfo(f.kernel).fileName();
    if (!f.tune.isEmpty()) file += tr(" with %1").arg(QFileInfo(f.tune).fileName());
    auto* item = new QListWidgetItem;
    if (i >= checks_.size()) {
      item->setText(tr("%1: checking...").arg(file));
    } else if (checks_[i].problem.isEmpty()) {
      item->setText(tr("%1: fits the task").arg(checks_[i].name));
      item->setToolTip(f.kernel);
    } else {
      item->setText(tr("%1: does not fit: %2").arg(checks_[i].name, checks_[i].problem));
      item->setToolTip(checks_[i].problem);
      item->setForeground(QColor(Qt::red));
    }
    kernels_->addItem(item);
  }
  if (row >= 0 && row < kernels_->count()) kernels_->setCurrentRow(row);
}

void RunControlView::showReferenceKernel() {
  const bool chosen = !referenceFile_.kernel.isEmpty();
  clearReference_->setEnabled(chosen && !(state_ == RunStatus::Running || state_ == RunStatus::Paused));
  reference_->setToolTip(chosen ? referenceFile_.kernel : QString());
  reference_->setStyleSheet(QString());
  if (!chosen) {
    reference_->setText(tr("The task's latest seal, or its baseline when it has none"));
    return;
  }
  QString file = QFileInfo(referenceFile_.kernel).fileName();
  if (!referenceFile_.tune.isEmpty()) file += tr(" with %1").arg(QFileInfo(referenceFile_.tune).fileName());
  if (!referenceCheck_) {
    reference_->setText(tr("%1: checking...").arg(file));
  } else if (referenceCheck_->problem.isEmpty()) {
    reference_->setText(tr("%1: fits the task; validated before the run measures against it").arg(file));
  } else {
    reference_->setText(tr("%1: does not fit: %2").arg(file, referenceCheck_->problem));
    reference_->setStyleSheet(QStringLiteral("color: red"));
  }
}

void RunControlView::askForReferenceKernel() {
  const QString file = QFileDialog::getOpenFileName(this, tr("Reference kernel"), QString(),
                                                    tr("CUDA kernels (*.cu *.cuh);;All files (*)"));
  if (!file.isEmpty()) setReferenceKernel(file);
}

void RunControlView::askForStartingKernel() {
  const QString file = QFileDialog::getOpenFileName(this, tr("Add starting kernel"), QString(),
                                                    tr("CUDA kernels (*.cu *.cuh);;All files (*)"));
  if (!file.isEmpty()) addStartingKernel(file);
}

void RunControlView::askForTuneFile() {
  const int row = kernels_->currentRow();
  if (row < 0 || row >= kernelFiles_.size()) return;
  const QString file = QFileDialog::getOpenFileName(this, tr("Tune file of %1").arg(QFileInfo(kernelFiles_[row].kernel).fileName()),
                                                    QFileInfo(kernelFiles_[row].kernel).absolutePath(),
                                                    tr("Tune files (*.json);;All files (*)"));
  if (file.isEmpty()) return;
  kernelFiles_[row].tune = file;
  checkStartingKernels();
}

}  // namespace crucible::views
