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
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPainter>
#include <QPushButton>
#include <QScatterSeries>
#include <QSvgGenerator>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <map>
#include "core/task/task_spec.h"
#include "views/diff/candidate_figures.h"
#include "views/common/lazy_refresh.h"
#include "views/session/project_session.h"

namespace crucible::views {

namespace {

QString roofLabel(const Roof& r) {
  static const std::map<std::string, QString> names{{"dram_bw", QStringLiteral("DRAM")},
                                                    {"l2_bw", QStringLiteral("L2")},
                                                    {"fp32_fma", QStringLiteral("FP32 FMA")},
                                                    {"bf16_tensor", QStringLiteral("BF16 tensor")}};
  const auto it = names.find(r.name);
  const QString name = it != names.end() ? it->second : QString::fromStdString(r.name);
  const std::string unit = r.bandwidth ? "B/s" : "FLOP/s";
  QString s = QStringLiteral("%1 %2 measured").arg(name, QString::fromStdString(formatRate(r.measured, unit)));
  if (r.datasheet > 0) s += QStringLiteral(" (datasheet %1)").arg(QString::fromStdString(formatRate(r.datasheet, unit)));
  return s;
}

QColor generationColor(double t) {  // t in [0, 1]: early blue to late red
  return QColor::fromHsvF(0.66 * (1 - std::clamp(t, 0.0, 1.0)), 0.85, 0.85);
}

}  // namespace

RooflineView::RooflineView(ProjectSession* session, QWidget* parent) : QWidget(parent), session_(session) {
  deviceBox_ = new QComboBox(this);
  deviceBox_->setObjectName(QStringLiteral("rooflineDevice"));
  auto* png = new QPushButton(tr("Export PNG…"), this);
  auto* svg = new QPushButton(tr("Export SVG…"), this);
  auto* bar = new QHBoxLayout;
  bar->addWidget(new QLabel(tr("Ceilings of:"), this));
  bar->addWidget(deviceBox_);
  bar->addStretch();
  bar->addWidget(png);
  bar->addWidget(svg);

  chart_ = new QChart;
  chart_->legend()->setAlignment(Qt::AlignRight);
  chartView_ = new QChartView(chart_, this);
  chartView_->setRenderHint(QPainter::Antialiasing);
  notes_ = new QLabel(this);
  notes_->setWordWrap(true);

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
  connect(png, &QPushButton::clicked, this, [=] { exportTo(tr("PNG image (*.png)"), QStringLiteral(".png")); });
  connect(svg, &QPushButton::clicked, this, [=] { exportTo(tr("SVG image (*.svg)"), QStringLiteral(".svg")); });
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

namespace {
bool plottable(CandidateStatus s) { return s == CandidateStatus::Valid || s == CandidateStatus::Reference; }
}  // namespace

void RooflineView::reload() {
  points_.clear();
  sealed_.clear();
  missing_.clear();
  missingById_.clear();
  considered_.clear();
  ceilings_.clear();
  taskFlops_.reset();
  flopsProblem_.clear();
  reference_ = 0;
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
  updateMissing();
  rebuildChart();
}

void RooflineView::addCandidates(const std::vector<CandidateSummary>& changed, bool reset) {
  if (reset) return lazy_->request();
  // New valid candidates, and considered ones that were not plottable yet
  // (a reference whose timing arrived later).
  std::vector<CandidateId> ids;
  for (const CandidateSummary& s : changed)
    if (plottable(s.status) && (!considered_.count(s.id) || missingById_.count(s.id))) ids.push_back(s.id);
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
        }
        std::sort(points_.begin(), points_.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
        updateMissing();
        rebuildChart();
      });
}

void RooflineView::updateMissing() {
  missing_.clear();
  if (!flopsProblem_.isEmpty()) missing_ << flopsProblem_;
  if (missingById_.empty()) return;
  std::map<std::string, int> reasons;
  for (const auto& [id, why] : missingById_) ++reasons[why];
  QStringList parts;
  for (const auto& [why, n] : reasons) parts << QStringLiteral("%1 %2").arg(n).arg(QString::fromStdString(why));
  missing_ << tr("%1 of %2 valid candidates plotted; not plotted: %3.")
                  .arg(points_.size())
                  .arg(considered_.size())
                  .arg(parts.join(QStringLiteral("; ")));
}

