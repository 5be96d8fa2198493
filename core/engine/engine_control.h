// SPDX-License-Identifier: GPL-3.0-or-later
// The control state shared between the thread that runs the engine and the
// threads that pause, resume, stop, change the budget or submit verdicts.
// Internal to core/engine.
#pragma once
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include "core/model/run.h"
#include "core/store/project_store.h"

namespace crucible::engine_detail {

struct EngineControl {
  std::mutex mutex;
  std::condition_variable changed;   // notified on every change below
  bool running = false;
  RunId activeRun = 0;
  bool paused = false;
  bool stopRequested = false;
  std::optional<Budget> newBudget;
  std::deque<ReviewVerdict> verdicts;

  bool stopping() {
    std::lock_guard lock(mutex);
    return stopRequested;
  }
  // Blocks while paused; returns false when a stop was requested.
  bool waitWhilePaused() {
    std::unique_lock lock(mutex);
    changed.wait(lock, [this] { return !paused || stopRequested; });
    return !stopRequested;
  }
};

}  // namespace crucible::engine_detail
