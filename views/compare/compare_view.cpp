// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/compare/compare_view.h"
#include <QEvent>

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTabWidget>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>
#include "views/details/candidate_details_view.h"
#include "views/details/details_loader.h"
#include "views/details/details_model.h"
#include "views/details/timing_plot.h"
#include "views/diff/candidate_figures.h"
#include "views/diff/side_by_side_diff.h"
#include "views/session/project_session.h"

namespace crucible::views {

CompareView::CompareView(ProjectSession* session, QWidget* parent) : QWidget(parent), session_(session) {
  title_ = new QLabel(this);
  title_->setWordWrap(true);
  title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  message_ = new QLabel(this);
  message_->setWordWrap(true);

  model_ = new DetailsModel(this);
  table_ = new QTreeView(this);
  table_->viewport()->installEventFilter(this);
  table_->setObjectName(QStringLiteral("compareFigures"));
  table_->setModel(model_);
  table_->setUniformRowHeights(true);
  table_->setAlternatingRowColors(true);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->header()->setStretchLastSection(true);
  plot_ = new TimingPlot(this);
  plot_->setObjectName(QStringLiteral("compareTimingPlot"));
  auto* figures = new QSplitter(Qt::Vertical, this);
  figures->addWidget(table_);
  figures->addWidget(plot_);
  figures->setStretchFactor(0, 3);
  figures->setStretchFactor(1, 1);
  figures->setChildrenCollapsible(false);

  auto* diffPage = new QWidget(this);
  diffTitle_ = new QLabel(diffPage);
  diffTitle_->setWordWrap(true);
  diff_ = new SideBySideDiff(diffPage);
  auto* diffLayout = new QVBoxLayout(diffPage);
  diffLayout->setContentsMargins(0, 0, 0, 0);
  diffLayout->addWidget(diffTitle_);
  diffLayout->addWidget(diff_, 1);

  tabs_ = new QTabWidget(this);
  tabs_->addTab(figures, tr("Figures"));
  tabs_->addTab(diffPage, tr("Source diff"));

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(title_);
  layout->addWidget(message_);
  layout->addWidget(tabs_, 1);

  connect(session_, &ProjectSession::candidatesChanged, this,
          [this](const std::vector<CandidateSummary>& changed, bool reset) {
            bool shown = reset;
            for (const CandidateSummary& c : changed)
              shown = shown || std::find(ids_.begin(), ids_.end(), c.id) != ids_.end();
            if (shown && !ids_.empty()) refresh();
          });
  connect(session_, &ProjectSession::ceilingsChanged, this, &CompareView::refresh);
  connect(session_, &ProjectSession::projectClosed, this, [this] { compare({}); });
  connect(session_, &ProjectSession::projectOpened, this, [this] { compare({}); });
  refresh();
}

QString CompareView::message() const { return message_->text(); }

void CompareView::setMessage(const QString& text) {
  message_->setText(text);
  message_->setVisible(!text.isEmpty());
}

void CompareView::compare(std::vector<CandidateId> ids) {
  ids_.clear();
  limitNote_.clear();
  for (CandidateId id : ids)
    if (id != 0 && std::find(ids_.begin(), ids_.end(), id) == ids_.end()) ids_.push_back(id);
  if (static_cast<int>(ids_.size()) > kMaxCandidates) {
    limitNote_ = tr("%1 candidates chosen: the first %2 are compared.").arg(ids_.size()).arg(kMaxCandidates);
    ids_.resize(kMaxCandidates);
  }
  refresh();
}

void CompareView::refresh() {
  if (!session_->isOpen() || ids_.empty()) {
    model_->clearColumns();
    plot_->setSeries({}, tr("Nothing to compare."));
    diff_->clear();
    diffTitle_->clear();
    title_->clear();
    setMessage(session_->isOpen() ? tr("Select two or more candidates to compare them.") : tr("No project open."));
    return;
  }
  session_->read(
      this,
      [ids = ids_](const ProjectStore& store) {
        std::vector<std::optional<LoadedCandidate>> rows;
        for (CandidateId id : ids) rows.push_back(loadCandidate(store, id));
        return rows;
      },
      [this, ids = ids_](std::vector<std::optional<LoadedCandidate>> rows) {
        if (ids != ids_) return;  // another comparison was chosen meanwhile
        QStringList problems;
        if (!limitNote_.isEmpty()) problems << limitNote_;
        std::vector<DetailsModel::Column> columns;
        std::vector<TimingPlot::Series> series;
        std::vector<const Candidate*> found;
        QStringList names;
        for (std::size_t i = 0; i < rows.size(); ++i) {
          if (!rows[i]) {
            problems << tr("Candidate #%1 is not in this project.").arg(ids[i]);
            continue;
          }
          const Candidate& c = rows[i]->candidate;
          found.push_back(&c);
          names << candidateHeadline(c);
          columns.push_back(detailsColumn(*rows[i], session_->ceilings()));
          series.push_back({QStringLiteral("#%1").arg(c.id), c.timing ? c.timing->samplesUs : std::vector<double>{}, {}, {}});
        }
        if (found.size() < 2) problems << tr("Select at least two candidates to compare them.");
        setMessage(problems.join(QLatin1Char(' ')));
        QStringList shown;
        for (const Candidate* c : found) shown << QStringLiteral("#%1").arg(c->id);
        title_->setText(tr("Comparing %1").arg(shown.join(QStringLiteral(", "))));
        title_->setToolTip(names.join(QLatin1Char('\n')));
        model_->setColumns(std::move(columns));
        // Each column's header names its candidate whole.
        for (int i = 0; i < names.size(); ++i) model_->setHeaderData(1 + i, Qt::Horizontal, names[i], Qt::ToolTipRole);
        table_->expandToDepth(0);
        fitFigureColumns(table_);
        plot_->setSeries(std::move(series), tr("None of them is timed."));
        if (found.size() >= 2) {
          diffTitle_->setText(tr("#%1 (left) against #%2 (right)").arg(found[0]->id).arg(found[1]->id));
          diff_->setTexts(found[0]->source, found[1]->source);
        } else {
          diffTitle_->setText(tr("The source diff needs two candidates."));
          diff_->clear();
        }
      });
}

bool CompareView::eventFilter(QObject* watched, QEvent* event) {
  if (watched == table_->viewport() && event->type() == QEvent::Resize) fitFigureColumns(table_);
  return QWidget::eventFilter(watched, event);
}

}  // namespace crucible::views
