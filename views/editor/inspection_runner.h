// SPDX-License-Identifier: GPL-3.0-or-later
// Runs the kernel editor's compiles off the GUI thread (issue 17). One worker
// thread; only the newest request matters: a request made while another is
// compiling replaces any that waits, and the result of a compile that a newer
// request has overtaken is dropped, never shown (NVRTC cannot be interrupted,
// so "cancel" means its work is never used and nothing older runs after it).
// Results come back to the GUI thread by queued invocation.
#pragma once
#include <QObject>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <thread>
#include "core/model/kernel_inspection.h"

namespace crucible::views {

class InspectionRunner : public QObject {
  Q_OBJECT
public:
  // The inspector must outlive the runner; it is called on the worker thread.
  explicit InspectionRunner(KernelInspector& inspector, QObject* parent = nullptr);
  ~InspectionRunner() override;  // waits for a compile in progress to return

  // Queues a compile of this request; returns its generation (increasing).
  std::uint64_t request(const InspectionRequest& request);
  bool busy() const { return shownGeneration_ < latestGeneration_; }
  std::uint64_t latestGeneration() const { return latestGeneration_; }
  // How many finished compiles were dropped because a newer request overtook them.
  int dropped() const { return dropped_; }

signals:
  // The newest request's result (GUI thread).
  void inspected(const crucible::KernelInspection& inspection);
  void busyChanged(bool busy);

private:
  void work();
  void deliver(std::uint64_t generation, KernelInspection inspection);

  KernelInspector& inspector_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::optional<std::pair<std::uint64_t, InspectionRequest>> pending_;  // guarded by mutex_
  bool stopping_ = false;                                               // guarded by mutex_
  // GUI thread only:
  std::uint64_t latestGeneration_ = 0;
  std::uint64_t shownGeneration_ = 0;
  int dropped_ = 0;
  std::thread thread_;  // last: started after everything it reads
};

}  // namespace crucible::views
