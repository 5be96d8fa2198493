// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/diff/side_by_side_diff.h"

#include <Qsci/qsciscintilla.h>
#include <QHBoxLayout>
#include <QScrollBar>
#include <algorithm>
#include "views/diff/cuda_lexer.h"

namespace crucible::views {

namespace {
constexpr int kIndicatorChars = 8;  // indicators below 8 are the lexers'
const QColor kRemovedLine(255, 220, 220);
const QColor kAddedLine(220, 255, 220);
const QColor kChangedLeft(255, 236, 236);
const QColor kChangedRight(236, 255, 236);
const QColor kPadding(235, 235, 235);
}  // namespace

SideBySideDiff::SideBySideDiff(QWidget* parent) : QWidget(parent) {
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  left_ = new QsciScintilla(this);
  right_ = new QsciScintilla(this);
  left_->setObjectName(QStringLiteral("diffLeft"));
  right_->setObjectName(QStringLiteral("diffRight"));
  for (auto* e : {left_, right_}) {
    setupSourceEditor(e);
    e->setMarginType(0, QsciScintilla::TextMargin);  // original line numbers, blank on padding
    e->setMarginWidth(0, QStringLiteral("000000"));
    layout->addWidget(e);
  }
  syncScrolling(left_, right_);
  syncScrolling(right_, left_);
}

void SideBySideDiff::syncScrolling(QsciScintilla* from, QsciScintilla* to) {
  // As Qt Creator's side-by-side diff: copy the value, guarded against the echo.
  auto copy = [this](QScrollBar* src, QScrollBar* dst) {
    connect(src, &QScrollBar::valueChanged, this, [this, dst](int value) {
      if (syncing_) return;
      syncing_ = true;
      dst->setValue(value);
      syncing_ = false;
    });
  };
  copy(from->verticalScrollBar(), to->verticalScrollBar());
  copy(from->horizontalScrollBar(), to->horizontalScrollBar());
}

void SideBySideDiff::clear() { setTexts({}, {}); }

void SideBySideDiff::setTexts(const std::string& left, const std::string& right) {
  if (shown_ && left == leftText_ && right == rightText_) return;
  shown_ = true;
  leftText_ = left;
  rightText_ = right;
  diff_ = computeAlignedDiff(left, right);
  currentRow_ = -1;
  left_->setText(QString::fromStdString(diff_.paddedLeft()));
  right_->setText(QString::fromStdString(diff_.paddedRight()));
  decorate(left_, true);
  decorate(right_, false);
  emit currentChangeChanged(-1, changeCount());
}

void SideBySideDiff::decorate(QsciScintilla* e, bool leftSide) {
  e->markerDeleteAll();
  e->clearMarginText();
  // Background markers: changed line, line only on this side, padding.
  markerChanged_ = e->markerDefine(QsciScintilla::Background, 1);
  markerOneSide_ = e->markerDefine(QsciScintilla::Background, 2);
  markerPadding_ = e->markerDefine(QsciScintilla::Background, 3);
  e->setMarkerBackgroundColor(leftSide ? kChangedLeft : kChangedRight, markerChanged_);
  e->setMarkerBackgroundColor(leftSide ? kRemovedLine : kAddedLine, markerOneSide_);
  e->setMarkerBackgroundColor(kPadding, markerPadding_);
  e->indicatorDefine(QsciScintilla::FullBoxIndicator, kIndicatorChars);
  e->setIndicatorForegroundColor(leftSide ? QColor(230, 80, 80, 110) : QColor(60, 170, 60, 110), kIndicatorChars);
  e->clearIndicatorRange(0, 0, e->lines(), 0, kIndicatorChars);

  for (int r = 0; r < static_cast<int>(diff_.rows.size()); ++r) {
    const DiffRow& row = diff_.rows[static_cast<std::size_t>(r)];
    const auto& line = leftSide ? row.leftLine : row.rightLine;
    if (line) e->setMarginText(r, QString::number(*line + 1), QsciScintillaBase::STYLE_LINENUMBER);
    switch (row.kind) {
      case DiffRowKind::Same: break;
      case DiffRowKind::Changed:
        e->markerAdd(r, markerChanged_);
        for (const CharRange& c : leftSide ? row.leftChanges : row.rightChanges)
          e->fillIndicatorRange(r, c.start, r, c.start + c.length, kIndicatorChars);
        break;
      case DiffRowKind::Removed: e->markerAdd(r, leftSide ? markerOneSide_ : markerPadding_); break;
      case DiffRowKind::Added: e->markerAdd(r, leftSide ? markerPadding_ : markerOneSide_); break;
    }
  }
}

void SideBySideDiff::goToRow(int row) {
  currentRow_ = row;
  for (auto* e : {left_, right_}) {
    e->setCursorPosition(row, 0);
    e->setFirstVisibleLine(std::max(0, row - 3));
  }
  const auto& h = diff_.hunkStarts;
  const int index = static_cast<int>(std::find(h.begin(), h.end(), row) - h.begin());
  emit currentChangeChanged(index, changeCount());
}

bool SideBySideDiff::goToNextChange() {
  const int row = nextHunk(diff_, currentRow_);
  if (row < 0) return false;
  goToRow(row);
  return true;
}

bool SideBySideDiff::goToPreviousChange() {
  const int row = previousHunk(diff_, currentRow_ < 0 ? static_cast<int>(diff_.rows.size()) : currentRow_);
  if (row < 0) return false;
  goToRow(row);
  return true;
}

}  // namespace crucible::views
