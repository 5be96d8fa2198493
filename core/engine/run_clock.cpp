// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/engine/run_clock.h"

#include <algorithm>

namespace crucible::engine_detail {

namespace {
double secondsBetween(RunClock::TimePoint from, RunClock::TimePoint to) {
  return std::chrono::duration<double>(to - from).count();
}
}  // namespace

RunClock::RunClock(double wallAtStart, Now now)
    : now_(std::move(now)), sessionStart_(now_()), wallAtStart_(wallAtStart) {}

double RunClock::wallUsed() const {
  TimePoint now = now_();
  double session = secondsBetween(sessionStart_, now) - pausedSeconds_;
  if (paused_) session -= secondsBetween(pauseStart_, now);
  return wallAtStart_ + std::max(0.0, session);
}

void RunClock::pause() {
  if (paused_) return;
  paused_ = true;
  pauseStart_ = now_();
}

void RunClock::resume() {
  if (!paused_) return;
  pausedSeconds_ += secondsBetween(pauseStart_, now_());
  paused_ = false;
}

}  // namespace crucible::engine_detail
