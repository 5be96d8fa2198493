// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/review/review_queue_view.h"

#include <Qsci/qsciscintilla.h>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QShortcut>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include "views/diff/candidate_figures.h"
#include "views/diff/cuda_lexer.h"
#include "views/diff/side_by_side_diff.h"
#include "views/review/review_queue_model.h"
#include "views/common/message_stack.h"
#include "views/common/view_helpers.h"
#include "views/common/lazy_refresh.h"
#include "views/session/project_session.h"

namespace crucible::views {

ReviewQueueView::ReviewQueueView(ProjectSession* session, QWidget* parent) : QWidget(parent), session_(session) {
  model_ = new ReviewQueueModel(this);
  table_ = makeRowTable(model_, this);

  headline_ = new QLabel(this);
  headline_->setWordWrap(true);
  headline_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  proposal_ = new QPlainTextEdit(this);
  proposal_->setReadOnly(true);
  proposal_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  source_ = new QsciScintilla(this);
  setupSourceEditor(source_);
  diff_ = new SideBySideDiff(this);
  tabs_ = new QTabWidget(this);
  tabs_->addTab(proposal_, tr("Proposal"));
  tabs_->addTab(source_, tr("Source"));
  tabs_->addTab(diff_, tr("Diff against parent"));

  note_ = new QLineEdit(this);
  note_->setObjectName(QStringLiteral("reviewNote"));
  note_->setPlaceholderText(tr("Note for the verdict (why)"));
  acceptButton_ = new QPushButton(tr("Accept architecture"), this);
  rejectButton_ = new QPushButton(tr("Reject architecture"), this);
  acceptButton_->setToolTip(tr("Ctrl+Return"));
  rejectButton_->setToolTip(tr("Ctrl+Backspace"));
  forkButton_ = new QPushButton(tr("Fork && edit"), this);
  forkButton_->setObjectName(QStringLiteral("reviewFork"));
  forkButton_->setToolTip(tr("Open this proposal in the kernel editor, as a fork of it"));
  connect(forkButton_, &QPushButton::clicked, this, [this] {
    if (current_) emit forkRequested(current_);
  });
  auto* verdictRow = new QHBoxLayout;
  verdictRow->addWidget(forkButton_);
  verdictRow->addWidget(note_, 1);
  verdictRow->addWidget(acceptButton_);
  verdictRow->addWidget(rejectButton_);

  auto* detail = new QWidget(this);
  auto* detailLayout = new QVBoxLayout(detail);
  detailLayout->setContentsMargins(0, 0, 0, 0);
  detailLayout->addWidget(headline_);
  detailLayout->addWidget(tabs_, 1);
  detailLayout->addLayout(verdictRow);

  auto* splitter = new QSplitter(Qt::Horizontal, this);
  splitter->addWidget(table_);
  splitter->addWidget(detail);
  splitter->setStretchFactor(1, 3);

  stack_ = new MessageStack(splitter, this);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(stack_);

  auto* acceptKey = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), this);
  auto* rejectKey = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Backspace), this);
  acceptKey->setContext(Qt::WidgetWithChildrenShortcut);
  rejectKey->setContext(Qt::WidgetWithChildrenShortcut);
  connect(acceptKey, &QShortcut::activated, this, &ReviewQueueView::accept);
  connect(rejectKey, &QShortcut::activated, this, &ReviewQueueView::reject);
  connect(acceptButton_, &QPushButton::clicked, this, &ReviewQueueView::accept);
  connect(rejectButton_, &QPushButton::clicked, this, &ReviewQueueView::reject);
  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& i) {
    showRow(i.row());
    if (current_) session_->selectCandidate(current_);
  });
  connect(session_, &ProjectSession::candidateSelected, this, [this](CandidateId id) {
    const int row = model_->rowOf(id);
    if (row >= 0 && id != current_) table_->selectRow(row);
  });
  connect(session_, &ProjectSession::currentRunChanged, this, &ReviewQueueView::reload);
  table_->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(table_, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
    const int row = table_->indexAt(pos).row();
    if (!model_->candidateAt(row)) return;
    QMenu* menu = contextMenuFor(row, table_);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(table_->viewport()->mapToGlobal(pos));
  });
  // The queue changes when a verdict is recorded or a candidate enters or
  // leaves review; nothing else re-reads it. A closed dock catches up when shown.
  lazy_ = new LazyRefresh(this, [this] { reload(); });
  connect(session_, &ProjectSession::verdictsChanged, lazy_, &LazyRefresh::request);
  connect(session_, &ProjectSession::candidatesChanged, this,
          [this](const std::vector<CandidateSummary>& changed, bool reset) {
            bool queueMoved = reset;
            for (const CandidateSummary& c : changed)
              queueMoved = queueMoved || c.status == CandidateStatus::AwaitingReview || model_->rowOf(c.id) >= 0;
            if (queueMoved) lazy_->request();
          });
  connect(session_, &ProjectSession::projectClosed, this, &ReviewQueueView::reload);
  reload();
}

QString ReviewQueueView::message() const { return stack_->message(); }

void ReviewQueueView::reload() {
  const RunId run = session_->currentRun();
  if (!session_->isOpen() || !run) return setQueue({}, {});
  // Full rows and the parents' sources: off the GUI thread during a run.
  session_->read(
      this,
      [run](const ProjectStore& store) {
        std::pair<std::vector<Candidate>, std::map<CandidateId, std::string>> q;
        q.first = store.candidatesWithStatus(run, CandidateStatus::AwaitingReview);
        for (const Candidate& c : q.first)
          if (!c.parents.empty() && !q.second.count(c.parents.front()))
            if (auto p = store.candidate(c.parents.front())) q.second[c.parents.front()] = p->source;
        return q;
      },
      [this, run](std::pair<std::vector<Candidate>, std::map<CandidateId, std::string>> q) {
        if (run == session_->currentRun()) setQueue(std::move(q.first), std::move(q.second));
      });
}

