// SPDX-License-Identifier: GPL-3.0-or-later
// Item data roles shared by Crucible's table models and their proxies.
#pragma once
#include <Qt>

namespace crucible::views {

enum ModelRole {
  // The value to sort by: numbers as numbers (so 10 sorts after 9), text as text.
  SortRole = Qt::UserRole,
  // The row's store id (RunId or CandidateId), on every column.
  IdRole,
  // The row's status name as the store spells it ("valid", "running"...), on every column.
  StatusRole,
};

}  // namespace crucible::views
