// SPDX-License-Identifier: GPL-3.0-or-later
// Two read-only CUDA editors showing an aligned diff: padding rows keep
// both sides line for line, changed lines and changed characters are
// highlighted, scrolling is synchronized, and next/previous change jumps.
// Used by DiffView and by the review queue.
#pragma once
#include <QWidget>
#include <string>
#include "views/diff/diff_model.h"

class QsciScintilla;

namespace crucible::views {

class SideBySideDiff : public QWidget {
  Q_OBJECT
public:
  explicit SideBySideDiff(QWidget* parent = nullptr);

  // Shows the diff of two texts. The same texts again change nothing: the
  // current change, the cursor and the scroll position stay (views refresh
  // during a run without their reader losing their place).
  void setTexts(const std::string& left, const std::string& right);
  void clear();
  const AlignedDiff& diff() const { return diff_; }
  int changeCount() const { return static_cast<int>(diff_.hunkStarts.size()); }
  // The row of the change last jumped to, or -1.
  int currentChangeRow() const { return currentRow_; }
  QsciScintilla* leftEditor() const { return left_; }
  QsciScintilla* rightEditor() const { return right_; }

public slots:
  bool goToNextChange();
  bool goToPreviousChange();

signals:
  // index is 0-based into the changes, count their number.
  void currentChangeChanged(int index, int count);

private:
  void decorate(QsciScintilla* editor, bool leftSide);
  void syncScrolling(QsciScintilla* from, QsciScintilla* to);
  void goToRow(int row);

  QsciScintilla* left_ = nullptr;
  QsciScintilla* right_ = nullptr;
  AlignedDiff diff_;
  std::string leftText_, rightText_;   // what is shown
  bool shown_ = false;
  int currentRow_ = -1;
  bool syncing_ = false;  // recursion guard of the scroll synchronization
  int markerChanged_ = 0, markerOneSide_ = 0, markerPadding_ = 0;
};

}  // namespace crucible::views
