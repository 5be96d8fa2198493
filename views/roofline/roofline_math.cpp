// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/roofline/roofline_math.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

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

double roofValue(const std::vector<Roof>& roofs, const std::string& name) {
  for (const Roof& r : roofs)
    if (r.name == name) return r.measured;
  return 0;
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

SiScale siScale(double largest) {
  static const char* prefixes[] = {"", "K", "M", "G", "T", "P", "E"};
  SiScale s;
  int p = 0;
  while (p < 6 && std::fabs(largest) >= s.factor * 1000) {
    s.factor *= 1000;
    ++p;
  }
  s.prefix = prefixes[p];
  return s;
}

bool flopFree(std::optional<double> taskFlops) { return !taskFlops || *taskFlops <= 0; }

namespace {
std::optional<double> metric(const ProfileMetrics& profile, const char* name) {
  const auto it = profile.find(name);
  if (it == profile.end()) return std::nullopt;
  return it->second;
}
}  // namespace

BandwidthOutcome bandwidthPoint(const Candidate& c, double dramRoof, double l2Roof) {
  BandwidthOutcome out;
  if (!c.timing || c.timing->medianUs <= 0) {
    out.missing = BandwidthMissing::NotTimed;
    return out;
  }
  if (c.profile.empty()) {
    out.missing = BandwidthMissing::NotProfiled;
    return out;
  }
  BandwidthPoint p;
  p.id = c.id;
  p.generation = c.generation;
  p.seconds = c.timing->medianUs * 1e-6;
  if (const auto dram = dramBytes(c.profile); dram && *dram > 0) {
    p.dramBytes = dram;
    p.dramPerSecond = *dram / p.seconds;
    if (dramRoof > 0) p.dramPercent = 100 * *p.dramPerSecond / dramRoof;
  }
  if (const auto l2 = metric(c.profile, kL2Bytes); l2 && *l2 > 0) {
    p.l2Bytes = l2;
    p.l2PerSecond = *l2 / p.seconds;
    if (l2Roof > 0) p.l2Percent = 100 * *p.l2PerSecond / l2Roof;
  }
  if (!p.dramBytes && !p.l2Bytes) {
    out.missing = BandwidthMissing::NoByteCounters;
    return out;
  }
  out.point = p;
  return out;
}

std::pair<double, double> zoomLogRange(double lo, double hi, double anchor, double factor) {
  const double a = std::log10(anchor), l = std::log10(lo), h = std::log10(hi);
  return {std::pow(10.0, a - (a - l) / factor), std::pow(10.0, a + (h - a) / factor)};
}

std::pair<double, double> panLogRange(double lo, double hi, double fraction) {
  const double shift = (std::log10(hi) - std::log10(lo)) * fraction;
  return {lo * std::pow(10.0, shift), hi * std::pow(10.0, shift)};
}

std::vector<std::pair<double, double>> spreadCoincident(const std::vector<std::pair<double, double>>& pixels,
                                                        double radius) {
  std::vector<std::pair<double, double>> out = pixels;
  constexpr double kGoldenAngle = 2.399963229728653;  // radians: successive points never line up
  std::vector<int> anchorOf(pixels.size(), -1);
  std::vector<int> crowd(pixels.size(), 0);  // points already moved around each anchor
  for (std::size_t i = 0; i < pixels.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (anchorOf[j] >= 0) continue;  // only points that kept their place anchor others
      const double dx = pixels[i].first - pixels[j].first, dy = pixels[i].second - pixels[j].second;
      if (dx * dx + dy * dy > radius * radius) continue;
      anchorOf[i] = static_cast<int>(j);
      const int k = ++crowd[j];
      const double r = radius * std::sqrt(static_cast<double>(k));
      out[i] = {pixels[j].first + r * std::cos(k * kGoldenAngle), pixels[j].second + r * std::sin(k * kGoldenAngle)};
      break;
    }
  }
  return out;
}

std::vector<int> pointsNear(const std::vector<std::pair<double, double>>& pixels, std::pair<double, double> target,
                            double radius) {
  std::vector<std::pair<double, int>> hits;
  for (std::size_t i = 0; i < pixels.size(); ++i) {
    const double dx = pixels[i].first - target.first, dy = pixels[i].second - target.second;
    const double d2 = dx * dx + dy * dy;
    if (d2 <= radius * radius) hits.push_back({d2, static_cast<int>(i)});
  }
  std::stable_sort(hits.begin(), hits.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<int> out;
  out.reserve(hits.size());
  for (const auto& h : hits) out.push_back(h.second);
  return out;
}

}  // namespace crucible::views
