// SPDX-License-Identifier: GPL-3.0-or-later
#include <QAbstractItemModelTester>
#include <QClipboard>
#include <QFile>
#include <QGuiApplication>
#include <QMenu>
#include <QTemporaryDir>
#include <gtest/gtest.h>
#include "core/task/task_spec.h"
#include "view_test_project.h"
#include "views/vault/seal_export.h"
#include "views/vault/seal_model.h"
#include "views/vault/vault_view.h"

using namespace crucible;
using namespace crucible::views;
using fixture::app;

namespace {
Seal sealOf(TaskId task, RunId run, CandidateId c) {
  Seal s;
  s.taskId = task;
  s.runId = run;
  s.candidateId = c;
  s.speedup = 1.75;
  s.medianUs = 57.125;
  s.validationReportJson = R"({"trials":5,"passed":5})";
  s.performanceReportJson = R"({"samples":200,"iqr_us":0.4})";
  s.fingerprint = {"NVIDIA H200", "sm_90", "580.159.04", "13.0", "13.0", 1980, 3201, "gpu-node-7"};
  s.sealedAt = 1700000000;
  return s;
}
}  // namespace

TEST(SealExport, HeaderFiguresFingerprintLaunchAndSource) {
  Candidate k;
  k.id = 42;
  k.generation = 7;
  k.source = "extern \"C\" __global__ void gelu_kernel(const float* x, float* y, long long N) {}";
  k.launch.entry = "gelu_kernel";
  k.launch.grid[0] = "ceil_div(N, 256)";
  k.launch.block[0] = "256";
  Seal s = sealOf(1, 3, 42);
  s.id = 9;
  const std::string text = sealedKernelFile(s, k, "gelu_f32_1048576", nullptr);
  EXPECT_NE(text.find("// Crucible sealed kernel: seal #9 of task gelu_f32_1048576"), std::string::npos) << text;
  EXPECT_NE(text.find("Median 57.125 us, 1.750x"), std::string::npos) << text;
  EXPECT_NE(text.find("Measured on NVIDIA H200 (sm_90), driver 580.159.04, CUDA runtime 13.0, NVRTC 13.0, SM clock 1980 MHz, memory clock 3201 MHz, host gpu-node-7"), std::string::npos) << text;
  EXPECT_NE(text.find("Sealed 2023-11-14 22:13:20 UTC"), std::string::npos) << text;
  EXPECT_NE(text.find("//   {\"trials\":5,\"passed\":5}"), std::string::npos) << text;
  EXPECT_NE(text.find("//   dim3 grid(ceil_div(N, 256), 1, 1);"), std::string::npos) << text;
  EXPECT_NE(text.find("//   gelu_kernel<<<grid, block, 0>>>(/* inputs..., outputs..., scalars (long long) */);"), std::string::npos) << text;
  // The source follows verbatim, ending in a newline; nothing after the header is uncommented but the source.
  EXPECT_EQ(text.substr(text.size() - k.source.size() - 1), k.source + "\n");
  const std::string header = text.substr(0, text.size() - k.source.size() - 1);
  for (std::size_t pos = 0; pos < header.size();) {
    const std::size_t end = header.find('\n', pos);
    const std::string line = header.substr(pos, end - pos);
    EXPECT_TRUE(line.empty() || line.rfind("//", 0) == 0) << "uncommented header line: " << line;
    pos = end + 1;
  }
  Candidate other = k;
  other.id = 43;
  EXPECT_THROW(sealedKernelFile(s, other, "t", nullptr), std::invalid_argument);
}

TEST(SealExport, LaunchSnippetNamesArgumentsFromTheSpec) {
  TaskSpec spec;
  spec.axes = {{"N", 1024}};
  spec.inputs.resize(1);
  spec.inputs[0].name = "x";
  spec.outputs.resize(1);
  spec.outputs[0].name = "y";
  spec.scalars = {"N"};
  LaunchRule r;
  r.entry = "k";
  r.dynamicSmemBytes = "4*256";
  const std::string s = launchSnippet(r, &spec);
  EXPECT_NE(s.find("N = 1024"), std::string::npos) << s;
  EXPECT_NE(s.find("k<<<grid, block, 4*256>>>(x, y, N);"), std::string::npos) << s;
}

