// SPDX-License-Identifier: GPL-3.0-or-later
// The roofline view's shared wording and pointer constants, for its three files:
// roofline_view.cpp (loading), roofline_view_chart.cpp (drawing), roofline_view_input.cpp
// (zoom, pan, hover, selection). Internal to views/roofline.
#pragma once
#include <QColor>
#include <QCoreApplication>
#include <QString>
#include <algorithm>
#include <map>
#include <string>
#include "core/model/candidate.h"
#include "views/common/locale_numbers.h"
#include "views/diff/candidate_figures.h"
#include "views/roofline/roofline_math.h"

namespace crucible::views::roofline_detail {

constexpr double kHoverRadiusPx = 8;    // a point is "under the pointer" within this
constexpr double kSpreadRadiusPx = 4;   // coincident points are moved this far apart
constexpr int kMaxHoverLines = 20;
constexpr int kDragThresholdPx = 4;

inline QString roofName(const std::string& name) {
  static const std::map<std::string, QString> names{{"dram_bw", QStringLiteral("DRAM")},
                                                    {"l2_bw", QStringLiteral("L2")},
                                                    {"fp32_fma", QStringLiteral("FP32 FMA")},
                                                    {"bf16_tensor", QCoreApplication::translate("crucible::views::RooflineView", "BF16 tensor")}};
  const auto it = names.find(name);
  return it != names.end() ? it->second : QString::fromStdString(name);
}

inline QString rate(double value, const char* unit) { return localRate(value, unit); }

inline QString roofLabel(const Roof& r) {
  const char* unit = r.bandwidth ? "B/s" : "FLOP/s";
  QString s = QCoreApplication::translate("crucible::views::RooflineView", "%1 %2 measured").arg(roofName(r.name), rate(r.measured, unit));
  if (r.datasheet > 0)
    s += QCoreApplication::translate("crucible::views::RooflineView", " (datasheet %1)").arg(rate(r.datasheet, unit));
  return s;
}

inline QColor generationColor(double t) {  // t in [0, 1]: early blue to late red
  return QColor::fromHsvF(0.66 * (1 - std::clamp(t, 0.0, 1.0)), 0.85, 0.85);
}

inline bool plottable(CandidateStatus s) { return s == CandidateStatus::Valid || s == CandidateStatus::Reference; }

inline QString micros(double seconds) { return formatMicroseconds(seconds * 1e6); }

}  // namespace crucible::views::roofline_detail
