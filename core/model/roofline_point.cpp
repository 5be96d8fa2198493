// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/roofline_point.h"

#include "core/task/task_spec.h"

namespace crucible {

namespace {
std::optional<double> metric(const ProfileMetrics& profile, const char* name) {
  auto it = profile.find(name);
  if (it == profile.end()) return std::nullopt;
  return it->second;
}

std::optional<double> formula(const std::string& expression, const TaskSpec& spec) {
  if (expression.empty()) return std::nullopt;
  return static_cast<double>(evalExpression(expression, spec.axes));
}
}  // namespace

std::optional<double> sassFlops(const ProfileMetrics& profile) {
  const auto add = metric(profile, kSassFadd), mul = metric(profile, kSassFmul), fma = metric(profile, kSassFfma);
  if (!add || !mul || !fma) return std::nullopt;
  return *add + *mul + 2 * *fma;
}

std::optional<double> dramBytes(const ProfileMetrics& profile) {
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

std::optional<double> taskFlops(const TaskSpec& spec) { return formula(spec.flops, spec); }
std::optional<double> taskMinBytes(const TaskSpec& spec) { return formula(spec.minBytes, spec); }

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

TaskRoofline taskRoofline(const TaskSpec& spec, double medianUs, const ProfileMetrics* profile) {
  TaskRoofline r;
  r.flops = taskFlops(spec).value_or(0);
  r.minBytes = taskMinBytes(spec).value_or(0);
  r.seconds = medianUs * 1e-6;
  r.flopsPerSecond = r.flops / r.seconds;
  r.minBytesPerSecond = r.minBytes / r.seconds;
  if (profile) r.dramBytes = dramBytes(*profile);
  if (r.dramBytes) {
    r.dramBytesPerSecond = *r.dramBytes / r.seconds;
    if (*r.dramBytes > 0) r.intensity = r.flops / *r.dramBytes;
  }
  return r;
}

}  // namespace crucible
