// SPDX-License-Identifier: GPL-3.0-or-later
// Log-log roofline of the current run: each profiled candidate at its
// arithmetic intensity and achieved FLOP/s, coloured by generation; the
// measured ceilings of a device as roofs, with their datasheet values beside
// them. A task with no FLOPs (transpose, copies) gets the bandwidth view
// instead: each candidate's DRAM and L2 traffic as % of the measured roofs
// over its median time. Wheel zooms, dragging pans, double-click (or Reset
// zoom) goes back; points that coincide are spread apart and hovering lists
// every point under the pointer; click selects; export PNG or SVG.
#pragma once
#include <QWidget>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>
#include "views/roofline/roofline_math.h"

class QAbstractSeries;
class QChart;
class QChartView;
class QComboBox;
class QLabel;
class QToolButton;
class QScatterSeries;

namespace crucible::views {

class ProjectSession;
class LazyRefresh;

class RooflineView : public QWidget {
  Q_OBJECT
public:
  enum class Mode { Roofline, Bandwidth };

  explicit RooflineView(ProjectSession* session, QWidget* parent = nullptr);

  const std::vector<RooflinePoint>& points() const { return points_; }
  const std::vector<BandwidthPoint>& bandwidthPoints() const { return bandwidthPoints_; }
  const std::vector<Roof>& roofs() const { return roofs_; }
  Mode mode() const { return mode_; }
  // What the view says about missing data ("" when everything is plotted).
  QString notes() const;
  QChart* chart() const { return chart_; }
  QChartView* chartView() const { return chartView_; }
  // The tooltip text for the points within a few pixels of pos (chart view
  // viewport coordinates); "" when there are none.
  QString describePointsAt(const QPoint& viewportPos) const;
  // Where a candidate's marker is drawn (viewport coordinates; spread apart
  // from coincident ones); nullopt when it is not plotted.
  std::optional<QPoint> markerPosition(CandidateId id) const;
  bool zoomed() const { return xRange_.has_value(); }

public slots:
  void reload();
  // Shows the roofline or the bandwidth view (a FLOP-free task starts on the bandwidth view).
  void setMode(crucible::views::RooflineView::Mode mode);
  // Writes the chart as SVG (by the .svg suffix) or as a PNG; false with a warning on failure.
  bool exportImage(const QString& path);
  void selectPointAt(const QPointF& value);
  // factor > 1 zooms in about the viewport position anchor.
  void zoomAt(const QPoint& anchor, double factor);
  void resetZoom();

protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

private:
  struct Plotted {
    CandidateId id = 0;
    int generation = 0;
    QPointF value;     // where the point really is, in the axes' units
    QPointF drawn;     // where it is drawn (spread from coincident ones)
    QString text;      // its line in the hover list
    int series = 0;    // 0: the roofline's or DRAM's point, 1: L2's
  };

  void rebuildChart();
  void buildRoofline();
  void buildBandwidth();
  void spreadAndFill();
  void addCandidates(const std::vector<crucible::CandidateSummary>& changed, bool reset);
  void fetch(std::vector<CandidateId> ids);
  void updateMissing();
  int nearestPoint(const QPointF& value) const;
  QString describe(const RooflinePoint& p) const;
  QPointF toViewport(const QPointF& value) const;
  std::pair<double, double> xAxisRange() const;
  std::pair<double, double> yAxisRange() const;
  void applyRanges();

  ProjectSession* session_;
  QComboBox* deviceBox_ = nullptr;
  QComboBox* modeBox_ = nullptr;
  QToolButton* resetZoom_ = nullptr;
  QLabel* notes_ = nullptr;
  QChart* chart_ = nullptr;
  QChartView* chartView_ = nullptr;
  QAbstractSeries* anchorSeries_ = nullptr;  // any series on both axes, for mapping values to pixels
  std::vector<Plotted> plotted_;
  std::vector<std::pair<QScatterSeries*, std::vector<int>>> pointSeries_;  // a series and the plotted_ it draws
  std::vector<Ceiling> ceilings_;
  std::vector<Roof> roofs_;
  std::vector<RooflinePoint> points_;
  std::vector<BandwidthPoint> bandwidthPoints_;
  std::set<CandidateId> sealed_;
  CandidateId reference_ = 0;
  QStringList missing_;
  LazyRefresh* lazy_ = nullptr;
  std::optional<double> taskFlops_;
  bool taskKnown_ = false;
  QString flopsProblem_;
  std::set<CandidateId> considered_;
  std::map<CandidateId, QString> missingById_;     // the roofline's reasons, as shown
  std::map<CandidateId, QString> bwMissingById_;   // the bandwidth view's reasons, as shown
  Mode mode_ = Mode::Roofline;
  double yScale_ = 1;  // plotted y = value / yScale_ (SI prefix of the axis)
  std::optional<std::pair<double, double>> xRange_, yRange_;  // zoomed ranges (axes' units)
  std::pair<double, double> fullX_{1, 10}, fullY_{1, 10};
  bool yLog_ = true;
  bool xLog_ = true;
  QSizeF spreadArea_;          // the plot area the points were last spread for
  bool respreadPending_ = false;
  QPoint pressAt_;
  bool dragging_ = false;
  bool pressed_ = false;
  int generation_ = 0;  // of reload(): replies to an older one are dropped
};

}  // namespace crucible::views
