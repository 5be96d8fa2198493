// SPDX-License-Identifier: GPL-3.0-or-later
// The kernel editor wired into the workbench (issue 17): Fork && edit opens a
// candidate in the editor (through the session's off-thread read during a
// run), File > Open kernel opens a .cu file against the current run, and
// Evaluate, with the CPU doubles of the engine tests, adds a child candidate
// with proposer "user" that the tables show and select at once; a cancelled
// evaluation stores nothing; without a GPU Evaluate is disabled with the reason.
#include <QApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QProcessEnvironment>
#include <QProgressDialog>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <Qsci/qsciscintilla.h>
#include <gtest/gtest.h>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <unistd.h>
#include <mutex>
#include <nlohmann/json.hpp>
#include <QImage>
#include <QProcess>
#include "app/gui/draft_keeper.h"
#include "app/gui/no_cuda_inspector.h"
#include "app/gui/screenshot.h"
#include "app/gui/user_evaluation_runner.h"
#include "core/engine/engine.h"
#include "tests/app/engine_doubles.h"
#include "tests/core/engine/doubles/fake_backends.h"
#include "tests/core/engine/doubles/fake_genome.h"
#include "tests/core/engine/doubles/fake_proposer.h"
#include "tests/core/engine/engine_fixture.h"
#include "tests/views/models/sample_project.h"
#include "views/editor/inspection_runner.h"
#include "views/lineage/lineage_view.h"
#include "views/review/review_queue_view.h"
#include "views/vault/seal_model.h"
#include "views/vault/vault_view.h"
#include "views/editor/kernel_editor_view.h"
#include "views/mainwindow/main_window.h"
#include "views/models/model_roles.h"
#include "views/session/project_session.h"

namespace crucible {
namespace {

// Compiles nothing: answers at once that the source compiled, with the source as its "PTX".
class EchoInspector : public KernelInspector {
public:
  KernelInspection inspect(const InspectionRequest& request) override {
    KernelInspection k;
    k.report.ok = true;
    k.report.arch = request.arch;
    k.ptx = request.source;
    std::lock_guard lock(mutex_);
    arch_ = request.arch;
    return k;
  }
  std::string lastArch() {
    std::lock_guard lock(mutex_);
    return arch_;
  }

private:
  std::mutex mutex_;
  std::string arch_;
};

// The fake compiler, held at its first compile until released: a cancel lands mid-evaluation.
class HeldCompiler : public Compiler {
public:
  CompileResult compile(const CompileRequest& request) override {
    {
      std::unique_lock lock(mutex_);
      ++started_;
      changed_.notify_all();
      changed_.wait(lock, [this] { return released_; });
    }
    return inner_.compile(request);
  }
  bool waitStarted() {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, std::chrono::seconds(20), [this] { return started_ > 0; });
  }
  void release() {
    std::lock_guard lock(mutex_);
    released_ = true;
    changed_.notify_all();
  }

private:
  testing::FakeCompiler inner_;
  std::mutex mutex_;
  std::condition_variable changed_;
  int started_ = 0;
  bool released_ = false;
};

bool waitUntil(const std::function<bool()>& done, int ms = 20000) {
  QElapsedTimer t;
  t.start();
  while (!done() && t.elapsed() < ms) QTest::qWait(10);
  return done();
}

// An edit the engine never proposed: a fake kernel of other genes.
std::string editedSource() {
  testing::FakeGenome g;
  g.mem = 2;
  g.gran = 1;
  g.vec = 2;
  g.block = 128;
  g.unroll = 2;
  g.nonce = 4242;
  return g.source();
}

void useTemporarySettings(const QTemporaryDir& dir) {
  QSettings::setDefaultFormat(QSettings::IniFormat);
  QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir.path() + QStringLiteral("/settings"));
}

// ---- fork and open, on the views' sample project

class ForkTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.isValid());
    useTemporarySettings(dir_);
    path_ = dir_.filePath(QStringLiteral("fork.crucible"));
    run_ = test_support::writeSampleProject(path_, {3}).front();
    {
      auto store = ProjectStore::open(path_.toStdString());
      Candidate c = test_support::makeCandidate(run_, 5);
      c.source = "extern \"C\" __global__ void forked(float* y) { y[threadIdx.x] = 2.0f; }\n";
      c.launch.entry = "forked";
      c.launch.grid[0] = "ceil_div(N, 256)";
      c.launch.block[0] = "256";
      CompileReport r;
      r.ok = true;
      r.arch = "sm_90a";
      c.compile = r;
      forked_ = store->addCandidate(c);
    }
    window_.session()->setStoreThreadCheck(true);
    window_.installKernelEditor(inspector_);
    ASSERT_EQ(window_.tryOpenProject(path_), QString());
    editor_ = window_.kernelEditor();
    ASSERT_NE(editor_, nullptr);
  }

  QTemporaryDir dir_;
  QString path_;
  RunId run_ = 0;
  CandidateId forked_ = 0;
  EchoInspector inspector_;
  views::MainWindow window_{views::HostInfo{}};
  views::KernelEditorView* editor_ = nullptr;
};

