// SPDX-License-Identifier: GPL-3.0-or-later
// The kernel editor under the offscreen platform (issue 17): an inspector
// double that can hold a compile shows that a newer edit overtakes an older
// compile; the real NVRTC inspector (no GPU needed) shows errors on their
// lines, fixes clearing them, the signature check and source <-> PTX links.
#include "views/editor/kernel_editor_view.h"

#include <Qsci/qsciscintilla.h>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <gtest/gtest.h>

#include <condition_variable>
#include <fstream>
#include <mutex>
#include "view_test_project.h"
#include "views/editor/inspection_runner.h"
#if CRUCIBLE_EDITOR_WITH_NVRTC
#include "backends/cuda/compile/kernel_inspector.h"
#include "core/task/task_library.h"
#endif

using namespace crucible;
using namespace crucible::views;

namespace {
using fixture::app;

// Answers with the source it was given as its "PTX"; holds each compile until released when asked to.
class HeldInspector : public KernelInspector {
public:
  KernelInspection inspect(const InspectionRequest& request) override {
    std::unique_lock<std::mutex> lock(mutex_);
    ++started_;
    seen_.push_back(request.source);
    changed_.notify_all();
    changed_.wait(lock, [this] { return !hold_ || releases_ > 0; });
    if (hold_) --releases_;
    KernelInspection k;
    k.report.ok = true;
    k.report.arch = "sm_90";
    k.ptx = request.source;
    return k;
  }
  void hold() { std::lock_guard<std::mutex> l(mutex_); hold_ = true; }
  void release() {
    std::lock_guard<std::mutex> l(mutex_);
    ++releases_;
    changed_.notify_all();
  }
  void releaseAll() {
    std::lock_guard<std::mutex> l(mutex_);
    hold_ = false;
    changed_.notify_all();
  }
  bool waitStarted(int n) {
    std::unique_lock<std::mutex> lock(mutex_);
    return changed_.wait_for(lock, std::chrono::seconds(10), [&] { return started_ >= n; });
  }
  std::vector<std::string> seen() {
    std::lock_guard<std::mutex> l(mutex_);
    return seen_;
  }

private:
  std::mutex mutex_;
  std::condition_variable changed_;
  bool hold_ = false;
  int releases_ = 0;
  int started_ = 0;
  std::vector<std::string> seen_;
};

LaunchRule launch(const std::string& entry) {
  LaunchRule r;
  r.entry = entry;
  return r;
}

TEST(KernelEditor, ANewerEditOvertakesACompileInProgress) {
  app();
  HeldInspector inspector;
  inspector.hold();
  {
    KernelEditorView editor(inspector);
    QSignalSpy shown(editor.runner(), &InspectionRunner::inspected);
    editor.open("version 1", launch("k"), 0, "test");
    ASSERT_TRUE(inspector.waitStarted(1));  // version 1 is compiling (held)
    editor.sourceEditor()->setText("version 2");
    editor.compileNow();
    editor.sourceEditor()->setText("version 3");
    editor.compileNow();                    // version 2 still waits: version 3 replaces it unrun
    EXPECT_TRUE(editor.runner()->busy());
    inspector.release();                    // version 1 finishes: overtaken, never shown
    ASSERT_TRUE(inspector.waitStarted(2));
    inspector.release();
    ASSERT_TRUE(shown.wait(5000));
    EXPECT_EQ(editor.inspection().ptx, "version 3");
    EXPECT_EQ(shown.count(), 1) << "only the newest request's result is shown";
    EXPECT_EQ(inspector.seen(), (std::vector<std::string>{"version 1", "version 3"})) << "version 2 never ran";
    EXPECT_EQ(editor.runner()->dropped(), 1);
    EXPECT_FALSE(editor.runner()->busy());
    inspector.releaseAll();
  }
}

TEST(KernelEditor, TypingCompilesAfterAPauseAndTheEvaluateActionSaysWhyItIsOff) {
  app();
  HeldInspector inspector;
  KernelEditorView editor(inspector);
  QSignalSpy shown(editor.runner(), &InspectionRunner::inspected);
  editor.open("a", launch("k"), 42, "fork of #42");
  ASSERT_TRUE(shown.wait(5000));
  editor.sourceEditor()->insertAt("b", 0, 1);  // typing: no compile until the pause
  EXPECT_EQ(shown.count(), 1);
  ASSERT_TRUE(shown.wait(5000));
  EXPECT_EQ(editor.inspection().ptx, "ab");
  EXPECT_EQ(editor.parentCandidate(), 42);

  auto* evaluate = editor.findChild<QPushButton*>();
  ASSERT_NE(evaluate, nullptr);
  EXPECT_FALSE(evaluate->isEnabled());
  EXPECT_TRUE(evaluate->toolTip().contains("No GPU")) << evaluate->toolTip().toStdString();
  editor.setEvaluationAvailable(true, {});
  QSignalSpy asked(&editor, &KernelEditorView::evaluateRequested);
  evaluate->click();
  ASSERT_EQ(asked.count(), 1);
  EXPECT_EQ(asked.at(0).at(2).value<CandidateId>(), 42);
}

TEST(KernelEditor, TheNoteAndTheOpenedRulesTensorMapsTravelWithTheEdit) {
  app();
  HeldInspector inspector;
  KernelEditorView editor(inspector);
  LaunchRule rule = launch("tma");
  rule.grid[0] = "ceil_div(M, 128)";
  rule.tensorMaps.push_back({"x", 64, 64, "128B"});
  editor.noteField()->setText("stale note");
  editor.open("src", rule, 7, "fork of #7");
  EXPECT_EQ(editor.note(), QString()) << "a new fork starts without the last one's note";
  editor.noteField()->setText("  tiles of 64  ");
  EXPECT_EQ(editor.note(), "tiles of 64");
  const LaunchRule edited = editor.launchRule();
  EXPECT_EQ(edited.grid[0], "ceil_div(M, 128)");
  EXPECT_EQ(edited.tensorMaps, rule.tensorMaps) << "the tensor maps, which have no fields, were lost";
  EXPECT_FALSE(editor.launchFieldsBlank());

  LaunchRule blank;
  for (int i = 0; i < 3; ++i) blank.grid[i].clear(), blank.block[i].clear();
  blank.dynamicSmemBytes.clear();
  editor.open("file", blank, 0, "a file");
  EXPECT_TRUE(editor.launchFieldsBlank());
  EXPECT_EQ(editor.launchRule().block[0], "1") << "a blank field reads as its default";
}

TEST(KernelEditor, EveryKindOfEditIsAnnouncedForTheDraftAndADraftComesBackAsTyped) {
  app();
  HeldInspector inspector;
  KernelEditorView editor(inspector);
  QSignalSpy opened(&editor, &KernelEditorView::opened);
  QSignalSpy edited(&editor, &KernelEditorView::edited);
  LaunchRule rule = launch("k");
  rule.block[0] = "256";
  rule.tensorMaps.push_back({"x", 64, 64, "128B"});
  editor.open("a", rule, 9, "fork of #9");
  ASSERT_EQ(opened.count(), 1);
  EXPECT_EQ(opened.front().front().value<CandidateId>(), 9);
  EXPECT_EQ(edited.count(), 0) << "opening is not an edit";
  EXPECT_EQ(editor.origin(), QStringLiteral("fork of #9"));
  // Source, a launch field and the note: each is an edit the draft must keep.
  editor.sourceEditor()->insertAt("b", 0, 1);
  EXPECT_EQ(edited.count(), 1);
  auto fields = editor.findChildren<QLineEdit*>();
  QLineEdit* grid = nullptr;
  for (QLineEdit* e : fields)
    if (e->toolTip().startsWith("grid.y")) grid = e;
  ASSERT_NE(grid, nullptr);
  grid->clear();
  QTest::keyClicks(grid, "M");
  EXPECT_GE(edited.count(), 2);
  const int beforeNote = edited.count();
  QTest::keyClicks(editor.noteField(), "n");
  EXPECT_EQ(edited.count(), beforeNote + 1) << "a note typed is an edit too";
  // The launch fields as typed: a cleared field stays blank (launchRule() would read it as "1").
  grid->clear();
  EXPECT_EQ(editor.typedLaunchRule().grid[1], "");
  EXPECT_EQ(editor.launchRule().grid[1], "1");
  EXPECT_EQ(editor.typedLaunchRule().block[0], "256");
  EXPECT_EQ(editor.typedLaunchRule().tensorMaps, rule.tensorMaps);

  // A draft restored into the fork it belongs to: its text, fields and note, not yet kept.
  editor.open("a", rule, 9, "fork of #9");
  EXPECT_FALSE(editor.hasUnkeptEdits());
  LaunchRule typed = rule;
  typed.grid[0] = "ceil_div(N, 64)";
  typed.dynamicSmemBytes = "";
  const int editsBefore = edited.count();
  editor.restoreDraft("restored\n\tsource \xc2\xb5", typed, "from the draft");
  EXPECT_EQ(edited.count(), editsBefore) << "restoring is not typing";
  EXPECT_EQ(editor.source(), "restored\n\tsource \xc2\xb5");
  EXPECT_EQ(editor.note(), QStringLiteral("from the draft"));
  EXPECT_EQ(editor.typedLaunchRule().grid[0], "ceil_div(N, 64)");
  EXPECT_EQ(editor.typedLaunchRule().dynamicSmemBytes, "");
  EXPECT_EQ(editor.parentCandidate(), 9);
  EXPECT_TRUE(editor.hasUnkeptEdits()) << "a restored draft is an edit not evaluated";
  EXPECT_EQ(opened.count(), 2) << "restoring opens nothing new";
}

#if CRUCIBLE_EDITOR_WITH_NVRTC
constexpr const char* kKernel = R"(#include <cuda_runtime.h>
extern "C" __global__ void k(const float* __restrict__ x, float* __restrict__ y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * 2.0f;
}
)";

