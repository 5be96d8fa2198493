// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/knowledge/knowledge_model.h"

#include <QColor>
#include <QFont>
#include <QStringList>
#include "views/common/locale_numbers.h"
#include "views/common/status_names.h"
#include "views/common/view_helpers.h"

namespace crucible::views {

QString formatScope(const KnowledgeEntry& k) {
  QStringList parts;
  parts << (k.scopeArch.empty() ? QObject::tr("any architecture") : QString::fromStdString(k.scopeArch));
  parts << (k.scopeFamily.empty() ? QObject::tr("any operator") : QString::fromStdString(k.scopeFamily));
  parts << (k.scopeShape.empty() ? QObject::tr("any shape") : QString::fromStdString(k.scopeShape));
  return parts.join(QStringLiteral(" · "));
}

KnowledgeModel::KnowledgeModel(QObject* parent) : QAbstractTableModel(parent) {}

void KnowledgeModel::setEntries(std::vector<KnowledgeEntry> entries) {
  beginResetModel();
  entries_ = std::move(entries);
  endResetModel();
}

const KnowledgeEntry* KnowledgeModel::entryAt(int row) const {
  return row >= 0 && row < static_cast<int>(entries_.size()) ? &entries_[static_cast<std::size_t>(row)] : nullptr;
}

int KnowledgeModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(entries_.size()); }
int KnowledgeModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant KnowledgeModel::data(const QModelIndex& index, int role) const {
  const KnowledgeEntry* k = index.isValid() ? entryAt(index.row()) : nullptr;
  if (!k) return {};
  if (role == KnowledgeIdRole) return QVariant::fromValue<qlonglong>(k->id);
  if (role == Qt::ForegroundRole && index.column() == Status) {
    switch (k->status) {
      case KnowledgeStatus::Validated: return QColor(0x2c, 0xa0, 0x2c);
      case KnowledgeStatus::Refuted: return QColor(0xd6, 0x27, 0x28);
      case KnowledgeStatus::Hypothesis: return {};
    }
  }
  if (role == Qt::ToolTipRole && index.column() == Claim) {
    // The whole claim as the cell shows it, and what was measured when the user reworded it.
    QString text = QString::fromStdString(k->userClaim.empty() ? k->claim : k->userClaim);
    if (!k->userClaim.empty() && k->userClaim != k->claim)
      text += QStringLiteral("\n") + tr("Measured: %1").arg(QString::fromStdString(k->claim));
    return plainTextToolTip(text);
  }
  if (role == Qt::FontRole && k->disabled) {
    QFont font;
    font.setStrikeOut(true);
    return font;
  }
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
    case Scope: return formatScope(*k);
    case Claim: return QString::fromStdString(k->userClaim.empty() ? k->claim : k->userClaim);
    case Decision: return QString::fromStdString(k->decision);
    case Status: {
      QString status = statusName(k->status);
      if (k->pinned) status += QStringLiteral(" · ") + tr("pinned");
      if (k->disabled) status += QStringLiteral(" · ") + tr("disabled");
      if (k->userAdded) status += QStringLiteral(" · ") + tr("yours");
      return status;
    }
    case Effect: return QStringLiteral("%1×").arg(localNumber(k->effect, 'g', 3));
    case Evidence: return static_cast<int>(k->evidence.size());
    case Observations: return QVariant::fromValue<qlonglong>(k->observations);
    default: return {};
  }
}

QVariant KnowledgeModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Scope: return tr("Scope");
    case Claim: return tr("Claim");
    case Decision: return tr("Decision");
    case Status: return tr("Status");
    case Effect: return tr("Effect");
    case Evidence: return tr("Evidence");
    case Observations: return tr("Observations");
    default: return {};
  }
}

}  // namespace crucible::views
