// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/editor/kernel_editor_view.h"

#include <Qsci/qsciscintilla.h>

#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QShortcut>
#include <QSplitter>
#include <QTabWidget>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>
#include "views/common/locale_numbers.h"
#include "views/common/view_helpers.h"
#include "views/diff/cuda_lexer.h"
#include "views/editor/inspection_runner.h"

namespace crucible::views {
namespace {

// A pause in typing this long starts a compile: short enough to feel live,
// long enough not to compile every keystroke.
constexpr int kTypingPauseMs = 400;
constexpr int kSquiggle = 9;  // indicators below 8 are the lexer's

QsciScintilla* listingEditor(QWidget* parent) {
  auto* e = new QsciScintilla(parent);
  e->setReadOnly(true);
  e->setUtf8(true);
  e->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  e->setMarginType(0, QsciScintilla::NumberMargin);
  e->setMarginWidth(0, QStringLiteral("00000"));
  e->setWrapMode(QsciScintilla::WrapNone);
  e->setCaretLineVisible(true);
  return e;
}

void setListing(QsciScintilla* editor, const std::string& text) {
  editor->setReadOnly(false);
  editor->setText(QString::fromStdString(text));
  editor->setReadOnly(true);
}

std::string fieldText(const QLineEdit* e, const char* empty) {
  const QString t = e->text().trimmed();
  return t.isEmpty() ? empty : t.toStdString();
}

}  // namespace

KernelEditorView::KernelEditorView(KernelInspector& inspector, QWidget* parent) : QWidget(parent) {
  runner_ = new InspectionRunner(inspector, this);
  debounce_ = new QTimer(this);
  debounce_->setSingleShot(true);
  debounce_->setInterval(kTypingPauseMs);
  connect(debounce_, &QTimer::timeout, this, &KernelEditorView::compileNow);
  connect(runner_, &InspectionRunner::inspected, this, &KernelEditorView::apply);
  connect(runner_, &InspectionRunner::busyChanged, this, [this](bool busy) {
    if (busy) status_->setText(tr("Compiling..."));
  });

  // The source: editable, with the CUDA lexer, markers for diagnostics and the linked line.
  source_ = new QsciScintilla(this);
  setupSourceEditor(source_);
  source_->setReadOnly(false);
  source_->setFolding(QsciScintilla::BoxedTreeFoldStyle, 2);
  source_->setMarginType(1, QsciScintilla::SymbolMargin);
  source_->setMarginWidth(1, 16);
  errorMarker_ = source_->markerDefine(QsciScintilla::Circle, 1);
  source_->setMarkerBackgroundColor(QColor(0xd0, 0x30, 0x30), errorMarker_);
  warningMarker_ = source_->markerDefine(QsciScintilla::RightTriangle, 2);
  source_->setMarkerBackgroundColor(QColor(0xe0, 0xa0, 0x20), warningMarker_);
  sourceLinkMarker_ = source_->markerDefine(QsciScintilla::Background, 3);
  source_->setMarkerBackgroundColor(QColor(0xff, 0xf2, 0xb0), sourceLinkMarker_);
  source_->setMarginMarkerMask(1, (1 << errorMarker_) | (1 << warningMarker_));
  source_->indicatorDefine(QsciScintilla::SquiggleIndicator, kSquiggle);
  source_->setIndicatorForegroundColor(QColor(0xd0, 0x30, 0x30), kSquiggle);
  source_->SendScintilla(QsciScintillaBase::SCI_SETMOUSEDWELLTIME, 400);
  connect(source_, &QsciScintilla::textChanged, this, [this] {
    if (loading_) return;
    unkept_ = true;
    emit edited();
    scheduleCompile();
  });
  connect(source_, &QsciScintilla::cursorPositionChanged, this, [this](int line, int) { showListingOf(line + 1); });
  connect(source_, &QsciScintillaBase::SCN_DWELLSTART, this, [this](int position, int x, int y) {
    if (position < 0) return;
    int line = 0, index = 0;
    source_->lineIndexFromPosition(position, &line, &index);
    const QString text = diagnosticsAt(line + 1);
    // The compiler quotes the kernel (a string in a static_assert, say): shown as text, never as HTML.
    if (!text.isEmpty()) QToolTip::showText(source_->mapToGlobal(QPoint(x, y)), plainTextToolTip(text), source_);
  });

  ptx_ = listingEditor(this);
  ptxLinkMarker_ = ptx_->markerDefine(QsciScintilla::Background, 3);
  ptx_->setMarkerBackgroundColor(QColor(0xff, 0xf2, 0xb0), ptxLinkMarker_);
  connect(ptx_, &QsciScintilla::cursorPositionChanged, this, [this](int line, int) { showSourceOfPtx(line + 1); });
  sass_ = listingEditor(this);
  sassLinkMarker_ = sass_->markerDefine(QsciScintilla::Background, 3);
  sass_->setMarkerBackgroundColor(QColor(0xff, 0xf2, 0xb0), sassLinkMarker_);
  connect(sass_, &QsciScintilla::cursorPositionChanged, this, [this](int line, int) { showSourceOfSass(line + 1); });
  listings_ = new QTabWidget(this);
  listings_->addTab(ptx_, tr("PTX"));
  listings_->addTab(sass_, tr("SASS"));

  origin_ = new QLabel(this);
  status_ = new QLabel(tr("Not compiled yet"), this);
  evaluate_ = new QPushButton(tr("Evaluate"), this);
  evaluate_->setObjectName(QStringLiteral("kernelEditorEvaluate"));
  evaluate_->setToolTip(tr("Validate, time and profile this kernel on the GPU; the result joins the lineage"));
  connect(evaluate_, &QPushButton::clicked, this,
          [this] { emit evaluateRequested(source(), launchRule(), parent_); });
  note_ = new QLineEdit(this);
  note_->setObjectName(QStringLiteral("kernelEditorNote"));
  note_->setPlaceholderText(tr("Note for the candidate (what this edit tries)"));
  note_->setToolTip(tr("Stored with the evaluated candidate"));
  connect(note_, &QLineEdit::textEdited, this, [this] {
    unkept_ = true;
    emit edited();
  });
  auto* top = new QHBoxLayout;
  top->addWidget(origin_, 1);
  top->addWidget(status_);
  top->addWidget(note_, 1);
  top->addWidget(evaluate_);

  resources_ = new QLabel(this);
  resources_->setWordWrap(true);
  resources_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  signature_ = new QLabel(this);
  signature_->setWordWrap(true);
  signature_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  diagnostics_ = new QListWidget(this);
  connect(diagnostics_, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
    const int line = item->data(Qt::UserRole).toInt();
    if (line > 0) source_->setCursorPosition(line - 1, 0), source_->setFocus();
  });

