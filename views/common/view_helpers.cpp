// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/common/view_helpers.h"
#include <QHeaderView>
#include <QJsonDocument>
#include <QTableView>

namespace crucible::views {

QString prettyJson(const std::string& json) {
  const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(json));
  return doc.isNull() ? QString::fromStdString(json) : QString::fromUtf8(doc.toJson(QJsonDocument::Indented));
}

QString plainTextToolTip(const QString& text) {
  return QStringLiteral("<p style=\"white-space:pre-wrap\">%1</p>").arg(text.toHtmlEscaped());
}

QTableView* makeRowTable(QAbstractItemModel* model, QWidget* parent) {
  auto* table = new QTableView(parent);
  table->setModel(model);
  table->setSelectionBehavior(QAbstractItemView::SelectRows);
  table->setSelectionMode(QAbstractItemView::SingleSelection);
  table->horizontalHeader()->setStretchLastSection(true);
  table->verticalHeader()->hide();
  return table;
}

}  // namespace crucible::views
