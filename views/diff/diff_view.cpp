// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/diff/diff_view.h"

#include <Qsci/qsciscintilla.h>
#include <QClipboard>
#include <QGridLayout>
#include <QGuiApplication>
#include <QMenu>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <climits>
#include <tuple>
#include "views/diff/candidate_figures.h"
#include "views/diff/side_by_side_diff.h"
#include "views/session/project_session.h"

namespace crucible::views {

DiffView::DiffView(ProjectSession* session, QWidget* parent) : QWidget(parent), session_(session) {
  auto* top = new QHBoxLayout;
  leftPick_ = new QSpinBox(this);
  rightPick_ = new QSpinBox(this);
  for (auto* s : {leftPick_, rightPick_}) {
    s->setRange(0, INT_MAX);
    s->setSpecialValueText(tr("none"));
    s->setPrefix(QStringLiteral("#"));
    s->setKeyboardTracking(false);
  }
  auto* swap = new QPushButton(tr("Swap"), this);
  prev_ = new QPushButton(tr("Previous change"), this);
  next_ = new QPushButton(tr("Next change"), this);
  prev_->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F7));
  next_->setShortcut(QKeySequence(Qt::Key_F7));
  changeLabel_ = new QLabel(this);
  top->addWidget(new QLabel(tr("Left:"), this));
  top->addWidget(leftPick_);
  top->addWidget(new QLabel(tr("Right:"), this));
  top->addWidget(rightPick_);
  top->addWidget(swap);
  top->addStretch();
  top->addWidget(changeLabel_);
  top->addWidget(prev_);
  top->addWidget(next_);

  message_ = new QLabel(this);
  message_->setWordWrap(true);
  leftFigures_ = new QLabel(this);
  rightFigures_ = new QLabel(this);
  for (auto* l : {leftFigures_, rightFigures_}) {
    l->setWordWrap(true);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
  }
  diff_ = new SideBySideDiff(this);

  auto* figures = new QHBoxLayout;
  figures->addWidget(leftFigures_, 1);
  figures->addWidget(rightFigures_, 1);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(message_);
  layout->addLayout(figures);
  layout->addWidget(diff_, 1);

  connect(leftPick_, &QSpinBox::valueChanged, this, [this](int v) { compare(v, rightId_); });
  connect(rightPick_, &QSpinBox::valueChanged, this, [this](int v) { compare(leftId_, v); });
  connect(swap, &QPushButton::clicked, this, [this] { compare(rightId_, leftId_); });
  connect(prev_, &QPushButton::clicked, diff_, &SideBySideDiff::goToPreviousChange);
  connect(next_, &QPushButton::clicked, diff_, &SideBySideDiff::goToNextChange);
  connect(diff_, &SideBySideDiff::currentChangeChanged, this, [this](int index, int count) {
    if (count == 0) changeLabel_->setText(leftId_ && rightId_ ? tr("identical source") : QString());
    else if (index < 0) changeLabel_->setText(tr("%n change(s)", nullptr, count));
    else changeLabel_->setText(tr("change %1 of %2").arg(index + 1).arg(count));
    prev_->setEnabled(count > 0);
    next_->setEnabled(count > 0);
  });

  // The editors' own menus give way to the diff's: what one wants from a diff is its sides and changes.
  for (QWidget* w : {static_cast<QWidget*>(this), static_cast<QWidget*>(diff_->leftEditor()),
                     static_cast<QWidget*>(diff_->rightEditor())}) {
    w->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(w, &QWidget::customContextMenuRequested, this, [this, w](const QPoint& pos) {
      QMenu* menu = contextMenu(w);
      menu->setAttribute(Qt::WA_DeleteOnClose);
      menu->popup(w->mapToGlobal(pos));
    });
  }

  connect(session_, &ProjectSession::candidateSelected, this, &DiffView::showCandidate);
  // Only a change of a shown candidate re-reads it (its figures; the texts
  // and the current change stay when the sources did not change).
  connect(session_, &ProjectSession::candidatesChanged, this,
          [this](const std::vector<CandidateSummary>& changed, bool reset) {
            bool shown = reset;
            for (const CandidateSummary& c : changed) shown = shown || c.id == leftId_ || c.id == rightId_;
            if (shown && (leftId_ != 0 || rightId_ != 0)) refresh();
          });
  connect(session_, &ProjectSession::projectClosed, this, [this] { compare(0, 0); });
  connect(session_, &ProjectSession::projectOpened, this, [this] { compare(0, 0); });
  if (session_->selectedCandidate() != 0) showCandidate(session_->selectedCandidate());
  else refresh();
}

QString DiffView::message() const { return message_->text(); }

void DiffView::setMessage(const QString& text) {
  message_->setText(text);
  message_->setVisible(!text.isEmpty());
}

