// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/session/call_queue.h"

namespace crucible::views {

void CallQueue::post(std::function<void()> call) {
  bool wake;
  {
    std::lock_guard lock(mutex_);
    wake = calls_.empty();
    calls_.push_back(std::move(call));
  }
  // One wake-up serves every call queued until runPosted() empties the queue.
  if (wake) QMetaObject::invokeMethod(this, "runPosted", Qt::QueuedConnection);
}

void CallQueue::runPosted() {
  // One call at a time, so a call that posts or runs more keeps the order.
  for (;;) {
    std::function<void()> call;
    {
      std::lock_guard lock(mutex_);
      if (calls_.empty()) return;
      call = std::move(calls_.front());
      calls_.pop_front();
    }
    call();
  }
}

void CallQueue::clear() {
  std::lock_guard lock(mutex_);
  calls_.clear();
}

}  // namespace crucible::views
