// SPDX-License-Identifier: GPL-3.0-or-later
// Why a candidate has no point on the roofline or the bandwidth chart, as the
// user reads it (issue 22). bandwidthPoint (roofline_math.h) gives a kind;
// core's rooflinePoint (core/model/roofline_point.h, Qt-free, shared with the
// CLI) gives a fixed English phrase, which this table translates; a phrase the
// table does not know is shown as given.
#pragma once
#include <QCoreApplication>
#include <QString>
#include <string>
#include "views/roofline/roofline_math.h"

namespace crucible::views {

class RooflineReasons {
  Q_DECLARE_TR_FUNCTIONS(RooflineReasons)
public:
  static QString of(BandwidthMissing why);
  static QString of(const std::string& rooflineReason);
};

}  // namespace crucible::views
