// SPDX-License-Identifier: GPL-3.0-or-later
// `crucible --screenshot FILE.png [--view NAME] PROJECT`: pictures of the
// workbench for the README and for checking a build on a headless machine.
#pragma once
#include <QImage>
#include <QSize>
#include <QString>
#include <optional>
#include <vector>
#include "core/model/candidate.h"
#include "core/model/ids.h"

namespace crucible {
class ProjectStore;
}
namespace crucible::views {
class MainWindow;
}

namespace crucible::app {

inline constexpr QSize kWindowShotSize{1600, 1000};
inline constexpr QSize kViewShotSize{1400, 900};

// The valid candidate of the run with the highest speedup; 0 if it has none.
CandidateId bestValidCandidate(const ProjectStore& store, RunId run);
CandidateId bestValidCandidate(const std::vector<CandidateSummary>& candidates);

// Selects the best valid candidate of the session's current run (the most
// recent one after opening), so the candidate views have something to show.
void selectBestCandidate(views::MainWindow& window);

// `--view editor`: forks the selected candidate into the kernel editor and
// waits (at most timeoutMs) for its first compile, then puts the cursor on
// the source line with the most PTX so the linked listing lines show. Returns
// false and sets error when there is no editor, no candidate or no compile.
bool openSelectedInEditor(views::MainWindow& window, QString& error, int timeoutMs = 120000);

// --view details / --view compare: the selected candidate against its parent,
// or the run's reference for a seed (details: every figure as a difference
// from it, or its figures alone when there is neither; compare: the two side
// by side, false with the reason when there is nothing to compare it with).
bool showSelectedAgainstParent(views::MainWindow& window, const QString& viewName, QString& error);

// `--size WxH` (e.g. 1366x768): nullopt for anything else, or sides outside 200..8192.
std::optional<QSize> parseShotSize(const QString& text);

// The whole window at size (default kWindowShotSize).
QImage grabWindow(views::MainWindow& window, QSize size = kWindowShotSize);

// One view alone at kViewShotSize: its widget is taken out of its dock and
// shown as a window of its own. Returns a null image and sets error when this
// build has no view of that name (error lists the names it has).
QImage grabView(views::MainWindow& window, const QString& viewName, QString& error, QSize size = kViewShotSize);

}  // namespace crucible::app
