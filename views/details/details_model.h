// SPDX-License-Identifier: GPL-3.0-or-later
// The figures of one or more candidates as a tree: a group per row of the
// top level (Throughput, Compute...), a figure per child, and the lines of a
// long text (the ptxas log, the diagnostics) as the figure's children.
// Column 0 names the figure; then one column per candidate. With a baseline
// (the details view, one candidate) two more columns: the baseline's figure
// and the difference against it (absolute and %). Several candidates (the
// comparison) each carry their difference against the first in the tooltip
// and DifferenceRole.
#pragma once
#include <QStandardItemModel>
#include <optional>
#include <vector>
#include "core/model/ids.h"
#include "views/details/candidate_details.h"

namespace crucible::views {

class DetailsModel : public QStandardItemModel {
  Q_OBJECT
public:
  enum Role {
    KeyRole = Qt::UserRole + 1,   // the figure's key (column 0)
    ValueRole,                    // the number (double), invalid when none
    UnitRole,                     // the unit (QString)
    MissingRole,                  // why the figure is missing (QString), empty when present
    DifferenceRole,               // absolute difference against the baseline / first candidate (double)
    DifferencePercentRole,        // the same in % (double), invalid when the baseline is 0
    SourceRole,                   // where the figure comes from (QString: a counter's name, "ptxas"...)
  };

  struct Column {
    CandidateId id = 0;
    std::vector<DetailGroup> groups;
  };

  explicit DetailsModel(QObject* parent = nullptr);

  // Replaces what is shown. baseline: only with one column.
  void setColumns(std::vector<Column> columns, std::optional<Column> baseline = std::nullopt);
  void clearColumns() { setColumns({}); }
  int candidateCount() const { return static_cast<int>(columns_.size()); }
  bool hasBaseline() const { return baseline_.has_value(); }
  // The column of the i-th candidate, of the baseline, of the difference (-1 when none).
  int candidateColumn(int i) const { return 1 + i; }
  int baselineColumn() const { return baseline_ ? 1 + candidateCount() : -1; }
  int differenceColumn() const { return baseline_ ? 2 + candidateCount() : -1; }
  // The index (in `column`) of the figure with `key`; invalid when there is none.
  QModelIndex indexOfKey(const std::string& key, int column = 0) const;
  // The group row named `group` (as stored, e.g. "Timing").
  QModelIndex indexOfGroup(const std::string& group) const;

private:
  std::vector<Column> columns_;
  std::optional<Column> baseline_;
};

}  // namespace crucible::views
