// SPDX-License-Identifier: GPL-3.0-or-later
// A view's reload that waits while the view cannot be seen: a dock closed or
// behind another tab in a shown window marks itself stale and catches up
// when it is shown again. A view not in a shown window (a test's widget, an
// exported picture) reloads at once.
#pragma once
#include <QObject>
#include <QPointer>
#include <QWidget>
#include <functional>

namespace crucible::views {

class LazyRefresh : public QObject {
  Q_OBJECT
public:
  LazyRefresh(QWidget* view, std::function<void()> reload);

  // Reloads now, or when the view is next shown.
  void request();
  // For an incremental update: true (and a whole reload when next shown)
  // while the view cannot be seen; false when it should update now.
  bool defer();
  bool stale() const { return stale_; }

protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

private:
  bool hidden() const;
  QWidget* view_;
  std::function<void()> reload_;
  bool stale_ = false;
};

}  // namespace crucible::views