  auto* left = new QWidget(this);
  auto* leftLayout = new QVBoxLayout(left);
  leftLayout->setContentsMargins(0, 0, 0, 0);
  leftLayout->addWidget(buildFindBar());
  leftLayout->addWidget(source_, 1);
  leftLayout->addWidget(buildLaunchFields());
  auto* split = new QSplitter(Qt::Horizontal, this);
  split->addWidget(left);
  split->addWidget(listings_);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  split->setSizes({3000, 2000});  // 3:2 from the start (scaled to the width), not what the size hints leave
  auto* bottom = new QWidget(this);
  auto* bottomLayout = new QVBoxLayout(bottom);
  bottomLayout->setContentsMargins(0, 0, 0, 0);
  bottomLayout->addWidget(signature_);
  bottomLayout->addWidget(resources_);
  bottomLayout->addWidget(diagnostics_, 1);
  auto* vertical = new QSplitter(Qt::Vertical, this);
  vertical->addWidget(split);
  vertical->addWidget(bottom);
  vertical->setStretchFactor(0, 4);
  vertical->setStretchFactor(1, 1);
  vertical->setSizes({4000, 1000});
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(vertical, 1);
  setEvaluationAvailable(false, tr("No GPU here: kernels can be compiled and inspected, not evaluated"));
}

KernelEditorView::~KernelEditorView() = default;

