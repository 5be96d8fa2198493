// SPDX-License-Identifier: GPL-3.0-or-later
// The GUI's reader: owns the GUI's read connection to the project on a thread
// of its own, looks for changes when the file's data_version moves (polled)
// or when poked (an engine event), and hands what changed to its sink as a
// typed ProjectDelta. The sink is called on the reader's thread; the session
// posts the delta to the GUI thread. Reads for one view (a full candidate,
// the roofline's rows) run here too, as requests with queued replies.
#pragma once
#include <QObject>
#include <QTimer>
#include <functional>
#include <memory>
#include "core/store/project_delta_tracker.h"

namespace crucible::views {

class ProjectReader : public QObject {
  Q_OBJECT
public:
  using Sink = std::function<void(std::shared_ptr<const ProjectDelta>)>;
  explicit ProjectReader(Sink sink);
  ~ProjectReader() override;

  // On the reader's thread (the session invokes them there).
  // Opens a project read-only, bound to this thread, beside the one being
  // read (which stays until commit()); throws StoreError.
  void prepare(const std::string& path, bool threadCheck);
  // Reads the prepared project from now on (nothing sent yet: poke() sends
  // it whole); discard() drops it instead.
  void commit();
  void discard() { pending_.reset(); }
  // The store thread check (ProjectStore::setThreadCheck) of this reader's connections.
  void setThreadCheck(bool on);
  void close();
  // Follows another run; the next look sends its candidates whole.
  void watch(RunId run);
  // 0 stops polling.
  void setPollInterval(int milliseconds);
  // Runs fn with the reader's store (nullptr when none is open).
  void withStore(const std::function<void(const ProjectStore*)>& fn);

public slots:
  // Look now and send what changed (anything, not only a new data_version):
  // the run coordinator calls it on engine events. Safe from any thread
  // through a queued connection.
  void poke();

private:
  void look(bool onlyIfVersionMoved);

  Sink sink_;
  std::unique_ptr<ProjectStore> store_;
  std::unique_ptr<ProjectStore> pending_;
  ProjectDeltaTracker tracker_;
  QTimer* timer_ = nullptr;  // created on the reader's thread
  int interval_ = 500;
  std::int64_t seenVersion_ = -1;
  bool reportedError_ = false;
};

}  // namespace crucible::views
