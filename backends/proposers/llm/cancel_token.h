// SPDX-License-Identifier: GPL-3.0-or-later
// A cancellation flag shared by copies: the run that owns a request cancels
// it; the client polls it during a transfer and sleeps on it between
// attempts, so a cancel also cuts a backoff or Retry-After wait short.
#pragma once
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>

namespace crucible::llm {

class CancelToken {
public:
  CancelToken() : state_(std::make_shared<State>()) {}

  void cancel() const {
    {
      std::lock_guard lock(state_->mutex);
      state_->cancelled = true;
    }
    state_->changed.notify_all();
  }

  bool cancelled() const {
    std::lock_guard lock(state_->mutex);
    return state_->cancelled;
  }

  // Sleeps for `duration` or until cancelled; true when cancelled.
  bool waitFor(std::chrono::steady_clock::duration duration) const {
    std::unique_lock lock(state_->mutex);
    return state_->changed.wait_for(lock, duration, [&] { return state_->cancelled; });
  }

private:
  struct State {
    std::mutex mutex;
    std::condition_variable changed;
    bool cancelled = false;
  };
  std::shared_ptr<State> state_;
};

}  // namespace crucible::llm
