// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/roofline/roofline_math.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace crucible::views {

std::vector<Roof> roofsOf(const std::vector<Ceiling>& ceilings, const std::string& device) {
  std::vector<Roof> roofs;
  for (const Ceiling& c : ceilings) {
    if (c.device != device || c.measured <= 0) continue;
    if (c.unit != "B/s" && c.unit != "FLOP/s") continue;
    roofs.push_back({c.name, c.unit == "B/s", c.measured, c.datasheet});
  }
  std::sort(roofs.begin(), roofs.end(), [](const Roof& a, const Roof& b) {
    if (a.bandwidth != b.bandwidth) return a.bandwidth;
    return a.measured < b.measured;
  });
  return roofs;
}

double attainable(double intensity, double bandwidth, double peakFlops) {
  return std::min(peakFlops, bandwidth * intensity);
}

double ridgeIntensity(double bandwidth, double peakFlops) { return peakFlops / bandwidth; }

std::string formatRate(double value, const std::string& unit) {
  static const char* prefixes[] = {"", "K", "M", "G", "T", "P", "E"};
  int p = 0;
  double v = value;
  while (std::fabs(v) >= 1000 && p < 6) {
    v /= 1000;
    ++p;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3g %s%s", v, prefixes[p], unit.c_str());
  return buf;
}

}  // namespace crucible::views
