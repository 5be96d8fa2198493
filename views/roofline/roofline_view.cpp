// SPDX-License-Identifier: GPL-3.0-or-later
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

namespace crucible::views {

namespace {

constexpr double kHoverRadiusPx = 8;    // a point is "under the pointer" within this
constexpr double kSpreadRadiusPx = 4;   // coincident points are moved this far apart
constexpr int kMaxHoverLines = 20;
constexpr int kDragThresholdPx = 4;

QString roofName(const std::string& name) {
  static const std::map<std::string, QString> names{{"dram_bw", QStringLiteral("DRAM")},
                                                    {"l2_bw", QStringLiteral("L2")},
                                                    {"fp32_fma", QStringLiteral("FP32 FMA")},
                                                    {"bf16_tensor", QStringLiteral("BF16 tensor")}};
  const auto it = names.find(name);
  return it != names.end() ? it->second : QString::fromStdString(name);
}

QString rate(double value, const char* unit) { return QString::fromStdString(formatRate(value, unit)); }

QString roofLabel(const Roof& r) {
  const char* unit = r.bandwidth ? "B/s" : "FLOP/s";
  QString s = QStringLiteral("%1 %2 measured").arg(roofName(r.name), rate(r.measured, unit));
  if (r.datasheet > 0) s += QStringLiteral(" (datasheet %1)").arg(rate(r.datasheet, unit));
  return s;
}

QColor generationColor(double t) {  // t in [0, 1]: early blue to late red
  return QColor::fromHsvF(0.66 * (1 - std::clamp(t, 0.0, 1.0)), 0.85, 0.85);
}

bool plottable(CandidateStatus s) { return s == CandidateStatus::Valid || s == CandidateStatus::Reference; }

QString micros(double seconds) { return formatMicroseconds(seconds * 1e6); }

}  // namespace

RooflineView::RooflineView(ProjectSession* session, QWidget* parent) : QWidget(parent), session_(session) {
  deviceBox_ = new QComboBox(this);
  deviceBox_->setObjectName(QStringLiteral("rooflineDevice"));
  deviceBox_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  deviceBox_->setMinimumContentsLength(8);
  modeBox_ = new QComboBox(this);
  modeBox_->setObjectName(QStringLiteral("rooflineMode"));
  modeBox_->addItem(tr("Roofline"));
  modeBox_->addItem(tr("Bandwidth"));
  modeBox_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  modeBox_->setMinimumContentsLength(9);
  modeBox_->setToolTip(tr("Roofline: FLOP/s over arithmetic intensity. Bandwidth: DRAM and L2 traffic as a share "
                          "of the measured roofs (for tasks with no FLOPs)."));
  // Tool buttons: a push button's style minimum would widen the dock (issue 18).
  resetZoom_ = new QToolButton(this);
  resetZoom_->setText(tr("Reset zoom"));
  resetZoom_->setObjectName(QStringLiteral("rooflineResetZoom"));
  resetZoom_->setToolTip(tr("Wheel: zoom; drag: pan; double-click: reset"));
  auto* exportButton = new QToolButton(this);
  exportButton->setText(tr("Export"));
  exportButton->setPopupMode(QToolButton::InstantPopup);
  auto* exportMenu = new QMenu(exportButton);
  QAction* png = exportMenu->addAction(tr("PNG image…"));
  QAction* svg = exportMenu->addAction(tr("SVG image…"));
  exportButton->setMenu(exportMenu);
  auto* bar = new QHBoxLayout;
  bar->addWidget(modeBox_);
  bar->addWidget(deviceBox_, 1);
  bar->addWidget(resetZoom_);
  bar->addWidget(exportButton);

  chart_ = new QChart;
  chart_->legend()->setAlignment(Qt::AlignBottom);
  // Line series show their pen (solid, dashed) in the legend, scatter series their marker.
  chart_->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
  chartView_ = new QChartView(chart_, this);
  chartView_->setRenderHint(QPainter::Antialiasing);
  chartView_->setMinimumSize(200, 160);
  chartView_->setMouseTracking(true);
  chartView_->viewport()->setMouseTracking(true);
  chartView_->viewport()->installEventFilter(this);
  // Coincident points are spread by pixels: again when the plot area changes size (once laid out, resized).
  connect(chart_, &QChart::plotAreaChanged, this, [this](const QRectF& area) {
    if (respreadPending_ || plotted_.empty() || area.size() == spreadArea_) return;
    respreadPending_ = true;
    QTimer::singleShot(0, this, [this] {
      respreadPending_ = false;
      rebuildChart();
    });
  });
  notes_ = new QLabel(this);
  notes_->setWordWrap(true);
  notes_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(bar);
  layout->addWidget(chartView_, 1);
  layout->addWidget(notes_);

  auto exportTo = [this](const QString& filter, const QString& suffix) {
    QString path = QFileDialog::getSaveFileName(this, tr("Export roofline"), QString(), filter);
    if (path.isEmpty()) return;
    if (QFileInfo(path).suffix().isEmpty()) path += suffix;
    exportImage(path);
  };
  connect(png, &QAction::triggered, this, [=] { exportTo(tr("PNG image (*.png)"), QStringLiteral(".png")); });
  connect(svg, &QAction::triggered, this, [=] { exportTo(tr("SVG image (*.svg)"), QStringLiteral(".svg")); });
  connect(resetZoom_, &QToolButton::clicked, this, &RooflineView::resetZoom);
  connect(modeBox_, &QComboBox::currentIndexChanged, this,
          [this](int i) { setMode(i == 1 ? Mode::Bandwidth : Mode::Roofline); });
  connect(deviceBox_, &QComboBox::currentIndexChanged, this, [this] {
    roofs_ = roofsOf(ceilings_, deviceBox_->currentText().toStdString());
    rebuildChart();
  });
  connect(session_, &ProjectSession::currentRunChanged, this, &RooflineView::reload);
  // Only new valid candidates are read (off the GUI thread during a run);
  // seals and ceilings come with the session. A closed dock catches up when shown.
  lazy_ = new LazyRefresh(this, [this] { reload(); });
  connect(session_, &ProjectSession::candidatesChanged, this, &RooflineView::addCandidates);
  connect(session_, &ProjectSession::sealsChanged, lazy_, &LazyRefresh::request);
  connect(session_, &ProjectSession::ceilingsChanged, lazy_, &LazyRefresh::request);
  connect(session_, &ProjectSession::projectClosed, this, &RooflineView::reload);
  connect(session_, &ProjectSession::candidateSelected, this, [this] { rebuildChart(); });
  reload();
}

QString RooflineView::notes() const { return notes_->text(); }

void RooflineView::setMode(Mode mode) {
  if (modeBox_->currentIndex() != (mode == Mode::Bandwidth ? 1 : 0)) {
    const QSignalBlocker block(modeBox_);
    modeBox_->setCurrentIndex(mode == Mode::Bandwidth ? 1 : 0);
  }
  if (mode == mode_) return;
  mode_ = mode;
  xRange_.reset();
  yRange_.reset();
  updateMissing();
  rebuildChart();
}

void RooflineView::reload() {
  points_.clear();
  bandwidthPoints_.clear();
  sealed_.clear();
  missing_.clear();
  missingById_.clear();
  bwMissingById_.clear();
  considered_.clear();
  ceilings_.clear();
  taskFlops_.reset();
  taskKnown_ = false;
  flopsProblem_.clear();
  reference_ = 0;
  xRange_.reset();
  yRange_.reset();
  ++generation_;
  const RunId runId = session_->currentRun();
  if (session_->isOpen()) ceilings_ = session_->ceilings();

  // Devices with ceilings; keep the chosen one.
  {
    const QString chosen = deviceBox_->currentText();
    const QSignalBlocker block(deviceBox_);
    deviceBox_->clear();
    std::set<std::string> devices;
    for (const auto& c : ceilings_) devices.insert(c.device);
    for (const auto& d : devices) deviceBox_->addItem(QString::fromStdString(d));
    deviceBox_->setCurrentIndex(std::max(0, deviceBox_->findText(chosen)));
    deviceBox_->setEnabled(deviceBox_->count() > 1);
  }
  roofs_ = roofsOf(ceilings_, deviceBox_->currentText().toStdString());

  if (session_->isOpen() && runId) {
    if (const auto run = session_->run(runId)) {
      reference_ = run->referenceCandidate;
      for (const Seal& s : session_->seals())
        if (s.taskId == run->taskId) sealed_.insert(s.candidateId);
      if (const auto task = session_->task(run->taskId)) {
        try {
          const TaskSpec spec = parseTaskSpec(task->specJson);
          taskFlops_ = crucible::taskFlops(spec);
          taskKnown_ = true;
        } catch (const std::exception& e) {
          flopsProblem_ = tr("The task's flops formula is unusable (%1).").arg(QString::fromUtf8(e.what()));
        }
      }
    }
    // Full rows (timing, profile) of the plotted candidates, read in bulk.
    std::vector<CandidateId> ids;
    for (const CandidateSummary& s : session_->candidates())
      if (plottable(s.status)) ids.push_back(s.id);
    fetch(std::move(ids));
  }
  // A task with no FLOPs has no roofline: its candidates are shown against the bandwidth roofs.
  {
    const QSignalBlocker block(modeBox_);
    mode_ = taskKnown_ && flopFree(taskFlops_) ? Mode::Bandwidth : Mode::Roofline;
    modeBox_->setCurrentIndex(mode_ == Mode::Bandwidth ? 1 : 0);
  }
  updateMissing();
  rebuildChart();
}

void RooflineView::addCandidates(const std::vector<CandidateSummary>& changed, bool reset) {
  if (reset) return lazy_->request();
  // New valid candidates, and considered ones that were not plottable yet
  // (a reference whose timing arrived later).
  std::vector<CandidateId> ids;
  for (const CandidateSummary& s : changed)
    if (plottable(s.status) && (!considered_.count(s.id) || missingById_.count(s.id) || bwMissingById_.count(s.id)))
      ids.push_back(s.id);
  if (ids.empty() || lazy_->defer()) return;
  fetch(std::move(ids));
}

void RooflineView::fetch(std::vector<CandidateId> ids) {
  if (ids.empty()) return;
  session_->read(
      this,
      [ids = std::move(ids)](const ProjectStore& store) {
        std::vector<Candidate> rows;
        rows.reserve(ids.size());
        for (CandidateId id : ids)
          if (auto c = store.candidate(id)) rows.push_back(std::move(*c));
        return rows;
      },
      [this, generation = generation_](std::vector<Candidate> rows) {
        if (generation != generation_) return;  // read for a run no longer shown
        for (const Candidate& c : rows) {
          considered_.insert(c.id);
          const RooflineOutcome o = rooflinePoint(c, taskFlops_);
          std::erase_if(points_, [&](const RooflinePoint& p) { return p.id == c.id; });
          if (o.point) {
            points_.push_back(*o.point);
            missingById_.erase(c.id);
          } else {
            missingById_[c.id] = o.missing;
          }
          // Rates only: the shares of the roofs follow the device chosen when drawn.
          const BandwidthOutcome b = bandwidthPoint(c, 0, 0);
          std::erase_if(bandwidthPoints_, [&](const BandwidthPoint& p) { return p.id == c.id; });
          if (b.point) {
            bandwidthPoints_.push_back(*b.point);
            bwMissingById_.erase(c.id);
          } else {
            bwMissingById_[c.id] = b.missing;
          }
        }
        std::sort(points_.begin(), points_.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
        std::sort(bandwidthPoints_.begin(), bandwidthPoints_.end(),
                  [](const auto& a, const auto& b) { return a.id < b.id; });
        updateMissing();
        rebuildChart();
      });
}

void RooflineView::updateMissing() {
  missing_.clear();
  if (!flopsProblem_.isEmpty()) missing_ << flopsProblem_;
  const auto& byId = mode_ == Mode::Bandwidth ? bwMissingById_ : missingById_;
  if (byId.empty()) return;
  std::map<std::string, int> reasons;
  for (const auto& [id, why] : byId) ++reasons[why];
  QStringList parts;
  for (const auto& [why, n] : reasons) parts << QStringLiteral("%1 %2").arg(n).arg(QString::fromStdString(why));
  const std::size_t shown = mode_ == Mode::Bandwidth ? bandwidthPoints_.size() : points_.size();
  missing_ << tr("%1 of %2 valid candidates plotted; not plotted: %3.")
                  .arg(shown)
                  .arg(considered_.size())
                  .arg(parts.join(QStringLiteral("; ")));
}

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
                 .arg(p.intensity, 0, 'g', 3);
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
      if (percent) d.text += tr(" (%1% of the roof)").arg(y, 0, 'f', 1);
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
      else QToolTip::showText(chartView_->viewport()->mapToGlobal(pos), text, chartView_);
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
  lines << tr("%1 at %2 FLOP/B").arg(rate(p.flopsPerSecond, "FLOP/s")).arg(p.intensity, 0, 'g', 3);
  lines << tr("%1 FLOPs (%2), %3 DRAM bytes, median %4")
               .arg(p.flops, 0, 'g', 4)
               .arg(p.flopSource == FlopSource::SassCounters ? tr("SASS counters") : tr("task formula"))
               .arg(p.dramBytes, 0, 'g', 4)
               .arg(micros(p.seconds));
  for (const auto& r : roofs_)
    if (r.bandwidth && r.name == "dram_bw")
      lines << tr("%1% of the DRAM roof here").arg(100 * p.flopsPerSecond / (r.measured * p.intensity), 0, 'f', 1);
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
