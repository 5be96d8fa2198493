// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/common/message_stack.h"
#include <QLabel>

namespace crucible::views {

MessageStack::MessageStack(QWidget* content, QWidget* parent) : QStackedWidget(parent), label_(new QLabel(this)) {
  label_->setAlignment(Qt::AlignCenter);
  label_->setWordWrap(true);
  addWidget(label_);
  addWidget(content);
}

void MessageStack::setMessage(const QString& text) { label_->setText(text); }
void MessageStack::showMessage() { setCurrentWidget(label_); }
void MessageStack::showContent() { setCurrentIndex(1); }
QString MessageStack::message() const { return currentWidget() == label_ ? label_->text() : QString(); }

}  // namespace crucible::views