QWidget* KernelEditorView::buildLaunchFields() {
  auto* box = new QWidget(this);
  auto* form = new QFormLayout(box);
  form->setContentsMargins(0, 0, 0, 0);
  auto field = [this](const QString& tip) {
    auto* e = new QLineEdit(this);
    e->setToolTip(tip);
    connect(e, &QLineEdit::textEdited, this, [this] {
      unkept_ = true;
      emit edited();
      scheduleCompile();
    });
    return e;
  };
  entry_ = field(tr("The kernel's name: an extern \"C\" __global__ function of the source"));
  form->addRow(tr("Entry"), entry_);
  const char* axes[3] = {"x", "y", "z"};
  auto* gridRow = new QHBoxLayout;
  auto* blockRow = new QHBoxLayout;
  for (int i = 0; i < 3; ++i) {
    grid_[i] = field(tr("grid.%1: an expression over the task's axes, e.g. ceil_div(M, 128)").arg(axes[i]));
    block_[i] = field(tr("block.%1: an expression over the task's axes").arg(axes[i]));
    gridRow->addWidget(grid_[i]);
    blockRow->addWidget(block_[i]);
  }
  form->addRow(tr("Grid"), gridRow);
  form->addRow(tr("Block"), blockRow);
  smem_ = field(tr("Dynamic shared memory in bytes: an expression over the task's axes"));
  form->addRow(tr("Shared memory"), smem_);
  return box;
}

QWidget* KernelEditorView::buildFindBar() {
  auto* bar = new QWidget(this);
  auto* row = new QHBoxLayout(bar);
  row->setContentsMargins(0, 0, 0, 0);
  find_ = new QLineEdit(bar);
  find_->setPlaceholderText(tr("Find in source (Ctrl+F, Enter for the next)"));
  connect(find_, &QLineEdit::returnPressed, this, &KernelEditorView::findNext);
  row->addWidget(find_);
  auto* shortcut = new QShortcut(QKeySequence::Find, this);
  connect(shortcut, &QShortcut::activated, this, [this] { find_->setFocus(), find_->selectAll(); });
  return bar;
}

void KernelEditorView::findNext() {
  if (find_->text().isEmpty()) return;
  if (!source_->findFirst(find_->text(), false, false, false, true)) status_->setText(tr("Not found"));
}

void KernelEditorView::setTask(const QString& taskName, const std::string& specJson, const std::string& arch) {
  specJson_ = specJson;
  arch_ = arch;
  setWindowTitle(tr("Kernel editor: %1").arg(taskName));
  scheduleCompile();
}

void KernelEditorView::open(const std::string& source, const LaunchRule& launch, CandidateId parent,
                            const QString& origin) {
  loading_ = true;
  parent_ = parent;
  opened_ = launch;
  note_->clear();
  source_->setText(QString::fromStdString(source));
  entry_->setText(QString::fromStdString(launch.entry));
  for (int i = 0; i < 3; ++i) {
    grid_[i]->setText(QString::fromStdString(launch.grid[i]));
    block_[i]->setText(QString::fromStdString(launch.block[i]));
  }
  smem_->setText(QString::fromStdString(launch.dynamicSmemBytes));
  origin_->setText(origin);
  loading_ = false;
  unkept_ = false;
  emit opened(parent);
  compileNow();
}

void KernelEditorView::restoreDraft(const std::string& source, const LaunchRule& typedLaunch, const QString& note) {
  loading_ = true;
  source_->setText(QString::fromStdString(source));
  entry_->setText(QString::fromStdString(typedLaunch.entry));
  for (int i = 0; i < 3; ++i) {
    grid_[i]->setText(QString::fromStdString(typedLaunch.grid[i]));
    block_[i]->setText(QString::fromStdString(typedLaunch.block[i]));
  }
  smem_->setText(QString::fromStdString(typedLaunch.dynamicSmemBytes));
  note_->setText(note);
  loading_ = false;
  // Edits not evaluated: opening another kernel asks first, and the draft stays until then.
  unkept_ = true;
  compileNow();
}

void KernelEditorView::setEvaluationAvailable(bool available, const QString& reason) {
  evaluate_->setEnabled(available);
  evaluate_->setToolTip(available ? tr("Validate, time and profile this kernel on the GPU; the result joins the lineage")
                                  : reason);
}