QMenu* DiffView::contextMenu(QWidget* parent) {
  auto* menu = new QMenu(parent);
  QAction* swap = menu->addAction(tr("Swap sides"), this, [this] { compare(rightId_, leftId_); });
  swap->setEnabled(leftId_ != 0 || rightId_ != 0);
  menu->addSeparator();
  // The keys are the buttons' shortcuts, shown here as a reminder.
  QAction* next = menu->addAction(tr("Next change"), diff_, &SideBySideDiff::goToNextChange);
  next->setShortcut(next_->shortcut());
  QAction* prev = menu->addAction(tr("Previous change"), diff_, &SideBySideDiff::goToPreviousChange);
  prev->setShortcut(prev_->shortcut());
  for (QAction* a : {next, prev}) {
    a->setShortcutContext(Qt::WidgetShortcut);
    a->setEnabled(diff_->changeCount() > 0);
  }
  menu->addSeparator();
  for (auto [text, id, shown] : {std::tuple{tr("Copy left source (#%1)"), leftId_, left_.has_value()},
                                  std::tuple{tr("Copy right source (#%1)"), rightId_, right_.has_value()}}) {
    QAction* copy = menu->addAction(text.arg(id), this, [this, id = id] { copySource(id); });
    copy->setEnabled(session_->isOpen() && id != 0 && shown);
  }
  return menu;
}

void DiffView::copySource(CandidateId id) {
  // The shown sides are held whole: copying reads nothing.
  const std::optional<Candidate>& c = id != 0 && id == leftId_ ? left_ : (id != 0 && id == rightId_ ? right_ : none_);
  if (!c) {
    setMessage(tr("Candidate #%1 is not in this project: nothing copied.").arg(id));
    return;
  }
  QGuiApplication::clipboard()->setText(QString::fromStdString(c->source));
}

void DiffView::showCandidate(CandidateId id) {
  // The parent comes with the summary the session holds; a candidate of
  // another run is looked up in the store (outside a run, or by the reader).
  if (id == 0 || !session_->isOpen()) return compare(0, id);
  if (const CandidateSummary* s = session_->candidate(id))
    return compare(s->parents.empty() ? 0 : s->parents.front(), id);
  session_->read(
      this, [id](const ProjectStore& store) { return store.candidate(id); },
      [this, id](std::optional<Candidate> c) {
        if (session_->selectedCandidate() != id && rightId_ != 0) return;  // another one was chosen meanwhile
        compare(c && !c->parents.empty() ? c->parents.front() : 0, id);
      });
}

void DiffView::compare(CandidateId left, CandidateId right) {
  leftId_ = left;
  rightId_ = right;
  // Keep the pickers in step without re-entering compare().
  for (auto [pick, id] : {std::pair{leftPick_, left}, std::pair{rightPick_, right}}) {
    const QSignalBlocker block(pick);
    pick->setValue(static_cast<int>(id));
  }
  refresh();
}

void DiffView::refresh() {
  if (!session_->isOpen()) {
    leftFigures_->clear();
    rightFigures_->clear();
    left_.reset();
    right_.reset();
    diff_->clear();
    setMessage(tr("No project open."));
    return;
  }
  if (leftId_ == 0 && rightId_ == 0) {
    leftFigures_->clear();
    rightFigures_->clear();
    left_.reset();
    right_.reset();
    diff_->clear();
    setMessage(tr("No candidate selected: select one in any view, or pick two candidates above."));
    return;
  }
  // Full rows (source, reports): off the GUI thread during a run.
  session_->read(
      this,
      [l = leftId_, r = rightId_](const ProjectStore& store) {
        return std::pair{l ? store.candidate(l) : std::nullopt, r ? store.candidate(r) : std::nullopt};
      },
      [this, l = leftId_, r = rightId_](std::pair<std::optional<Candidate>, std::optional<Candidate>> rows) {
        if (l != leftId_ || r != rightId_) return;  // the pair changed meanwhile
        showPair(std::move(rows.first), std::move(rows.second));
      });
}

void DiffView::showPair(std::optional<Candidate> left, std::optional<Candidate> right) {
  QStringList problems;
  auto figures = [&](CandidateId id, const std::optional<Candidate>& c, QLabel* label) {
    if (id == 0) {
      label->setText(tr("<i>no candidate on this side</i>"));
    } else if (!c) {
      problems << tr("Candidate #%1 is not in this project.").arg(id);
      label->setText(tr("<i>#%1 not found</i>").arg(id));
    } else {
      label->setText(QStringLiteral("<b>%1</b><br>%2").arg(candidateHeadline(*c).toHtmlEscaped(), candidateFigures(*c).toHtmlEscaped()));
    }
  };
  figures(leftId_, left, leftFigures_);
  figures(rightId_, right, rightFigures_);
  if (leftId_ == 0 && right)
    problems << tr("Candidate #%1 has no parent (it is a %2): pick a candidate on the left to compare against.")
                    .arg(rightId_)
                    .arg(right->mutation.empty() ? tr("seed") : QString::fromStdString(right->mutation));
  setMessage(problems.join(QLatin1Char(' ')));
  const std::string leftSource = left ? left->source : std::string();
  const std::string rightSource = right ? right->source : std::string();
  // Same texts: the diff and its current change stay as they are.
  const bool sameTexts = textsShown_ && leftSource == (left_ ? left_->source : std::string()) &&
                         rightSource == (right_ ? right_->source : std::string());
  left_ = std::move(left);
  right_ = std::move(right);
  if (!sameTexts) diff_->setTexts(leftSource, rightSource);
  textsShown_ = true;
}

}  // namespace crucible::views