TEST(SealExport, LaunchSnippetCarriesTheTensorMaps) {
  TaskSpec spec;
  spec.name = "t";
  spec.axes = {{"M", 300}, {"K", 64}};
  spec.inputs.resize(1);
  spec.inputs[0].name = "A";
  spec.inputs[0].dtype = DType::BF16;
  spec.inputs[0].shape = {"M", "K"};
  spec.outputs.resize(1);
  spec.outputs[0].name = "C";
  spec.outputs[0].shape = {"M", "K"};
  spec.scalars = {"M"};
  LaunchRule r;
  r.entry = "k";
  r.tensorMaps = {{"A", 128, 64, "128B"}};
  const std::string s = launchSnippet(r, &spec);
  EXPECT_NE(s.find("k<<<grid, block, 0>>>(A, C, M, tmap_A);"), std::string::npos) << s;
  EXPECT_NE(s.find("//   tmap_A: A (300 x 64), box 128 x 64 (rows x cols), swizzle 128B\n"), std::string::npos) << s;
  EXPECT_NE(s.find("cuTensorMapEncodeTiled"), std::string::npos) << s;
  EXPECT_NE(s.find(R"(// Launch rule: {"block":["1","1","1"],"dynamicSmemBytes":"0","entry":"k","grid":["1","1","1"],)"
                   R"("tensorMaps":[{"boxCols":64,"boxRows":128,"swizzle":"128B","tensor":"A"}]})"),
            std::string::npos)
      << s;
  // Without a spec the arguments are described, maps included.
  EXPECT_NE(launchSnippet(r, nullptr).find("(/* inputs..., outputs..., scalars (long long), tensor maps */)"),
            std::string::npos)
      << launchSnippet(r, nullptr);
  // A kernel without maps gets no tensor-map lines.
  r.tensorMaps.clear();
  EXPECT_EQ(launchSnippet(r, &spec).find("ensor map"), std::string::npos) << launchSnippet(r, &spec);
}

TEST(VaultView, ListsSealsAndExports) {
  app();
  fixture::ViewTestProject p;
  {
    auto session = p.openSession();
    VaultView empty(session.get());
    EXPECT_TRUE(empty.message().contains(QStringLiteral("No sealed kernels yet"))) << empty.message().toStdString();
  }
  Candidate kernel = p.make(4, {}, CandidateStatus::Valid, 1.75, "__global__ void gelu_kernel() {}\n");
  kernel.launch.entry = "gelu_kernel";
  const CandidateId c = p.store().addCandidate(kernel);
  const SealId id = p.store().addSeal(sealOf(p.task(), p.run(), c));
  auto session = p.openSession();
  VaultView view(session.get());
  {
    QAbstractItemModelTester tester(view.model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    EXPECT_EQ(view.model()->rowCount(), 1);
    EXPECT_EQ(view.model()->data(view.model()->index(0, SealModel::Task)).toString(), QStringLiteral("gelu_f32_1048576"));
    EXPECT_EQ(view.model()->data(view.model()->index(0, SealModel::Gpu)).toString(), QStringLiteral("NVIDIA H200"));
    view.reload();
  }
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("seal.cu"));
  QString error;
  ASSERT_TRUE(view.exportSeal(id, path, &error)) << error.toStdString();
  QFile f(path);
  ASSERT_TRUE(f.open(QIODevice::ReadOnly));
  const QByteArray text = f.readAll();
  EXPECT_TRUE(text.contains("gelu_kernel<<<grid, block, 0>>>(x, y, N);")) << text.toStdString();
  EXPECT_TRUE(text.contains("__global__ void gelu_kernel() {}"));
  EXPECT_FALSE(view.exportSeal(id + 100, path, &error));
  EXPECT_TRUE(error.contains(QStringLiteral("not in this project")));
  EXPECT_FALSE(view.exportSeal(id, dir.filePath(QStringLiteral("no/such/dir/seal.cu")), &error));
  EXPECT_TRUE(error.contains(QStringLiteral("Cannot write")));
}

TEST(VaultView, ContextMenuExportsAndCopiesTheSource) {
  app();
  fixture::ViewTestProject p;
  Candidate kernel = p.make(4, {}, CandidateStatus::Valid, 1.75, "__global__ void gelu_kernel() {}\n");
  kernel.launch.entry = "gelu_kernel";
  const CandidateId c = p.store().addCandidate(kernel);
  const SealId id = p.store().addSeal(sealOf(p.task(), p.run(), c));
  auto session = p.openSession();
  VaultView view(session.get());
  ASSERT_EQ(view.model()->rowCount(), 1);

  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("exported.cu"));
  QString suggested;
  view.setSavePathAsker([&](const QString& name) {
    suggested = name;
    return path;
  });
  std::unique_ptr<QMenu> menu(view.contextMenuFor(0));
  ASSERT_EQ(menu->actions().size(), 2);
  QAction* exportAction = menu->actions()[0];
  EXPECT_EQ(exportAction->text(), QStringLiteral("Export .cu…"));
  exportAction->trigger();
  EXPECT_EQ(suggested, QStringLiteral("seal_%1.cu").arg(id));
  QFile f(path);
  ASSERT_TRUE(f.open(QIODevice::ReadOnly));
  EXPECT_TRUE(f.readAll().contains("gelu_kernel<<<grid, block, 0>>>(x, y, N);")) << "the seal export, not the bare source";

  QAction* copy = menu->actions()[1];
  EXPECT_EQ(copy->text(), QStringLiteral("Copy source"));
  QGuiApplication::clipboard()->clear();
  copy->trigger();
  EXPECT_EQ(QGuiApplication::clipboard()->text(), QStringLiteral("__global__ void gelu_kernel() {}\n"));

  std::unique_ptr<QMenu> none(view.contextMenuFor(5));
  for (QAction* a : none->actions()) EXPECT_FALSE(a->isEnabled()) << "no seal in row 5";
}
