// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/engine/phase_times.h"

#include <algorithm>
#include <cstdio>

namespace crucible {

double PhaseTimes::gpuIdleShare() const {
  const double held = wallSeconds * std::max(evaluators, 0);
  if (held <= 0) return 0;
  return std::clamp(1.0 - busySeconds() / held, 0.0, 1.0);
}

double PhaseTimes::evaluationsPerWallMinute() const {
  return wallSeconds > 0 ? 60.0 * static_cast<double>(evaluations) / wallSeconds : 0;
}

double PhaseTimes::evaluationsPerGpuMinute() const {
  return gpuSeconds > 0 ? 60.0 * static_cast<double>(evaluations) / gpuSeconds : 0;
}

PhaseTimes& PhaseTimes::operator+=(const PhaseTimes& o) {
  wallSeconds += o.wallSeconds;
  evaluators = std::max(evaluators, o.evaluators);
  evaluations += o.evaluations;
  proposeSeconds += o.proposeSeconds;
  commitSeconds += o.commitSeconds;
  compileSeconds += o.compileSeconds;
  waitCompileSeconds += o.waitCompileSeconds;
  waitWorkSeconds += o.waitWorkSeconds;
  evaluateSeconds += o.evaluateSeconds;
  validateSeconds += o.validateSeconds;
  timeSeconds += o.timeSeconds;
  gpuSeconds += o.gpuSeconds;
  profileSeconds += o.profileSeconds;
  profiles += o.profiles;
  extendedSeconds += o.extendedSeconds;
  sanitizeSeconds += o.sanitizeSeconds;
  return *this;
}

std::string describe(const PhaseTimes& t) {
  char text[1024];
  std::snprintf(text, sizeof text,
                "pipeline: %lld evaluations in %.1f s wall on %d evaluator(s) (%.1f/wall-min, %.1f/GPU-min); "
                "propose %.2f s, compile %.2f s (threads' sum), wait for compile %.2f s, wait for work %.2f s, "
                "evaluate %.2f s (validate %.2f s, time %.2f s, GPU %.2f s), profile %.2f s (%d), "
                "extended %.2f s, sanitize %.2f s, commit %.2f s; GPU idle %.1f%%",
                t.evaluations, t.wallSeconds, t.evaluators, t.evaluationsPerWallMinute(), t.evaluationsPerGpuMinute(),
                t.proposeSeconds, t.compileSeconds, t.waitCompileSeconds, t.waitWorkSeconds, t.evaluateSeconds,
                t.validateSeconds, t.timeSeconds, t.gpuSeconds, t.profileSeconds, t.profiles, t.extendedSeconds,
                t.sanitizeSeconds, t.commitSeconds, 100.0 * t.gpuIdleShare());
  return text;
}

}  // namespace crucible
