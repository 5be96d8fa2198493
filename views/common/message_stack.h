// SPDX-License-Identifier: GPL-3.0-or-later
// A view's content, or in its place a sentence saying plainly what is missing
// ("No sealed kernels yet..."): views never show invented data instead.
#pragma once
#include <QStackedWidget>

class QLabel;

namespace crucible::views {

class MessageStack : public QStackedWidget {
  Q_OBJECT
public:
  MessageStack(QWidget* content, QWidget* parent);
  void setMessage(const QString& text);
  void showMessage();
  void showContent();
  // The sentence shown instead of the content; "" while the content is shown.
  QString message() const;

private:
  QLabel* label_;
};

}  // namespace crucible::views
