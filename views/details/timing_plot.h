// SPDX-License-Identifier: GPL-3.0-or-later
// The timing samples of one or more kernels as strips on one time axis: every
// sample a dot (spread vertically so equal times stay visible), over a box
// from the first to the third quartile with the median and whiskers to the
// extremes. The details view shows a candidate beside its run's reference;
// the comparison shows every compared candidate.
#pragma once
#include <QColor>
#include <QString>
#include <QWidget>
#include <optional>
#include <vector>
#include "views/details/candidate_details.h"

namespace crucible::views {

class TimingPlot : public QWidget {
  Q_OBJECT
public:
  struct Series {
    QString label;                 // "#12", "reference #1"
    std::vector<double> samplesUs;
    std::optional<double> markUs;  // a stored figure drawn as a tick (the interleaved reference median)
    QString markLabel;
  };

  explicit TimingPlot(QWidget* parent = nullptr);

  // Series without samples are listed as such; none at all shows `emptyText`.
  void setSeries(std::vector<Series> series, const QString& emptyText = {});
  const std::vector<Series>& series() const { return series_; }
  // Every sample and mark, µs: [lowest, highest] (nullopt when nothing is plotted).
  std::optional<std::pair<double, double>> range() const;
  // What the axis shows, µs: the bulk of every series (its quartiles widened
  // by three interquartile ranges, within its extremes) and the marks. A
  // sample beyond it is drawn at the edge, counted, and named in the tooltip,
  // so one slow launch does not squeeze every distribution into a line.
  std::optional<std::pair<double, double>> axisRange() const;
  QString emptyText() const { return emptyText_; }

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

protected:
  void paintEvent(QPaintEvent* event) override;
  bool event(QEvent* event) override;  // tooltips: the strip under the pointer

private:
  int rowHeight() const;
  int labelWidth() const;
  QRect plotRect() const;
  QString describe(const Series& s) const;

  std::vector<Series> series_;
  QString emptyText_;
};

}  // namespace crucible::views