std::string KernelEditorView::source() const { return source_->text().toStdString(); }

LaunchRule KernelEditorView::launchRule() const {
  LaunchRule rule;
  rule.entry = entry_->text().trimmed().toStdString();
  for (int i = 0; i < 3; ++i) {
    rule.grid[i] = fieldText(grid_[i], "1");
    rule.block[i] = fieldText(block_[i], "1");
  }
  rule.dynamicSmemBytes = fieldText(smem_, "0");
  rule.tensorMaps = opened_.tensorMaps;
  return rule;
}

bool KernelEditorView::launchFieldsBlank() const {
  auto blank = [](const QLineEdit* e) { return e->text().trimmed().isEmpty(); };
  for (int i = 0; i < 3; ++i)
    if (!blank(grid_[i]) || !blank(block_[i])) return false;
  return blank(entry_) && blank(smem_);
}

QString KernelEditorView::note() const { return note_->text().trimmed(); }

LaunchRule KernelEditorView::typedLaunchRule() const {
  LaunchRule rule;
  rule.entry = entry_->text().toStdString();
  for (int i = 0; i < 3; ++i) {
    rule.grid[i] = grid_[i]->text().toStdString();
    rule.block[i] = block_[i]->text().toStdString();
  }
  rule.dynamicSmemBytes = smem_->text().toStdString();
  rule.tensorMaps = opened_.tensorMaps;
  return rule;
}

QString KernelEditorView::origin() const { return origin_->text(); }

void KernelEditorView::scheduleCompile() { debounce_->start(); }

void KernelEditorView::compileNow() {
  debounce_->stop();
  InspectionRequest request;
  request.source = source();
  request.launch = launchRule();
  request.taskSpecJson = specJson_;
  request.arch = arch_;
  runner_->request(request);
}

void KernelEditorView::apply(const KernelInspection& inspection) {
  inspection_ = inspection;
  markDiagnostics();
  setListing(ptx_, inspection.ptx.empty() ? "// no PTX: the kernel did not compile" : inspection.ptx);
  setListing(sass_, inspection.sass.empty() ? "// " + inspection.sassUnavailable : inspection.sass);

  const CompileReport& r = inspection.report;
  int errors = 0, warnings = 0;
  for (const auto& d : r.diagnostics) (d.severity == "error" ? errors : warnings) += 1;
  status_->setText(r.ok ? tr("Compiled for %1 in %2 s").arg(QString::fromStdString(r.arch)).arg(localNumber(r.seconds, 'f', 2))
                        : tr("%n error(s)", nullptr, std::max(errors, 1)));
  if (r.ok) {
    QStringList features;
    for (const auto& [name, count] : r.features) features << QStringLiteral("%1 x%2").arg(QString::fromStdString(name)).arg(count);
    resources_->setText(tr("%1 registers, %2 B static shared memory, %3 B local memory per thread, "
                           "%4 B spill stores, %5 B spill loads (%6)\nPTX features: %7")
                            .arg(r.registers)
                            .arg(r.staticSmemBytes)
                            .arg(r.localBytes)
                            .arg(r.spillStoreBytes)
                            .arg(r.spillLoadBytes)
                            .arg(QString::fromStdString(r.arch))
                            .arg(features.isEmpty() ? tr("none found") : features.join(QStringLiteral(", "))));
  } else {
    resources_->setText(tr("No resource figures: the kernel did not compile"));
  }
  if (specJson_.empty()) {
    signature_->setText(tr("No task: the signature is not checked"));
  } else if (inspection.abiProblems.empty()) {
    signature_->setText(tr("The signature matches the task"));
  } else {
    QStringList problems;
    for (const auto& p : inspection.abiProblems) problems << QString::fromStdString(p);
    signature_->setText(tr("Signature: %1").arg(problems.join(QStringLiteral("\n"))));
  }
  showListingOf(source_->SendScintilla(QsciScintillaBase::SCI_LINEFROMPOSITION,
                                       source_->SendScintilla(QsciScintillaBase::SCI_GETCURRENTPOS)) + 1);
}

