// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/editor/inspection_runner.h"

#include <QCoreApplication>
#include <QMetaObject>

namespace crucible::views {

InspectionRunner::InspectionRunner(KernelInspector& inspector, QObject* parent)
    : QObject(parent), inspector_(inspector), thread_([this] { work(); }) {}

InspectionRunner::~InspectionRunner() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    pending_.reset();
  }
  wake_.notify_all();
  thread_.join();
}

std::uint64_t InspectionRunner::request(const InspectionRequest& request) {
  const bool wasBusy = busy();
  const std::uint64_t generation = ++latestGeneration_;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    pending_ = std::make_pair(generation, request);  // an older waiting request is dropped unrun
  }
  wake_.notify_one();
  if (!wasBusy) emit busyChanged(true);
  return generation;
}

void InspectionRunner::work() {
  for (;;) {
    std::pair<std::uint64_t, InspectionRequest> job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || pending_.has_value(); });
      if (stopping_) return;
      job = std::move(*pending_);
      pending_.reset();
    }
    KernelInspection result;
    try {
      result = inspector_.inspect(job.second);
    } catch (const std::exception& e) {  // an inspector must not throw; say so rather than lose the edit
      result.report.ok = false;
      result.report.diagnostics.push_back(
          {0, 0, "error",
           QCoreApplication::translate("crucible::views::InspectionRunner", "the compiler failed: %1")
               .arg(QString::fromUtf8(e.what()))
               .toStdString()});
      result.sassUnavailable =
          QCoreApplication::translate("crucible::views::InspectionRunner", "no SASS: the compiler failed").toStdString();
    }
    QMetaObject::invokeMethod(
        this, [this, generation = job.first, r = std::move(result)]() mutable { deliver(generation, std::move(r)); },
        Qt::QueuedConnection);
  }
}

void InspectionRunner::deliver(std::uint64_t generation, KernelInspection inspection) {
  if (generation != latestGeneration_) {
    ++dropped_;  // overtaken: the user has typed since
    return;
  }
  shownGeneration_ = generation;
  emit inspected(inspection);
  emit busyChanged(false);
}

}  // namespace crucible::views