void ReviewQueueView::setQueue(std::vector<Candidate> awaiting, std::map<CandidateId, std::string> parentSources) {
  const RunId run = session_->currentRun();
  awaiting_ = std::move(awaiting);
  parentSources_ = std::move(parentSources);
  std::set<std::string> decided;
  for (const ReviewVerdict& v : session_->verdicts()) decided.insert(v.architectureKey);
  std::vector<Candidate> queued;
  for (const Candidate& c : awaiting_) {
    // One verdict covers an architecture: skip those already decided.
    if (decided_.count({run, c.architectureKey}) || decided.count(c.architectureKey)) continue;
    queued.push_back(c);
  }
  const CandidateId keep = current_;
  model_->setCandidates(std::move(queued));
  if (!session_->isOpen()) stack_->setMessage(tr("No project open."));
  else if (!run) stack_->setMessage(tr("This project has no runs yet."));
  else if (model_->rowCount() == 0) {
    const auto r = session_->run(run);
    stack_->setMessage(r && !r->gated ? tr("This run is not gated: new architectures are evaluated without review.")
                                     : tr("No candidates awaiting review in this run."));
  }
  forkButton_->setEnabled(model_->rowCount() > 0);
  if (model_->rowCount() == 0) {
    current_ = 0;
    stack_->showMessage();
    return;
  }
  stack_->showContent();
  const int row = std::max(0, model_->rowOf(keep));
  table_->selectRow(row);
  showRow(row);
}

void ReviewQueueView::showRow(int row) {
  const Candidate* c = model_->candidateAt(row);
  current_ = c ? c->id : 0;
  if (!c) return;
  // A language model's plan is read as the plan it is, not as its genome's JSON; its code comes after Accept.
  const auto plan = proposedPlanOf(*c);
  headline_->setText(QStringLiteral("<b>%1</b><br>%2<br>%3")
                         .arg(candidateHeadline(*c).toHtmlEscaped(),
                              (plan && !plan->name.isEmpty()
                                   ? tr("architecture: %1 (%2)").arg(plan->name, QString::fromStdString(c->architectureKey))
                                   : tr("architecture: %1").arg(QString::fromStdString(c->architectureKey)))
                                  .toHtmlEscaped(),
                              candidateFigures(*c).toHtmlEscaped()));
  // A refresh during a run shows the same candidate again: texts that did not
  // change are not set again, so the reader keeps their scroll and cursor.
  const QString proposal =
      plan ? tr("Architecture: %1\n\n%2\n\nNo code yet: the model writes it once the architecture is accepted.\n\n"
                "Proposer: %3\nMutation: %4\n")
                 .arg(plan->name, plan->text, QString::fromStdString(c->proposer), QString::fromStdString(c->mutation))
           : tr("Genome\n%1\nDescriptor\n%2\n\nProposer: %3\nMutation: %4\n")
                 .arg(prettyJson(c->genomeJson), formatDescriptor(c->descriptor), QString::fromStdString(c->proposer),
                      QString::fromStdString(c->mutation));
  if (proposal_->toPlainText() != proposal) proposal_->setPlainText(proposal);
  const QString source = QString::fromStdString(c->source);
  if (source_->text() != source) source_->setText(source);
  std::string parentSource;
  if (!c->parents.empty())
    if (auto it = parentSources_.find(c->parents.front()); it != parentSources_.end()) parentSource = it->second;
  if (diffShown_ != std::pair{parentSource, c->source}) {
    diff_->setTexts(parentSource, c->source);
    diffShown_ = {parentSource, c->source};
  }
  tabs_->setTabText(2, c->parents.empty() ? tr("Diff (no parent)") : tr("Diff against #%1").arg(c->parents.front()));
}

QMenu* ReviewQueueView::contextMenuFor(int row, QWidget* parent) {
  auto* menu = new QMenu(parent);
  const Candidate* c = model_->candidateAt(row);
  const CandidateId id = c ? c->id : 0;
  // The main window opens the kernel editor on it (MainWindow::forkCandidate), as from the lineage and the vault.
  menu->addAction(tr("Fork && edit"), this, [this, id] { emit forkRequested(id); })->setEnabled(id != 0);
  return menu;
}

bool ReviewQueueView::accept() { return decide(true); }
bool ReviewQueueView::reject() { return decide(false); }

bool ReviewQueueView::decide(bool accepted) {
  const int row = model_->rowOf(current_);
  const Candidate* c = model_->candidateAt(row);
  if (!c) return false;
  const RunId run = c->runId;
  const QString key = QString::fromStdString(c->architectureKey);
  const QString note = note_->text().trimmed();
  decided_.insert({run, c->architectureKey});
  note_->clear();
  current_ = 0;
  emit verdictGiven(run, key, accepted, note);
  // Next in the queue: the row that took this one's place.
  const int next = row;
  setQueue(std::move(awaiting_), std::move(parentSources_));
  if (model_->rowCount() > 0) {
    table_->selectRow(std::min(next, model_->rowCount() - 1));
    showRow(std::min(next, model_->rowCount() - 1));
  }
  return true;
}

}  // namespace crucible::views
