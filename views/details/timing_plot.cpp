// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/details/timing_plot.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>
#include "views/details/figure_text.h"

namespace crucible::views {

namespace {
// The axis' ticks: 1, 2 or 5 times a power of ten, about `count` of them.
double tickStep(double span, int count) {
  const double raw = span / std::max(count, 1);
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (raw <= m * power) return m * power;
  return 10 * power;
}
// Where a sample's dot goes across its strip: spread deterministically, so a
// repaint never moves a dot.
double jitter(std::size_t i) { return std::fmod(static_cast<double>(i) * 0.618033988749895, 1.0); }
}  // namespace

TimingPlot::TimingPlot(QWidget* parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
  setMouseTracking(true);
}

void TimingPlot::setSeries(std::vector<Series> series, const QString& emptyText) {
  series_ = std::move(series);
  emptyText_ = emptyText;
  updateGeometry();
  update();
}

std::optional<std::pair<double, double>> TimingPlot::range() const {
  std::optional<std::pair<double, double>> r;
  auto include = [&](double v) {
    if (!std::isfinite(v)) return;
    if (!r) r = std::pair{v, v};
    r->first = std::min(r->first, v);
    r->second = std::max(r->second, v);
  };
  for (const Series& s : series_) {
    for (double v : s.samplesUs) include(v);
    if (s.markUs) include(*s.markUs);
  }
  return r;
}

std::optional<std::pair<double, double>> TimingPlot::axisRange() const {
  std::optional<std::pair<double, double>> r;
  auto include = [&](double v) {
    if (!std::isfinite(v)) return;
    if (!r) r = std::pair{v, v};
    r->first = std::min(r->first, v);
    r->second = std::max(r->second, v);
  };
  for (const Series& s : series_) {
    if (const auto spread = sampleSpread(s.samplesUs)) {
      const double iqr = spread->q3 - spread->q1;
      include(std::max(spread->min, spread->q1 - 3 * iqr));
      include(std::min(spread->max, spread->q3 + 3 * iqr));
    }
    if (s.markUs) include(*s.markUs);
  }
  return r;
}

int TimingPlot::rowHeight() const { return std::max(fontMetrics().height() * 2, 28); }

int TimingPlot::labelWidth() const {
  int w = 0;
  for (const Series& s : series_) w = std::max(w, fontMetrics().horizontalAdvance(s.label));
  return std::min(w + 12, width() / 3);
}

QRect TimingPlot::plotRect() const {
  const int axis = fontMetrics().height() + 8;
  // Room on the right for the count of samples beyond the axis.
  const int outliers = fontMetrics().horizontalAdvance(QStringLiteral("999 ▸")) + 8;
  return QRect(labelWidth(), 4, std::max(10, width() - labelWidth() - outliers),
               std::max(10, height() - axis - 8));
}

QSize TimingPlot::sizeHint() const {
  const int rows = std::max<int>(1, static_cast<int>(series_.size()));
  return {480, rows * rowHeight() + fontMetrics().height() + 16};
}

QSize TimingPlot::minimumSizeHint() const { return {160, rowHeight() + fontMetrics().height() + 16}; }

QString TimingPlot::describe(const Series& s) const {
  const auto spread = sampleSpread(s.samplesUs);
  QString text = s.label;
  if (!spread) text += tr(": no timing samples stored");
  else
    text += tr(": %n sample(s), min %1, quartiles %2 / %3 / %4, max %5", nullptr, static_cast<int>(spread->count))
                .arg(formatFigure(spread->min, "µs"), formatFigure(spread->q1, "µs"), formatFigure(spread->median, "µs"),
                     formatFigure(spread->q3, "µs"), formatFigure(spread->max, "µs"));
  if (s.markUs) text += QStringLiteral("\n%1: %2").arg(s.markLabel, formatFigure(*s.markUs, "µs"));
  if (const auto axis = axisRange(); axis && spread) {
    const auto below = std::count_if(s.samplesUs.begin(), s.samplesUs.end(), [&](double v) { return v < axis->first; });
    const auto above = std::count_if(s.samplesUs.begin(), s.samplesUs.end(), [&](double v) { return v > axis->second; });
    if (below) text += QStringLiteral("\n") + tr("%n sample(s) left of the axis, down to %1", nullptr, int(below)).arg(formatFigure(spread->min, "µs"));
    if (above) text += QStringLiteral("\n") + tr("%n sample(s) right of the axis, up to %1", nullptr, int(above)).arg(formatFigure(spread->max, "µs"));
  }
  return text;
}

bool TimingPlot::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    const QRect plot = plotRect();
    const int rows = static_cast<int>(series_.size());
    if (rows > 0 && help->pos().y() >= plot.top() && help->pos().y() < plot.bottom()) {
      const int row = std::clamp((help->pos().y() - plot.top()) * rows / std::max(1, plot.height()), 0, rows - 1);
      QToolTip::showText(help->globalPos(), describe(series_[static_cast<std::size_t>(row)]), this);
    } else {
      QToolTip::hideText();
    }
    return true;
  }
  return QWidget::event(event);
}