TEST_F(ForkTest, ForkAndEditOpensTheSelectedCandidateInTheHiddenEditorDock) {
  QDockWidget* dock = window_.viewDock(QStringLiteral("editor"));
  ASSERT_NE(dock, nullptr);
  EXPECT_TRUE(dock->isHidden()) << "the editor dock shows before it is used";
  if (window_.session()->selectedCandidate() == 0) {
    EXPECT_FALSE(window_.forkAction()->isEnabled()) << "Fork && edit with nothing selected";
  }

  window_.session()->selectCandidate(forked_);
  ASSERT_TRUE(window_.forkAction()->isEnabled());
  QSignalSpy opened(&window_, &views::MainWindow::kernelEditorOpened);
  window_.forkAction()->trigger();
  ASSERT_TRUE(waitUntil([&] { return opened.count() == 1; }));
  EXPECT_FALSE(dock->isHidden());
  EXPECT_EQ(editor_->source(), "extern \"C\" __global__ void forked(float* y) { y[threadIdx.x] = 2.0f; }\n");
  EXPECT_EQ(editor_->parentCandidate(), forked_);
  EXPECT_EQ(window_.kernelEditorRun(), run_);
  EXPECT_EQ(editor_->launchRule().entry, "forked");
  EXPECT_EQ(editor_->launchRule().grid[0], "ceil_div(N, 256)");
  EXPECT_EQ(editor_->launchRule().block[0], "256");
  // Compiled for the architecture it was compiled for (the run names none).
  ASSERT_TRUE(waitUntil([&] { return !editor_->runner()->busy(); }));
  EXPECT_EQ(inspector_.lastArch(), "sm_90a");
  EXPECT_EQ(editor_->inspection().ptx, editor_->source());
}

TEST_F(ForkTest, TheCandidatesContextMenuForksToo) {
  std::unique_ptr<QMenu> menu(window_.candidateContextMenu(forked_));
  QAction* fork = nullptr;
  for (QAction* a : menu->actions())
    if (a->text() == QStringLiteral("Fork && edit")) fork = a;
  ASSERT_NE(fork, nullptr) << "no Fork && edit in the candidates' context menu";
  ASSERT_TRUE(fork->isEnabled());
  fork->trigger();
  ASSERT_TRUE(waitUntil([&] { return editor_->parentCandidate() == forked_; }));
  EXPECT_EQ(editor_->launchRule().entry, "forked");
}

TEST_F(ForkTest, DuringARunTheCandidateIsReadOffTheGuiThread) {
  // With the thread check on, a GUI-thread read of the store now throws out of the slot.
  window_.session()->setRunActive(true);
  ASSERT_TRUE(window_.session()->runActive());
  QSignalSpy opened(&window_, &views::MainWindow::kernelEditorOpened);
  window_.forkCandidate(forked_);
  ASSERT_TRUE(waitUntil([&] { return opened.count() == 1; }));
  EXPECT_EQ(editor_->parentCandidate(), forked_);
  EXPECT_EQ(editor_->launchRule().entry, "forked");
  window_.session()->setRunActive(false);
}

TEST_F(ForkTest, AForkAsksBeforeItReplacesEditsThatWereNotKept) {
  QSignalSpy opened(&window_, &views::MainWindow::kernelEditorOpened);
  window_.forkCandidate(forked_);
  ASSERT_TRUE(waitUntil([&] { return opened.count() == 1; }));
  int asked = 0;
  bool discard = false;
  window_.setDiscardEditsAsker([&] { return ++asked, discard; });
  editor_->sourceEditor()->append(QStringLiteral("// my idea\n"));
  ASSERT_TRUE(editor_->hasUnkeptEdits());
  const std::string mine = editor_->source();

  const CandidateId other = window_.session()->candidates().front().id;
  window_.forkCandidate(other);
  ASSERT_TRUE(waitUntil([&] { return asked == 1; }));
  EXPECT_EQ(editor_->source(), mine) << "the edits were replaced although the user kept them";
  EXPECT_EQ(editor_->parentCandidate(), forked_);

  discard = true;
  window_.forkCandidate(other);
  ASSERT_TRUE(waitUntil([&] { return editor_->parentCandidate() == other; }));
  EXPECT_EQ(asked, 2);
  EXPECT_FALSE(editor_->hasUnkeptEdits());
  window_.forkCandidate(forked_);  // nothing edited since: no question
  ASSERT_TRUE(waitUntil([&] { return editor_->parentCandidate() == forked_; }));
  EXPECT_EQ(asked, 2);
}

TEST_F(ForkTest, OpenKernelTakesAFileIntoTheCurrentRunWithoutAParent) {
  const QString file = dir_.filePath(QStringLiteral("mine.cu"));
  QFile f(file);
  ASSERT_TRUE(f.open(QIODevice::WriteOnly));
  f.write("extern \"C\" __global__ void mine() {}\n");
  f.close();
  ASSERT_TRUE(window_.openKernelAction()->isEnabled());
  ASSERT_EQ(window_.openKernelFile(file), QString());
  EXPECT_EQ(editor_->source(), "extern \"C\" __global__ void mine() {}\n");
  EXPECT_EQ(editor_->parentCandidate(), 0);
  EXPECT_EQ(window_.kernelEditorRun(), run_);
  EXPECT_TRUE(editor_->launchFieldsBlank()) << "a file kernel takes the run reference's launch rule";
  ASSERT_TRUE(waitUntil([&] { return !editor_->runner()->busy(); }));
  EXPECT_EQ(inspector_.lastArch(), "sm_90") << "the default architecture";

  const QString missing = window_.openKernelFile(dir_.filePath(QStringLiteral("absent.cu")));
  EXPECT_TRUE(missing.contains(QStringLiteral("absent.cu"))) << missing.toStdString();
  const QString empty = dir_.filePath(QStringLiteral("empty.cu"));
  QFile e(empty);
  ASSERT_TRUE(e.open(QIODevice::WriteOnly));
  e.close();
  EXPECT_FALSE(window_.openKernelFile(empty).isEmpty()) << "an empty file was opened";
}

TEST(KernelEditorWiring, WithoutAnEditorTheActionsAreDisabledAndSayWhy) {
  views::MainWindow window{views::HostInfo{}};
  EXPECT_EQ(window.kernelEditor(), nullptr);
  EXPECT_FALSE(window.forkAction()->isEnabled());
  EXPECT_FALSE(window.openKernelAction()->isEnabled());
  EXPECT_FALSE(window.forkAction()->toolTip().isEmpty());
}

