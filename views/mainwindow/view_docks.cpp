// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/mainwindow/view_docks.h"
#include <QCoreApplication>
#include <QWidget>
#if CRUCIBLE_HAVE_LINEAGE_VIEW
#include "views/lineage/lineage_view.h"
#endif
#if CRUCIBLE_HAVE_ARCHIVE_MAP_VIEW
#include "views/archive/archive_map_view.h"
#endif
#if CRUCIBLE_HAVE_RUN_CONTROL_VIEW
#include "views/runcontrol/run_control_view.h"
#endif
#if CRUCIBLE_HAVE_DIFF_VIEW
#include "views/diff/diff_view.h"
#endif
#if CRUCIBLE_HAVE_ROOFLINE_VIEW
#include "views/roofline/roofline_view.h"
#endif
#if CRUCIBLE_HAVE_KNOWLEDGE_VIEW
#include "views/knowledge/knowledge_view.h"
#endif
#if CRUCIBLE_HAVE_REVIEW_QUEUE_VIEW
#include "views/review/review_queue_view.h"
#endif
#if CRUCIBLE_HAVE_VAULT_VIEW
#include "views/vault/vault_view.h"
#endif

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
#if CRUCIBLE_HAVE_RUN_CONTROL_VIEW
  add("runcontrol", "runControlDock", QT_TRANSLATE_NOOP("crucible::views::ViewDocks", "Run control"), Qt::LeftDockWidgetArea,
      "control", new RunControlView(session, parent));
#endif
  // Bottom left, wide: where the candidates come from and where they landed.
#if CRUCIBLE_HAVE_LINEAGE_VIEW
  add("lineage", "lineageDock", QT_TRANSLATE_NOOP("crucible::views::ViewDocks", "Lineage"), Qt::BottomDockWidgetArea,
      "evolution", new LineageView(session, parent));
#endif
#if CRUCIBLE_HAVE_ARCHIVE_MAP_VIEW
  add("archive", "archiveMapDock", QT_TRANSLATE_NOOP("crucible::views::ViewDocks", "Archive map"), Qt::BottomDockWidgetArea,
      "evolution", new ArchiveMapView(session, parent));
#endif
  // Right: the selected candidate in depth.
#if CRUCIBLE_HAVE_DIFF_VIEW
  add("diff", "diffDock", QT_TRANSLATE_NOOP("crucible::views::ViewDocks", "Diff"), Qt::RightDockWidgetArea, "candidate",
      new DiffView(session, parent));
#endif
#if CRUCIBLE_HAVE_ROOFLINE_VIEW
  add("roofline", "rooflineDock", QT_TRANSLATE_NOOP("crucible::views::ViewDocks", "Roofline"), Qt::RightDockWidgetArea,
      "candidate", new RooflineView(session, parent));
#endif
  // Bottom right: what waits for a human and what outlives the run.
#if CRUCIBLE_HAVE_REVIEW_QUEUE_VIEW
  add("review", "reviewQueueDock", QT_TRANSLATE_NOOP("crucible::views::ViewDocks", "Review queue"), Qt::BottomDockWidgetArea,
      "outcome", new ReviewQueueView(session, parent));
#endif
#if CRUCIBLE_HAVE_KNOWLEDGE_VIEW
  add("knowledge", "knowledgeDock", QT_TRANSLATE_NOOP("crucible::views::ViewDocks", "Knowledge"), Qt::BottomDockWidgetArea,
      "outcome", new KnowledgeView(session, parent));
#endif
#if CRUCIBLE_HAVE_VAULT_VIEW
  add("vault", "vaultDock", QT_TRANSLATE_NOOP("crucible::views::ViewDocks", "Vault"), Qt::BottomDockWidgetArea, "outcome",
      new VaultView(session, parent));
#endif
  return docks;
}

}  // namespace crucible::views
