// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/project_watcher.h"
#include "views/session/project_reader.h"
#include "views/session/project_session.h"

namespace crucible::app {

ProjectWatcher::ProjectWatcher(views::ProjectSession* session, std::chrono::milliseconds interval, QObject* parent)
    : QObject(parent), session_(session) {
  session_->setPollInterval(static_cast<int>(interval.count()));
}

bool ProjectWatcher::isWatching() const { return session_->isOpen() && session_->pollInterval() > 0; }

void ProjectWatcher::check() {
  if (views::ProjectReader* reader = session_->reader())
    QMetaObject::invokeMethod(reader, &views::ProjectReader::poke, Qt::QueuedConnection);
}

}  // namespace crucible::app
