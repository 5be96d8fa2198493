// SPDX-License-Identifier: GPL-3.0-or-later
// The roofline view's charts: the roofline and the bandwidth view, axes and ranges, points spread and coloured.
#include "views/roofline/roofline_view.h"


#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QCursor>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMouseEvent>
#include <QPainter>
#include <QMenu>
#include <QToolButton>
#include <QScatterSeries>
#include <QSvgGenerator>
#include <QTimer>
#include <QToolTip>
#include <QValueAxis>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <map>
#include "core/task/task_spec.h"
#include "views/diff/candidate_figures.h"
#include "views/common/lazy_refresh.h"
#include "views/session/project_session.h"

#include "views/roofline/roofline_view_parts.h"

namespace crucible::views {

using namespace roofline_detail;

void RooflineView::rebuildChart() {
  chart_->removeAllSeries();
  for (QAbstractAxis* a : chart_->axes()) {
    chart_->removeAxis(a);
    delete a;
  }
  anchorSeries_ = nullptr;
  plotted_.clear();
  pointSeries_.clear();
  QStringList notes = missing_;
  const bool store = session_->isOpen();
  const bool bandwidth = mode_ == Mode::Bandwidth;
  const bool none = bandwidth ? bandwidthPoints_.empty() : points_.empty();
  if (!store) notes.prepend(tr("No project open."));
  else if (!session_->currentRun()) notes.prepend(tr("This project has no runs yet."));
  else if (none) notes.prepend(tr("No profiled candidates in this run yet."));
  if (store && taskKnown_ && flopFree(taskFlops_) && !bandwidth)
    notes << tr("This task does no floating-point work: the bandwidth view shows its kernels.");
  if (store && roofs_.empty())
    notes << tr("No measured ceilings in this project: the roofs appear once the device's ceilings are measured.");
  else if (!roofs_.empty())
    notes << tr("Roofs measured on %1.").arg(deviceBox_->currentText());
  notes_->setText(notes.join(QLatin1Char('\n')));
  resetZoom_->setEnabled(zoomed());
  if (bandwidth) buildBandwidth();
  else buildRoofline();
}

std::pair<double, double> RooflineView::xAxisRange() const { return xRange_.value_or(fullX_); }
std::pair<double, double> RooflineView::yAxisRange() const { return yRange_.value_or(fullY_); }

void RooflineView::applyRanges() {
  const auto axesX = chart_->axes(Qt::Horizontal), axesY = chart_->axes(Qt::Vertical);
  if (axesX.isEmpty() || axesY.isEmpty()) return;
  const auto [x0, x1] = xAxisRange();
  const auto [y0, y1] = yAxisRange();
  axesX.front()->setRange(x0, x1);
  axesY.front()->setRange(y0, y1);
  // Linear axes at their full range get round tick values (zoomed ones keep the user's range).
  if (!zoomed())
    for (QAbstractAxis* a : {axesX.front(), axesY.front()})
      if (auto* v = qobject_cast<QValueAxis*>(a)) v->applyNiceNumbers();
  resetZoom_->setEnabled(zoomed());
}

void RooflineView::buildRoofline() {
  chart_->setTitle(tr("Roofline"));
  if (points_.empty() && roofs_.empty()) return;

  // Axis ranges: every point and every ridge, with a margin of a factor 4.
  double xMin = 1e300, xMax = 0, yMin = 1e300, yMax = 0;
  auto include = [&](double x, double y) {
    xMin = std::min(xMin, x);
    xMax = std::max(xMax, x);
    yMin = std::min(yMin, y);
    yMax = std::max(yMax, y);
  };
  for (const auto& p : points_) include(p.intensity, p.flopsPerSecond);
  double topBw = 0, topPeak = 0;
  for (const auto& r : roofs_) (r.bandwidth ? topBw : topPeak) = std::max(r.bandwidth ? topBw : topPeak, r.measured);
  for (const auto& r : roofs_) {
    if (r.bandwidth && topPeak > 0) include(ridgeIntensity(r.measured, topPeak), topPeak);
    if (!r.bandwidth && topBw > 0) include(ridgeIntensity(topBw, r.measured), r.measured);
  }
  if (xMax <= 0) {  // no points and roofs of one kind only: show 0.1 to 100 FLOP/B
    for (const auto& r : roofs_) {
      include(0.1, r.bandwidth ? r.measured * 0.1 : r.measured);
      include(100, r.bandwidth ? r.measured * 100 : r.measured);
    }
  }
  xMin /= 4;
  xMax *= 4;
  yMin /= 4;
  yMax *= 4;
  // The y axis in SI units: "TFLOP/s" over plain numbers.
  const SiScale si = siScale(yMax / 4);
  yScale_ = si.factor;
  fullX_ = {xMin, xMax};
  fullY_ = {yMin / yScale_, yMax / yScale_};
  yLog_ = true;
  xLog_ = true;

  auto* axisX = new QLogValueAxis;
  axisX->setTitleText(tr("Arithmetic intensity (FLOP per DRAM byte)"));
  axisX->setLabelFormat(QStringLiteral("%g"));
  axisX->setBase(10);
  auto* axisY = new QLogValueAxis;
  axisY->setTitleText(tr("Achieved %1FLOP/s").arg(QString::fromStdString(si.prefix)));
  axisY->setLabelFormat(QStringLiteral("%g"));
  axisY->setBase(10);
  chart_->addAxis(axisX, Qt::AlignBottom);
  chart_->addAxis(axisY, Qt::AlignLeft);
  applyRanges();
  auto attach = [&](QAbstractSeries* s) {
    chart_->addSeries(s);
    s->attachAxis(axisX);
    s->attachAxis(axisY);
    if (!anchorSeries_) anchorSeries_ = s;
  };

  // Roofs: a bandwidth rises until the highest compute roof; a compute roof is
  // flat from where the highest bandwidth reaches it. Drawn across the whole
  // range the user may zoom out to.
  const double x0 = xMin / 1e3, x1 = xMax * 1e3;
  for (const auto& r : roofs_) {
    auto* line = new QLineSeries;
    line->setName(roofLabel(r));
    if (r.bandwidth) {
      const double xEnd = topPeak > 0 ? ridgeIntensity(r.measured, topPeak) : x1;
      line->append(x0, r.measured * x0 / yScale_);
      line->append(xEnd, r.measured * xEnd / yScale_);
    } else {
      const double xStart = topBw > 0 ? ridgeIntensity(topBw, r.measured) : x0;
      line->append(xStart, r.measured / yScale_);
      line->append(x1, r.measured / yScale_);
    }
    // Solid: DRAM (the intensity is per DRAM byte) and the highest compute roof; dashed: the others.
    QPen pen(r.bandwidth ? QColor(90, 90, 90) : QColor(40, 40, 40), 2);
    const bool primary = r.bandwidth ? r.name == "dram_bw" : r.measured >= topPeak;
    if (!primary) pen.setStyle(Qt::DashLine);
    line->setPen(pen);
    attach(line);
  }
  if (points_.empty()) return;

  for (const auto& p : points_) {
    Plotted d;
    d.id = p.id;
    d.generation = p.generation;
    d.value = QPointF(p.intensity, p.flopsPerSecond / yScale_);
    d.text = tr("#%1 · gen %2 · %3 · %4 at %5 FLOP/B")
                 .arg(p.id)
                 .arg(p.generation)
                 .arg(micros(p.seconds), rate(p.flopsPerSecond, "FLOP/s"))
                 .arg(localNumber(p.intensity, 'g', 3));
    plotted_.push_back(d);
  }
  spreadAndFill();
}

void RooflineView::buildBandwidth() {
  const double dramRoof = roofValue(roofs_, "dram_bw"), l2Roof = roofValue(roofs_, "l2_bw");
  const bool percent = dramRoof > 0 || l2Roof > 0;
  chart_->setTitle(percent ? tr("Bandwidth: share of the measured roofs") : tr("Bandwidth achieved"));
  if (bandwidthPoints_.empty()) return;

  // Each kernel twice: its DRAM and its L2 traffic, as % of that roof (or as a rate without roofs).
  double largest = 0;
  for (const auto& p : bandwidthPoints_) {
    if (p.dramPerSecond) largest = std::max(largest, *p.dramPerSecond);
    if (p.l2PerSecond) largest = std::max(largest, *p.l2PerSecond);
  }
  const SiScale si = siScale(largest);
  yScale_ = percent ? 1 : si.factor;
  double tMin = 1e300, tMax = 0, yMax = percent ? 100 : 0;
  for (const auto& p : bandwidthPoints_) {
    const double us = p.seconds * 1e6;
    tMin = std::min(tMin, us);
    tMax = std::max(tMax, us);
    auto add = [&](int series, std::optional<double> perSecond, double roof, const QString& level) {
      if (!perSecond) return;
      if (percent && roof <= 0) return;
      Plotted d;
      d.id = p.id;
      d.generation = p.generation;
      d.series = series;
      const double y = percent ? 100 * *perSecond / roof : *perSecond / yScale_;
      d.value = QPointF(us, y);
      d.text = tr("#%1 · gen %2 · %3 · %4 %5").arg(p.id).arg(p.generation).arg(micros(p.seconds), level, rate(*perSecond, "B/s"));
      if (percent) d.text += tr(" (%1% of the roof)").arg(localNumber(y, 'f', 1));
      plotted_.push_back(d);
      yMax = std::max(yMax, y);
    };
    add(0, p.dramPerSecond, dramRoof, tr("DRAM"));
    add(1, p.l2PerSecond, l2Roof, tr("L2"));
  }
  // Times of one task's kernels span less than a decade or two: a linear axis labels them better.
  fullX_ = {0, tMax * 1.1};
  fullY_ = {0, yMax * 1.1};
  (void)tMin;
  yLog_ = false;
  xLog_ = false;

  auto* axisX = new QValueAxis;
  axisX->setTitleText(tr("Median time (µs)"));
  axisX->setLabelFormat(QStringLiteral("%g"));
  auto* axisY = new QValueAxis;
  axisY->setTitleText(percent ? tr("% of the measured roof") : tr("Achieved %1B/s").arg(QString::fromStdString(si.prefix)));
  axisY->setLabelFormat(QStringLiteral("%g"));
  chart_->addAxis(axisX, Qt::AlignBottom);
  chart_->addAxis(axisY, Qt::AlignLeft);
  applyRanges();
  auto attach = [&](QAbstractSeries* s) {
    chart_->addSeries(s);
    s->attachAxis(axisX);
    s->attachAxis(axisY);
    if (!anchorSeries_) anchorSeries_ = s;
  };
  if (percent) {
    auto* full = new QLineSeries;
    full->setName(tr("100% of the roof"));
    full->append(-fullX_.second, 100);
    full->append(3 * fullX_.second, 100);
    QPen pen(QColor(60, 60, 60), 1.5);
    pen.setStyle(Qt::DashLine);
    full->setPen(pen);
    attach(full);
  }
  spreadAndFill();
}

QPointF RooflineView::toViewport(const QPointF& value) const {
  if (!anchorSeries_) return {};
  const QPointF scene = chart_->mapToScene(chart_->mapToPosition(value, anchorSeries_));
  return QPointF(chartView_->mapFromScene(scene));
}

void RooflineView::spreadAndFill() {
  // Coincident points are nudged apart on screen (deterministically) so a
  // clump reads as a count; the hover list names every point under the pointer.
  const bool laidOut = chart_->plotArea().width() > 50 && chart_->plotArea().height() > 50;
  spreadArea_ = chart_->plotArea().size();
  if (laidOut) {
    std::vector<std::pair<double, double>> px;
    px.reserve(plotted_.size());
    for (const Plotted& d : plotted_) {
      const QPointF v = toViewport(d.value);
      px.push_back({v.x(), v.y()});
    }
    const auto spread = spreadCoincident(px, kSpreadRadiusPx);
    for (std::size_t i = 0; i < plotted_.size(); ++i) {
      if (spread[i] == px[i]) {
        plotted_[i].drawn = plotted_[i].value;
        continue;
      }
      const QPointF scene = chartView_->mapToScene(QPoint(int(std::lround(spread[i].first)), int(std::lround(spread[i].second))));
      plotted_[i].drawn = chart_->mapToValue(chart_->mapFromScene(scene), anchorSeries_);
    }
  } else {
    for (Plotted& d : plotted_) d.drawn = d.value;
  }
  const auto axesX = chart_->axes(Qt::Horizontal), axesY = chart_->axes(Qt::Vertical);
  auto attach = [&](QScatterSeries* s, std::vector<int> members) {
    chart_->addSeries(s);
    s->attachAxis(axesX.front());
    s->attachAxis(axesY.front());
    pointSeries_.push_back({s, std::move(members)});
  };
  const bool bandwidth = mode_ == Mode::Bandwidth;
  if (bandwidth) {
    // Two series: DRAM circles and L2 triangles.
    for (int level = 0; level < 2; ++level) {
      auto* s = new QScatterSeries;
      std::vector<int> members;
      for (int i = 0; i < int(plotted_.size()); ++i)
        if (plotted_[std::size_t(i)].series == level) {
          s->append(plotted_[std::size_t(i)].drawn);
          members.push_back(i);
        }
      if (members.empty()) {
        delete s;
        continue;
      }
      s->setName(level == 0 ? tr("DRAM") : tr("L2"));
      s->setMarkerShape(level == 0 ? QScatterSeries::MarkerShapeCircle : QScatterSeries::MarkerShapeTriangle);
      s->setMarkerSize(9);
      s->setColor(level == 0 ? QColor(31, 119, 180) : QColor(214, 39, 40));
      s->setBorderColor(Qt::transparent);
      attach(s, std::move(members));
    }
  } else {
    // One series per generation band (at most eight), early blue to late red.
    const auto [gMinIt, gMaxIt] = std::minmax_element(plotted_.begin(), plotted_.end(),
        [](const Plotted& a, const Plotted& b) { return a.generation < b.generation; });
    const int gMin = gMinIt->generation, gMax = gMaxIt->generation;
    const int bands = std::min(8, gMax - gMin + 1);
    const double width = double(gMax - gMin + 1) / bands;
    std::vector<std::pair<QScatterSeries*, std::vector<int>>> series(static_cast<std::size_t>(bands));
    for (int i = 0; i < int(plotted_.size()); ++i) {
      const Plotted& d = plotted_[std::size_t(i)];
      const int b = std::min(bands - 1, static_cast<int>((d.generation - gMin) / width));
      auto& [s, members] = series[static_cast<std::size_t>(b)];
      if (!s) {
        s = new QScatterSeries;
        const int lo = gMin + static_cast<int>(std::ceil(b * width - 1e-9));
        const int hi = gMin + static_cast<int>(std::ceil((b + 1) * width - 1e-9)) - 1;
        s->setName(lo == hi ? tr("generation %1").arg(lo) : tr("generations %1–%2").arg(lo).arg(hi));
        s->setColor(generationColor(bands == 1 ? 0.0 : double(b) / (bands - 1)));
        s->setMarkerSize(9);
        s->setBorderColor(Qt::transparent);
      }
      s->append(d.drawn);
      members.push_back(i);
    }
    for (auto& [s, members] : series)
      if (s) attach(s, std::move(members));
  }
  // Rings around the reference, sealed and selected candidates' points.
  auto markers = [&](const QString& name, QScatterSeries::MarkerShape shape, QColor color, auto pick) {
    auto* s = new QScatterSeries;
    std::vector<int> members;
    for (int i = 0; i < int(plotted_.size()); ++i)
      if (pick(plotted_[std::size_t(i)].id)) {
        s->append(plotted_[std::size_t(i)].drawn);
        members.push_back(i);
      }
    if (members.empty()) {
      delete s;
      return;
    }
    s->setName(name);
    s->setMarkerShape(shape);
    s->setMarkerSize(15);
    s->setColor(Qt::transparent);
    s->setBorderColor(color);
    s->setPen(QPen(color, 2));
    attach(s, std::move(members));
  };
  markers(tr("reference"), QScatterSeries::MarkerShapeRectangle, QColor(31, 119, 180),
          [this](CandidateId id) { return id == reference_; });
  markers(tr("sealed"), QScatterSeries::MarkerShapeStar, QColor(212, 160, 23),
          [this](CandidateId id) { return sealed_.count(id) > 0; });
  const CandidateId sel = session_->selectedCandidate();
  markers(tr("selected"), QScatterSeries::MarkerShapeCircle, QColor(0, 90, 255),
          [sel](CandidateId id) { return id == sel; });
}

}  // namespace crucible::views
