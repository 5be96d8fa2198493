// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/draft_keeper.h"

#include <QDateTime>
#include <QFile>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>
#include <QTimer>
#include "views/editor/kernel_editor_view.h"
#include "views/mainwindow/main_window.h"
#include "views/session/project_session.h"

namespace crucible::app {
namespace {

constexpr int kStatusMs = 15000;

}  // namespace

DraftKeeper::DraftKeeper(views::MainWindow& window, QObject* parent) : QObject(parent), window_(window) {
  pause_ = new QTimer(this);
  pause_->setSingleShot(true);
  pause_->setInterval(kSaveDelayMs);
  connect(pause_, &QTimer::timeout, this, &DraftKeeper::saveNow);
  views::ProjectSession* session = window_.session();
  connect(session, &views::ProjectSession::projectOpened, this, &DraftKeeper::onProjectOpened);
  connect(session, &views::ProjectSession::projectClosed, this, &DraftKeeper::onProjectClosed);
  if (views::KernelEditorView* editor = window_.kernelEditor()) {
    connect(editor, &views::KernelEditorView::edited, this, &DraftKeeper::onEdited);
    connect(&window_, &views::MainWindow::kernelEditorOpened, this, &DraftKeeper::onEditorOpened);
  }
  writer_ = std::thread([this] { work(); });
  if (session->isOpen()) onProjectOpened();
}

DraftKeeper::~DraftKeeper() {
  if (pause_->isActive()) saveNow();
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;  // the jobs queued so far are still written
  }
  wake_.notify_all();
  writer_.join();
}

void DraftKeeper::setSaveDelay(int milliseconds) { pause_->setInterval(std::max(0, milliseconds)); }

void DraftKeeper::report(const QString& message) {
  window_.statusBar()->showMessage(message, kStatusMs);
  emit problem(message);
}

void DraftKeeper::onProjectOpened() {
  closeOffer();
  toOffer_.clear();
  restoring_.reset();
  path_.clear();
  views::ProjectSession* session = window_.session();
  const std::string path = session->path().toStdString();
  // A project that cannot be written keeps no draft, and offers none: there is nothing to delete either.
  if (const std::string why = ProjectStore::writeProblem(path); !why.empty()) return;
  if (!window_.kernelEditor()) return;
  path_ = path;
  session->read(
      this, [](const ProjectStore& store) { return store.drafts(); },
      [this, path](std::vector<KernelDraft> drafts) {
        if (path != path_) return;  // another project opened meanwhile
        toOffer_.assign(drafts.begin(), drafts.end());
        offerNext();
      });
}

void DraftKeeper::onProjectClosed() {
  // What the editor holds was typed against the project just closed: keep it there.
  if (pause_->isActive()) saveNow();
  closeOffer();
  toOffer_.clear();
  restoring_.reset();
  path_.clear();
  current_.reset();
  unsaved_ = false;
}

void DraftKeeper::onEditorOpened(CandidateId parent) {
  views::KernelEditorView* editor = window_.kernelEditor();
  const Key key{window_.kernelEditorRun(), parent};
  pause_->stop();
  if (restoring_ && restoring_->runId == key.run && restoring_->parent == key.parent) {
    const KernelDraft d = *restoring_;
    restoring_.reset();
    current_ = key;
    editor->restoreDraft(d.source, d.launch, QString::fromStdString(d.note));
    unsaved_ = false;  // the store holds exactly this
    emit draftRestored(d.runId, d.parent);
    return;
  }
  restoring_.reset();
  // The window replaced the editor's kernel only if its edits were kept or the user
  // agreed to discard them: the draft of what it held goes.
  if (current_ && !path_.empty()) enqueue({path_, std::nullopt, *current_});
  current_ = key;
  unsaved_ = false;
}

void DraftKeeper::onEdited() {
  if (!current_ || current_->run == 0 || path_.empty()) return;
  unsaved_ = true;
  pause_->start();
}

void DraftKeeper::saveNow() {
  pause_->stop();
  views::KernelEditorView* editor = window_.kernelEditor();
  if (!editor || !unsaved_ || !current_ || path_.empty()) return;
  KernelDraft d;
  d.runId = current_->run;
  d.parent = current_->parent;
  d.source = editor->source();
  d.launch = editor->typedLaunchRule();
  d.note = editor->note().toStdString();
  d.origin = editor->origin().toStdString();
  d.savedAt = QDateTime::currentMSecsSinceEpoch();
  unsaved_ = false;
  enqueue({path_, std::move(d), *current_});
}

void DraftKeeper::forgetEditorDraft() {
  pause_->stop();
  unsaved_ = false;
  if (current_ && !path_.empty()) enqueue({path_, std::nullopt, *current_});
}

void DraftKeeper::enqueue(Job job) {
  {
    std::lock_guard lock(mutex_);
    // Only the newest text of a kernel matters: it replaces a save of the same kernel still waiting.
    if (job.save && !jobs_.empty() && jobs_.back().save && jobs_.back().key == job.key && jobs_.back().path == job.path)
      jobs_.back() = std::move(job);
    else
      jobs_.push_back(std::move(job));
  }
  wake_.notify_one();
}

