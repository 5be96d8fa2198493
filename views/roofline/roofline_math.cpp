// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/roofline/roofline_math.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace crucible::views {

namespace {
std::optional<double> metric(const std::map<std::string, double>& profile, const char* name) {
  auto it = profile.find(name);
  if (it == profile.end()) return std::nullopt;
  return it->second;
}
}  // namespace

std::optional<double> sassFlops(const std::map<std::string, double>& profile) {
  const auto add = metric(profile, kSassFadd), mul = metric(profile, kSassFmul), fma = metric(profile, kSassFfma);
  if (!add || !mul || !fma) return std::nullopt;
  return *add + *mul + 2 * *fma;
}

std::optional<double> dramBytes(const std::map<std::string, double>& profile) {
  const auto r = metric(profile, kDramBytesRead), w = metric(profile, kDramBytesWrite);
  if (!r || !w) return std::nullopt;
  return *r + *w;
}

bool usesTensorCores(const Candidate& c) {
  if (c.compile) {
    for (const auto& [feature, count] : c.compile->features)
      if (count > 0 && (feature.find("mma") != std::string::npos)) return true;  // mma, wgmma, hmma
  }
  for (const auto& [key, value] : c.descriptor) {
    if (key.find("tensor") == std::string::npos && key != "tc") continue;
    if (value != "0" && value != "no" && value != "none" && value != "false" && value != "off") return true;
  }
  return false;
}

RooflineOutcome rooflinePoint(const Candidate& c, std::optional<double> taskFlops) {
  RooflineOutcome out;
  if (!c.timing || c.timing->medianUs <= 0) {
    out.missing = "not timed";
    return out;
  }
  if (c.profile.empty()) {
    out.missing = "not profiled";
    return out;
  }
  const auto bytes = dramBytes(c.profile);
  if (!bytes) {
    out.missing = std::string("profile lacks ") + kDramBytesRead + " or " + kDramBytesWrite;
    return out;
  }
  RooflinePoint p;
  if (usesTensorCores(c)) {
    if (!taskFlops) {
      out.missing = "tensor-core kernel and the task has no usable flops formula";
      return out;
    }
    p.flops = *taskFlops;
    p.flopSource = FlopSource::TaskFormula;
  } else {
    const auto f = sassFlops(c.profile);
    if (!f) {
      out.missing = "profile lacks the SASS fadd/fmul/ffma counters";
      return out;
    }
    p.flops = *f;
  }
  if (p.flops <= 0) {
    out.missing = "no floating-point work counted";
    return out;
  }
  if (*bytes <= 0) {
    out.missing = "no DRAM traffic counted";
    return out;
  }
  p.id = c.id;
  p.generation = c.generation;
  p.dramBytes = *bytes;
  p.seconds = c.timing->medianUs * 1e-6;
  p.intensity = p.flops / p.dramBytes;
  p.flopsPerSecond = p.flops / p.seconds;
  out.point = p;
  return out;
}

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
