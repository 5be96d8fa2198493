// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/lineage/status_colors.h"

namespace crucible::views {

QColor statusColor(CandidateStatus status) {
  switch (status) {
    case CandidateStatus::Proposed: return QColor(0xb0, 0xb0, 0xb0);
    case CandidateStatus::AwaitingReview: return QColor(0xf2, 0xc1, 0x2e);
    case CandidateStatus::Rejected: return QColor(0x55, 0x55, 0x55);
    case CandidateStatus::Compiled: return QColor(0x9e, 0xc5, 0xe8);
    case CandidateStatus::CompileFailed: return QColor(0xd6, 0x27, 0x28);
    case CandidateStatus::Invalid: return QColor(0xff, 0x7f, 0x0e);
    case CandidateStatus::Faulted: return QColor(0x8c, 0x1c, 0x13);
    case CandidateStatus::TimedOut: return QColor(0x94, 0x67, 0xbd);
    case CandidateStatus::ResourceError: return QColor(0x8c, 0x56, 0x4b);
    case CandidateStatus::Valid: return QColor(0x2c, 0xa0, 0x2c);
    case CandidateStatus::Reference: return QColor(0x1f, 0x77, 0xb4);
  }
  return Qt::gray;
}

}  // namespace crucible::views