struct RealEditor {
  NvrtcCompiler compiler;
  NvrtcKernelInspector inspector{compiler, {"/nonexistent/nvdisasm", 30}};
  KernelEditorView editor{inspector};
  QSignalSpy shown{editor.runner(), &InspectionRunner::inspected};
  bool waitShown() { return shown.wait(30000); }
};

TEST(KernelEditorNvrtc, AnErrorGetsAMarkerOnItsLineAndFixingItClearsIt) {
  app();
  RealEditor r;
  r.editor.open(kKernel, launch("k"), 0, "test");
  ASSERT_TRUE(r.waitShown());
  ASSERT_TRUE(r.editor.inspection().report.ok) << r.editor.inspection().report.log;
  EXPECT_TRUE(r.editor.errorLines().empty());
  EXPECT_TRUE(r.editor.resourceText().contains("registers")) << r.editor.resourceText().toStdString();

  // Line 4 gets an undeclared name.
  const QString broken = QString::fromStdString(kKernel).replace("2.0f", "scale_factor");
  r.editor.sourceEditor()->setText(broken);
  ASSERT_TRUE(r.waitShown());
  EXPECT_EQ(r.editor.errorLines(), (std::set<int>{4}));
  EXPECT_TRUE(r.editor.diagnosticsAt(4).contains("scale_factor")) << r.editor.diagnosticsAt(4).toStdString();
  EXPECT_TRUE(r.editor.statusText().contains("error")) << r.editor.statusText().toStdString();

  r.editor.sourceEditor()->setText(QString::fromStdString(kKernel));
  ASSERT_TRUE(r.waitShown());
  EXPECT_TRUE(r.editor.errorLines().empty());
  EXPECT_TRUE(r.editor.diagnosticsAt(4).isEmpty());
}

