// SPDX-License-Identifier: GPL-3.0-or-later
// Log-log roofline of the current run: each profiled candidate at its
// arithmetic intensity and achieved FLOP/s, coloured by generation; the
// measured ceilings of a device as roofs, with their datasheet values beside
// them. Hover for details, click to select; export PNG or SVG.
#pragma once
#include <QWidget>
#include <map>
#include <optional>
#include <set>
#include <vector>
#include "views/roofline/roofline_math.h"

class QChart;
class QChartView;
class QComboBox;
class QLabel;
class QScatterSeries;

namespace crucible::views {

class ProjectSession;
class LazyRefresh;

class RooflineView : public QWidget {
  Q_OBJECT
public:
  explicit RooflineView(ProjectSession* session, QWidget* parent = nullptr);

  const std::vector<RooflinePoint>& points() const { return points_; }
  const std::vector<Roof>& roofs() const { return roofs_; }
  // What the view says about missing data ("" when everything is plotted).
  QString notes() const;
  QChart* chart() const { return chart_; }

public slots:
  void reload();
  // Writes the chart as SVG (by the .svg suffix) or as a PNG; false with a warning on failure.
  bool exportImage(const QString& path);
  void selectPointAt(const QPointF& value);

private:
  void rebuildChart();
  void addCandidates(const std::vector<crucible::CandidateSummary>& changed, bool reset);
  void fetch(std::vector<CandidateId> ids);
  void updateMissing();
  int nearestPoint(const QPointF& value) const;
  QString describe(const RooflinePoint& p) const;

  ProjectSession* session_;
  QComboBox* deviceBox_ = nullptr;
  QLabel* notes_ = nullptr;
  QChart* chart_ = nullptr;
  QChartView* chartView_ = nullptr;
  QScatterSeries* selected_ = nullptr;
  std::vector<Ceiling> ceilings_;
  std::vector<Roof> roofs_;
  std::vector<RooflinePoint> points_;
  std::set<CandidateId> sealed_;
  CandidateId reference_ = 0;
  QStringList missing_;
  LazyRefresh* lazy_ = nullptr;
  std::optional<double> taskFlops_;
  QString flopsProblem_;
  std::set<CandidateId> considered_;
  std::map<CandidateId, std::string> missingById_;
  int generation_ = 0;  // of reload(): replies to an older one are dropped
};

}  // namespace crucible::views
