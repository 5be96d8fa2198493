// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/models/candidates_model.h"
#include "views/common/locale_numbers.h"
#include "views/common/status_names.h"
#include "views/models/model_roles.h"
#include "views/session/project_session.h"

namespace crucible::views {
namespace {
bool sameRow(const CandidateSummary& a, const CandidateSummary& b) {
  return a.generation == b.generation && a.status == b.status && a.architectureKey == b.architectureKey &&
         a.proposer == b.proposer && a.mutation == b.mutation && a.medianUs == b.medianUs &&
         a.speedup == b.speedup && a.fitness == b.fitness && a.registers == b.registers;
}

QString proposerText(const CandidateSummary& c) {
  if (c.mutation.empty()) return QString::fromStdString(c.proposer);
  return QString::fromStdString(c.proposer + " / " + c.mutation);
}
}  // namespace

CandidatesModel::CandidatesModel(ProjectSession* session, QObject* parent)
    : QAbstractTableModel(parent), session_(session) {
  connect(session_, &ProjectSession::projectOpened, this, &CandidatesModel::reload);
  connect(session_, &ProjectSession::projectClosed, this, &CandidatesModel::reload);
  connect(session_, &ProjectSession::currentRunChanged, this, &CandidatesModel::reload);
  connect(session_, &ProjectSession::candidatesChanged, this, &CandidatesModel::apply);
  reload();
}

int CandidatesModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int CandidatesModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

const CandidateSummary* CandidatesModel::candidateAt(int row) const {
  return row >= 0 && row < rowCount() ? &rows_[static_cast<std::size_t>(row)] : nullptr;
}

int CandidatesModel::rowOf(CandidateId id) const { return rowById_.value(id, -1); }

QVariant CandidatesModel::data(const QModelIndex& index, int role) const {
  const CandidateSummary* c = index.isValid() ? candidateAt(index.row()) : nullptr;
  if (!c) return {};
  const int column = index.column();
  // Untimed candidates have no median/speedup and uncompiled ones no register
  // count: their cells stay empty (and sort as 0) instead of showing a fake 0.
  const bool timed = c->medianUs > 0;
  switch (role) {
    case IdRole: return QVariant::fromValue<qlonglong>(c->id);
    case StatusRole: return QString::fromLatin1(toString(c->status));
    case Qt::TextAlignmentRole:
      if (column == Id || column == Generation || column == MedianUs || column == Speedup || column == Registers)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
      return {};
    case SortRole:
      switch (column) {
        case Id: return QVariant::fromValue<qlonglong>(c->id);
        case Generation: return c->generation;
        case MedianUs: return c->medianUs;
        case Speedup: return c->speedup;
        case Registers: return c->registers;
        default: return data(index, Qt::DisplayRole);
      }
    case Qt::DisplayRole:
      switch (column) {
        case Id: return QString::number(c->id);
        case Generation: return QString::number(c->generation);
        case Status: return statusName(c->status);
        case Architecture: return QString::fromStdString(c->architectureKey);
        case Proposer: return proposerText(*c);
        case MedianUs: return timed ? localNumber(c->medianUs, 'f', 2) : QString();
        case Speedup: return timed && c->speedup > 0 ? tr("%1×").arg(localNumber(c->speedup, 'f', 3)) : QString();
        case Registers: return c->registers > 0 ? QString::number(c->registers) : QString();
      }
      return {};
  }
  return {};
}

QVariant CandidatesModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Id: return tr("Candidate");
    case Generation: return tr("Generation");
    case Status: return tr("Status");
    case Architecture: return tr("Architecture");
    case Proposer: return tr("Proposer / mutation");
    case MedianUs: return tr("Median µs");
    case Speedup: return tr("Speedup");
    case Registers: return tr("Registers");
  }
  return {};
}

void CandidatesModel::reload() {
  beginResetModel();
  run_ = session_->currentRun();
  // No run selected means no candidates, not every run's candidates at once.
  rows_ = run_ != 0 ? session_->candidates() : std::vector<CandidateSummary>{};
  rowById_.clear();
  rowById_.reserve(static_cast<qsizetype>(rows_.size()));
  for (std::size_t i = 0; i < rows_.size(); ++i) rowById_.insert(rows_[i].id, static_cast<int>(i));
  endResetModel();
}

void CandidatesModel::refresh() {
  if (run_ != session_->currentRun()) return reload();
  // Everything the session holds that this model does not show yet.
  const auto& all = session_->candidates();
  std::vector<CandidateSummary> changed;
  for (const CandidateSummary& s : all) {
    const int row = rowOf(s.id);
    if (row < 0 || !sameRow(rows_[static_cast<std::size_t>(row)], s)) changed.push_back(s);
  }
  apply(changed, false);
}

void CandidatesModel::apply(const std::vector<CandidateSummary>& changed, bool reset) {
  if (reset || run_ != session_->currentRun()) return reload();
  // Changed rows keep their place; new candidates (higher ids) go below.
  std::vector<const CandidateSummary*> added;
  for (const CandidateSummary& s : changed) {
    const int row = rowOf(s.id);
    if (row < 0) {
      added.push_back(&s);
      continue;
    }
    if (sameRow(rows_[static_cast<std::size_t>(row)], s)) continue;
    rows_[static_cast<std::size_t>(row)] = s;
    emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
  }
  if (added.empty()) return;
  const int first = static_cast<int>(rows_.size());
  beginInsertRows({}, first, first + static_cast<int>(added.size()) - 1);
  for (const CandidateSummary* s : added) {
    rowById_.insert(s->id, static_cast<int>(rows_.size()));
    rows_.push_back(*s);
  }
  endInsertRows();
}

}  // namespace crucible::views
