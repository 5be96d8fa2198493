// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/models/runs_model.h"
#include <QDateTime>
#include "views/common/locale_numbers.h"
#include "views/common/status_names.h"
#include "views/models/model_roles.h"
#include "views/session/project_session.h"

namespace crucible::views {
namespace {
bool sameRow(const Run& a, const Run& b) {
  return a.name == b.name && a.taskId == b.taskId && a.status == b.status && a.proposer == b.proposer &&
         a.evaluationsDone == b.evaluationsDone && a.bestSpeedup == b.bestSpeedup &&
         a.createdAt == b.createdAt;
}
}  // namespace

RunsModel::RunsModel(ProjectSession* session, QObject* parent) : QAbstractTableModel(parent), session_(session) {
  connect(session_, &ProjectSession::projectOpened, this, &RunsModel::reload);
  connect(session_, &ProjectSession::projectClosed, this, &RunsModel::reload);
  connect(session_, &ProjectSession::runsChanged, this, &RunsModel::refresh);
  reload();
}

int RunsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(runs_.size());
}

int RunsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

const Run* RunsModel::runAt(int row) const {
  return row >= 0 && row < rowCount() ? &runs_[static_cast<std::size_t>(row)] : nullptr;
}

int RunsModel::rowOf(RunId id) const {
  for (std::size_t i = 0; i < runs_.size(); ++i)
    if (runs_[i].id == id) return static_cast<int>(i);
  return -1;
}

QVariant RunsModel::data(const QModelIndex& index, int role) const {
  const Run* r = index.isValid() ? runAt(index.row()) : nullptr;
  if (!r) return {};
  const int column = index.column();
  switch (role) {
    case IdRole: return QVariant::fromValue<qlonglong>(r->id);
    case StatusRole: return QString::fromLatin1(toString(r->status));
    case Qt::TextAlignmentRole:
      if (column == Id || column == Evaluations || column == BestSpeedup)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
      return {};
    case SortRole:
      switch (column) {
        case Id: return QVariant::fromValue<qlonglong>(r->id);
        case Evaluations: return QVariant::fromValue<qlonglong>(r->evaluationsDone);
        case BestSpeedup: return r->bestSpeedup;
        case Created: return QVariant::fromValue<qlonglong>(r->createdAt);
        default: return data(index, Qt::DisplayRole);
      }
    case Qt::DisplayRole:
      switch (column) {
        case Id: return QString::number(r->id);
        case Name: return QString::fromStdString(r->name);
        case Task: return taskNames_.value(r->taskId, QString::number(r->taskId));
        case Status: return statusName(r->status);
        case Proposer: return QString::fromStdString(r->proposer);
        case Evaluations: return QString::number(r->evaluationsDone);
        // No valid candidate yet: nothing to show rather than a made-up 0x.
        case BestSpeedup: return r->bestSpeedup > 0 ? tr("%1×").arg(localNumber(r->bestSpeedup, 'f', 3)) : QString();
        case Created:
          return r->createdAt > 0 ? QDateTime::fromSecsSinceEpoch(r->createdAt).toString(Qt::ISODate) : QString();
      }
      return {};
  }
  return {};
}

QVariant RunsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Id: return tr("Run");
    case Name: return tr("Name");
    case Task: return tr("Task");
    case Status: return tr("Status");
    case Proposer: return tr("Proposer");
    case Evaluations: return tr("Evaluations");
    case BestSpeedup: return tr("Best speedup");
    case Created: return tr("Created");
  }
  return {};
}

void RunsModel::reload() {
  beginResetModel();
  runs_.clear();
  taskNames_.clear();
  if (session_->isOpen()) {
    runs_ = session_->runs();
    for (const auto& t : session_->tasks()) taskNames_.insert(t.id, QString::fromStdString(t.name));
  }
  endResetModel();
}

void RunsModel::refresh() {
  if (!session_->isOpen()) return reload();
  std::vector<Run> fresh = session_->runs();
  // Rows keep their place only if the shown runs are still the first ones, in order.
  bool prefix = fresh.size() >= runs_.size();
  for (std::size_t i = 0; prefix && i < runs_.size(); ++i) prefix = fresh[i].id == runs_[i].id;
  if (!prefix) return reload();

  for (const auto& t : session_->tasks()) taskNames_.insert(t.id, QString::fromStdString(t.name));
  const std::size_t shown = runs_.size();
  for (std::size_t i = 0; i < shown; ++i) {
    if (sameRow(runs_[i], fresh[i])) continue;
    runs_[i] = fresh[i];
    emit dataChanged(index(static_cast<int>(i), 0), index(static_cast<int>(i), ColumnCount - 1));
  }
  if (fresh.size() > shown) {
    beginInsertRows({}, static_cast<int>(shown), static_cast<int>(fresh.size()) - 1);
    runs_.insert(runs_.end(), std::make_move_iterator(fresh.begin() + static_cast<std::ptrdiff_t>(shown)),
                 std::make_move_iterator(fresh.end()));
    endInsertRows();
  }
}

}  // namespace crucible::views
