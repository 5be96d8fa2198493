// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/mainwindow/recent_projects.h"
#include <QFileInfo>

namespace crucible::views {
namespace {
const QString kKey = QStringLiteral("recentProjects");
}

QStringList RecentProjects::paths() {
  const QStringList stored = settings_.value(kKey).toStringList();
  QStringList existing;
  for (const QString& p : stored)
    if (QFileInfo(p).isFile()) existing << p;
  if (existing != stored) store(existing);
  return existing;
}

void RecentProjects::add(const QString& path) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  QStringList list = settings_.value(kKey).toStringList();
  list.removeAll(absolute);
  list.prepend(absolute);
  store(list.mid(0, kMaxEntries));
}

void RecentProjects::remove(const QString& path) {
  QStringList list = settings_.value(kKey).toStringList();
  list.removeAll(QFileInfo(path).absoluteFilePath());
  store(list);
}

void RecentProjects::clear() { store({}); }

void RecentProjects::store(const QStringList& paths) {
  settings_.setValue(kKey, paths);
  settings_.sync();
}

}  // namespace crucible::views
