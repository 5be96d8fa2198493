// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/mainwindow/view_docks.h"
#include <QCoreApplication>
#include <QWidget>
#include "views/lineage/lineage_view.h"
#include "views/archive/archive_map_view.h"
#include "views/runcontrol/run_control_view.h"
#include "views/diff/diff_view.h"
#include "views/roofline/roofline_view.h"
#include "views/knowledge/knowledge_view.h"
#include "views/review/review_queue_view.h"
#include "views/vault/vault_view.h"
#include "views/editor/kernel_editor_view.h"
#include "views/details/candidate_details_view.h"
#include "views/compare/compare_view.h"

namespace crucible::views {

std::vector<ViewDock> createViewDocks([[maybe_unused]] ProjectSession* session, [[maybe_unused]] QWidget* parent) {
  std::vector<ViewDock> docks;
  [[maybe_unused]] auto add = [&docks](const char* viewName, const char* name, const char* title,
                                       Qt::DockWidgetArea area, const char* group, QWidget* widget) {
    docks.push_back({QString::fromLatin1(viewName), QString::fromLatin1(name),
                     QCoreApplication::translate("crucible::views::ViewDocks", title), area,
                     QString::fromLatin1(group), widget});
  };
  // Left: steering the run.
  add("runcontrol", "runControlDock", QT_TRANSLATE_NOOP("crucible::views::ViewDocks", "Run control"), Qt::LeftDockWidgetArea,
      "control", new RunControlView(session, parent));
  // Bottom left, wide: where the candidates come from and where they landed.
  add("lineage", "lineageDock", QT_TRANSLATE_NOOP("crucible::views::ViewDocks", "Lineage"), Qt::BottomDockWidgetArea,
      "evolution", new LineageView(session, parent));
  add("archive", "archiveMapDock", QT_TRANSLATE_NOOP("crucible::views::ViewDocks", "Archive map"), Qt::BottomDockWidgetArea,
      "evolution", new ArchiveMapView(session, parent));
  // Beside them, the selected candidate against its parent and on the roofline: in the bottom row,
  // where the window's width is (issue 18: side docks of this width left the tables ~360 px at 1366x768).
  // The right-hand area is kept for the candidate details (the lead's hook in main_window.cpp).
  add("diff", "diffDock", QT_TRANSLATE_NOOP("crucible::views::ViewDocks", "Diff"), Qt::BottomDockWidgetArea, "evolution",
      new DiffView(session, parent));
  add("roofline", "rooflineDock", QT_TRANSLATE_NOOP("crucible::views::ViewDocks", "Roofline"), Qt::BottomDockWidgetArea,
      "evolution", new RooflineView(session, parent));
  // Right: the selected candidate's every figure (Nsight Compute's Details page), and two or more
  // candidates side by side (Edit > Compare selected).
  add("details", "candidateDetailsDock", QT_TRANSLATE_NOOP("crucible::views::ViewDocks", "Details"), Qt::RightDockWidgetArea,
      "candidate", new CandidateDetailsView(session, parent));
  add("compare", "compareDock", QT_TRANSLATE_NOOP("crucible::views::ViewDocks", "Compare"), Qt::RightDockWidgetArea,
      "candidate", new CompareView(session, parent));
  // Bottom right: what waits for a human and what outlives the run.
  add("review", "reviewQueueDock", QT_TRANSLATE_NOOP("crucible::views::ViewDocks", "Review queue"), Qt::BottomDockWidgetArea,
      "outcome", new ReviewQueueView(session, parent));
  add("knowledge", "knowledgeDock", QT_TRANSLATE_NOOP("crucible::views::ViewDocks", "Knowledge"), Qt::BottomDockWidgetArea,
      "outcome", new KnowledgeView(session, parent));
  add("vault", "vaultDock", QT_TRANSLATE_NOOP("crucible::views::ViewDocks", "Vault"), Qt::BottomDockWidgetArea, "outcome",
      new VaultView(session, parent));
  return docks;
}

ViewDock createKernelEditorDock(KernelInspector& inspector, QWidget* parent) {
  // Bottom, in a group of its own: the editor wants the window's width for source beside PTX.
  return {QStringLiteral("editor"), QStringLiteral("kernelEditorDock"),
          QCoreApplication::translate("crucible::views::ViewDocks", "Kernel editor"), Qt::BottomDockWidgetArea,
          QStringLiteral("editor"), new KernelEditorView(inspector, parent)};
}

}  // namespace crucible::views