void KernelEditorView::markDiagnostics() {
  source_->markerDeleteAll(errorMarker_);
  source_->markerDeleteAll(warningMarker_);
  source_->clearIndicatorRange(0, 0, std::max(0, source_->lines() - 1), source_->lineLength(source_->lines() - 1),
                               kSquiggle);
  diagnostics_->clear();
  for (const CompileDiagnostic& d : inspection_.report.diagnostics) {
    const QString where = d.line > 0 ? tr("line %1").arg(d.line) : tr("(no line)");
    auto* item = new QListWidgetItem(QStringLiteral("%1: %2: %3").arg(where, QString::fromStdString(d.severity),
                                                                        QString::fromStdString(d.message)));
    item->setData(Qt::UserRole, d.line);
    diagnostics_->addItem(item);
    if (d.line <= 0 || d.line > source_->lines()) continue;
    const int line = d.line - 1;
    source_->markerAdd(line, d.severity == "error" ? errorMarker_ : warningMarker_);
    const int length = source_->lineLength(line);
    if (length > 0) source_->fillIndicatorRange(line, 0, line, length, kSquiggle);
  }
  for (const std::string& p : inspection_.abiProblems)
    diagnostics_->addItem(tr("signature: %1").arg(QString::fromStdString(p)));
}

QString KernelEditorView::diagnosticsAt(int line) const {
  QStringList lines;
  for (const CompileDiagnostic& d : inspection_.report.diagnostics)
    if (d.line == line) lines << QStringLiteral("%1: %2").arg(QString::fromStdString(d.severity), QString::fromStdString(d.message));
  return lines.join(QStringLiteral("\n"));
}

void KernelEditorView::highlight(QsciScintilla* editor, int marker, const std::vector<int>& lines) {
  editor->markerDeleteAll(marker);
  for (int l : lines)
    if (l > 0 && l <= editor->lines()) editor->markerAdd(l - 1, marker);
  if (!lines.empty()) editor->ensureLineVisible(lines.front() - 1);
}

void KernelEditorView::showListingOf(int sourceLine) {
  highlight(ptx_, ptxLinkMarker_, inspection_.ptxLines.linesFor(sourceLine));
  highlight(sass_, sassLinkMarker_, inspection_.sassLines.linesFor(sourceLine));
}

void KernelEditorView::showSourceOfPtx(int ptxLine) {
  const auto& of = inspection_.ptxLines.sourceLineOf;
  const int line = ptxLine >= 1 && ptxLine <= static_cast<int>(of.size()) ? of[ptxLine - 1] : 0;
  highlight(source_, sourceLinkMarker_, line > 0 ? std::vector<int>{line} : std::vector<int>{});
}

void KernelEditorView::showSourceOfSass(int sassLine) {
  const auto& of = inspection_.sassLines.sourceLineOf;
  const int line = sassLine >= 1 && sassLine <= static_cast<int>(of.size()) ? of[sassLine - 1] : 0;
  highlight(source_, sourceLinkMarker_, line > 0 ? std::vector<int>{line} : std::vector<int>{});
}

std::set<int> KernelEditorView::linesWithMarker(QsciScintilla* editor, int marker) const {
  std::set<int> lines;
  for (int l = 0; l < editor->lines(); ++l)
    if (editor->markersAtLine(l) & (1u << marker)) lines.insert(l + 1);
  return lines;
}

std::set<int> KernelEditorView::errorLines() const { return linesWithMarker(source_, errorMarker_); }
std::set<int> KernelEditorView::warningLines() const { return linesWithMarker(source_, warningMarker_); }
std::set<int> KernelEditorView::highlightedPtxLines() const { return linesWithMarker(ptx_, ptxLinkMarker_); }
std::set<int> KernelEditorView::highlightedSassLines() const { return linesWithMarker(sass_, sassLinkMarker_); }
std::set<int> KernelEditorView::highlightedSourceLines() const { return linesWithMarker(source_, sourceLinkMarker_); }
QString KernelEditorView::resourceText() const { return resources_->text(); }
QString KernelEditorView::signatureText() const { return signature_->text(); }
QString KernelEditorView::statusText() const { return status_->text(); }

}  // namespace crucible::views
