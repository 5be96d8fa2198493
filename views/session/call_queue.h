// SPDX-License-Identifier: GPL-3.0-or-later
// Calls handed to the thread this object lives on, run there in the order
// they were posted. The calls cross threads under a std::mutex, and only a
// wake-up carrying no data goes through Qt's event queue: a functor posted
// there would be written on one thread and read on another with nothing
// ThreadSanitizer can see in between (Qt is not built with it). The same
// pattern as app/gui/engine_controller.cpp's post().
#pragma once
#include <QObject>
#include <deque>
#include <functional>
#include <mutex>

namespace crucible::views {

class CallQueue : public QObject {
  Q_OBJECT
public:
  using QObject::QObject;

  // From any thread.
  void post(std::function<void()> call);
  // On this object's thread: runs every call posted so far, in order.
  Q_INVOKABLE void runPosted();
  // Drops the calls not run yet.
  void clear();

private:
  std::mutex mutex_;
  std::deque<std::function<void()>> calls_;  // guarded by mutex_
};

}  // namespace crucible::views
