// SPDX-License-Identifier: GPL-3.0-or-later
// Side-by-side diff of any two candidates; by default the selected one
// (right) against its first parent (left), with both candidates' figures.
#pragma once
#include <QWidget>
#include <optional>
#include "core/model/candidate.h"
#include "core/model/ids.h"

class QLabel;
class QMenu;
class QSpinBox;
class QPushButton;

namespace crucible::views {

class ProjectSession;
class SideBySideDiff;

class DiffView : public QWidget {
  Q_OBJECT
public:
  explicit DiffView(ProjectSession* session, QWidget* parent = nullptr);

  CandidateId leftCandidate() const { return leftId_; }
  CandidateId rightCandidate() const { return rightId_; }
  SideBySideDiff* diffWidget() const { return diff_; }
  // What the view says instead of a diff when it cannot show one ("" when it shows one).
  QString message() const;
  // The context menu of the diff: Swap sides, Next/Previous change, Copy
  // left/right source (each enabled only when it can act). The caller owns it.
  QMenu* contextMenu(QWidget* parent = nullptr);

public slots:
  // Compares two stored candidates; 0 leaves that side empty.
  void compare(crucible::CandidateId left, crucible::CandidateId right);
  // The selected candidate against its first parent.
  void showCandidate(crucible::CandidateId id);

private:
  void refresh();
  void setMessage(const QString& text);
  void copySource(crucible::CandidateId id);
  void showPair(std::optional<Candidate> left, std::optional<Candidate> right);

  ProjectSession* session_;
  CandidateId leftId_ = 0, rightId_ = 0;
  QSpinBox* leftPick_ = nullptr;
  QSpinBox* rightPick_ = nullptr;
  QPushButton* prev_ = nullptr;
  QPushButton* next_ = nullptr;
  QLabel* changeLabel_ = nullptr;
  QLabel* message_ = nullptr;
  QLabel* leftFigures_ = nullptr;
  QLabel* rightFigures_ = nullptr;
  SideBySideDiff* diff_ = nullptr;
  // The shown sides, whole (sources for copying, figures).
  std::optional<Candidate> left_, right_;
  const std::optional<Candidate> none_;
  bool textsShown_ = false;
};

}  // namespace crucible::views
