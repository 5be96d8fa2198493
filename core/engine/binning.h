// SPDX-License-Identifier: GPL-3.0-or-later
// Turns a candidate's behavioural descriptor into its MAP-Elites cell key.
#pragma once
#include <map>
#include <string>
#include <vector>
#include "core/engine/run_settings.h"

namespace crucible {

// The canonical key "dim=value;dim=value" (dimensions in name order). With no
// binning every descriptor dimension is used verbatim; otherwise only the
// listed dimensions, numeric ones mapped to their bin ("vector_width=[4,8)").
// A listed dimension the candidate does not declare becomes "dim=?". A numeric
// binning applied to a value that is not a number throws std::invalid_argument.
std::string cellKey(const std::map<std::string, std::string>& descriptor,
                    const std::vector<DimensionBinning>& binning);

// The bin label of one numeric value under ascending edges.
std::string binLabel(double value, const std::vector<double>& edges);

}  // namespace crucible
