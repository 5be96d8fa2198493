// SPDX-License-Identifier: GPL-3.0-or-later
// Live refresh when another process (crucible-cli, a second workbench) writes
// the open project: polls the store's data version, which changes only when
// another connection commits, and tells the session only then.
#pragma once
#include <QObject>
#include <QTimer>
#include <chrono>
#include <cstdint>

namespace crucible::views {
class ProjectSession;
}

namespace crucible::app {

class ProjectWatcher : public QObject {
  Q_OBJECT
public:
  static constexpr std::chrono::milliseconds kDefaultInterval{2000};

  explicit ProjectWatcher(views::ProjectSession* session, std::chrono::milliseconds interval = kDefaultInterval,
                          QObject* parent = nullptr);

  bool isWatching() const { return timer_.isActive(); }

public slots:
  // Compares the store's version with the one last shown; notifies on change.
  void check();

private:
  void rebaseline();

  views::ProjectSession* session_;
  QTimer timer_;
  std::int64_t shownVersion_ = 0;
  bool reportedError_ = false;
};

}  // namespace crucible::app
