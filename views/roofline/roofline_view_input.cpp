// SPDX-License-Identifier: GPL-3.0-or-later
// The roofline view's pointer: zoom, pan, the points under the pointer, selection, image export.
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
#include "views/common/view_helpers.h"
#include "views/session/project_session.h"

#include "views/roofline/roofline_view_parts.h"

namespace crucible::views {

using namespace roofline_detail;

std::optional<QPoint> RooflineView::markerPosition(CandidateId id) const {
  for (const Plotted& d : plotted_)
    if (d.id == id) return toViewport(d.drawn).toPoint();
  return std::nullopt;
}

QString RooflineView::describePointsAt(const QPoint& pos) const {
  if (plotted_.empty() || !anchorSeries_) return {};
  std::vector<std::pair<double, double>> px;
  px.reserve(plotted_.size());
  for (const Plotted& d : plotted_) {
    const QPointF v = toViewport(d.drawn);
    px.push_back({v.x(), v.y()});
  }
  const std::vector<int> hits = pointsNear(px, {pos.x(), pos.y()}, kHoverRadiusPx);
  if (hits.empty()) return {};
  QStringList lines;
  if (hits.size() > 1) lines << tr("%n point(s) here:", nullptr, int(hits.size()));
  for (std::size_t i = 0; i < hits.size() && i < std::size_t(kMaxHoverLines); ++i) {
    const Plotted& d = plotted_[std::size_t(hits[i])];
    QString line = d.text;
    if (d.id == reference_) line += tr(" · the run's reference");
    if (sealed_.count(d.id)) line += tr(" · sealed");
    lines << line;
  }
  if (hits.size() > std::size_t(kMaxHoverLines)) lines << tr("… and %1 more").arg(hits.size() - kMaxHoverLines);
  // One point alone: the full description of a roofline point.
  if (hits.size() == 1 && mode_ == Mode::Roofline)
    for (const auto& p : points_)
      if (p.id == plotted_[std::size_t(hits[0])].id) return describe(p);
  return lines.join(QLatin1Char('\n'));
}

bool RooflineView::eventFilter(QObject* watched, QEvent* event) {
  if (watched != chartView_->viewport()) return QWidget::eventFilter(watched, event);
  switch (event->type()) {
    case QEvent::Wheel: {
      auto* e = static_cast<QWheelEvent*>(event);
      const int delta = e->angleDelta().y();
      if (delta == 0) return false;
      zoomAt(e->position().toPoint(), std::pow(1.25, delta / 120.0));
      return true;
    }
    case QEvent::MouseButtonPress: {
      auto* e = static_cast<QMouseEvent*>(event);
      if (e->button() != Qt::LeftButton) return false;
      pressed_ = true;
      dragging_ = false;
      pressAt_ = e->position().toPoint();
      return true;
    }
    case QEvent::MouseMove: {
      auto* e = static_cast<QMouseEvent*>(event);
      const QPoint pos = e->position().toPoint();
      if (pressed_ && (e->buttons() & Qt::LeftButton)) {
        if (!dragging_ && (pos - pressAt_).manhattanLength() < kDragThresholdPx) return true;
        dragging_ = true;
        const QRectF area = chart_->plotArea();
        if (area.width() <= 0 || area.height() <= 0 || chart_->axes().isEmpty()) return true;
        const QPoint d = pos - pressAt_;
        pressAt_ = pos;
        const auto [x0, x1] = xAxisRange();
        if (xLog_) {
          xRange_ = panLogRange(x0, x1, -d.x() / area.width());
        } else {
          const double shift = -(x1 - x0) * d.x() / area.width();
          xRange_ = std::make_pair(x0 + shift, x1 + shift);
        }
        const auto [y0, y1] = yAxisRange();
        if (yLog_) {
          yRange_ = panLogRange(y0, y1, d.y() / area.height());
        } else {
          const double shift = (y1 - y0) * d.y() / area.height();
          yRange_ = std::make_pair(y0 + shift, y1 + shift);
        }
        applyRanges();
        return true;
      }
      const QString text = describePointsAt(pos);
      if (text.isEmpty()) QToolTip::hideText();
      else QToolTip::showText(chartView_->viewport()->mapToGlobal(pos), plainTextToolTip(text), chartView_);
      return false;
    }
    case QEvent::MouseButtonRelease: {
      auto* e = static_cast<QMouseEvent*>(event);
      if (e->button() != Qt::LeftButton || !pressed_) return false;
      pressed_ = false;
      if (dragging_) {
        dragging_ = false;
        rebuildChart();  // the spread of coincident points follows the new scale
        return true;
      }
      // A click: select the point under the pointer (the nearest when several are).
      std::vector<std::pair<double, double>> px;
      for (const Plotted& d : plotted_) {
        const QPointF v = toViewport(d.drawn);
        px.push_back({v.x(), v.y()});
      }
      const QPoint pos = e->position().toPoint();
      const std::vector<int> hits = pointsNear(px, {pos.x(), pos.y()}, kHoverRadiusPx);
      if (!hits.empty()) session_->selectCandidate(plotted_[std::size_t(hits.front())].id);
      return true;
    }
    case QEvent::MouseButtonDblClick:
      resetZoom();
      return true;
    default:
      return false;
  }
}

void RooflineView::zoomAt(const QPoint& anchor, double factor) {
  if (!anchorSeries_ || factor <= 0) return;
  const QPointF scene = chartView_->mapToScene(anchor);
  const QPointF value = chart_->mapToValue(chart_->mapFromScene(scene), anchorSeries_);
  const auto [x0, x1] = xAxisRange();
  const double ax = std::clamp(value.x(), x0, x1);
  if (!xLog_) xRange_ = std::make_pair(ax - (ax - x0) / factor, ax + (x1 - ax) / factor);
  else if (ax > 0) xRange_ = zoomLogRange(x0, x1, ax, factor);
  const auto [y0, y1] = yAxisRange();
  const double ay = std::clamp(value.y(), y0, y1);
  if (yLog_) {
    if (ay > 0) yRange_ = zoomLogRange(y0, y1, ay, factor);
  } else {
    yRange_ = std::make_pair(ay - (ay - y0) / factor, ay + (y1 - ay) / factor);
  }
  rebuildChart();
}

void RooflineView::resetZoom() {
  if (!zoomed()) return;
  xRange_.reset();
  yRange_.reset();
  rebuildChart();
}

int RooflineView::nearestPoint(const QPointF& v) const {
  // Compare in log space: the chart is log-log.
  int best = -1;
  double bestD = 1e300;
  for (int i = 0; i < static_cast<int>(points_.size()); ++i) {
    const auto& p = points_[static_cast<std::size_t>(i)];
    const double dx = std::log10(p.intensity) - std::log10(std::max(v.x(), 1e-300));
    const double dy = std::log10(p.flopsPerSecond) - std::log10(std::max(v.y(), 1e-300));
    const double d = dx * dx + dy * dy;
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  }
  return bestD < 0.01 ? best : -1;  // within a tenth of a decade
}

void RooflineView::selectPointAt(const QPointF& value) {
  const int i = nearestPoint(value);
  if (i >= 0) session_->selectCandidate(points_[static_cast<std::size_t>(i)].id);
}

QString RooflineView::describe(const RooflinePoint& p) const {
  QStringList lines;
  lines << tr("#%1 · generation %2").arg(p.id).arg(p.generation);
  lines << tr("%1 at %2 FLOP/B").arg(rate(p.flopsPerSecond, "FLOP/s")).arg(localNumber(p.intensity, 'g', 3));
  lines << tr("%1 FLOPs (%2), %3 DRAM bytes, median %4")
               .arg(localNumber(p.flops, 'g', 4))
               .arg(p.flopSource == FlopSource::SassCounters ? tr("SASS counters") : tr("task formula"))
               .arg(localNumber(p.dramBytes, 'g', 4))
               .arg(micros(p.seconds));
  for (const auto& r : roofs_)
    if (r.bandwidth && r.name == "dram_bw")
      lines << tr("%1% of the DRAM roof here").arg(localNumber(100 * p.flopsPerSecond / (r.measured * p.intensity), 'f', 1));
  if (p.id == reference_) lines << tr("the run's reference");
  if (sealed_.count(p.id)) lines << tr("sealed");
  return lines.join(QLatin1Char('\n'));
}

bool RooflineView::exportImage(const QString& path) {
  if (QFileInfo(path).suffix().compare(QStringLiteral("svg"), Qt::CaseInsensitive) == 0) {
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(chartView_->size());
    generator.setViewBox(chartView_->rect());
    generator.setTitle(tr("Crucible roofline"));
    QPainter painter;
    if (!painter.begin(&generator)) {
      notes_->setText(notes_->text() + tr("\nCannot write %1.").arg(path));
      return false;
    }
    chartView_->render(&painter);
    return painter.end();
  }
  if (!chartView_->grab().save(path, "PNG")) {
    notes_->setText(notes_->text() + tr("\nCannot write %1.").arg(path));
    return false;
  }
  return true;
}

}  // namespace crucible::views