void TimingPlot::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  const QPalette pal = palette();
  p.fillRect(rect(), pal.base());
  const auto r = axisRange();
  if (series_.empty() || !r) {
    p.setPen(pal.color(QPalette::PlaceholderText));
    p.drawText(rect().adjusted(8, 8, -8, -8), Qt::AlignCenter | Qt::TextWordWrap,
               emptyText_.isEmpty() ? tr("No timing samples stored.") : emptyText_);
    return;
  }
  const QRect plot = plotRect();
  double lo = r->first, hi = r->second;
  const double pad = std::max((hi - lo) * 0.05, std::max(std::fabs(hi) * 1e-3, 1e-6));
  lo -= pad;
  hi += pad;
  auto x = [&](double v) { return plot.left() + (v - lo) / (hi - lo) * plot.width(); };

  // Axis with ticks in µs.
  p.setPen(pal.color(QPalette::Mid));
  p.drawLine(plot.bottomLeft(), plot.bottomRight());
  const double step = tickStep(hi - lo, std::max(2, plot.width() / 90));
  p.setPen(pal.color(QPalette::Text));
  for (double t = std::ceil(lo / step) * step; t <= hi; t += step) {
    const double tx = x(t);
    p.setPen(pal.color(QPalette::Midlight));
    p.drawLine(QPointF(tx, plot.top()), QPointF(tx, plot.bottom()));
    p.setPen(pal.color(QPalette::Text));
    const QString label = formatFigure(t, "µs");
    const int w = fontMetrics().horizontalAdvance(label);
    p.drawText(QPointF(std::clamp(tx - w / 2.0, 0.0, double(width() - w)), plot.bottom() + fontMetrics().ascent() + 4), label);
  }

  const int rows = static_cast<int>(series_.size());
  const double band = static_cast<double>(plot.height()) / rows;
  static const QColor colors[] = {QColor(31, 119, 180), QColor(255, 127, 14), QColor(44, 160, 44),
                                  QColor(214, 39, 40),  QColor(148, 103, 189), QColor(140, 86, 75)};
  for (int i = 0; i < rows; ++i) {
    const Series& s = series_[static_cast<std::size_t>(i)];
    const double top = plot.top() + i * band, mid = top + band / 2;
    const QColor color = colors[i % 6];
    p.setPen(pal.color(QPalette::Text));
    p.drawText(QRectF(0, top, labelWidth() - 6, band), Qt::AlignRight | Qt::AlignVCenter,
               fontMetrics().elidedText(s.label, Qt::ElideRight, labelWidth() - 6));
    const auto spread = sampleSpread(s.samplesUs);
    if (!spread) {
      p.setPen(pal.color(QPalette::PlaceholderText));
      p.drawText(QRectF(plot.left() + 4, top, plot.width(), band), Qt::AlignLeft | Qt::AlignVCenter, tr("no samples stored"));
    } else {
      // Whiskers to the extremes, the quartile box, the median.
      const double h = std::min(band * 0.6, 24.0);
      const double low = std::max(spread->min, r->first), high = std::min(spread->max, r->second);
      p.setPen(QPen(color.darker(130), 1));
      p.drawLine(QPointF(x(low), mid), QPointF(x(high), mid));
      for (double e : {spread->min, spread->max})
        if (e >= r->first && e <= r->second) p.drawLine(QPointF(x(e), mid - h / 4), QPointF(x(e), mid + h / 4));
      QColor fill = color;
      fill.setAlpha(50);
      p.setBrush(fill);
      p.drawRect(QRectF(QPointF(x(spread->q1), mid - h / 2), QPointF(x(spread->q3), mid + h / 2)));
      p.setPen(QPen(color.darker(150), 2));
      p.drawLine(QPointF(x(spread->median), mid - h / 2), QPointF(x(spread->median), mid + h / 2));
      // Every sample.
      QColor dot = color;
      dot.setAlpha(140);
      p.setPen(Qt::NoPen);
      p.setBrush(dot);
      int beyondLow = 0, beyondHigh = 0;
      for (std::size_t k = 0; k < s.samplesUs.size(); ++k) {
        const double v = s.samplesUs[k];
        beyondLow += v < r->first ? 1 : 0;
        beyondHigh += v > r->second ? 1 : 0;
        p.drawEllipse(QPointF(x(std::clamp(v, r->first, r->second)), mid - h / 2 + jitter(k) * h), 1.8, 1.8);
      }
      p.setPen(pal.color(QPalette::Text));
      if (beyondHigh)
        p.drawText(QRectF(plot.right() + 4, top, width() - plot.right() - 4, band), Qt::AlignLeft | Qt::AlignVCenter,
                   QStringLiteral("%1 ▸").arg(beyondHigh));
      if (beyondLow)
        p.drawText(QRectF(plot.left() + 2, top, 40, band / 2), Qt::AlignLeft | Qt::AlignTop,
                   QStringLiteral("◂ %1").arg(beyondLow));
    }
    if (s.markUs) {
      p.setPen(QPen(pal.color(QPalette::Text), 1, Qt::DashLine));
      p.drawLine(QPointF(x(*s.markUs), top + 2), QPointF(x(*s.markUs), top + band - 2));
    }
  }
}

}  // namespace crucible::views
