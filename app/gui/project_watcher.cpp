// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/project_watcher.h"
#include <QtDebug>
#include "views/session/project_session.h"

namespace crucible::app {

ProjectWatcher::ProjectWatcher(views::ProjectSession* session, std::chrono::milliseconds interval, QObject* parent)
    : QObject(parent), session_(session) {
  timer_.setInterval(interval);
  connect(&timer_, &QTimer::timeout, this, &ProjectWatcher::check);
  connect(session_, &views::ProjectSession::projectOpened, this, [this] {
    reportedError_ = false;
    rebaseline();
    timer_.start();
  });
  connect(session_, &views::ProjectSession::projectClosed, &timer_, &QTimer::stop);
  // Whoever made the views re-read (the engine controller, this watcher), they
  // now show the store as it is: only later commits need another refresh.
  connect(session_, &views::ProjectSession::dataChanged, this, &ProjectWatcher::rebaseline);
  if (session_->isOpen()) {
    rebaseline();
    timer_.start();
  }
}

void ProjectWatcher::rebaseline() {
  if (const ProjectStore* store = session_->store()) {
    try {
      shownVersion_ = store->dataVersion();
    } catch (const StoreError&) {
      // check() reports it.
    }
  }
}

void ProjectWatcher::check() {
  const ProjectStore* store = session_->store();
  if (!store) return;
  std::int64_t version = 0;
  try {
    version = store->dataVersion();
  } catch (const StoreError& e) {
    if (!reportedError_) qWarning("crucible: cannot check %s for changes: %s", qPrintable(session_->path()), e.what());
    reportedError_ = true;
    return;
  }
  reportedError_ = false;
  if (version == shownVersion_) return;
  shownVersion_ = version;
  session_->notifyDataChanged();
}

}  // namespace crucible::app
