// SPDX-License-Identifier: GPL-3.0-or-later
// Candidate, run and knowledge statuses as the user reads them, translated (issue 22).
// core's toString() gives the token stored in the project file; the views
// filter and sort by that token (StatusRole) and show these names.
#pragma once
#include <QCoreApplication>
#include <QString>
#include "core/model/candidate.h"
#include "core/model/knowledge.h"
#include "core/model/run.h"

namespace crucible::views {

class StatusNames {
  Q_DECLARE_TR_FUNCTIONS(StatusNames)
public:
  static QString of(CandidateStatus s);
  static QString of(RunStatus s);
  static QString of(KnowledgeStatus s);
};

inline QString statusName(CandidateStatus s) { return StatusNames::of(s); }
inline QString statusName(RunStatus s) { return StatusNames::of(s); }
inline QString statusName(KnowledgeStatus s) { return StatusNames::of(s); }

}  // namespace crucible::views
