// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/details/candidate_details_view.h"
#include <QEvent>

#include <Qsci/qsciscintilla.h>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>
#include <climits>
#include "views/details/details_loader.h"
#include "views/details/details_model.h"
#include "views/details/timing_plot.h"
#include "views/diff/candidate_figures.h"
#include "views/diff/cuda_lexer.h"
#include "views/session/project_session.h"

namespace crucible::views {

void fitFigureColumns(QTreeView* tree, int maxWidth) {
  QAbstractItemModel* model = tree->model();
  if (!model) return;
  tree->resizeColumnToContents(0);
  tree->setColumnWidth(0, std::min(tree->columnWidth(0), maxWidth + 80));
  // Numbers set a column's width; texts (a validation trial, a reason for a
  // missing figure) are elided and read whole in their tooltips.
  const QFontMetrics fm = tree->fontMetrics();
  for (int c = 1; c < model->columnCount(); ++c) {
    int width = tree->header()->sectionSizeHint(c);
    for (int g = 0; g < model->rowCount(); ++g) {
      const QModelIndex group = model->index(g, 0);
      for (int r = 0; r < model->rowCount(group); ++r) {
        const QModelIndex cell = model->index(r, c, group);
        if (cell.data(DetailsModel::ValueRole).isValid())
          width = std::max(width, fm.horizontalAdvance(cell.data().toString()) + 2 * fm.averageCharWidth());
      }
    }
    tree->setColumnWidth(c, std::min(width, maxWidth));
  }
  // In a narrow dock the figures matter more than whole metric names: the
  // names give up width first (elided; the group and unit still say what a row is).
  int figures = 0;
  for (int c = 1; c < model->columnCount(); ++c) figures += tree->columnWidth(c);
  const int room = tree->viewport()->width() - figures;
  if (room < tree->columnWidth(0)) tree->setColumnWidth(0, std::max(140, room));
}

struct CandidateDetailsView::Loaded {
  std::optional<LoadedCandidate> candidate, baseline, reference;
};

CandidateDetailsView::CandidateDetailsView(ProjectSession* session, QWidget* parent)
    : QWidget(parent), session_(session) {
  headline_ = new QLabel(this);
  headline_->setWordWrap(true);
  headline_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  message_ = new QLabel(this);
  message_->setWordWrap(true);
  baselinePick_ = new QSpinBox(this);
  baselinePick_->setObjectName(QStringLiteral("detailsBaseline"));
  baselinePick_->setRange(0, INT_MAX);
  baselinePick_->setSpecialValueText(tr("none"));
  baselinePick_->setPrefix(QStringLiteral("#"));
  baselinePick_->setKeyboardTracking(false);
  baselinePick_->setToolTip(tr("Show every figure beside this candidate's, with the difference"));

  model_ = new DetailsModel(this);
  tree_ = new QTreeView(this);
  tree_->viewport()->installEventFilter(this);
  tree_->setObjectName(QStringLiteral("candidateDetails"));
  tree_->setModel(model_);
  tree_->setUniformRowHeights(true);
  tree_->setAlternatingRowColors(true);
  tree_->setSelectionBehavior(QAbstractItemView::SelectRows);
  tree_->header()->setSectionResizeMode(QHeaderView::Interactive);
  tree_->header()->setStretchLastSection(true);
  plot_ = new TimingPlot(this);
  plot_->setObjectName(QStringLiteral("candidateTimingPlot"));

  auto* top = new QHBoxLayout;
  top->addWidget(headline_, 1);
  top->addWidget(new QLabel(tr("Baseline:"), this));
  top->addWidget(baselinePick_);
  auto* split = new QSplitter(Qt::Vertical, this);
  split->setObjectName(QStringLiteral("candidateDetailsSplitter"));
  split->addWidget(tree_);
  split->addWidget(plot_);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 1);
  split->setChildrenCollapsible(false);
  source_ = new QsciScintilla(this);
  source_->setObjectName(QStringLiteral("candidateSource"));
  setupSourceEditor(source_);
  tabs_ = new QTabWidget(this);
  tabs_->addTab(split, tr("Figures"));
  tabs_->addTab(source_, tr("Source"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(top);
  layout->addWidget(message_);
  layout->addWidget(tabs_, 1);

  connect(baselinePick_, &QSpinBox::valueChanged, this, [this](int v) {
    const std::optional<CandidateId> b = v > 0 ? std::optional<CandidateId>(v) : std::nullopt;
    setBaseline(b);
    emit baselineChosen(b);
  });
  connect(tree_, &QTreeView::expanded, this, [this](const QModelIndex&) { rememberExpansion(); });
  connect(tree_, &QTreeView::collapsed, this, [this](const QModelIndex&) { rememberExpansion(); });
  connect(session_, &ProjectSession::candidateSelected, this, &CandidateDetailsView::showCandidate);
  // Only a change of a shown candidate re-reads it.
  connect(session_, &ProjectSession::candidatesChanged, this,
          [this](const std::vector<CandidateSummary>& changed, bool reset) {
            bool shown = reset;
            for (const CandidateSummary& c : changed) shown = shown || c.id == id_ || (baseline_ && c.id == *baseline_);
            if (shown && id_ != 0) refresh();
          });
  connect(session_, &ProjectSession::ceilingsChanged, this, &CandidateDetailsView::refresh);
  connect(session_, &ProjectSession::projectClosed, this, [this] { showCandidate(0); });
  connect(session_, &ProjectSession::projectOpened, this, [this] {
    setBaseline(std::nullopt);
    showCandidate(0);
  });
  if (session_->selectedCandidate() != 0) showCandidate(session_->selectedCandidate());
  else refresh();
}

QString CandidateDetailsView::message() const { return message_->text(); }

void CandidateDetailsView::setMessage(const QString& text) {
  message_->setText(text);
  message_->setVisible(!text.isEmpty());
}

void CandidateDetailsView::showCandidate(CandidateId id) {
  id_ = id;
  refresh();
}

void CandidateDetailsView::setBaseline(std::optional<CandidateId> baseline) {
  if (baseline && *baseline == 0) baseline.reset();
  baseline_ = baseline;
  const QSignalBlocker block(baselinePick_);
  baselinePick_->setValue(baseline ? static_cast<int>(*baseline) : 0);
  refresh();
}

void CandidateDetailsView::refresh() {
  if (!session_->isOpen() || id_ == 0) {
    rememberExpansion();
    model_->clearColumns();
    plot_->setSeries({}, tr("No candidate selected."));
    source_->clear();
    headline_->clear();
    setMessage(session_->isOpen() ? tr("No candidate selected: select one in any view.") : tr("No project open."));
    return;
  }
  // Full rows (samples, reports, the task's spec): off the GUI thread during a run.
  session_->read(
      this,
      [id = id_, baseline = baseline_](const ProjectStore& store) {
        Loaded l;
        l.candidate = loadCandidate(store, id);
        if (baseline) l.baseline = loadCandidate(store, *baseline);
        if (l.candidate && l.candidate->referenceId != 0 && l.candidate->referenceId != id)
          l.reference = loadCandidate(store, l.candidate->referenceId);
        return l;
      },
      [this, id = id_, baseline = baseline_](Loaded loaded) {
        if (id != id_ || baseline != baseline_) return;  // another one was chosen meanwhile
        showLoaded(loaded);
      });
}

void CandidateDetailsView::showLoaded(const Loaded& loaded) {
  rememberExpansion();
  if (!loaded.candidate) {
    model_->clearColumns();
    plot_->setSeries({}, tr("Candidate #%1 is not in this project.").arg(id_));
    source_->clear();
    headline_->clear();
    setMessage(tr("Candidate #%1 is not in this project.").arg(id_));
    return;
  }
  const Candidate& c = loaded.candidate->candidate;
  QStringList problems;
  if (baseline_ && !loaded.baseline) problems << tr("The baseline #%1 is not in this project.").arg(*baseline_);
  if (baseline_ && *baseline_ == id_) problems << tr("The baseline is this candidate: every difference is 0.");
  setMessage(problems.join(QLatin1Char(' ')));
  headline_->setText(QStringLiteral("<b>%1</b>").arg(candidateHeadline(c).toHtmlEscaped()));
  // The same source again (a refresh during a run) keeps the reader's place.
  const QString source = QString::fromStdString(c.source);
  if (source_->text() != source) source_->setText(source);

  const std::vector<Ceiling>& ceilings = session_->ceilings();
  std::optional<DetailsModel::Column> base;
  if (loaded.baseline) base = detailsColumn(*loaded.baseline, ceilings);
  model_->setColumns({detailsColumn(*loaded.candidate, ceilings)}, base);
  restoreExpansion();
  fitFigureColumns(tree_);

  std::vector<TimingPlot::Series> series;
  TimingPlot::Series mine{QStringLiteral("#%1").arg(c.id), c.timing ? c.timing->samplesUs : std::vector<double>{}, {}, {}};
  if (c.timing && c.timing->referenceMedianUs > 0) {
    mine.markUs = c.timing->referenceMedianUs;
    mine.markLabel = tr("reference median timed beside #%1 (dashed)").arg(c.id);
  }
  series.push_back(std::move(mine));
  if (loaded.reference) {
    const Candidate& r = loaded.reference->candidate;
    series.push_back({tr("reference #%1").arg(r.id), r.timing ? r.timing->samplesUs : std::vector<double>{}, {}, {}});
  }
  if (loaded.baseline && loaded.baseline->candidate.id != c.id &&
      (!loaded.reference || loaded.reference->candidate.id != loaded.baseline->candidate.id)) {
    const Candidate& b = loaded.baseline->candidate;
    series.push_back({tr("baseline #%1").arg(b.id), b.timing ? b.timing->samplesUs : std::vector<double>{}, {}, {}});
  }
  plot_->setSeries(std::move(series), tr("#%1 is not timed.").arg(c.id));
}

void CandidateDetailsView::rememberExpansion() {
  for (int g = 0; g < model_->rowCount(); ++g) {
    const QModelIndex group = model_->index(g, 0);
    const QString key = group.data(DetailsModel::KeyRole).toString();
    if (tree_->isExpanded(group)) collapsedGroups_.remove(key);
    else collapsedGroups_.insert(key);
    for (int r = 0; r < model_->rowCount(group); ++r) {
      const QModelIndex figure = model_->index(r, 0, group);
      if (!model_->hasChildren(figure)) continue;
      const QString fk = figure.data(DetailsModel::KeyRole).toString();
      if (tree_->isExpanded(figure)) expandedFigures_.insert(fk);
      else expandedFigures_.remove(fk);
    }
  }
}

void CandidateDetailsView::restoreExpansion() {
  const QSignalBlocker block(tree_);  // expanding here is not the user's choice
  for (int g = 0; g < model_->rowCount(); ++g) {
    const QModelIndex group = model_->index(g, 0);
    tree_->setExpanded(group, !collapsedGroups_.contains(group.data(DetailsModel::KeyRole).toString()));
    for (int r = 0; r < model_->rowCount(group); ++r) {
      const QModelIndex figure = model_->index(r, 0, group);
      if (model_->hasChildren(figure))
        tree_->setExpanded(figure, expandedFigures_.contains(figure.data(DetailsModel::KeyRole).toString()));
    }
  }
}

bool CandidateDetailsView::eventFilter(QObject* watched, QEvent* event) {
  if (watched == tree_->viewport() && event->type() == QEvent::Resize) fitFigureColumns(tree_);
  return QWidget::eventFilter(watched, event);
}

}  // namespace crucible::views
