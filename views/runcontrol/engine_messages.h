// SPDX-License-Identifier: GPL-3.0-or-later
// The engine's log lines as the user reads them, translated (issue 22).
// core/engine has no Qt: it writes its log in English into the project (the
// CLI and `crucible-cli log` show it so). The workbench recognises the fixed
// messages the engine writes (run started, finished and why, stopped, failed,
// resumed, the reference's timing and profile, the proposer's failures...) by
// their English pattern and shows its translation with the same particulars;
// free-form particulars (a compiler's or proposer's error, a path, a GPU's
// name) stay as written, and a line no pattern knows is shown as it is.
#pragma once
#include <QCoreApplication>
#include <QString>
#include <string>

namespace crucible::views {

class EngineMessages {
  Q_DECLARE_TR_FUNCTIONS(EngineMessages)
public:
  // One log line's text.
  static QString text(const std::string& english);
  // Why a run finished (the reason of `run finished: <reason>` and of the RunFinished event).
  static QString finishReason(const std::string& english);
  // "info", "warning", "error".
  static QString level(const std::string& level);
};

}  // namespace crucible::views