TEST(KernelEditorWiring, ABuildWithoutCudaSaysSoInsteadOfCompiling) {
  app::NoCudaInspector inspector;
  InspectionRequest request;
  request.source = "__global__ void k() {}";
  request.arch = "sm_90";
  const KernelInspection k = inspector.inspect(request);
  EXPECT_FALSE(k.report.ok);
  ASSERT_FALSE(k.report.diagnostics.empty());
  EXPECT_NE(k.report.diagnostics.front().message.find("no CUDA toolkit in this build"), std::string::npos);
  EXPECT_TRUE(k.ptx.empty());
  EXPECT_NE(k.sassUnavailable.find("no CUDA toolkit"), std::string::npos);
}

// ---- crucible --screenshot F --view editor

TEST(KernelEditorScreenshot, TheBestCandidateIsForkedIntoTheEditorAndCompiled) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  useTemporarySettings(dir);
  const QString path = dir.filePath(QStringLiteral("shot.crucible"));
  const RunId newest = test_support::writeSampleProject(path, {3, 7}).back();
  EchoInspector inspector;
  views::MainWindow window{views::HostInfo{}};
  window.installKernelEditor(inspector);
  ASSERT_EQ(window.tryOpenProject(path), QString());
  app::selectBestCandidate(window);
  const CandidateId best = app::bestValidCandidate(*window.session()->store(), newest);
  ASSERT_NE(best, 0);
  QString error;
  ASSERT_TRUE(app::openSelectedInEditor(window, error)) << error.toStdString();
  EXPECT_EQ(window.kernelEditor()->parentCandidate(), best);
  EXPECT_EQ(window.kernelEditor()->source(), window.session()->store()->candidate(best)->source);
  EXPECT_FALSE(window.kernelEditor()->runner()->busy()) << "grabbed before its compile returned";
  const QImage image = app::grabView(window, QStringLiteral("editor"), error);
  EXPECT_EQ(image.size(), app::kViewShotSize);
}

TEST(KernelEditorScreenshot, ARunWithoutAValidCandidateSaysSo) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  useTemporarySettings(dir);
  const QString path = dir.filePath(QStringLiteral("empty.crucible"));
  test_support::writeSampleProject(path, {0});
  EchoInspector inspector;
  views::MainWindow window{views::HostInfo{}};
  window.installKernelEditor(inspector);
  ASSERT_EQ(window.tryOpenProject(path), QString());
  app::selectBestCandidate(window);
  QString error;
  EXPECT_FALSE(app::openSelectedInEditor(window, error));
  EXPECT_TRUE(error.contains(QStringLiteral("no valid candidate"))) << error.toStdString();
}

TEST(KernelEditorScreenshot, TheAppRendersTheEditorView) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  const QString project = dir.filePath(QStringLiteral("editor.crucible"));
  test_support::writeSampleProject(project, {7});
  const QString png = dir.filePath(QStringLiteral("editor.png"));
  QProcess p;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
  env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
  p.setProcessEnvironment(env);
  p.start(QStringLiteral(CRUCIBLE_GUI_EXE),
          {QStringLiteral("--screenshot"), png, QStringLiteral("--view"), QStringLiteral("editor"), project});
  ASSERT_TRUE(p.waitForFinished(180000)) << "crucible --view editor did not finish";
  EXPECT_EQ(p.exitCode(), 0) << p.readAllStandardError().toStdString();
  const QImage image(png);
  ASSERT_FALSE(image.isNull()) << "no readable PNG";
  EXPECT_EQ(image.size(), app::kViewShotSize);
}

// ---- evaluate, on a run of the fake engine

class EvaluateTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.isValid());
    useTemporarySettings(dir_);
    {
      Engine engine{project_.path(), proposer_, engineCompiler_, dispatcher_};
      run_ = engine.createRun(project_.task(), "forkable", 7, Budget{8, 0, 0}, false, testing::smallSettings());
      engine.run(run_);
    }
    auto store = project_.open();
    for (const auto& s : store->candidateSummaries(run_))
      if (s.status == CandidateStatus::Valid && s.proposer == "fake") parent_ = s.id;
    ASSERT_NE(parent_, 0);
    window_.session()->setStoreThreadCheck(true);
    window_.session()->setPollInterval(0);  // only the runner's poke shows the new candidate
    window_.installKernelEditor(inspector_);
    ASSERT_EQ(window_.tryOpenProject(QString::fromStdString(project_.path())), QString());
    editor_ = window_.kernelEditor();
    window_.resize(1400, 900);
    window_.show();  // the views lay out what is visible
  }
  app::EngineBackends backends(Compiler& compiler, const QString& problem = {}) {
    return {&noProposer_, &compiler, &dispatcher_, problem};
  }
  std::int64_t candidateCount() { return project_.open()->candidateCount(run_); }
  void forkParent() {
    QSignalSpy opened(&window_, &views::MainWindow::kernelEditorOpened);
    window_.forkCandidate(parent_);
    ASSERT_TRUE(waitUntil([&] { return opened.count() == 1; }));
  }
  // Forks the parent, edits, notes and clicks Evaluate; returns the candidate stored (0: none).
  CandidateId evaluateAnEdit(app::UserEvaluationRunner& runner) {
    forkParent();
    editor_->sourceEditor()->setText(QString::fromStdString(editedSource()));
    editor_->noteField()->setText(QStringLiteral("regs, warp-wide"));
    EXPECT_TRUE(editor_->evaluateButton()->isEnabled()) << editor_->evaluateButton()->toolTip().toStdString();
    QSignalSpy finished(&runner, &app::UserEvaluationRunner::finished);
    editor_->evaluateButton()->click();
    EXPECT_TRUE(runner.isEvaluating());
    EXPECT_FALSE(editor_->evaluateButton()->isEnabled()) << "Evaluate stays enabled during an evaluation";
    if (!waitUntil([&] { return finished.count() == 1; })) {
      ADD_FAILURE() << "the evaluation did not finish";
      return 0;
    }
    return finished.front().front().value<CandidateId>();
  }
  void expectAChildShownAndSelected(CandidateId id) {
    ASSERT_GT(id, 0);
    const std::optional<Candidate> c = project_.open()->candidate(id);
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->runId, run_);
    EXPECT_EQ(c->parents, std::vector<CandidateId>{parent_});
    EXPECT_EQ(c->proposer, "user");
    EXPECT_EQ(c->source, editedSource());
    EXPECT_EQ(nlohmann::json::parse(c->genomeJson).at("note"), "regs, warp-wide");
    EXPECT_EQ(c->status, CandidateStatus::Valid) << c->statusDetail;
    // The session shows it (lineage, table) and it is selected.
    ASSERT_TRUE(waitUntil([&] { return window_.session()->candidate(id) != nullptr; }));
    ASSERT_TRUE(waitUntil([&] { return window_.session()->selectedCandidate() == id; }));
    QTableView* table = window_.candidatesTable();
    ASSERT_TRUE(waitUntil([&] {
      const QModelIndex current = table->currentIndex();
      return current.isValid() && current.data(views::IdRole).toLongLong() == id;
    })) << "the candidates table does not show the new candidate selected";
    EXPECT_EQ(window_.session()->candidate(id)->proposer, "user");
    // The lineage draws it (under its parent).
    auto* lineage = qobject_cast<views::LineageView*>(window_.viewDock(QStringLiteral("lineage"))->widget());
    ASSERT_NE(lineage, nullptr);
    window_.raiseView(QStringLiteral("lineage"));
    EXPECT_TRUE(waitUntil([&] { return lineage->isShown(id); })) << "the lineage does not draw the new candidate";
  }

  QTemporaryDir dir_;
  testing::TempProject project_;
  testing::FakeProposer proposer_;
  testing::FakeCompiler engineCompiler_;
  testing::FakeDispatcher dispatcher_;
  test_support::NoProposer noProposer_;
  EchoInspector inspector_;
  RunId run_ = 0;
  CandidateId parent_ = 0;
  views::MainWindow window_{views::HostInfo{}};
  views::KernelEditorView* editor_ = nullptr;
};

TEST_F(EvaluateTest, AnEvaluatedEditIsAChildOfTheForkWithProposerUserShownAndSelected) {
  testing::FakeCompiler compiler;
  app::UserEvaluationRunner runner(window_, backends(compiler));
  const std::int64_t before = candidateCount();
  QSignalSpy progressed(&runner, &app::UserEvaluationRunner::progressed);
  const CandidateId id = evaluateAnEdit(runner);
  expectAChildShownAndSelected(id);
  EXPECT_EQ(candidateCount(), before + 1);
  EXPECT_GE(progressed.count(), 3) << "no progress was shown";
  EXPECT_FALSE(runner.isEvaluating());
  EXPECT_TRUE(editor_->evaluateButton()->isEnabled());
  EXPECT_TRUE(window_.statusBar()->currentMessage().contains(QStringLiteral("#%1").arg(id)))
      << window_.statusBar()->currentMessage().toStdString();
}

TEST_F(EvaluateTest, DuringARunTheNewCandidateArrivesThroughTheReaderAndIsSelected) {
  testing::FakeCompiler compiler;
  app::UserEvaluationRunner runner(window_, backends(compiler));
  window_.session()->setRunActive(true);  // GUI-thread store reads now throw
  const CandidateId id = evaluateAnEdit(runner);
  expectAChildShownAndSelected(id);
  window_.session()->setRunActive(false);
}

TEST_F(EvaluateTest, AKernelOpenedFromAFileJoinsTheRunWithoutAParent) {
  testing::FakeCompiler compiler;
  app::UserEvaluationRunner runner(window_, backends(compiler));
  EXPECT_FALSE(editor_->evaluateButton()->isEnabled()) << "Evaluate with nothing in the editor";
  const QString file = dir_.filePath(QStringLiteral("mine.cu"));
  QFile f(file);
  ASSERT_TRUE(f.open(QIODevice::WriteOnly));
  f.write(editedSource().c_str());
  f.close();
  ASSERT_EQ(window_.openKernelFile(file), QString());
  ASSERT_TRUE(editor_->evaluateButton()->isEnabled()) << editor_->evaluateButton()->toolTip().toStdString();
  QSignalSpy finished(&runner, &app::UserEvaluationRunner::finished);
  editor_->evaluateButton()->click();
  ASSERT_TRUE(waitUntil([&] { return finished.count() == 1; }));
  const CandidateId id = finished.front().front().value<CandidateId>();
  ASSERT_GT(id, 0);
  const std::optional<Candidate> c = project_.open()->candidate(id);
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->runId, run_);
  EXPECT_TRUE(c->parents.empty());
  EXPECT_EQ(c->proposer, "user");
  EXPECT_FALSE(c->launch.entry.empty()) << "the run reference's launch rule was not taken";
  EXPECT_TRUE(waitUntil([&] { return window_.session()->selectedCandidate() == id; }));
}