TEST(KernelEditorNvrtc, ASourceLineClickHighlightsItsPtxAndBack) {
  app();
  RealEditor r;
  r.editor.open(kKernel, launch("k"), 0, "test");
  ASSERT_TRUE(r.waitShown());
  r.editor.resize(1200, 800);
  r.editor.show();  // QScintilla reports cursor moves as it updates its display
  r.editor.sourceEditor()->setCursorPosition(3, 2);  // line 4: the multiply and the store
  QTRY_VERIFY_WITH_TIMEOUT(!r.editor.highlightedPtxLines().empty(), 5000);
  const std::set<int> ptx = r.editor.highlightedPtxLines();
  ASSERT_FALSE(ptx.empty());
  const QString first = r.editor.ptxEditor()->text(*ptx.begin() - 1);
  bool store = false;
  for (int l : ptx) store = store || r.editor.ptxEditor()->text(l - 1).contains("st.global");
  EXPECT_TRUE(store) << first.toStdString();
  r.editor.ptxEditor()->setCursorPosition(*ptx.begin() - 1, 0);  // and back
  QTRY_VERIFY_WITH_TIMEOUT(!r.editor.highlightedSourceLines().empty(), 5000);
  EXPECT_EQ(r.editor.highlightedSourceLines(), (std::set<int>{4}));
  EXPECT_TRUE(r.editor.inspection().sass.empty());
  EXPECT_TRUE(r.editor.sassEditor()->text().contains("nvdisasm")) << "the SASS tab says why it is empty";
}

TEST(KernelEditorNvrtc, TheSignatureIsCheckedAsYouType) {
  app();
  RealEditor r;
  const std::string file = builtinTasksDir() + "/gelu_f32_1048576.json";
  std::ifstream in(file);
  const std::string spec((std::istreambuf_iterator<char>(in)), {});
  r.editor.setTask("gelu", spec, "sm_90");
  r.editor.open(kKernel, launch("k"), 0, "test");
  ASSERT_TRUE(r.waitShown());
  EXPECT_FALSE(r.editor.inspection().abiProblems.empty());
  EXPECT_TRUE(r.editor.signatureText().contains("expected")) << r.editor.signatureText().toStdString();
}
#endif

}  // namespace
