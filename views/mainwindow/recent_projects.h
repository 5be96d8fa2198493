// SPDX-License-Identifier: GPL-3.0-or-later
// The recently opened projects, newest first, kept in QSettings.
#pragma once
#include <QSettings>
#include <QStringList>

namespace crucible::views {

class RecentProjects {
public:
  static constexpr int kMaxEntries = 8;

  explicit RecentProjects(QSettings& settings) : settings_(settings) {}

  // The remembered projects that still exist, newest first. Files that are
  // gone are forgotten (and the stored list is pruned).
  QStringList paths();
  // Puts path (made absolute) first; keeps at most kMaxEntries.
  void add(const QString& path);
  void remove(const QString& path);
  void clear();

private:
  void store(const QStringList& paths);
  QSettings& settings_;
};

}  // namespace crucible::views