TEST_F(EvaluateTest, CancelStoresNothing) {
  HeldCompiler compiler;
  app::UserEvaluationRunner runner(window_, backends(compiler));
  const std::int64_t before = candidateCount();
  forkParent();
  editor_->sourceEditor()->setText(QString::fromStdString(editedSource()));
  QSignalSpy finished(&runner, &app::UserEvaluationRunner::finished);
  editor_->evaluateButton()->click();
  ASSERT_TRUE(compiler.waitStarted());
  QProgressDialog* progress = runner.progressDialog();
  ASSERT_NE(progress, nullptr);
  QPushButton* cancel = progress->findChild<QPushButton*>();
  ASSERT_NE(cancel, nullptr) << "the progress dialog has no Cancel";
  cancel->click();
  compiler.release();
  ASSERT_TRUE(waitUntil([&] { return finished.count() == 1; }));
  EXPECT_EQ(finished.front().front().value<CandidateId>(), 0);
  EXPECT_EQ(candidateCount(), before) << "a cancelled evaluation stored a candidate";
  EXPECT_TRUE(window_.statusBar()->currentMessage().contains(QStringLiteral("nothing was stored")))
      << window_.statusBar()->currentMessage().toStdString();
  EXPECT_TRUE(editor_->evaluateButton()->isEnabled());
}

TEST_F(EvaluateTest, WithoutAGpuEvaluateIsDisabledWithTheReason) {
  testing::FakeCompiler compiler;
  const QString reason = QStringLiteral("No GPU here: nvidia-smi lists none; kernels can be reviewed, not evaluated.");
  app::UserEvaluationRunner runner(window_, backends(compiler, reason));
  forkParent();
  EXPECT_FALSE(editor_->evaluateButton()->isEnabled());
  EXPECT_EQ(editor_->evaluateButton()->toolTip(), reason);
  EXPECT_EQ(runner.evaluationProblem(), reason);
  // Asked anyway (a stale click, a script): refused, nothing stored.
  const std::int64_t before = candidateCount();
  QSignalSpy failed(&runner, &app::UserEvaluationRunner::failed);
  runner.evaluate(editedSource(), editor_->launchRule(), parent_);
  EXPECT_EQ(failed.count(), 1);
  EXPECT_FALSE(runner.isEvaluating());
  EXPECT_EQ(candidateCount(), before);
}


// ---- nothing typed is lost: drafts kept as the user types, offered back after a crash

// What the crashing child "types" (unicode and a tab included): restored byte for byte.
const char* const kDraftSource =
    "extern \"C\" __global__ void forked(float* y) {\n\t// tried: 4 rows per warp, \xc2\xb5s matter\n"
    "  y[threadIdx.x] = 3.0f;\n}\n";
const char* const kDraftNote = "rows per warp";
const char* const kDraftGrid = "ceil_div(N, 128)";

struct DraftProject {
  QString path;
  RunId run = 0;
  CandidateId forked = 0;
};

DraftProject makeDraftProject(const QTemporaryDir& dir) {
  DraftProject p;
  p.path = dir.filePath(QStringLiteral("drafts.crucible"));
  p.run = test_support::writeSampleProject(p.path, {3}).front();
  auto store = ProjectStore::open(p.path.toStdString());
  Candidate c = test_support::makeCandidate(p.run, 5);
  c.source = "extern \"C\" __global__ void forked(float* y) { y[threadIdx.x] = 2.0f; }\n";
  c.launch.entry = "forked";
  c.launch.grid[0] = "ceil_div(N, 256)";
  c.launch.block[0] = "256";
  p.forked = store->addCandidate(c);
  return p;
}

QLineEdit* launchField(views::KernelEditorView* editor, const QString& tipPrefix) {
  for (QLineEdit* e : editor->findChildren<QLineEdit*>())
    if (e->toolTip().startsWith(tipPrefix)) return e;
  return nullptr;
}

// The child of DraftRecovery.AnEditTypedBeforeAKill9IsOfferedAfterwardsAndRestoredExactly:
// forks, types, waits until the draft is committed, then dies by SIGKILL (no close path runs).
TEST(DraftCrashChild, TypesWaitsForItsDraftThenIsKilled) {
  const QString path = qEnvironmentVariable("CRUCIBLE_DRAFT_CRASH_PROJECT");
  if (path.isEmpty()) GTEST_SKIP() << "the crashing child of DraftRecovery's kill -9 test; runs only as that";
  const CandidateId forked = qEnvironmentVariable("CRUCIBLE_DRAFT_CRASH_FORK").toLongLong();
  const RunId run = qEnvironmentVariable("CRUCIBLE_DRAFT_CRASH_RUN").toLongLong();
  EchoInspector inspector;
  views::MainWindow window{views::HostInfo{}};
  window.installKernelEditor(inspector);
  ASSERT_EQ(window.tryOpenProject(path), QString());
  app::DraftKeeper keeper(window);
  QSignalSpy opened(&window, &views::MainWindow::kernelEditorOpened);
  window.forkCandidate(forked);
  ASSERT_TRUE(waitUntil([&] { return opened.count() == 1; }));
  views::KernelEditorView* editor = window.kernelEditor();
  QSignalSpy saved(&keeper, &app::DraftKeeper::draftSaved);
  editor->sourceEditor()->setText(QString::fromUtf8(kDraftSource));
  QTest::keyClicks(editor->noteField(), QString::fromUtf8(kDraftNote));
  QLineEdit* grid = launchField(editor, QStringLiteral("grid.x"));
  ASSERT_NE(grid, nullptr);
  grid->selectAll();
  QTest::keyClicks(grid, QString::fromUtf8(kDraftGrid));
  EXPECT_EQ(saved.count(), 0) << "saved before the pause in typing";
  // One save, after the pause that followed the last keystroke.
  ASSERT_TRUE(waitUntil([&] { return saved.count() >= 1; }, 3 * app::DraftKeeper::kSaveDelayMs + 5000));
  {
    auto store = ProjectStore::open(path.toStdString(), ProjectStore::Mode::ReadOnly);
    const auto d = store->draft(run, forked);
    ASSERT_TRUE(d.has_value()) << "draftSaved came before the commit";
    ASSERT_EQ(d->source, kDraftSource);
    ASSERT_EQ(d->note, kDraftNote);
    ASSERT_EQ(d->launch.grid[0], kDraftGrid);
  }
  std::fflush(stdout);
  ::kill(::getpid(), SIGKILL);
  ADD_FAILURE() << "still alive after SIGKILL";
}

