// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/engine/comparable_speedup.h"

#include <cmath>

namespace crucible {
namespace {

bool positive(double v) { return std::isfinite(v) && v > 0; }

}  // namespace

ComparedSpeedup comparableSpeedup(const Timing& timing, double referenceMedianUs, const Fingerprint& referenceDevice) {
  ComparedSpeedup out;
  if (!positive(timing.medianUs)) return out;
  // The worker's own ratio, or its interleaved reference median: one process, one GPU.
  if (positive(timing.speedup)) {
    out.speedup = timing.speedup;
    out.interleaved = true;
    return out;
  }
  if (positive(timing.referenceMedianUs)) {
    out.speedup = timing.referenceMedianUs / timing.medianUs;
    out.interleaved = true;
    return out;
  }
  if (!positive(referenceMedianUs)) return out;
  if (auto why = hardwareDifference(timing.device, referenceDevice, "timed", "the run's reference")) {
    out.refusal = "no speedup: " + *why + "; a speedup never compares timings from different hardware";
    return out;
  }
  out.speedup = referenceMedianUs / timing.medianUs;
  return out;
}

std::optional<std::string> referenceHardwareNote(const Timing& reference, const Fingerprint& here) {
  if (!recorded(reference.device) || !recorded(here)) return std::nullopt;
  auto why = hardwareDifference(here, reference.device, "this session evaluates", "the run's reference was timed");
  if (!why) return std::nullopt;
  return *why + ". Speedups come only from the reference timed interleaved with each candidate, on the "
                "candidate's own GPU; the stored reference time is not compared.";
}

}  // namespace crucible
