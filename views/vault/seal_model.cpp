// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/vault/seal_model.h"

#include <QDateTime>
#include "views/diff/candidate_figures.h"

namespace crucible::views {

SealModel::SealModel(QObject* parent) : QAbstractTableModel(parent) {}

void SealModel::setSeals(std::vector<Seal> seals, std::map<TaskId, QString> taskNames) {
  beginResetModel();
  seals_ = std::move(seals);
  taskNames_ = std::move(taskNames);
  endResetModel();
}

const Seal* SealModel::sealAt(int row) const {
  return row >= 0 && row < static_cast<int>(seals_.size()) ? &seals_[static_cast<std::size_t>(row)] : nullptr;
}

int SealModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(seals_.size()); }
int SealModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant SealModel::data(const QModelIndex& index, int role) const {
  const Seal* s = index.isValid() ? sealAt(index.row()) : nullptr;
  if (!s) return {};
  if (role == Qt::UserRole) return QVariant::fromValue<qlonglong>(s->id);
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
    case Task: {
      auto it = taskNames_.find(s->taskId);
      return it != taskNames_.end() ? it->second : tr("task #%1").arg(s->taskId);
    }
    case Candidate: return QVariant::fromValue<qlonglong>(s->candidateId);
    case Speedup: return formatSpeedup(s->speedup);
    case Median: return formatMicroseconds(s->medianUs);
    case Gpu: return QString::fromStdString(s->fingerprint.gpu);
    case SealedAt: return QDateTime::fromSecsSinceEpoch(s->sealedAt).toString(Qt::ISODate);
    default: return {};
  }
}

QVariant SealModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  // The seal's figures come from the extended validation's own timing, not the
  // candidate's evaluation, so they may differ a little from the table's and the
  // diff's figures for the same candidate: the header says so.
  if (role == Qt::ToolTipRole && (section == Median || section == Speedup))
    return tr("Timed again when the kernel was sealed (extended validation), beside the reference; the candidate's "
              "own evaluation (table, diff, details) was a separate measurement and can differ by a few per cent.");
  if (role != Qt::DisplayRole) return {};
  switch (section) {
    case Task: return tr("Task");
    case Candidate: return tr("Candidate");
    case Speedup: return tr("Speedup at seal");
    case Median: return tr("Median at seal");
    case Gpu: return tr("GPU");
    case SealedAt: return tr("Sealed");
    default: return {};
  }
}

}  // namespace crucible::views