TEST(DraftRecovery, AnEditTypedBeforeAKill9IsOfferedAfterwardsAndRestoredExactly) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  useTemporarySettings(dir);
  const DraftProject p = makeDraftProject(dir);
  QProcess child;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert(QStringLiteral("CRUCIBLE_DRAFT_CRASH_PROJECT"), p.path);
  env.insert(QStringLiteral("CRUCIBLE_DRAFT_CRASH_FORK"), QString::number(p.forked));
  env.insert(QStringLiteral("CRUCIBLE_DRAFT_CRASH_RUN"), QString::number(p.run));
  child.setProcessEnvironment(env);
  child.setProcessChannelMode(QProcess::MergedChannels);
  child.start(QCoreApplication::applicationFilePath(), {QStringLiteral("--gtest_filter=DraftCrashChild.*")});
  ASSERT_TRUE(child.waitForFinished(120000)) << "the child did not end";
  const std::string out = child.readAll().toStdString();
  ASSERT_EQ(child.exitStatus(), QProcess::CrashExit) << "the child was not killed:\n" << out;

  EchoInspector inspector;
  views::MainWindow window{views::HostInfo{}};
  window.session()->setStoreThreadCheck(true);
  window.installKernelEditor(inspector);
  app::DraftKeeper keeper(window);
  QSignalSpy offered(&keeper, &app::DraftKeeper::draftOffered);
  ASSERT_EQ(window.tryOpenProject(p.path), QString());
  ASSERT_EQ(offered.count(), 1) << out;
  QMessageBox* offer = keeper.offer();
  ASSERT_NE(offer, nullptr);
  EXPECT_TRUE(offer->isVisible());
  EXPECT_TRUE(offer->text().startsWith(QStringLiteral("Restore unsaved edit of kernel forked from #%1 (saved ").arg(p.forked)))
      << offer->text().toStdString();
  auto* restore = offer->findChild<QPushButton*>(QStringLiteral("draftRestore"));
  ASSERT_NE(restore, nullptr);
  EXPECT_NE(offer->findChild<QPushButton*>(QStringLiteral("draftDiscard")), nullptr);
  QSignalSpy restored(&keeper, &app::DraftKeeper::draftRestored);
  restore->click();
  ASSERT_TRUE(waitUntil([&] { return restored.count() == 1; }));
  views::KernelEditorView* editor = window.kernelEditor();
  EXPECT_EQ(editor->source(), kDraftSource);
  EXPECT_EQ(editor->note().toStdString(), kDraftNote);
  EXPECT_EQ(editor->typedLaunchRule().grid[0], kDraftGrid);
  EXPECT_EQ(editor->typedLaunchRule().block[0], "256") << "a field the user did not touch";
  EXPECT_EQ(editor->typedLaunchRule().entry, "forked");
  EXPECT_EQ(editor->parentCandidate(), p.forked);
  EXPECT_EQ(window.kernelEditorRun(), p.run);
  EXPECT_TRUE(editor->hasUnkeptEdits()) << "a restored edit is not evaluated yet";
  EXPECT_FALSE(window.viewDock(QStringLiteral("editor"))->isHidden());
  EXPECT_EQ(keeper.offer(), nullptr);
  // Restored is not kept elsewhere: the draft stays until the edit is evaluated or discarded.
  EXPECT_TRUE(ProjectStore::open(p.path.toStdString(), ProjectStore::Mode::ReadOnly)->draft(p.run, p.forked));
}

TEST(DraftRecovery, EachDraftIsOfferedInTurnAndDiscardDeletesIt) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  useTemporarySettings(dir);
  const DraftProject p = makeDraftProject(dir);
  {
    auto store = ProjectStore::open(p.path.toStdString());
    KernelDraft fork;
    fork.runId = p.run;
    fork.parent = p.forked;
    fork.source = "fork draft";
    fork.savedAt = 1764600000000;
    store->saveDraft(fork);
    KernelDraft file;  // a kernel opened from a file: no parent, blank launch fields
    file.runId = p.run;
    file.source = editedSource();
    for (int i = 0; i < 3; ++i) file.launch.grid[i].clear(), file.launch.block[i].clear();
    file.launch.dynamicSmemBytes.clear();
    file.note = "from my notes";
    file.savedAt = 1764600000000 - 60000;
    store->saveDraft(file);
  }
  EchoInspector inspector;
  views::MainWindow window{views::HostInfo{}};
  window.session()->setStoreThreadCheck(true);
  window.installKernelEditor(inspector);
  app::DraftKeeper keeper(window);
  ASSERT_EQ(window.tryOpenProject(p.path), QString());
  ASSERT_NE(keeper.offer(), nullptr);
  EXPECT_TRUE(keeper.offer()->text().contains(QStringLiteral("forked from #%1").arg(p.forked))) << "newest first";
  // Later: both stay in the project and are offered again when it opens again.
  keeper.offer()->findChild<QPushButton*>(QStringLiteral("draftLater"))->click();
  ASSERT_NE(keeper.offer(), nullptr);
  EXPECT_TRUE(keeper.offer()->text().contains(QStringLiteral("opened from a file"))) << "the next one";
  keeper.offer()->findChild<QPushButton*>(QStringLiteral("draftLater"))->click();
  EXPECT_EQ(keeper.offer(), nullptr);
  EXPECT_EQ(ProjectStore::open(p.path.toStdString(), ProjectStore::Mode::ReadOnly)->drafts().size(), 2u);
  ASSERT_EQ(window.tryOpenProject(p.path), QString());
  ASSERT_NE(keeper.offer(), nullptr);
  EXPECT_TRUE(keeper.offer()->text().contains(QStringLiteral("forked from #%1").arg(p.forked)));
  QSignalSpy deleted(&keeper, &app::DraftKeeper::draftDeleted);
  keeper.offer()->findChild<QPushButton*>(QStringLiteral("draftDiscard"))->click();
  ASSERT_TRUE(waitUntil([&] { return deleted.count() == 1; }));
  EXPECT_FALSE(ProjectStore::open(p.path.toStdString(), ProjectStore::Mode::ReadOnly)->draft(p.run, p.forked));
  ASSERT_NE(keeper.offer(), nullptr) << "the next draft is offered";
  EXPECT_TRUE(keeper.offer()->text().contains(QStringLiteral("opened from a file into run #%1").arg(p.run)))
      << keeper.offer()->text().toStdString();
  QSignalSpy restored(&keeper, &app::DraftKeeper::draftRestored);
  keeper.offer()->findChild<QPushButton*>(QStringLiteral("draftRestore"))->click();
  ASSERT_TRUE(waitUntil([&] { return restored.count() == 1; }));
  views::KernelEditorView* editor = window.kernelEditor();
  EXPECT_EQ(editor->source(), editedSource());
  EXPECT_EQ(editor->note(), QStringLiteral("from my notes"));
  EXPECT_TRUE(editor->launchFieldsBlank());
  EXPECT_EQ(editor->parentCandidate(), 0);
  EXPECT_EQ(window.kernelEditorRun(), p.run);
  EXPECT_EQ(keeper.offer(), nullptr);
  // Forking another candidate (nothing typed since: no question) throws the restored edit away, and its draft.
  window.setDiscardEditsAsker([] { return true; });
  QSignalSpy opened(&window, &views::MainWindow::kernelEditorOpened);
  window.forkCandidate(p.forked);
  ASSERT_TRUE(waitUntil([&] { return opened.count() == 1; }));
  ASSERT_TRUE(waitUntil([&] { return deleted.count() == 2; }));
  EXPECT_TRUE(ProjectStore::open(p.path.toStdString(), ProjectStore::Mode::ReadOnly)->drafts().empty());
}