void DraftKeeper::work() {
  std::unique_ptr<ProjectStore> store;
  const bool check = qEnvironmentVariableIntValue("CRUCIBLE_STORE_THREAD_CHECK") != 0;
  for (;;) {
    Job job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
      if (jobs_.empty()) return;
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    QString error;
    try {
      if (!store || store->path() != job.path) {
        store.reset();
        store = ProjectStore::open(job.path);  // read-write; migrates an older project
        store->bindToThread(std::this_thread::get_id(), "the kernel editor's draft writer");
        store->setThreadCheck(check);
      }
      if (job.save) store->saveDraft(*job.save);
      else store->deleteDraft(job.key.run, job.key.parent);
    } catch (const std::exception& e) {
      store.reset();
      error = QString::fromStdString(e.what());
    }
    post([this, job = std::move(job), error] {
      if (!error.isEmpty()) {
        report(job.save ? tr("Your unsaved edit could not be kept in the project: %1").arg(error)
                        : tr("An old draft could not be deleted from the project: %1").arg(error));
        return;
      }
      if (job.save) {
        ++saves_;
        emit draftSaved(job.key.run, job.key.parent);
      } else {
        ++deletes_;
        emit draftDeleted(job.key.run, job.key.parent);
      }
    });
  }
}

QString DraftKeeper::offerText(const KernelDraft& d) {
  const QString saved = QDateTime::fromMSecsSinceEpoch(d.savedAt).toString(QStringLiteral("HH:mm"));
  if (d.parent != 0)
    return tr("Restore unsaved edit of kernel forked from #%1 (saved %2)?").arg(d.parent).arg(saved);
  return tr("Restore unsaved edit of a kernel opened from a file into run #%1 (saved %2)?").arg(d.runId).arg(saved);
}

void DraftKeeper::offerNext() {
  closeOffer();
  if (toOffer_.empty()) return;
  offered_ = toOffer_.front();
  toOffer_.pop_front();
  offer_ = new QMessageBox(QMessageBox::Question, tr("Unsaved kernel edit"), offerText(*offered_), QMessageBox::NoButton,
                           &window_);
  offer_->setObjectName(QStringLiteral("draftOffer"));
  offer_->setInformativeText(tr("The kernel editor held an edit that was not evaluated when the workbench last "
                                "closed. Discard deletes it from the project."));
  QPushButton* restore = offer_->addButton(tr("Restore"), QMessageBox::AcceptRole);
  restore->setObjectName(QStringLiteral("draftRestore"));
  QPushButton* discard = offer_->addButton(tr("Discard"), QMessageBox::DestructiveRole);
  discard->setObjectName(QStringLiteral("draftDiscard"));
  // Later: neither; the draft stays in the project and is offered when it opens again.
  QPushButton* later = offer_->addButton(tr("Later"), QMessageBox::RejectRole);
  later->setObjectName(QStringLiteral("draftLater"));
  offer_->setDefaultButton(restore);
  offer_->setWindowModality(Qt::NonModal);  // the workbench stays usable; the question waits
  connect(offer_, &QMessageBox::buttonClicked, this, [this, restore, discard](QAbstractButton* b) {
    if (b == restore) restoreOffered();
    else if (b == discard) discardOffered();
    else offerNext();  // Later (or Escape)
  });
  offer_->show();
  emit draftOffered(offer_->text());
}

void DraftKeeper::closeOffer() {
  offered_.reset();
  if (!offer_) return;
  offer_->disconnect(this);
  offer_->hide();
  offer_->deleteLater();
  offer_ = nullptr;
}

bool DraftKeeper::restoreOffered() {
  if (!offered_) return false;
  const KernelDraft d = *offered_;
  closeOffer();
  restoring_ = d;
  if (d.parent != 0) {
    // The window reads the forked candidate (off the GUI thread during a run) and
    // opens it; onEditorOpened then puts the edit back.
    window_.forkCandidate(d.parent);
  } else {
    // A file kernel: reopened from a copy of its text in the run it joins.
    window_.session()->setCurrentRun(d.runId);
    const QString file = fileDrafts_.filePath(QStringLiteral("restored-draft.cu"));
    QFile f(file);
    QString error;
    if (!fileDrafts_.isValid() || !f.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        f.write(d.source.data(), static_cast<qint64>(d.source.size())) < 0 || !f.flush())
      error = tr("cannot write a scratch copy: %1").arg(f.errorString());
    f.close();
    if (error.isEmpty()) error = window_.openKernelFile(file);
    if (!error.isEmpty()) {
      restoring_.reset();
      report(tr("The unsaved edit was not restored (it stays in the project): %1").arg(error));
    }
  }
  offerNext();
  return true;
}

bool DraftKeeper::discardOffered() {
  if (!offered_) return false;
  const KernelDraft d = *offered_;
  closeOffer();
  if (!path_.empty()) enqueue({path_, std::nullopt, {d.runId, d.parent}});
  offerNext();
  return true;
}

}  // namespace crucible::app
