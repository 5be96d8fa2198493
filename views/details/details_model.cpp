// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/details/details_model.h"

#include <QFont>
#include <algorithm>
#include <map>
#include <set>
#include "views/details/detail_labels.h"
#include "views/details/detail_notes.h"
#include "views/details/figure_text.h"

namespace crucible::views {

namespace {

// Keys in the order they first appear over the columns: rows present in any
// candidate are shown for all (missing where a candidate lacks them).
struct Layout {
  std::vector<std::string> groups;
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> rows;  // group -> (key, label)
};

Layout layoutOf(const std::vector<const std::vector<DetailGroup>*>& all) {
  Layout l;
  std::set<std::string> seen;
  for (const auto* groups : all)
    for (const DetailGroup& g : *groups) {
      if (std::find(l.groups.begin(), l.groups.end(), g.name) == l.groups.end()) l.groups.push_back(g.name);
      for (const DetailRow& r : g.rows)
        if (seen.insert(r.key).second) l.rows[g.name].emplace_back(r.key, r.label);
    }
  return l;
}

QStandardItem* readOnly(const QString& text = {}) {
  auto* item = new QStandardItem(text);
  item->setEditable(false);
  return item;
}

// The figure's cell: its text, number and unit, why it is missing, where it comes from.
QStandardItem* figureItem(const DetailRow* row, CandidateId id) {
  if (!row) {
    QStandardItem* item = readOnly(DetailsModel::tr("missing: not recorded for this candidate"));
    item->setData(DetailsModel::tr("not recorded for this candidate"), DetailsModel::MissingRole);
    return item;
  }
  QStandardItem* item = readOnly(figureText(*row));
  if (row->value) item->setData(*row->value, DetailsModel::ValueRole);
  item->setData(QString::fromStdString(row->unit), DetailsModel::UnitRole);
  item->setData(DetailNotes::missing(row->missing), DetailsModel::MissingRole);
  const QString source = DetailNotes::source(row->source);
  item->setData(source, DetailsModel::SourceRole);
  QString tip = QStringLiteral("#%1 · %2").arg(id).arg(figureText(*row));
  if (!source.isEmpty()) tip += QStringLiteral("\n") + DetailsModel::tr("from %1").arg(source);
  item->setToolTip(tip);
  if (!row->missing.empty()) item->setForeground(QBrush(Qt::gray));
  return item;
}

void setDifference(QStandardItem* item, const FigureDifference& d) {
  item->setData(d.absolute, DetailsModel::DifferenceRole);
  if (d.percent) item->setData(*d.percent, DetailsModel::DifferencePercentRole);
}

}  // namespace

DetailsModel::DetailsModel(QObject* parent) : QStandardItemModel(parent) { setColumns({}); }

void DetailsModel::setColumns(std::vector<Column> columns, std::optional<Column> baseline) {
  if (columns.size() != 1) baseline.reset();
  columns_ = std::move(columns);
  baseline_ = std::move(baseline);
  clear();
  QStringList headers{tr("Metric")};
  for (const Column& c : columns_) headers << QStringLiteral("#%1").arg(c.id);
  if (baseline_) headers << tr("Baseline #%1").arg(baseline_->id) << tr("Difference");
  setColumnCount(static_cast<int>(headers.size()));
  setHorizontalHeaderLabels(headers);
  if (columns_.empty()) return;

  std::vector<const std::vector<DetailGroup>*> all;
  for (const Column& c : columns_) all.push_back(&c.groups);
  if (baseline_) all.push_back(&baseline_->groups);
  const Layout layout = layoutOf(all);
  const int width = static_cast<int>(headers.size());

  for (const std::string& group : layout.groups) {
    QList<QStandardItem*> groupRow{readOnly(groupTitle(group))};
    groupRow.front()->setData(QString::fromStdString(group), KeyRole);
    QFont bold = groupRow.front()->font();
    bold.setBold(true);
    groupRow.front()->setFont(bold);
    for (int i = 1; i < width; ++i) groupRow << readOnly();
    for (const auto& [key, label] : layout.rows.at(group)) {
      QList<QStandardItem*> row{readOnly(detailLabel(key, label))};
      row.front()->setData(QString::fromStdString(key), KeyRole);
      std::vector<const DetailRow*> cells;
      for (const Column& c : columns_) cells.push_back(findDetail(c.groups, key));
      const DetailRow* base = baseline_ ? findDetail(baseline_->groups, key) : nullptr;
      for (std::size_t i = 0; i < columns_.size(); ++i) {
        QStandardItem* item = figureItem(cells[i], columns_[i].id);
        // The comparison: each candidate against the first.
        if (i > 0 && cells[i] && cells[0])
          if (auto d = figureDifference(*cells[i], *cells[0])) {
            setDifference(item, *d);
            item->setToolTip(item->toolTip() + QStringLiteral("\n") +
                             tr("%1 against #%2").arg(differenceText(*d, cells[i]->unit)).arg(columns_[0].id));
          }
        row << item;
      }
      if (baseline_) {
        row << figureItem(base, baseline_->id);
        QStandardItem* diff = readOnly();
        if (cells[0] && base) {
          if (auto d = figureDifference(*cells[0], *base)) {
            diff->setText(differenceText(*d, cells[0]->unit));
            setDifference(diff, *d);
          }
        }
        row << diff;
      }
      if (!row.front()->data(KeyRole).isNull()) row.front()->setToolTip(QString::fromStdString(key));
      // Long texts, line by line, under the figure.
      // A text cut short ends in a line that counts what was left out.
      auto shownLines = [](const DetailRow* c) { return c ? c->lines.size() + (c->linesNotShown ? 1 : 0) : 0; };
      std::size_t lines = 0;
      for (const DetailRow* c : cells) lines = std::max(lines, shownLines(c));
      if (base) lines = std::max(lines, shownLines(base));
      for (std::size_t n = 0; n < lines; ++n) {
        QList<QStandardItem*> line{readOnly(QString::number(n + 1))};
        auto lineOf = [n](const DetailRow* c) {
          if (!c) return QString();
          if (n < c->lines.size()) return QString::fromStdString(c->lines[n]);
          return n == c->lines.size() && c->linesNotShown ? DetailNotes::linesNotShown(c->linesNotShown) : QString();
        };
        for (const DetailRow* c : cells) line << readOnly(lineOf(c));
        if (baseline_) line << readOnly(lineOf(base)) << readOnly();
        row.front()->appendRow(line);
      }
      groupRow.front()->appendRow(row);
    }
    appendRow(groupRow);
  }
}

QModelIndex DetailsModel::indexOfKey(const std::string& key, int column) const {
  const QString k = QString::fromStdString(key);
  for (int g = 0; g < rowCount(); ++g) {
    const QModelIndex group = index(g, 0);
    for (int r = 0; r < rowCount(group); ++r)
      if (index(r, 0, group).data(KeyRole).toString() == k) return index(r, column, group);
  }
  return {};
}

QModelIndex DetailsModel::indexOfGroup(const std::string& group) const {
  for (int g = 0; g < rowCount(); ++g)
    if (index(g, 0).data(KeyRole).toString() == QString::fromStdString(group)) return index(g, 0);
  return {};
}

}  // namespace crucible::views