TEST(DraftRecovery, AReadOnlyProjectKeepsNoDraftAndSaysNothingIsOffered) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  useTemporarySettings(dir);
  const DraftProject p = makeDraftProject(dir);
  ASSERT_TRUE(QFile::setPermissions(p.path, QFileDevice::ReadOwner | QFileDevice::ReadGroup));
  if (ProjectStore::writeProblem(p.path.toStdString()).empty()) GTEST_SKIP() << "running as root: the file stays writable";
  EchoInspector inspector;
  views::MainWindow window{views::HostInfo{}};
  window.installKernelEditor(inspector);
  app::DraftKeeper keeper(window);
  keeper.setSaveDelay(10);
  ASSERT_EQ(window.tryOpenProject(p.path), QString());
  EXPECT_EQ(keeper.offer(), nullptr);
  QSignalSpy opened(&window, &views::MainWindow::kernelEditorOpened);
  window.forkCandidate(p.forked);
  ASSERT_TRUE(waitUntil([&] { return opened.count() == 1; }));
  window.kernelEditor()->sourceEditor()->setText(QStringLiteral("typed"));
  QTest::qWait(200);
  EXPECT_EQ(keeper.savesWritten(), 0);
}

TEST_F(EvaluateTest, AnEvaluatedEditsDraftIsDeleted) {
  testing::FakeCompiler compiler;
  app::UserEvaluationRunner runner(window_, backends(compiler));
  app::DraftKeeper* keeper = runner.draftKeeper();
  ASSERT_NE(keeper, nullptr) << "the runner keeps the editor's drafts";
  keeper->setSaveDelay(50);
  QSignalSpy saved(keeper, &app::DraftKeeper::draftSaved);
  QSignalSpy deleted(keeper, &app::DraftKeeper::draftDeleted);
  forkParent();
  editor_->sourceEditor()->setText(QString::fromStdString(editedSource()));
  ASSERT_TRUE(waitUntil([&] { return saved.count() == 1; }));
  ASSERT_TRUE(project_.open()->draft(run_, parent_)) << "the typed edit was not kept";
  EXPECT_EQ(deleted.count(), 0);
  QSignalSpy finished(&runner, &app::UserEvaluationRunner::finished);
  editor_->evaluateButton()->click();
  ASSERT_TRUE(waitUntil([&] { return finished.count() == 1; }));
  ASSERT_GT(finished.front().front().value<CandidateId>(), 0);
  // Stored as a candidate: its draft is gone, and nothing is offered when the project opens again.
  ASSERT_TRUE(waitUntil([&] { return deleted.count() == 1; }));
  EXPECT_FALSE(project_.open()->draft(run_, parent_));
  QSignalSpy offered(keeper, &app::DraftKeeper::draftOffered);
  ASSERT_EQ(window_.tryOpenProject(QString::fromStdString(project_.path())), QString());
  EXPECT_EQ(offered.count(), 0);
  EXPECT_EQ(keeper->offer(), nullptr);
}

// ---- a sealed kernel validated again on the hardware at hand

class RevalidateTest : public EvaluateTest {
protected:
  SealId addSealOfParent() {
    auto store = project_.open();
    const Candidate c = *store->candidate(parent_);
    sealedSource_ = c.source;
    Seal s;
    s.taskId = store->run(run_)->taskId;
    s.candidateId = parent_;
    s.runId = run_;
    s.speedup = c.fitness;
    s.medianUs = c.timing ? c.timing->medianUs : 1.0;
    s.fingerprint = {"NVIDIA H100 80GB HBM3", "sm_90", "550.54.15", "12.4", "12.4", 1755, 2619, "elsewhere"};
    s.sealedAt = 1764000000;
    return store->addSeal(s);
  }
  views::VaultView* vault() {
    auto* v = qobject_cast<views::VaultView*>(window_.viewDock(QStringLiteral("vault"))->widget());
    window_.raiseView(QStringLiteral("vault"));
    return v;
  }
  std::string sealedSource_;
};

