// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/session/project_session.h"
#include <QCoreApplication>
#include <algorithm>
#include <future>
#include "views/session/project_reader.h"

namespace crucible::views {
namespace {

const std::map<std::string, std::string> kNoDescriptor;

// While a run is active no GUI-thread read may happen: the GUI's own
// connection then belongs to no thread at all.
constexpr const char* kRunActiveOwner =
    "no thread while a run is in progress: the GUI reads through the project reader, off its thread";

}  // namespace

ProjectSession::ProjectSession(QObject* parent) : QObject(parent) {
  threadCheck_ = qEnvironmentVariableIntValue("CRUCIBLE_STORE_THREAD_CHECK") != 0;
  readerThread_.setObjectName(QStringLiteral("project reader"));
}

ProjectSession::~ProjectSession() {
  stopReader();
}

void ProjectSession::startReader() {
  if (reader_) return;
  // The sink runs on the reader's thread: the delta is posted to the session.
  reader_ = new ProjectReader([this](std::shared_ptr<const ProjectDelta> d) {
    toGui_.post([this, d] { apply(*d); });
  });
  toReader_ = new CallQueue(reader_);  // moves with its parent
  reader_->moveToThread(&readerThread_);
  readerThread_.start();
}

void ProjectSession::stopReader() {
  if (!reader_) return;
  onReaderAndWait([](ProjectReader& r) { r.close(); });
  readerThread_.quit();
  readerThread_.wait();
  delete reader_;  // its thread has finished; its timer is stopped
  reader_ = nullptr;
  toReader_ = nullptr;
  // Deltas and replies still queued belong to the project just closed.
  toGui_.clear();
}

void ProjectSession::post(std::function<void(const ProjectStore*)> onReader) {
  if (!reader_) return onReader(nullptr);
  this->onReader([fn = std::move(onReader)](ProjectReader& r) { r.withStore(fn); });
}

void ProjectSession::open(const QString& path) {
  // Both connections check the file as they open (quick_check): the reader's
  // opens on its thread while the GUI's opens here. The project shown so far
  // stays until both have opened.
  startReader();
  auto readerOpened = std::make_shared<std::promise<std::string>>();
  onReader([readerOpened, file = path.toStdString(), check = threadCheck_](ProjectReader& r) {
    try {
      r.prepare(file, check);
      readerOpened->set_value({});
    } catch (const StoreError& e) {
      readerOpened->set_value(e.what());
    }
  });
  std::unique_ptr<ProjectStore> store;
  std::string error;
  try {
    store = ProjectStore::open(path.toStdString(), ProjectStore::Mode::ReadOnly);
  } catch (const StoreError& e) {
    error = e.what();
  }
  const std::string readerError = readerOpened->get_future().get();
  if (error.empty()) error = readerError;
  if (!error.empty()) {
    onReaderAndWait([](ProjectReader& r) { r.discard(); });
    if (!store_) stopReader();  // nothing was open: no reader either
    throw StoreError(error);
  }
  // The newest run is shown first: the reader follows it and sends it whole.
  const auto runs = store->runs();
  const RunId run = runs.empty() ? 0 : runs.back().id;
  closeShown();
  onReaderAndWait([ms = pollInterval_](ProjectReader& r) {
    r.setPollInterval(ms);
    r.commit();
  });
  // What the reader sent of the previous project is dropped unread.
  toGui_.clear();
  onReaderAndWait([run](ProjectReader& r) {
    r.watch(run);
    r.poke();
  });
  store_ = std::move(store);
  store_->bindToThread();
  store_->setThreadCheck(threadCheck_);
  currentRun_ = run;
  appliedSequence_ = 0;
  quiet_ = Quiet::All;  // the views read all of it on projectOpened and currentRunChanged
  applyPosted();        // the first delta: the whole project, before anything paints
  quiet_ = Quiet::None;
  emit projectOpened();
  emit currentRunChanged(currentRun_);
}

void ProjectSession::close() {
  if (!store_) return;
  stopReader();
  closeShown();
}

void ProjectSession::closeShown() {
  if (!store_) return;
  store_.reset();
  currentRun_ = 0;
  selected_ = 0;
  clearShown();
  runs_.clear();
  tasks_.clear();
  seals_.clear();
  knowledge_.clear();
  ceilings_.clear();
  const bool wasActive = runActive();
  runActiveByStore_ = runActiveByCoordinator_ = false;
  if (wasActive) emit runActiveChanged(false);
  emit projectClosed();
}

QString ProjectSession::path() const {
  return store_ ? QString::fromStdString(store_->path()) : QString();
}

void ProjectSession::setStoreThreadCheck(bool on) {
  threadCheck_ = on;
  if (store_) store_->setThreadCheck(on);
  if (reader_) onReaderAndWait([on](ProjectReader& r) { r.setThreadCheck(on); });
}

void ProjectSession::setPollInterval(int milliseconds) {
  pollInterval_ = std::max(0, milliseconds);
  if (reader_)
    onReader([ms = pollInterval_](ProjectReader& r) { r.setPollInterval(ms); });
}

std::optional<Run> ProjectSession::run(RunId id) const {
  for (const Run& r : runs_)
    if (r.id == id) return r;
  return std::nullopt;
}

std::optional<Task> ProjectSession::task(TaskId id) const {
  for (const Task& t : tasks_)
    if (t.id == id) return t;
  return std::nullopt;
}

const CandidateSummary* ProjectSession::candidate(CandidateId id) const {
  const auto it = candidateRow_.constFind(id);
  return it == candidateRow_.constEnd() ? nullptr : &candidates_[static_cast<std::size_t>(*it)];
}

const std::map<std::string, std::string>& ProjectSession::eliteDescriptor(CandidateId id) const {
  const auto it = eliteDescriptors_.find(id);
  return it == eliteDescriptors_.end() ? kNoDescriptor : it->second;
}

void ProjectSession::setCurrentRun(RunId run) {
  if (run == currentRun_) return;
  currentRun_ = run;
  clearShown();
  if (reader_) {
    if (runActive()) {
      // Its candidates follow by delta; views show the run empty until then.
      onReader([run](ProjectReader& r) {
        r.watch(run);
        r.poke();
      });
    } else {
      onReaderAndWait([run](ProjectReader& r) { r.watch(run); });
      quiet_ = Quiet::RunParts;  // the views read the new run on currentRunChanged
      catchUp();
      quiet_ = Quiet::None;
    }
  }
  emit currentRunChanged(run);
}

void ProjectSession::selectCandidate(CandidateId id) {
  if (id == selected_) return;
  selected_ = id;
  emit candidateSelected(id);
}

void ProjectSession::notifyDataChanged() {
  if (!reader_) return;
  if (runActive()) onReader([](ProjectReader& r) { r.poke(); });
  else catchUp();
}

void ProjectSession::setRunActive(bool active) {
  runActiveByCoordinator_ = active;
  updateRunActive();
}

void ProjectSession::catchUp() {
  // The reader looks now and posts what it found behind any delta already
  // posted; applying the posted calls here keeps their order.
  onReaderAndWait([](ProjectReader& r) { r.poke(); });
  applyPosted();
}

void ProjectSession::applyPosted() { toGui_.runPosted(); }

void ProjectSession::onReader(std::function<void(ProjectReader&)> call) {
  toReader_->post([r = reader_, call = std::move(call)] { call(*r); });
}

void ProjectSession::onReaderAndWait(std::function<void(ProjectReader&)> call) {
  // The reader never waits for the GUI thread: waiting here cannot deadlock.
  std::promise<void> done;
  onReader([&](ProjectReader& r) {
    call(r);
    done.set_value();
  });
  done.get_future().wait();
}

void ProjectSession::clearShown() {
  candidates_.clear();
  candidateRow_.clear();
  archive_.clear();
  eliteDescriptors_.clear();
  verdicts_.clear();
  log_.clear();
}

void ProjectSession::updateRunActive() {
  bool byStore = false;
  for (const Run& r : runs_) byStore = byStore || r.status == RunStatus::Running;
  const bool was = runActive();
  runActiveByStore_ = byStore;
  if (runActive() == was) return;
  if (store_) {
    if (runActive()) store_->bindToThread(std::thread::id(), kRunActiveOwner);
    else store_->bindToThread();
  }
  emit runActiveChanged(runActive());
}

void ProjectSession::apply(const ProjectDelta& d) {
  if (d.sequence <= appliedSequence_) return;
  appliedSequence_ = d.sequence;
  if (d.runs) runs_ = *d.runs;
  if (d.tasks) tasks_ = *d.tasks;
  if (d.seals) seals_ = *d.seals;
  if (d.knowledge) knowledge_ = *d.knowledge;
  if (d.ceilings) ceilings_ = *d.ceilings;
  // Run-scoped parts of a run no longer shown are dropped: the reader
  // already follows the current one and sends it whole.
  const bool forShownRun = d.run == currentRun_;
  if (forShownRun) {
    if (d.runReset) {
      clearShown();
      candidates_ = d.candidates;
      for (std::size_t i = 0; i < candidates_.size(); ++i) candidateRow_.insert(candidates_[i].id, static_cast<int>(i));
    } else {
      for (const CandidateSummary& s : d.candidates) {
        if (const auto it = candidateRow_.constFind(s.id); it != candidateRow_.constEnd()) {
          candidates_[static_cast<std::size_t>(*it)] = s;
        } else {
          candidateRow_.insert(s.id, static_cast<int>(candidates_.size()));
          candidates_.push_back(s);
        }
      }
    }
    log_.insert(log_.end(), d.log.begin(), d.log.end());
    if (log_.size() > static_cast<std::size_t>(2 * ProjectDeltaTracker::kLogTail))
      log_.erase(log_.begin(), log_.end() - ProjectDeltaTracker::kLogTail);
    if (d.archive) archive_ = *d.archive;
    for (const auto& [id, descriptor] : d.eliteDescriptors) eliteDescriptors_[id] = descriptor;
    if (d.verdicts) verdicts_ = *d.verdicts;
  }
  if (d.runs) updateRunActive();
  if (quiet_ == Quiet::All) return;
  if (d.runs || d.tasks) emit runsChanged();
  if (forShownRun && quiet_ == Quiet::None) {
    if (d.runReset || !d.candidates.empty()) emit candidatesChanged(d.candidates, d.runReset);
    if (d.runReset || !d.log.empty()) emit logChanged(d.log, d.runReset);
    if (d.archive) emit archiveChanged();
    if (d.verdicts) emit verdictsChanged();
  }
  if (d.seals) emit sealsChanged();
  if (d.knowledge) emit knowledgeChanged();
  if (d.ceilings) emit ceilingsChanged();
  if (quiet_ == Quiet::None) emit dataChanged();
}

}  // namespace crucible::views
