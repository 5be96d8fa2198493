// SPDX-License-Identifier: GPL-3.0-or-later
// The wall time a run has used over all its sessions: what earlier sessions
// stored plus this session's time, less the time it spent paused (a paused
// run does not spend its wall budget). Internal to core/engine.
#pragma once
#include <chrono>
#include <functional>

namespace crucible::engine_detail {

class RunClock {
public:
  using TimePoint = std::chrono::steady_clock::time_point;
  using Now = std::function<TimePoint()>;

  // wallAtStart: the run's stored wall seconds when this session began.
  // `now` is replaceable so tests need not sleep.
  explicit RunClock(double wallAtStart, Now now = [] { return std::chrono::steady_clock::now(); });

  double wallUsed() const;
  bool paused() const { return paused_; }
  // Both are idempotent: a second pause() keeps the first pause's start.
  void pause();
  void resume();

private:
  Now now_;
  TimePoint sessionStart_;
  double wallAtStart_ = 0;
  double pausedSeconds_ = 0;   // pauses of this session that have ended
  bool paused_ = false;
  TimePoint pauseStart_;
};

}  // namespace crucible::engine_detail