TEST_F(RevalidateTest, ASealMeasuredElsewhereIsValidatedAgainHereAndTheNewFiguresSitBesideTheOld) {
  const SealId seal = addSealOfParent();
  testing::FakeCompiler compiler;
  app::UserEvaluationRunner runner(window_, backends(compiler));
  ASSERT_EQ(window_.tryOpenProject(QString::fromStdString(project_.path())), QString());  // shows the seal
  views::VaultView* v = vault();
  ASSERT_NE(v, nullptr);
  ASSERT_EQ(v->model()->rowCount(), 1);
  // This GPU (the fake evaluator's) is found off the GUI thread; then the difference is said and offered.
  ASSERT_TRUE(waitUntil([&] { return v->revalidateButton()->isEnabled(); }))
      << v->revalidateButton()->toolTip().toStdString();
  EXPECT_TRUE(v->hardwareText().contains(QStringLiteral("GPU NVIDIA H100 80GB HBM3, here %1").arg(QString::fromStdString(dispatcher_.evaluators().front()->device().gpu))))
      << v->hardwareText().toStdString();
  const std::int64_t before = candidateCount();
  QSignalSpy finished(&runner, &app::UserEvaluationRunner::finished);
  v->revalidateButton()->click();
  EXPECT_TRUE(runner.isEvaluating());
  EXPECT_FALSE(v->revalidateButton()->isEnabled()) << "offered again during the evaluation";
  ASSERT_TRUE(waitUntil([&] { return finished.count() == 1; }));
  const CandidateId id = finished.front().front().value<CandidateId>();
  ASSERT_GT(id, 0) << window_.statusBar()->currentMessage().toStdString();
  EXPECT_EQ(candidateCount(), before + 1);
  auto store = project_.open();
  const std::optional<Candidate> c = store->candidate(id);
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->parents, std::vector<CandidateId>{parent_});
  EXPECT_EQ(c->proposer, "user");
  EXPECT_EQ(c->source, sealedSource_) << "the sealed kernel as it is";
  EXPECT_EQ(c->status, CandidateStatus::Valid) << c->statusDetail;
  ASSERT_TRUE(c->timing.has_value());
  const auto again = store->sealRevalidations(seal);
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0].candidateId, id);
  EXPECT_EQ(again[0].status, "valid");
  EXPECT_EQ(again[0].fingerprint.gpu, dispatcher_.evaluators().front()->device().gpu) << "the GPU it ran on";
  EXPECT_DOUBLE_EQ(again[0].medianUs, c->timing->medianUs);
  EXPECT_DOUBLE_EQ(again[0].speedup, c->timing->speedup);
  // The seal keeps its own figures and fingerprint.
  ASSERT_EQ(store->seals().size(), 1u);
  EXPECT_EQ(store->seals().front().fingerprint.gpu, "NVIDIA H100 80GB HBM3");
  // Both shown in the vault.
  ASSERT_TRUE(waitUntil([&] { return v->revalidationsText().contains(QStringLiteral("candidate #%1").arg(id)); }))
      << v->revalidationsText().toStdString();
  EXPECT_TRUE(v->revalidationsText().contains(QStringLiteral("NVIDIA H100 80GB HBM3")));
  EXPECT_TRUE(v->revalidationsText().contains(QStringLiteral("Fake GPU")));
  EXPECT_TRUE(window_.statusBar()->currentMessage().contains(QStringLiteral("Seal #%1 validated again").arg(seal)))
      << window_.statusBar()->currentMessage().toStdString();
  EXPECT_TRUE(v->revalidateButton()->isEnabled()) << "the next re-validation may run";
}

TEST_F(RevalidateTest, WithoutAGpuValidatingAgainIsDisabledWithTheReason) {
  const SealId seal = addSealOfParent();
  testing::FakeCompiler compiler;
  const QString reason = QStringLiteral("No GPU here: nvidia-smi lists none; kernels can be reviewed, not evaluated.");
  app::UserEvaluationRunner runner(window_, backends(compiler, reason));
  ASSERT_EQ(window_.tryOpenProject(QString::fromStdString(project_.path())), QString());
  views::VaultView* v = vault();
  ASSERT_EQ(v->model()->rowCount(), 1);
  EXPECT_FALSE(v->revalidateButton()->isEnabled());
  EXPECT_EQ(v->revalidateButton()->toolTip(), reason);
  EXPECT_EQ(runner.revalidationProblem(), reason);
  QSignalSpy failed(&runner, &app::UserEvaluationRunner::failed);
  runner.revalidate(seal);  // asked anyway: refused, nothing stored
  EXPECT_EQ(failed.count(), 1);
  EXPECT_FALSE(runner.isEvaluating());
  EXPECT_TRUE(project_.open()->sealRevalidations(seal).empty());
}

// ---- Fork && edit from the review queue reaches the editor through the window's one signal path

TEST_F(ForkTest, TheReviewQueuesForkOpensTheEditorLikeTheVaults) {
  QDockWidget* dock = window_.viewDock(QStringLiteral("review"));
  ASSERT_NE(dock, nullptr);
  auto* review = qobject_cast<views::ReviewQueueView*>(dock->widget());
  ASSERT_NE(review, nullptr);
  QSignalSpy opened(&window_, &views::MainWindow::kernelEditorOpened);
  emit review->forkRequested(forked_);
  ASSERT_TRUE(waitUntil([&] { return opened.count() == 1; }));
  EXPECT_EQ(editor_->parentCandidate(), forked_);
  EXPECT_TRUE(editor_->source().find("void forked") != std::string::npos);
}

}  // namespace
}  // namespace crucible