void RooflineView::rebuildChart() {
  chart_->removeAllSeries();
  for (QAbstractAxis* a : chart_->axes()) {
    chart_->removeAxis(a);
    delete a;
  }
  selected_ = nullptr;
  QStringList notes = missing_;
  const bool store = session_->isOpen();
  if (!store) notes.prepend(tr("No project open."));
  else if (!session_->currentRun()) notes.prepend(tr("This project has no runs yet."));
  else if (points_.empty()) notes.prepend(tr("No profiled candidates in this run yet."));
  if (store && roofs_.empty())
    notes << tr("No measured ceilings in this project: the roofs appear once the device's ceilings are measured.");
  else if (!roofs_.empty())
    notes << tr("Roofs measured on %1.").arg(deviceBox_->currentText());
  notes_->setText(notes.join(QLatin1Char('\n')));
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

  auto* axisX = new QLogValueAxis;
  axisX->setTitleText(tr("Arithmetic intensity (FLOP / DRAM byte)"));
  axisX->setLabelFormat(QStringLiteral("%g"));
  axisX->setBase(10);
  axisX->setRange(xMin, xMax);
  auto* axisY = new QLogValueAxis;
  axisY->setTitleText(tr("Achieved FLOP/s"));
  axisY->setLabelFormat(QStringLiteral("%.0e"));
  axisY->setBase(10);
  axisY->setRange(yMin, yMax);
  chart_->addAxis(axisX, Qt::AlignBottom);
  chart_->addAxis(axisY, Qt::AlignLeft);
  auto attach = [&](QAbstractSeries* s) {
    chart_->addSeries(s);
    s->attachAxis(axisX);
    s->attachAxis(axisY);
  };

  // Roofs: a bandwidth rises until the highest compute roof; a compute roof is
  // flat from where the highest bandwidth reaches it.
  for (const auto& r : roofs_) {
    auto* line = new QLineSeries;
    line->setName(roofLabel(r));
    if (r.bandwidth) {
      const double xEnd = topPeak > 0 ? ridgeIntensity(r.measured, topPeak) : xMax;
      line->append(xMin, r.measured * xMin);
      line->append(xEnd, r.measured * xEnd);
    } else {
      const double xStart = topBw > 0 ? ridgeIntensity(topBw, r.measured) : xMin;
      line->append(xStart, r.measured);
      line->append(xMax, r.measured);
    }
    // Solid: DRAM (the intensity is per DRAM byte) and the highest compute roof; dashed: the others.
    QPen pen(r.bandwidth ? QColor(90, 90, 90) : QColor(40, 40, 40), 2);
    const bool primary = r.bandwidth ? r.name == "dram_bw" : r.measured >= topPeak;
    if (!primary) pen.setStyle(Qt::DashLine);
    line->setPen(pen);
    attach(line);
  }

  // Points: one series per generation band (at most eight), early blue to late red.
  if (!points_.empty()) {
    const auto [gMinIt, gMaxIt] = std::minmax_element(points_.begin(), points_.end(),
        [](const RooflinePoint& a, const RooflinePoint& b) { return a.generation < b.generation; });
    const int gMin = gMinIt->generation, gMax = gMaxIt->generation;
    const int bands = std::min(8, gMax - gMin + 1);
    const double width = double(gMax - gMin + 1) / bands;
    std::vector<QScatterSeries*> series(static_cast<std::size_t>(bands), nullptr);
    for (const auto& p : points_) {
      const int b = std::min(bands - 1, static_cast<int>((p.generation - gMin) / width));
      auto*& s = series[static_cast<std::size_t>(b)];
      if (!s) {
        s = new QScatterSeries;
        const int lo = gMin + static_cast<int>(std::ceil(b * width - 1e-9));
        const int hi = gMin + static_cast<int>(std::ceil((b + 1) * width - 1e-9)) - 1;
        s->setName(lo == hi ? tr("generation %1").arg(lo) : tr("generations %1–%2").arg(lo).arg(hi));
        s->setColor(generationColor(bands == 1 ? 0.0 : double(b) / (bands - 1)));
        s->setMarkerSize(9);
        s->setBorderColor(Qt::transparent);
      }
      s->append(p.intensity, p.flopsPerSecond);
    }
    auto markers = [&](const QString& name, QScatterSeries::MarkerShape shape, QColor color, auto pick) {
      auto* s = new QScatterSeries;
      for (const auto& p : points_)
        if (pick(p)) s->append(p.intensity, p.flopsPerSecond);
      if (s->count() == 0) {
        delete s;
        return static_cast<QScatterSeries*>(nullptr);
      }
      s->setName(name);
      s->setMarkerShape(shape);
      s->setMarkerSize(15);
      s->setColor(Qt::transparent);
      s->setBorderColor(color);
      s->setPen(QPen(color, 2));
      return s;
    };
    std::vector<QScatterSeries*> all(series.begin(), series.end());
    all.push_back(markers(tr("reference"), QScatterSeries::MarkerShapeRectangle, QColor(31, 119, 180),
                          [this](const RooflinePoint& p) { return p.id == reference_; }));
    all.push_back(markers(tr("sealed"), QScatterSeries::MarkerShapeStar, QColor(212, 160, 23),
                          [this](const RooflinePoint& p) { return sealed_.count(p.id) > 0; }));
    const CandidateId sel = session_->selectedCandidate();
    selected_ = markers(tr("selected"), QScatterSeries::MarkerShapeCircle, QColor(0, 90, 255),
                        [sel](const RooflinePoint& p) { return p.id == sel; });
    all.push_back(selected_);
    for (QScatterSeries* s : all) {
      if (!s) continue;
      attach(s);
      connect(s, &QScatterSeries::hovered, this, [this](const QPointF& v, bool state) {
        const int i = state ? nearestPoint(v) : -1;
        if (i >= 0) QToolTip::showText(QCursor::pos(), describe(points_[static_cast<std::size_t>(i)]), chartView_);
        else QToolTip::hideText();
      });
      connect(s, &QScatterSeries::clicked, this, &RooflineView::selectPointAt);
    }
  }
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
  lines << tr("%1 at %2 FLOP/B").arg(QString::fromStdString(formatRate(p.flopsPerSecond, "FLOP/s"))).arg(p.intensity, 0, 'g', 3);
  lines << tr("%1 FLOPs (%2), %3 DRAM bytes, median %4")
               .arg(p.flops, 0, 'g', 4)
               .arg(p.flopSource == FlopSource::SassCounters ? tr("SASS counters") : tr("task formula"))
               .arg(p.dramBytes, 0, 'g', 4)
               .arg(formatMicroseconds(p.seconds * 1e6));
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
