// SPDX-License-Identifier: GPL-3.0-or-later
// The text of a detail figure, in one place for the details view and the
// comparison: microseconds and speedups as the diff header and the vault
// write them (views/diff/candidate_figures.h), bytes, bandwidths and FLOP
// rates with SI prefixes as the roofline writes them (views/roofline/roofline_math.h).
#pragma once
#include <QString>
#include "views/details/candidate_details.h"

namespace crucible::views {

// "41.2 µs", "4.21 MB", "3.35 TB/s", "31.2 %", "1.84×", "88 registers".
QString formatFigure(double value, const std::string& unit);
// The row's figure; "missing: <why>" when it has none; its text otherwise.
QString figureText(const DetailRow& row);
// "+1.20 µs (+3.4 %)", "−512 KB (−12.5 %)", "0 B (0.0 %)"; differences of
// percentages in percentage points: "+6.4 pp (+20.0 %)".
QString differenceText(const FigureDifference& d, const std::string& unit);
// "Throughput" etc. as shown (translatable).
QString groupTitle(const std::string& group);

}  // namespace crucible::views
