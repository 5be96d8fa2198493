// SPDX-License-Identifier: GPL-3.0-or-later
// Two or more candidates side by side: their figures in one table (a column
// per candidate, from the same details core as the details view, so every
// figure reads the same in both), their timing distributions on one axis,
// and the source diff of the first two (the diff view's widget).
#pragma once
#include <QWidget>
#include <vector>
#include "core/model/ids.h"

class QLabel;
class QTabWidget;
class QTreeView;

namespace crucible::views {

class DetailsModel;
class ProjectSession;
class SideBySideDiff;
class TimingPlot;

class CompareView : public QWidget {
  Q_OBJECT
public:
  // At most this many candidates are compared (the first ones given).
  static constexpr int kMaxCandidates = 8;

  explicit CompareView(ProjectSession* session, QWidget* parent = nullptr);

  const std::vector<CandidateId>& candidates() const { return ids_; }
  DetailsModel* model() const { return model_; }
  QTreeView* table() const { return table_; }
  TimingPlot* timingPlot() const { return plot_; }
  SideBySideDiff* diffWidget() const { return diff_; }
  QTabWidget* tabs() const { return tabs_; }
  // What the view says besides the comparison ("" when nothing to say).
  QString message() const;

public slots:
  // Duplicates are dropped; fewer than two shows what there is and says why.
  void compare(std::vector<crucible::CandidateId> ids);

protected:
  // The figure columns are fitted again when the tree's width changes: a narrow dock
  // gives the metric names less room.
  bool eventFilter(QObject* watched, QEvent* event) override;

private:
  void refresh();
  void setMessage(const QString& text);

  ProjectSession* session_;
  std::vector<CandidateId> ids_;
  QString limitNote_;
  QLabel* title_ = nullptr;
  QLabel* message_ = nullptr;
  QLabel* diffTitle_ = nullptr;
  QTabWidget* tabs_ = nullptr;
  QTreeView* table_ = nullptr;
  DetailsModel* model_ = nullptr;
  TimingPlot* plot_ = nullptr;
  SideBySideDiff* diff_ = nullptr;
};

}  // namespace crucible::views
