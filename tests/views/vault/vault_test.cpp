// SPDX-License-Identifier: GPL-3.0-or-later
#include <QSignalSpy>
#include <QAbstractItemModelTester>
#include <QClipboard>
#include <QFile>
#include <QGuiApplication>
#include <QMenu>
#include <QPushButton>
#include <QTemporaryDir>
#include <gtest/gtest.h>
#include "core/task/task_spec.h"
#include "view_test_project.h"
#include "views/vault/seal_model.h"
#include "views/vault/vault_view.h"
#include "tests/core/model/sample_seal.h"

using namespace crucible;
using namespace crucible::views;
using fixture::app;

namespace {
Seal sealOf(TaskId task, RunId run, CandidateId c) { return crucible::testing::sampleSeal(task, run, c); }
}  // namespace

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
    // The seal's own timing is not the candidate's evaluation: the header says whose figure it is.
    EXPECT_EQ(view.model()->headerData(SealModel::Median, Qt::Horizontal).toString(), QStringLiteral("Median at seal"));
    EXPECT_TRUE(view.model()->headerData(SealModel::Median, Qt::Horizontal, Qt::ToolTipRole).toString().contains(
        QStringLiteral("Timed again when the kernel was sealed")));
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
  ASSERT_EQ(menu->actions().size(), 4);
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

  QSignalSpy forked(&view, &VaultView::forkRequested);
  QAction* fork = menu->actions()[2];
  EXPECT_EQ(fork->text(), QStringLiteral("Fork && edit"));
  fork->trigger();
  ASSERT_EQ(forked.count(), 1);
  EXPECT_EQ(forked.front().front().value<CandidateId>(), c) << "the sealed candidate";

  QSignalSpy exported(&view, &VaultView::exportRequested);
  QAction* bundle = menu->actions()[3];
  EXPECT_TRUE(bundle->text().startsWith(QStringLiteral("Export kernel"))) << bundle->text().toStdString();
  bundle->trigger();
  ASSERT_EQ(exported.count(), 1);
  EXPECT_EQ(exported.front().front().value<CandidateId>(), c) << "the sealed candidate's bundle";

  std::unique_ptr<QMenu> none(view.contextMenuFor(5));
  for (QAction* a : none->actions()) EXPECT_FALSE(a->isEnabled()) << "no seal in row 5";
}

TEST(VaultView, ASealFromOtherHardwareIsOfferedForValidatingAgainAndShowsTheNewFiguresBesideTheOld) {
  app();
  fixture::ViewTestProject p;
  const CandidateId c = p.store().addCandidate(p.make(4, {}, CandidateStatus::Valid, 1.75, "__global__ void k() {}\n"));
  const SealId id = p.store().addSeal(sealOf(p.task(), p.run(), c));  // NVIDIA H200, driver 580.159.04, CUDA 13.0
  const CandidateId again = p.store().addCandidate(p.make(5, {c}, CandidateStatus::Valid, 1.5));
  SealRevalidation r;
  r.sealId = id;
  r.candidateId = again;
  r.status = "valid";
  r.medianUs = 66.5;
  r.speedup = 1.5;
  r.fingerprint = {"NVIDIA H100 80GB HBM3", "sm_90", "550.54.15", "12.4", "12.4", 1755, 2619, "other-node"};
  r.validatedAt = 1700086400;
  p.store().addSealRevalidation(r);
  auto session = p.openSession();
  VaultView view(session.get());
  ASSERT_EQ(view.model()->rowCount(), 1);
  QSignalSpy wanted(&view, &VaultView::hostDeviceWanted);
  QSignalSpy asked(&view, &VaultView::revalidateRequested);

  // Not known yet which GPU this is: disabled, and the app is asked to find out.
  view.showSeal(0);
  EXPECT_FALSE(view.revalidateButton()->isEnabled());
  EXPECT_GE(wanted.count(), 1);

  // The same hardware: its figures hold here; nothing to offer.
  Fingerprint here = sealOf(p.task(), p.run(), c).fingerprint;
  here.host = "this-node";  // another host of the same GPU, driver and CUDA is the same hardware
  view.setHostDevice(here);
  EXPECT_FALSE(view.revalidateButton()->isEnabled());
  EXPECT_TRUE(view.revalidateButton()->toolTip().contains(QStringLiteral("measured on this GPU"))) << view.revalidateButton()->toolTip().toStdString();
  EXPECT_TRUE(VaultView::fingerprintDifferences(sealOf(p.task(), p.run(), c).fingerprint, here).isEmpty());

  // Another driver and CUDA: said on the seal, and offered.
  here.driver = "590.10";
  here.cudaRuntime = "13.1";
  view.setHostDevice(here);
  EXPECT_TRUE(view.revalidateButton()->isEnabled()) << view.revalidateButton()->toolTip().toStdString();
  EXPECT_TRUE(view.hardwareText().contains(QStringLiteral("other hardware"))) << view.hardwareText().toStdString();
  EXPECT_TRUE(view.hardwareText().contains(QStringLiteral("driver 580.159.04, here 590.10")));
  EXPECT_TRUE(view.hardwareText().contains(QStringLiteral("CUDA runtime 13.0, here 13.1")));
  EXPECT_FALSE(view.hardwareText().contains(QStringLiteral("GPU NVIDIA"))) << "the GPU model is the same";
  view.revalidateButton()->click();
  ASSERT_EQ(asked.count(), 1);
  EXPECT_EQ(asked.front().front().value<SealId>(), id);

  // The app cannot run it (no GPU): disabled with its reason.
  view.setRevalidationProblem(QStringLiteral("No GPU here: nvidia-smi lists none."));
  EXPECT_FALSE(view.revalidateButton()->isEnabled());
  EXPECT_EQ(view.revalidateButton()->toolTip(), QStringLiteral("No GPU here: nvidia-smi lists none."));
  view.setRevalidationProblem({});
  EXPECT_TRUE(view.revalidateButton()->isEnabled());

  // The old figures and the new, each with what it was measured on.
  const QString shown = view.revalidationsText();
  EXPECT_TRUE(shown.contains(QStringLiteral("Sealed"))) << shown.toStdString();
  EXPECT_TRUE(shown.contains(QStringLiteral("NVIDIA H200"))) << shown.toStdString();
  EXPECT_TRUE(shown.contains(QStringLiteral("57.13 us, 1.75x"))) << shown.toStdString();
  EXPECT_TRUE(shown.contains(QStringLiteral("NVIDIA H100 80GB HBM3"))) << shown.toStdString();
  EXPECT_TRUE(shown.contains(QStringLiteral("66.50 us, 1.50x"))) << shown.toStdString();
  EXPECT_TRUE(shown.contains(QStringLiteral("candidate #%1").arg(again))) << shown.toStdString();
}
