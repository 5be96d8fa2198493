// SPDX-License-Identifier: GPL-3.0-or-later
// Live refresh when another process (crucible-cli, a second workbench) writes
// the open project: the session's project reader polls the store's data
// version on its own thread (it changes only when another connection
// commits) and sends the changes; this sets how often it looks.
#pragma once
#include <QObject>
#include <chrono>

namespace crucible::views {
class ProjectSession;
}

namespace crucible::app {

class ProjectWatcher : public QObject {
  Q_OBJECT
public:
  static constexpr std::chrono::milliseconds kDefaultInterval{500};

  explicit ProjectWatcher(views::ProjectSession* session, std::chrono::milliseconds interval = kDefaultInterval,
                          QObject* parent = nullptr);

  // A project is open and its reader polls.
  bool isWatching() const;

public slots:
  // Looks now (on the reader's thread): what changed reaches the views by queued delta.
  void check();

private:
  views::ProjectSession* session_;
};

}  // namespace crucible::app
