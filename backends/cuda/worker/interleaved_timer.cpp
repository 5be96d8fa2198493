// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/worker/interleaved_timer.h"
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include "backends/cuda/worker/driver_api.h"
#include "backends/cuda/worker/harness_kernels.h"

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

int precisionMinSamples(int pairs, double elapsed, const TimingOptions& o) {
  const bool slowPairs = pairs > 0 && elapsed / pairs >= o.slowPairSeconds;
  return slowPairs ? std::min(o.slowMinSamples, o.minSamples) : o.minSamples;
}

bool enoughSamples(int pairs, double elapsed, double precision, const TimingOptions& o) {
  if (pairs >= precisionMinSamples(pairs, elapsed, o) && precision <= o.precisionTarget) return true;
  if (pairs >= o.minSamples && elapsed >= o.targetSeconds) return true;
  if (elapsed >= o.slowSeconds && pairs >= o.slowMinSamples) return true;
  return elapsed >= o.maxSeconds && pairs >= std::min(o.minSamples, 5);
}
double interquartileRange(std::vector<double> v) { return quantile(v, 0.75) - quantile(v, 0.25); }

double medianRelativeHalfWidth(std::vector<double> v) {
  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  if (v.size() < 8) return kInfinity;
  std::sort(v.begin(), v.end());
  const double n = static_cast<double>(v.size());
  // The rank of the median is Binomial(n, 1/2): 1.96 standard deviations
  // (sqrt(n) / 2 each) either side of n / 2.
  const double reach = 0.98 * std::sqrt(n);
  const auto lo = static_cast<std::size_t>(std::max(0.0, std::floor(n / 2 - reach)));
  const auto hi = static_cast<std::size_t>(std::min(n - 1, std::ceil(n / 2 + reach)));
  const double mid = quantile(v, 0.5);
  if (!(mid > 0)) return kInfinity;
  return (v[hi] - v[lo]) / 2 / mid;
}

double speedupPrecision(const std::vector<double>& candidate, const std::vector<double>& reference) {
  const double c = medianRelativeHalfWidth(candidate);
  if (reference.empty()) return c;
  const double r = medianRelativeHalfWidth(reference);
  return std::sqrt(c * c + r * r);
}

L2Flusher::L2Flusher(const DeviceInfo& device, const HarnessKernels& harness)
    : buffer_(DeviceBuffer::wholePages(2 * static_cast<std::size_t>(std::max(device.l2Bytes, 1 << 20)))),
      written_(DeviceBuffer::wholePages(sizeof(std::uint32_t))),
      harness_(harness), smCount_(device.smCount) {
  // Zeroed once (and so backed by memory); the flush only reads it.
  check(driver().cuMemsetD8(buffer_.get(), 0, bytes()), "clearing the L2 flush buffer");
  check(driver().cuMemsetD8(written_.get(), 0, written_.size()), "clearing the L2 flush buffer's flag");
}

void L2Flusher::flush(CUstream stream) {
  harness_.readThrough(buffer_.get(), bytes(), smCount_, stream, written_.get());
}

void L2Flusher::reset(CUstream stream) {
  check(driver().cuMemsetD8Async(buffer_.get(), 0, bytes(), stream), "clearing the L2 flush buffer");
  check(driver().cuMemsetD8Async(written_.get(), 0, written_.size(), stream), "clearing the L2 flush buffer's flag");
}

bool L2Flusher::foundWrites() {
  std::uint32_t flag = 0;
  check(driver().cuMemcpyDtoH(&flag, written_.get(), sizeof flag), "reading the L2 flush buffer's flag");
  return flag != 0;
}

Timing timeInterleaved(GpuContext& gpu, L2Flusher& flusher, const NvmlClocks& clocks,
                       const std::function<void()>& candidate, const std::function<void()>& reference,
                       const std::function<void()>& finish, const TimingOptions& o, const TimingHooks& hooks) {
  const bool hasReference = static_cast<bool>(reference);
  auto prepare = [&](int pair) {
    if (hooks.beforeCandidate) hooks.beforeCandidate(pair);
  };
  auto prepareReference = [&] {
    if (hooks.beforeReference) hooks.beforeReference();
  };
  CUstream s = gpu.stream();
  // Whatever runs before a launch of either kernel, then the flush.
  auto clear = [&] {
    if (hooks.beforeEachLaunch) hooks.beforeEachLaunch();
    flusher.flush(s);
  };

  // Warm-up: both kernels, flushed, until the SM clock has left idle.
  const auto warmStart = Clock::now();
  const double maxClock = clocks.maxSmClockMHz();
  for (;;) {
    prepare(-1);
    clear();
    candidate();
    if (hasReference) {
      prepareReference();
      clear();
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
  // The checks after a pair (an oracle run each, tens of ms on a large task)
  // are not sampling: left out of the time the stop rule counts, or they
  // would end a noisy pair's sampling early and make fast pairs look slow.
  double checkSeconds = 0;
  for (int pair = 0; pair < o.maxSamples; ++pair) {
    auto timeOne = [&](EventPair& ev, const std::function<void()>& launch) {
      if (&launch == &candidate)
        prepare(pair);
      else
        prepareReference();
      clear();
      ev.recordStart(s);
      launch();
      ev.recordStop(s);
    };
    // Alternate which kernel goes first, so neither always follows the other.
    const bool candidateFirst = (pair % 2 == 0) || !hasReference;
    if (candidateFirst) timeOne(candEvents, candidate);
    if (candidateFirst && hasReference && hooks.betweenCandidateAndReference) hooks.betweenCandidateAndReference();
    if (hasReference) timeOne(refEvents, reference);
    if (!candidateFirst) timeOne(candEvents, candidate);
    finish();
    timing.samplesUs.push_back(candEvents.elapsedMs() * 1000.0);
    if (hasReference) refSamples.push_back(refEvents.elapsedMs() * 1000.0);
    if (pair % 16 == 0 && clocks.available()) clockReadings.push_back(clocks.smClockMHz());

    // The precision needs a sort of both sample sets: every 4th pair is often
    // enough, every pair when pairs are slow (the sort is then negligible).
    const int pairs = pair + 1;
    const double elapsed = secondsSince(start) - checkSeconds;
    const bool slowPairs = elapsed / pairs >= o.slowPairSeconds;
    const double precision = (pairs >= precisionMinSamples(pairs, elapsed, o) && (slowPairs || pairs % 4 == 0))
                                 ? speedupPrecision(timing.samplesUs, refSamples)
                                 : std::numeric_limits<double>::infinity();
    const bool last = enoughSamples(pairs, elapsed, precision, o) || pairs == o.maxSamples;
    if (hooks.afterPair) {
      const auto checkStart = Clock::now();
      hooks.afterPair(pair, last);
      checkSeconds += secondsSince(checkStart);
    }
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
