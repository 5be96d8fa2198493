// SPDX-License-Identifier: GPL-3.0-or-later
// The roofline view: its widgets, the project's figures loaded and kept current.
#include "views/roofline/roofline_view.h"


#include <QChart>
#include <QChartView>
#include <QLocale>
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

#include "views/roofline/roofline_labels.h"
#include "views/roofline/roofline_view_parts.h"

namespace crucible::views {

using namespace roofline_detail;

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
  chart_->setLocale(QLocale());  // axis labels in the application's locale (issue 22)
  chart_->setLocalizeNumbers(true);
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
            missingById_[c.id] = RooflineReasons::of(o.missing);
          }
          // Rates only: the shares of the roofs follow the device chosen when drawn.
          const BandwidthOutcome b = bandwidthPoint(c, 0, 0);
          std::erase_if(bandwidthPoints_, [&](const BandwidthPoint& p) { return p.id == c.id; });
          if (b.point) {
            bandwidthPoints_.push_back(*b.point);
            bwMissingById_.erase(c.id);
          } else {
            bwMissingById_[c.id] = RooflineReasons::of(b.missing);
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
  std::map<QString, int> reasons;
  for (const auto& [id, why] : byId) ++reasons[why];
  QStringList parts;
  for (const auto& [why, n] : reasons) parts << tr("%1 %2", "a count of candidates, then why they are not plotted").arg(n).arg(why);
  const std::size_t shown = mode_ == Mode::Bandwidth ? bandwidthPoints_.size() : points_.size();
  missing_ << tr("%1 of %2 valid candidates plotted; not plotted: %3.")
                  .arg(shown)
                  .arg(considered_.size())
                  .arg(parts.join(QStringLiteral("; ")));
}

}  // namespace crucible::views
