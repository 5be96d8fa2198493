// SPDX-License-Identifier: GPL-3.0-or-later
// Nothing typed is lost (issue 17): the kernel editor's unsaved edit is kept
// in the project as the user types (a pause of kSaveDelayMs after the last
// keystroke), written by a thread of its own through a read-write connection
// of its own (the GUI's connection is read-only and may not be used during a
// run). When a project opens, the drafts it holds are offered back one at a
// time: "Restore unsaved edit of kernel forked from #N (saved HH:MM)?" with
// Restore / Discard / Later (kept, offered again next time). A draft is deleted when its edit is evaluated into a
// candidate, discarded at the offer, or thrown away for another kernel (the
// window asks before that). A clean quit keeps it, like a crash.
#pragma once
#include <QObject>
#include <QString>
#include <QTemporaryDir>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>
#include "core/store/project_store.h"
#include "views/session/call_queue.h"

class QMessageBox;
class QTimer;

namespace crucible::views {
class MainWindow;
}

namespace crucible::app {

class DraftKeeper : public QObject {
  Q_OBJECT
public:
  // A pause in typing this long saves the draft: at most this much typing is
  // lost by a crash, and a save is not a commit per keystroke.
  static constexpr int kSaveDelayMs = 1500;

  // The window must have its kernel editor installed (else the keeper does nothing).
  explicit DraftKeeper(views::MainWindow& window, QObject* parent = nullptr);
  // Saves the edit still waiting for its pause, then waits for the writer.
  ~DraftKeeper() override;

  void setSaveDelay(int milliseconds);
  // Saves the editor's edit now, if it has one not saved yet.
  void saveNow();
  // The editor's edit is kept elsewhere now (evaluated into a candidate): its draft goes.
  void forgetEditorDraft();

  // The open offer (a non-modal question), nullptr when none is shown.
  QMessageBox* offer() const { return offer_; }
  const std::optional<KernelDraft>& offered() const { return offered_; }
  // Answers the offer: the edit goes back into the editor / the draft is deleted.
  // Then the next draft is offered. false when nothing is offered.
  bool restoreOffered();
  bool discardOffered();
  // How many saves and deletes the writer has finished (tests wait on these).
  int savesWritten() const { return saves_; }
  int deletesWritten() const { return deletes_; }

  // The question for one draft ("Restore unsaved edit of kernel forked from #12 (saved 14:03)?").
  static QString offerText(const KernelDraft& draft);

signals:
  void draftSaved(crucible::RunId run, crucible::CandidateId parent);
  void draftDeleted(crucible::RunId run, crucible::CandidateId parent);
  void draftOffered(const QString& text);
  void draftRestored(crucible::RunId run, crucible::CandidateId parent);
  // A draft could not be kept (a read-only project, a failed write); also shown in the status bar.
  void problem(const QString& message);

private:
  struct Key {
    RunId run = 0;
    CandidateId parent = 0;
    bool operator==(const Key&) const = default;
  };
  struct Job {
    std::string path;
    std::optional<KernelDraft> save;  // unset: delete key
    Key key;
  };

  void onProjectOpened();
  void onProjectClosed();
  void onEditorOpened(CandidateId parent);
  void onEdited();
  void offerNext();
  void closeOffer();
  void enqueue(Job job);
  void work();
  void report(const QString& message);
  void post(std::function<void()> call) { calls_.post(std::move(call)); }

  views::MainWindow& window_;
  QTimer* pause_ = nullptr;
  std::string path_;               // the open project ("" when none, or when it cannot keep drafts)
  std::optional<Key> current_;     // what the editor holds
  bool unsaved_ = false;           // the editor changed since the last save
  std::optional<KernelDraft> restoring_;  // waiting for the window to open its kernel
  std::deque<KernelDraft> toOffer_;
  std::optional<KernelDraft> offered_;
  QMessageBox* offer_ = nullptr;
  QTemporaryDir fileDrafts_;       // a draft of a file kernel is reopened from here
  int saves_ = 0, deletes_ = 0;    // GUI thread

  views::CallQueue calls_{this};
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Job> jobs_;           // guarded by mutex_
  bool stopping_ = false;          // guarded by mutex_
  std::thread writer_;             // last: started after everything it reads
};

}  // namespace crucible::app
