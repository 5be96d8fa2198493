// SPDX-License-Identifier: GPL-3.0-or-later
// The knowledge base as a table: scope, claim, decision, status, measured
// effect, evidence count, observations.
#pragma once
#include <QAbstractTableModel>
#include <vector>
#include "core/model/knowledge.h"

namespace crucible::views {

class KnowledgeModel : public QAbstractTableModel {
  Q_OBJECT
public:
  enum Column { Scope, Claim, Decision, Status, Effect, Evidence, Observations, ColumnCount };
  static constexpr int KnowledgeIdRole = Qt::UserRole + 1;

  explicit KnowledgeModel(QObject* parent = nullptr);
  void setEntries(std::vector<KnowledgeEntry> entries);
  const KnowledgeEntry* entryAt(int row) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
  std::vector<KnowledgeEntry> entries_;
};

// "sm_90 · softmax · any shape"
QString formatScope(const KnowledgeEntry& k);

}  // namespace crucible::views
