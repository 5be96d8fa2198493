// SPDX-License-Identifier: GPL-3.0-or-later
// The GUI's view of one open project: what the views show (runs, the current
// run's candidates, archive, verdicts and log, seals, knowledge, ceilings),
// kept current by a ProjectReader on a thread of its own that sends typed
// changes; the current run; and the candidate selected anywhere (every view
// follows). Views read this object, never the store, while a run is active;
// reads it cannot hold (a full candidate, the roofline's rows) go through
// read(), which runs them on the reader's thread during a run.
#pragma once
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QThread>
#include <QtDebug>
#include <functional>
#include <memory>
#include <optional>
#include "core/model/ids.h"
#include "core/store/project_delta.h"
#include "core/store/project_store.h"
#include "views/session/call_queue.h"

namespace crucible::views {

class ProjectReader;

class ProjectSession : public QObject {
  Q_OBJECT
public:
  static constexpr int kDefaultPollMilliseconds = 500;

  explicit ProjectSession(QObject* parent = nullptr);
  ~ProjectSession() override;

  // Opens the project read-only for the GUI and reads it whole before
  // returning (first paint shows it); throws crucible::StoreError.
  void open(const QString& path);
  void close();
  bool isOpen() const { return store_ != nullptr; }
  QString path() const;
  // The GUI thread's own connection, for reads outside a run (nullptr when
  // no project is open). During a run the GUI thread must not use it: with
  // the store thread check on, any use then throws.
  const ProjectStore* store() const { return store_.get(); }

  RunId currentRun() const { return currentRun_; }
  CandidateId selectedCandidate() const { return selected_; }

  // A run of this project is in progress (one the store says is running, or
  // one the run coordinator announced).
  bool runActive() const { return runActiveByStore_ || runActiveByCoordinator_; }
  // Every use of a store on a thread that does not own it throws (see
  // ProjectStore::setThreadCheck); off unless CRUCIBLE_STORE_THREAD_CHECK=1.
  void setStoreThreadCheck(bool on);
  bool storeThreadCheck() const { return threadCheck_; }
  // The polling interval of data_version (0: poke only).
  void setPollInterval(int milliseconds);
  int pollInterval() const { return pollInterval_; }
  ProjectReader* reader() const { return reader_; }

  // --- what the views show, as last sent by the reader
  const std::vector<Run>& runs() const { return runs_; }
  std::optional<Run> run(RunId id) const;
  const std::vector<Task>& tasks() const { return tasks_; }
  std::optional<Task> task(TaskId id) const;
  // The current run's candidates, ordered by id.
  const std::vector<CandidateSummary>& candidates() const { return candidates_; }
  const CandidateSummary* candidate(CandidateId id) const;
  const std::vector<ArchiveCell>& archive() const { return archive_; }
  // An archive elite's behavioural descriptors (empty when unknown).
  const std::map<std::string, std::string>& eliteDescriptor(CandidateId id) const;
  const std::vector<ReviewVerdict>& verdicts() const { return verdicts_; }
  const std::vector<Seal>& seals() const { return seals_; }
  const std::vector<KnowledgeEntry>& knowledge() const { return knowledge_; }
  const std::vector<Ceiling>& ceilings() const { return ceilings_; }
  // The current run's latest log lines, oldest first.
  const std::vector<LogLine>& log() const { return log_; }

  // Runs query with a store and hands its result to reply on the GUI thread,
  // unless context is gone by then. Outside a run: at once, with the GUI's
  // connection. During a run: on the reader's thread, replied by queued call.
  // A StoreError from query reaches reply's caller at once, and is logged
  // when queued.
  template <class Query, class Reply>
  void read(QObject* context, Query query, Reply reply);

public slots:
  void setCurrentRun(crucible::RunId run);
  void selectCandidate(crucible::CandidateId id);
  // Something was recorded (an engine event, a verdict): catch up. Outside a
  // run the views show it when this returns; during a run the reader is
  // poked and the change arrives by queued delta.
  void notifyDataChanged();
  // The run coordinator's word that a run is (not) in progress.
  void setRunActive(bool active);

signals:
  void projectOpened();
  void projectClosed();
  void currentRunChanged(crucible::RunId run);
  void candidateSelected(crucible::CandidateId id);
  void runActiveChanged(bool active);
  // Typed changes, after the session holds them. reset: the current run's
  // candidates (log) were replaced whole; otherwise changed: new and changed ones.
  void candidatesChanged(const std::vector<crucible::CandidateSummary>& changed, bool reset);
  void logChanged(const std::vector<crucible::LogLine>& added, bool reset);
  void runsChanged();
  void archiveChanged();
  void verdictsChanged();
  void sealsChanged();
  void knowledgeChanged();
  void ceilingsChanged();
  // After any change above was applied.
  void dataChanged();

private:
  void startReader();
  void stopReader();
  // Forgets the open project (store, what was shown) and says so; the reader is left alone.
  void closeShown();
  void apply(const ProjectDelta& d);
  void applyPosted();
  void catchUp();
  void clearShown();
  void updateRunActive();
  void post(std::function<void(const ProjectStore*)> onReader);
  // Runs call on the reader's thread, after every call posted before it;
  // AndWait returns when it has run.
  void onReader(std::function<void(ProjectReader&)> call);
  void onReaderAndWait(std::function<void(ProjectReader&)> call);

  std::unique_ptr<ProjectStore> store_;
  QThread readerThread_;
  ProjectReader* reader_ = nullptr;
  CallQueue* toReader_ = nullptr;  // calls run on the reader's thread (a child of reader_)
  CallQueue toGui_;                // deltas and read replies, run on the GUI thread in order
  RunId currentRun_ = 0;
  CandidateId selected_ = 0;
  bool threadCheck_ = false;
  int pollInterval_ = kDefaultPollMilliseconds;
  bool runActiveByStore_ = false;
  bool runActiveByCoordinator_ = false;
  std::int64_t appliedSequence_ = 0;
  // Signals left out while the views are about to read everything (All) or
  // the current run (RunParts) anyway.
  enum class Quiet { None, RunParts, All } quiet_ = Quiet::None;

  std::vector<Run> runs_;
  std::vector<Task> tasks_;
  std::vector<CandidateSummary> candidates_;
  QHash<CandidateId, int> candidateRow_;
  std::vector<ArchiveCell> archive_;
  std::map<CandidateId, std::map<std::string, std::string>> eliteDescriptors_;
  std::vector<ReviewVerdict> verdicts_;
  std::vector<Seal> seals_;
  std::vector<KnowledgeEntry> knowledge_;
  std::vector<Ceiling> ceilings_;
  std::vector<LogLine> log_;
};

template <class Query, class Reply>
void ProjectSession::read(QObject* context, Query query, Reply reply) {
  using Result = std::decay_t<std::invoke_result_t<Query, const ProjectStore&>>;
  if (!runActive() || !reader_) {
    if (store_) reply(query(*store_));
    return;
  }
  QPointer<QObject> guard(context);
  post([this, guard, query = std::move(query), reply = std::move(reply), path = path()](const ProjectStore* store) mutable {
    if (!store) return;
    std::shared_ptr<Result> result;
    try {
      result = std::make_shared<Result>(query(*store));
    } catch (const std::exception& e) {
      qWarning("crucible: reading %s failed: %s", qPrintable(path), e.what());
      return;
    }
    // Queued to the GUI thread behind any delta sent before (the session outlives its reader's thread).
    toGui_.post([guard, result, reply = std::move(reply)]() mutable {
      if (guard) reply(std::move(*result));
    });
  });
}

}  // namespace crucible::views
