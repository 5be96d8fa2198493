// SPDX-License-Identifier: GPL-3.0-or-later
// What the roofline view draws, pure: the roofs from a device's measured
// ceilings, where they meet, and rates as text. A kernel's point (intensity,
// achieved FLOP/s) is core's: core/model/roofline_point.h.
#pragma once
#include <string>
#include <vector>
#include "core/model/roofline_point.h"
#include "core/model/seal.h"

namespace crucible::views {

struct Roof {
  std::string name;           // the ceiling's name, e.g. "dram_bw"
  bool bandwidth = false;     // B/s (a slope) or FLOP/s (flat)
  double measured = 0;
  double datasheet = 0;
};

// The roofs of one device, bandwidths first, each sorted by measured value.
// Ceilings with unknown units or non-positive values are skipped.
std::vector<Roof> roofsOf(const std::vector<Ceiling>& ceilings, const std::string& device);

// Attainable FLOP/s at an intensity under one bandwidth and one compute roof.
double attainable(double intensity, double bandwidth, double peakFlops);
// Where a bandwidth roof meets a compute roof (FLOP/B).
double ridgeIntensity(double bandwidth, double peakFlops);

// "3.35 TB/s", "66.9 TFLOP/s", "120 GFLOP/s": SI prefixes.
std::string formatRate(double value, const std::string& unit);

}  // namespace crucible::views
