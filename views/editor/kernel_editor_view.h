// SPDX-License-Identifier: GPL-3.0-or-later
// The kernel editor (issue 17, Compiler Explorer as the model): a forked or
// opened kernel's source with the CUDA lexer, line numbers, folding, find and
// undo; its launch rule as editable expressions; compiled off the GUI thread
// as the user types (debounced; a newer edit overtakes an older compile);
// errors and warnings as squiggles and margin markers on their lines with the
// message on hover; registers, shared and local memory, spills and PTX
// features; the signature checked against the task; the PTX and SASS beside
// the source, lines linked both ways. Evaluating is the app's business: the
// view asks for it with evaluateRequested().
#pragma once
#include <QString>
#include <QWidget>
#include <set>
#include "core/model/candidate.h"
#include "core/model/ids.h"
#include "core/model/kernel_inspection.h"

class QsciScintilla;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QTabWidget;
class QTimer;

namespace crucible::views {

class InspectionRunner;

class KernelEditorView : public QWidget {
  Q_OBJECT
public:
  // The inspector runs on the view's worker thread; it must outlive the view.
  explicit KernelEditorView(KernelInspector& inspector, QWidget* parent = nullptr);
  ~KernelEditorView() override;

  // What the edits are checked against (the task spec JSON; "" = no ABI check) and compiled for.
  void setTask(const QString& taskName, const std::string& specJson, const std::string& arch);
  // Starts editing: a fork of candidate `parent` (0 for a file) with its launch rule.
  void open(const std::string& source, const LaunchRule& launch, CandidateId parent, const QString& origin);
  // The Evaluate action's state: the app enables it where a GPU can run the kernel and says why not elsewhere.
  void setEvaluationAvailable(bool available, const QString& reason);

  // Puts back an unsaved draft of the kernel open now (same parent): its text,
  // launch fields as typed and note, kept as edits not yet evaluated.
  void restoreDraft(const std::string& source, const LaunchRule& typedLaunch, const QString& note);

  std::string source() const;
  // The launch fields as typed (blank ones read as "1", or "0" for shared
  // memory); the opened rule's tensor maps, which have no fields, are kept.
  LaunchRule launchRule() const;
  // Every launch field is blank (a kernel opened from a file before the user
  // typed a rule): the evaluation then takes the run reference's rule.
  bool launchFieldsBlank() const;
  // The launch fields exactly as typed (blank ones blank), with the opened rule's tensor maps: what a draft keeps.
  LaunchRule typedLaunchRule() const;
  QString origin() const;
  // The user's note for the candidate the evaluation stores ("" when none).
  QString note() const;
  // The user changed the source or the launch rule since open() or
  // markKept() (the app asks before another open() throws that away).
  bool hasUnkeptEdits() const { return unkept_; }
  // The edits are kept elsewhere now (evaluated into a candidate).
  void markKept() { unkept_ = false; }
  CandidateId parentCandidate() const { return parent_; }
  // The last shown compile (the newest request's), and what the view derived from it.
  const KernelInspection& inspection() const { return inspection_; }
  std::set<int> errorLines() const;     // source lines with an error marker
  std::set<int> warningLines() const;
  std::set<int> highlightedPtxLines() const;
  std::set<int> highlightedSassLines() const;
  std::set<int> highlightedSourceLines() const;
  QString diagnosticsAt(int line) const;  // the hover text of a source line ("" when none)
  QString resourceText() const;
  QString signatureText() const;
  QString statusText() const;
  InspectionRunner* runner() const { return runner_; }
  QsciScintilla* sourceEditor() const { return source_; }
  QsciScintilla* ptxEditor() const { return ptx_; }
  QsciScintilla* sassEditor() const { return sass_; }
  QPushButton* evaluateButton() const { return evaluate_; }
  QLineEdit* noteField() const { return note_; }
  // Compiles now instead of after the typing pause.
  void compileNow();

signals:
  void evaluateRequested(const std::string& source, const crucible::LaunchRule& launch, crucible::CandidateId parent);
  // The text, a launch field or the note changed (for the app to keep an unsaved draft).
  void edited();
  // open() gave the editor another kernel: what it held before is gone from it.
  void opened(crucible::CandidateId parent);

public slots:
  // Highlights the PTX and SASS of a source line (1-based), and scrolls to them.
  void showListingOf(int sourceLine);
  // Highlights the source line of a listing line (1-based) of the PTX or SASS.
  void showSourceOfPtx(int ptxLine);
  void showSourceOfSass(int sassLine);

private:
  QWidget* buildLaunchFields();
  QWidget* buildFindBar();
  void scheduleCompile();
  void apply(const KernelInspection& inspection);
  void markDiagnostics();
  void highlight(QsciScintilla* editor, int marker, const std::vector<int>& lines);
  std::set<int> linesWithMarker(QsciScintilla* editor, int marker) const;
  void findNext();

  InspectionRunner* runner_ = nullptr;
  QTimer* debounce_ = nullptr;
  std::string specJson_;
  std::string arch_;
  CandidateId parent_ = 0;
  LaunchRule opened_;  // the rule open() was given: its tensor maps travel with the edits
  KernelInspection inspection_;
  bool loading_ = false;
  bool unkept_ = false;

  QsciScintilla* source_ = nullptr;
  QsciScintilla* ptx_ = nullptr;
  QsciScintilla* sass_ = nullptr;
  QTabWidget* listings_ = nullptr;
  QLineEdit* entry_ = nullptr;
  QLineEdit* grid_[3] = {};
  QLineEdit* block_[3] = {};
  QLineEdit* smem_ = nullptr;
  QLineEdit* note_ = nullptr;
  QLineEdit* find_ = nullptr;
  QLabel* origin_ = nullptr;
  QLabel* status_ = nullptr;
  QLabel* resources_ = nullptr;
  QLabel* signature_ = nullptr;
  QListWidget* diagnostics_ = nullptr;
  QPushButton* evaluate_ = nullptr;
  int errorMarker_ = -1, warningMarker_ = -1, sourceLinkMarker_ = -1, ptxLinkMarker_ = -1, sassLinkMarker_ = -1;
};

}  // namespace crucible::views
