// SPDX-License-Identifier: GPL-3.0-or-later
// One colour per candidate status, shared by the views that colour candidates.
#pragma once
#include <QColor>
#include "core/model/candidate.h"

namespace crucible::views {

QColor statusColor(CandidateStatus status);

}  // namespace crucible::views
