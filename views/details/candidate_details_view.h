// SPDX-License-Identifier: GPL-3.0-or-later
// The selected candidate's details, Nsight Compute's Details page as the
// model: every figure the project holds about it, grouped (throughput,
// compute, occupancy, launch, compile, timing, validation, every other
// profile counter), each with its unit, a missing one with why; with a
// baseline, each figure beside the baseline's and the difference. Below, its
// timing samples beside its run's reference's (and the baseline's). A second
// tab shows its source.
#pragma once
#include <QSet>
#include <QWidget>
#include <optional>
#include "core/model/candidate.h"
#include "core/model/ids.h"

class QLabel;
class QSpinBox;
class QTabWidget;
class QTreeView;
class QsciScintilla;

namespace crucible::views {

class DetailsModel;
class ProjectSession;
class TimingPlot;

// Sizes a figures tree's columns to their contents, none wider than
// maxWidth (a long "missing: ..." reads whole in its tooltip).
void fitFigureColumns(QTreeView* tree, int maxWidth = 200);

class CandidateDetailsView : public QWidget {
  Q_OBJECT
public:
  explicit CandidateDetailsView(ProjectSession* session, QWidget* parent = nullptr);

  CandidateId candidate() const { return id_; }
  std::optional<CandidateId> baseline() const { return baseline_; }
  DetailsModel* model() const { return model_; }
  QTreeView* tree() const { return tree_; }
  TimingPlot* timingPlot() const { return plot_; }
  QsciScintilla* sourceEditor() const { return source_; }
  QTabWidget* tabs() const { return tabs_; }
  // What the view says instead of details ("" when it shows them).
  QString message() const;

public slots:
  // 0 shows nothing.
  void showCandidate(crucible::CandidateId id);
  // Every figure is shown beside the baseline's, with the difference.
  void setBaseline(std::optional<crucible::CandidateId> baseline);

signals:
  // The user picked another baseline in the view (not sent for setBaseline).
  void baselineChosen(std::optional<crucible::CandidateId> baseline);

protected:
  // The figure columns are fitted again when the tree's width changes: a narrow dock
  // gives the metric names less room.
  bool eventFilter(QObject* watched, QEvent* event) override;

private:
  struct Loaded;
  void refresh();
  void showLoaded(const Loaded& loaded);
  void setMessage(const QString& text);
  void rememberExpansion();
  void restoreExpansion();

  ProjectSession* session_;
  CandidateId id_ = 0;
  std::optional<CandidateId> baseline_;
  QLabel* headline_ = nullptr;
  QLabel* message_ = nullptr;
  QSpinBox* baselinePick_ = nullptr;
  QTreeView* tree_ = nullptr;
  DetailsModel* model_ = nullptr;
  TimingPlot* plot_ = nullptr;
  QTabWidget* tabs_ = nullptr;
  QsciScintilla* source_ = nullptr;
  QSet<QString> collapsedGroups_;   // by key; groups start expanded
  QSet<QString> expandedFigures_;   // figures with lines (the ptxas log) start collapsed
};

}  // namespace crucible::views
