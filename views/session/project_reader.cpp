// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/session/project_reader.h"
#include <QtDebug>

namespace crucible::views {

ProjectReader::ProjectReader(Sink sink) : sink_(std::move(sink)) {}
ProjectReader::~ProjectReader() = default;

void ProjectReader::prepare(const std::string& path, bool threadCheck) {
  pending_.reset();
  auto store = ProjectStore::open(path, ProjectStore::Mode::ReadOnly);
  store->bindToThread(std::this_thread::get_id(), "the project reader's thread");
  store->setThreadCheck(threadCheck);
  pending_ = std::move(store);
}

void ProjectReader::commit() {
  if (!pending_) return;
  close();
  store_ = std::move(pending_);
  tracker_ = ProjectDeltaTracker();
  reportedError_ = false;
  if (!timer_) {
    timer_ = new QTimer(this);
    connect(timer_, &QTimer::timeout, this, [this] { look(true); });
  }
  setPollInterval(interval_);
}

void ProjectReader::setThreadCheck(bool on) {
  for (ProjectStore* s : {store_.get(), pending_.get()})
    if (s) s->setThreadCheck(on);
}

void ProjectReader::close() {
  if (timer_) timer_->stop();
  store_.reset();
  seenVersion_ = -1;
}

void ProjectReader::watch(RunId run) { tracker_.watch(run); }

void ProjectReader::setPollInterval(int milliseconds) {
  interval_ = milliseconds;
  if (!timer_) return;
  timer_->setInterval(milliseconds);
  if (store_ && milliseconds > 0) timer_->start();
  else timer_->stop();
}

void ProjectReader::withStore(const std::function<void(const ProjectStore*)>& fn) { fn(store_.get()); }

void ProjectReader::poke() { look(false); }

void ProjectReader::look(bool onlyIfVersionMoved) {
  if (!store_) return;
  try {
    // data_version moves only when another connection commits: a cheap probe.
    const std::int64_t version = store_->dataVersion();
    if (onlyIfVersionMoved && version == seenVersion_) return;
    seenVersion_ = version;
    auto delta = std::make_shared<ProjectDelta>(tracker_.look(*store_));
    reportedError_ = false;
    if (!delta->empty()) sink_(std::move(delta));
  } catch (const StoreError& e) {
    // Said once per trouble: a file gone or unreadable is polled every interval.
    if (!reportedError_) qWarning("crucible: cannot read %s for changes: %s", store_->path().c_str(), e.what());
    reportedError_ = true;
  }
}

}  // namespace crucible::views
