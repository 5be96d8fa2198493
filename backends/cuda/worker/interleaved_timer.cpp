// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/worker/interleaved_timer.h"
#include <algorithm>
#include <chrono>
#include "backends/cuda/worker/driver_api.h"

namespace crucible::cuda {
namespace {
using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

double quantile(std::vector<double>& v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double pos = q * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(pos);
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (pos - static_cast<double>(lo)) * (v[hi] - v[lo]);
}
}  // namespace

double median(std::vector<double> v) { return quantile(v, 0.5); }

bool enoughSamples(int pairs, double elapsed, const TimingOptions& o) {
  if (pairs >= o.minSamples && elapsed >= o.targetSeconds) return true;
  if (elapsed >= o.slowSeconds && pairs >= o.slowMinSamples) return true;
  return elapsed >= o.maxSeconds && pairs >= std::min(o.minSamples, 5);
}
double interquartileRange(std::vector<double> v) { return quantile(v, 0.75) - quantile(v, 0.25); }

L2Flusher::L2Flusher(const DeviceInfo& device) : buffer_(2 * static_cast<std::size_t>(std::max(device.l2Bytes, 1 << 20))) {}

void L2Flusher::flush(CUstream stream) {
  // A new value each time, so no layer can treat the write as redundant.
  check(driver().cuMemsetD8Async(buffer_.get(), ++value_, buffer_.size(), stream), "flushing L2");
}

Timing timeInterleaved(GpuContext& gpu, L2Flusher& flusher, const NvmlClocks& clocks,
                       const std::function<void()>& candidate, const std::function<void()>& reference,
                       const std::function<void()>& finish, const TimingOptions& o, const TimingHooks& hooks) {
  const bool hasReference = static_cast<bool>(reference);
  auto prepare = [&](int pair) {
    if (hooks.beforeCandidate) hooks.beforeCandidate(pair);
  };
  CUstream s = gpu.stream();

  // Warm-up: both kernels, flushed, until the SM clock has left idle.
  const auto warmStart = Clock::now();
  const double maxClock = clocks.maxSmClockMHz();
  for (;;) {
    prepare(-1);
    flusher.flush(s);
    candidate();
    if (hasReference) {
      flusher.flush(s);
      reference();
    }
    finish();
    const double t = secondsSince(warmStart);
    if (!clocks.available() || maxClock <= 0) {
      if (t >= o.idleFallbackSeconds) break;
      continue;
    }
    if (t >= o.warmupMaxSeconds) break;
    if (t >= o.warmupMinSeconds && clocks.smClockMHz() >= o.clockReadyFraction * maxClock) break;
  }

  EventPair candEvents, refEvents;
  Timing timing;
  std::vector<double> refSamples, clockReadings;
  const auto start = Clock::now();
  for (int pair = 0; pair < o.maxSamples; ++pair) {
    auto timeOne = [&](EventPair& ev, const std::function<void()>& launch) {
      if (&launch == &candidate) prepare(pair);
      flusher.flush(s);
      ev.recordStart(s);
      launch();
      ev.recordStop(s);
    };
    // Alternate which kernel goes first, so neither always follows the other.
    const bool candidateFirst = (pair % 2 == 0) || !hasReference;
    if (candidateFirst) timeOne(candEvents, candidate);
    if (hasReference) timeOne(refEvents, reference);
    if (!candidateFirst) timeOne(candEvents, candidate);
    finish();
    timing.samplesUs.push_back(candEvents.elapsedMs() * 1000.0);
    if (hasReference) refSamples.push_back(refEvents.elapsedMs() * 1000.0);
    if (pair % 16 == 0 && clocks.available()) clockReadings.push_back(clocks.smClockMHz());

    const bool last = enoughSamples(pair + 1, secondsSince(start), o) || pair + 1 == o.maxSamples;
    if (hooks.afterPair) hooks.afterPair(pair, last);
    if (last) break;
  }
  timing.medianUs = median(timing.samplesUs);
  timing.iqrUs = interquartileRange(timing.samplesUs);
  if (hasReference) {
    timing.referenceMedianUs = median(refSamples);
    timing.referenceIqrUs = interquartileRange(refSamples);
    if (timing.medianUs > 0) timing.speedup = timing.referenceMedianUs / timing.medianUs;
  }
  timing.smClockMHz = median(clockReadings);
  return timing;
}

}  // namespace crucible::cuda
