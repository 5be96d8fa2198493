// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/review/review_queue_model.h"

#include <QJsonDocument>
#include <QJsonObject>
#include "views/common/view_helpers.h"

namespace crucible::views {

std::optional<ProposedPlan> proposedPlanOf(const Candidate& c) {
  if (!c.source.empty() || c.genomeJson.empty()) return std::nullopt;
  const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(c.genomeJson));
  const QJsonValue plan = doc.object().value(QStringLiteral("plan"));
  if (!plan.isObject()) return std::nullopt;
  ProposedPlan p{plan[QStringLiteral("name")].toString(), plan[QStringLiteral("plan")].toString()};
  if (p.name.isEmpty() && p.text.isEmpty()) return std::nullopt;
  return p;
}

ReviewQueueModel::ReviewQueueModel(QObject* parent) : QAbstractTableModel(parent) {}

void ReviewQueueModel::setCandidates(std::vector<Candidate> candidates) {
  beginResetModel();
  candidates_ = std::move(candidates);
  endResetModel();
}

const Candidate* ReviewQueueModel::candidateAt(int row) const {
  return row >= 0 && row < static_cast<int>(candidates_.size()) ? &candidates_[static_cast<std::size_t>(row)] : nullptr;
}

int ReviewQueueModel::rowOf(CandidateId id) const {
  for (int r = 0; r < static_cast<int>(candidates_.size()); ++r)
    if (candidates_[static_cast<std::size_t>(r)].id == id) return r;
  return -1;
}

int ReviewQueueModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(candidates_.size());
}

int ReviewQueueModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant ReviewQueueModel::data(const QModelIndex& index, int role) const {
  const Candidate* c = index.isValid() ? candidateAt(index.row()) : nullptr;
  if (!c) return {};
  if (role == CandidateIdRole) return QVariant::fromValue<qlonglong>(c->id);
  if (role == Qt::ToolTipRole) return plainTextToolTip(QString::fromStdString(c->architectureKey));
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
    case Id: return QVariant::fromValue<qlonglong>(c->id);
    case Generation: return c->generation;
    case Architecture: {
      // A plan by its name, as the model gave it; the key is in the tooltip.
      if (const auto plan = proposedPlanOf(*c); plan && !plan->name.isEmpty()) return plan->name;
      return QString::fromStdString(c->architectureKey);
    }
    case Proposer: return QString::fromStdString(c->proposer);
    case Mutation: return QString::fromStdString(c->mutation);
    default: return {};
  }
}

QVariant ReviewQueueModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Id: return tr("#");
    case Generation: return tr("Generation");
    case Architecture: return tr("Architecture");
    case Proposer: return tr("Proposer");
    case Mutation: return tr("Mutation");
    default: return {};
  }
}

}  // namespace crucible::views
