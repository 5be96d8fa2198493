// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/archive/archive_grid_model.h"

#include <QColor>
#include "views/common/locale_numbers.h"
#include "views/diff/candidate_figures.h"

namespace crucible::views {

ArchiveGridModel::ArchiveGridModel(QObject* parent) : QAbstractTableModel(parent) {}

void ArchiveGridModel::setGrid(ArchiveGrid grid) {
  beginResetModel();
  grid_ = std::move(grid);
  endResetModel();
}

QModelIndex ArchiveGridModel::indexOfElite(CandidateId id) const {
  for (std::size_t y = 0; y < grid_.cells.size(); ++y)
    for (std::size_t x = 0; x < grid_.cells[y].size(); ++x)
      if (id != 0 && grid_.cells[y][x].elite == id) return index(static_cast<int>(y), static_cast<int>(x));
  return {};
}

int ArchiveGridModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(grid_.yValues.size());
}

int ArchiveGridModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(grid_.xValues.size());
}

Qt::ItemFlags ArchiveGridModel::flags(const QModelIndex& index) const {
  if (!index.isValid()) return Qt::NoItemFlags;
  const auto& c = grid_.cells[static_cast<std::size_t>(index.row())][static_cast<std::size_t>(index.column())];
  return c.elite ? Qt::ItemIsEnabled | Qt::ItemIsSelectable : Qt::ItemIsEnabled;
}

QVariant ArchiveGridModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount()) return {};
  const auto& c = grid_.cells[static_cast<std::size_t>(index.row())][static_cast<std::size_t>(index.column())];
  switch (role) {
    case Qt::DisplayRole: return c.elite ? formatSpeedup(c.fitness) : QVariant();
    case EliteRole: return QVariant::fromValue<qlonglong>(c.elite);
    case Qt::TextAlignmentRole: return int(Qt::AlignCenter);
    case Qt::ToolTipRole:
      if (!c.elite) return tr("empty cell");
      return tr("elite #%1, fitness %2\n%3 = %4, %5 = %6\nbest of %7 archive cell(s)")
          .arg(c.elite)
          .arg(localNumber(c.fitness, 'g', 4))
          .arg(QString::fromStdString(grid_.xDimension), QString::fromStdString(grid_.xValues[static_cast<std::size_t>(index.column())]),
               QString::fromStdString(grid_.yDimension), QString::fromStdString(grid_.yValues[static_cast<std::size_t>(index.row())]))
          .arg(c.folded);
    case Qt::BackgroundRole: {
      if (!c.elite) return QColor(245, 245, 245);
      const double span = grid_.maxFitness - grid_.minFitness;
      const double t = span > 0 ? (c.fitness - grid_.minFitness) / span : 1.0;
      // Low fitness pale yellow to high fitness deep green.
      return QColor::fromHsvF(0.17 + 0.2 * t, 0.25 + 0.65 * t, 0.98 - 0.4 * t);
    }
    case Qt::ForegroundRole: {
      if (!c.elite) return {};
      const double span = grid_.maxFitness - grid_.minFitness;
      const double t = span > 0 ? (c.fitness - grid_.minFitness) / span : 1.0;
      return t > 0.6 ? QColor(Qt::white) : QColor(Qt::black);
    }
    default: return {};
  }
}

QVariant ArchiveGridModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (role != Qt::DisplayRole) return {};
  if (orientation == Qt::Horizontal && section >= 0 && section < columnCount())
    return QString::fromStdString(grid_.xValues[static_cast<std::size_t>(section)]);
  if (orientation == Qt::Vertical && section >= 0 && section < rowCount())
    return QString::fromStdString(grid_.yValues[static_cast<std::size_t>(section)]);
  return {};
}

}  // namespace crucible::views
