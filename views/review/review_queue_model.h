// SPDX-License-Identifier: GPL-3.0-or-later
// The candidates of a gated run waiting for a verdict on their architecture.
#pragma once
#include <QAbstractTableModel>
#include <optional>
#include <vector>
#include "core/model/candidate.h"

namespace crucible::views {

// A language model's architecture waiting for review before any code is
// written (a gated run, backends/proposers/llm/README.md): no source yet, its
// name and plan in genomeJson's "plan". nullopt for any other candidate.
struct ProposedPlan {
  QString name;
  QString text;
};
std::optional<ProposedPlan> proposedPlanOf(const Candidate& c);

class ReviewQueueModel : public QAbstractTableModel {
  Q_OBJECT
public:
  enum Column { Id, Generation, Architecture, Proposer, Mutation, ColumnCount };
  static constexpr int CandidateIdRole = Qt::UserRole + 1;

  explicit ReviewQueueModel(QObject* parent = nullptr);

  void setCandidates(std::vector<Candidate> candidates);
  const Candidate* candidateAt(int row) const;
  int rowOf(CandidateId id) const;  // -1 if not queued

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
  std::vector<Candidate> candidates_;
};

}  // namespace crucible::views
