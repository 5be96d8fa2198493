// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/common/lazy_refresh.h"
#include <QEvent>

namespace crucible::views {

LazyRefresh::LazyRefresh(QWidget* view, std::function<void()> reload)
    : QObject(view), view_(view), reload_(std::move(reload)) {
  view_->installEventFilter(this);
}

bool LazyRefresh::hidden() const {
  QWidget* top = view_->window();
  return top != view_ && top->isVisible() && !view_->isVisible();
}

void LazyRefresh::request() {
  if (hidden()) {
    stale_ = true;
    return;
  }
  stale_ = false;
  reload_();
}

bool LazyRefresh::defer() {
  if (stale_) return true;
  if (!hidden()) return false;
  stale_ = true;
  return true;
}

bool LazyRefresh::eventFilter(QObject* watched, QEvent* event) {
  if (watched == view_ && event->type() == QEvent::Show && stale_) {
    stale_ = false;
    reload_();
  }
  return QObject::eventFilter(watched, event);
}

}  // namespace crucible::views
