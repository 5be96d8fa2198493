// SPDX-License-Identifier: GPL-3.0-or-later
// The review gate of the current run: each proposed new architecture with its
// genome, descriptor, generated source and the diff against its parent;
// Accept (Ctrl+Return) or Reject (Ctrl+Backspace) with a note. The view only
// emits the verdict; the app records it and lets the engine continue. Fork &&
// edit takes a proposal into the kernel editor, to try a human's variant of it.
#pragma once
#include <QWidget>
#include <map>
#include <set>
#include <utility>
#include <vector>
#include <string>
#include "core/model/candidate.h"
#include "core/model/ids.h"

class QLabel;
class QLineEdit;
class QMenu;
class QPlainTextEdit;
class QPushButton;
class QTableView;
class QTabWidget;
class QsciScintilla;

namespace crucible::views {

class LazyRefresh;
class MessageStack;

class ProjectSession;
class ReviewQueueModel;
class SideBySideDiff;

class ReviewQueueView : public QWidget {
  Q_OBJECT
public:
  explicit ReviewQueueView(ProjectSession* session, QWidget* parent = nullptr);

  ReviewQueueModel* model() const { return model_; }
  CandidateId currentCandidate() const { return current_; }
  QString message() const;

public slots:
  void reload();
  // Gives the verdict on the shown candidate's architecture; false if none is shown.
  bool accept();
  bool reject();

  // The context menu of a queue row: Fork && edit. The caller owns it.
  QMenu* contextMenuFor(int row, QWidget* parent = nullptr);
  QPushButton* forkButton() const { return forkButton_; }

signals:
  // "Fork && edit" on a proposed candidate: the window opens it in the kernel editor (as lineage and vault do).
  void forkRequested(crucible::CandidateId id);
  void verdictGiven(crucible::RunId run, const QString& architectureKey, bool accepted, const QString& note);

private:
  bool decide(bool accepted);
  void showRow(int row);
  void setQueue(std::vector<Candidate> awaiting, std::map<CandidateId, std::string> parentSources);

  ProjectSession* session_;
  ReviewQueueModel* model_ = nullptr;
  QTableView* table_ = nullptr;
  MessageStack* stack_ = nullptr;
  QLabel* headline_ = nullptr;
  QTabWidget* tabs_ = nullptr;
  QPlainTextEdit* proposal_ = nullptr;
  QsciScintilla* source_ = nullptr;
  SideBySideDiff* diff_ = nullptr;
  QLineEdit* note_ = nullptr;
  QPushButton* acceptButton_ = nullptr;
  QPushButton* rejectButton_ = nullptr;
  QPushButton* forkButton_ = nullptr;
  CandidateId current_ = 0;
  LazyRefresh* lazy_ = nullptr;
  std::vector<Candidate> awaiting_;                   // as last read, before this view's own verdicts
  std::map<CandidateId, std::string> parentSources_;  // of the awaiting candidates' first parents
  std::pair<std::string, std::string> diffShown_;
  // Architectures decided here whose verdict the store may not hold yet.
  std::set<std::pair<RunId, std::string>> decided_;
};

}  // namespace crucible::views
