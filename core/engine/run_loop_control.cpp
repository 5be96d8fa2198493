// SPDX-License-Identifier: GPL-3.0-or-later
// RunLoop's part that applies what the front ends ask through EngineControl
// between steps: pause and resume (with the run clock), a new budget, review
// verdicts. Its own file so run_loop.cpp keeps to the loop.
#include <chrono>
#include <ctime>
#include "core/engine/review_verdicts.h"
#include "core/engine/run_loop.h"
#include "core/engine/stop_request.h"
#include "core/engine/unix_time.h"

namespace crucible::engine_detail {

void RunLoop::recordPaused() {
  clock_.pause();
  run_.status = RunStatus::Paused;
  run_.wallSecondsUsed = clock_.wallUsed();
  store_.updateRun(run_);
  send(events::RunPaused{counters()});
}

void RunLoop::recordResumed() {
  clock_.resume();
  run_.status = RunStatus::Running;
  store_.updateRun(run_);
  send(events::RunResumed{counters()});
}

void RunLoop::applyControlChanges() {
  // A stop asked by another process (crucible-cli stop) counts as one asked here.
  if (!stopFromOutside_ && stopRequested(store_.path(), run_.id)) {
    stopFromOutside_ = true;
    log("info", "another process asked this run to stop (" + stopRequestPath(store_.path(), run_.id) + ")");
    std::lock_guard lock(control_.mutex);
    control_.stopRequested = true;
  }
  std::optional<Budget> budget;
  std::deque<ReviewVerdict> verdicts;
  bool paused;
  {
    std::lock_guard lock(control_.mutex);
    budget.swap(control_.newBudget);
    verdicts.swap(control_.verdicts);
    paused = control_.paused && !control_.stopRequested;
  }
  if (budget) {
    run_.budget = *budget;
    store_.updateRun(run_);
    send(events::Progress{counters()});
  }
  for (const auto& v : verdicts) applyVerdict(v);
  if (paused && !clock_.paused()) recordPaused();
  if (!paused && clock_.paused()) recordResumed();
}

void RunLoop::applyVerdict(const ReviewVerdict& verdict) {
  ReviewVerdict v = verdict;
  v.runId = run_.id;
  v.decidedAt = unixSeconds();
  VerdictOutcome outcome = engine_detail::applyVerdict(store_, gate_, v);
  released_.insert(released_.end(), outcome.released.begin(), outcome.released.end());
  for (CandidateId id : outcome.rejected) islandOf_.erase(id);
  blockedOnReview_ = false;
  log("info", outcome.summary);
}

bool RunLoop::checkpoint() {
  applyControlChanges();
  for (;;) {
    std::unique_lock lock(control_.mutex);
    if (control_.stopRequested) return false;
    if (!control_.paused) break;
    control_.changed.wait_for(lock, std::chrono::milliseconds(200));
    lock.unlock();
    applyControlChanges();
  }
  applyControlChanges();   // records the resume
  return true;
}

void RunLoop::waitForVerdict() {
  std::unique_lock lock(control_.mutex);
  control_.changed.wait_for(lock, std::chrono::milliseconds(500), [&] {
    return control_.stopRequested || control_.paused || control_.newBudget || !control_.verdicts.empty();
  });
}

}  // namespace crucible::engine_detail
